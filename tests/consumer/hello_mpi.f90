! tests/consumer/hello_mpi.f90: a `use mpi` program built against an installed mpiattr
! (tests/consumer/run.sh). A value cached on a communicator is copied to its duplicate.
program hello_mpi
  use mpi
  implicit none
  integer :: key, dup, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  call MPI_Init(ierr)
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  val = 42
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  val = 0
  call MPI_Comm_get_attr(dup, key, val, flag, ierr)
  if (.not. flag .or. val /= 42) then
    print '(a)', 'hello_mpi.f90: the attribute was not copied'
    stop 1
  end if
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Finalize(ierr)
  print '(a)', 'fortran (use mpi): ok'
end program hello_mpi
