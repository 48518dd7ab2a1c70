! tests/consumer/hello_f08.f90: a `use mpi_f08` program built against an installed mpiattr
! (tests/consumer/run.sh). A value cached on a communicator is copied to its duplicate.
program hello_f08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: dup
  integer :: key
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  call MPI_Init()
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra)
  val = 42
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  val = 0
  call MPI_Comm_get_attr(dup, key, val, flag)
  if (.not. flag .or. val /= 42) then
    print '(a)', 'hello_f08.f90: the attribute was not copied'
    stop 1
  end if
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(key)
  call MPI_Finalize()
  print '(a)', 'fortran (use mpi_f08): ok'
end program hello_f08
