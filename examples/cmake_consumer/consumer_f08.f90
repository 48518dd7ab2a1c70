! consumer_f08.f90: the Fortran program of the CMake-consumer example (target mpiattr::fortran,
! `use mpi_f08`). It caches a value on MPI_COMM_WORLD, checks that a duplicate has it too, and
! stops with 1 if that does not work.
program consumer_f08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: dup
  integer :: key
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: found
  call MPI_Init()
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra)
  val = 42
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  val = 0
  call MPI_Comm_get_attr(dup, key, val, found)
  print '(a,l1,a,i0)', 'consumer_f08: found=', found, ' value=', val
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(key)
  call MPI_Finalize()
  if (.not. found .or. val /= 42) stop 1
end program consumer_f08
