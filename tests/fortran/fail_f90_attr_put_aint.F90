! Must NOT compile: the MPI-1 MPI_ATTR_PUT takes an INTEGER value (R7.1, R12.2), so an
! INTEGER(KIND=MPI_ADDRESS_KIND) is rejected through `use mpi`. With -DRIGHT_KIND it compiles.
program fail_f90_attr_put_aint
  use mpi
  implicit none
  integer :: ierr, key
#ifdef RIGHT_KIND
  integer :: val
#else
  integer(kind=MPI_ADDRESS_KIND) :: val
#endif
  key = MPI_KEYVAL_INVALID
  val = 1
  call MPI_ATTR_PUT(MPI_COMM_WORLD, key, val, ierr)
end program fail_f90_attr_put_aint
