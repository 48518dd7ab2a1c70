! tests/cxx/programs/c2_state_any_language.f90: the Fortran half of c2_state_any_language.cc. Sets
! an attribute under a keyval the C++ program created, through the mpi module (docs/cxx.md C2).
subroutine fortran_set_attr(comm, key, value) bind(C, name="fortran_set_attr")
  use, intrinsic :: iso_c_binding, only: c_int, c_intptr_t
  use mpi
  implicit none
  integer(c_int), value :: comm, key
  integer(c_intptr_t), value :: value  ! MPI_ADDRESS_KIND, spelled as C interoperable
  integer :: ierr
  call MPI_COMM_SET_ATTR(comm, key, value, ierr)
  if (ierr /= MPI_SUCCESS) error stop "MPI_COMM_SET_ATTR under a C++ keyval failed"
end subroutine fortran_set_attr
