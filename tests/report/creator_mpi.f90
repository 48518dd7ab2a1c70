! MPIATTR_REPORT names the routine that created each keyval: `use mpi` (report_check.py).
program creator_mpi
  use mpi
  implicit none
  integer :: ierr, key
  call MPI_INIT(ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, 0_MPI_ADDRESS_KIND, ierr)  ! D60: keyval
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, key, 7_MPI_ADDRESS_KIND, ierr)  ! D60: set
  call MPI_FINALIZE(ierr)
end program creator_mpi
