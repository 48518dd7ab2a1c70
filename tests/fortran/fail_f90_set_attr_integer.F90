! Must NOT compile (tests/fortran/CMakeLists.txt: f90_compile_fail_set_attr_integer): through
! `use mpi`, MPI_COMM_SET_ATTR's attribute_val is INTEGER(KIND=MPI_ADDRESS_KIND), and an INTEGER
! is rejected. The same program with the right kind compiles (f90_compile_ok_set_attr_aint, built
! with -DRIGHT_KIND), so the failure is the argument's type and nothing else.
program fail_f90_set_attr_integer
  use mpi
  implicit none
  integer :: ierr, key
#ifdef RIGHT_KIND
  integer(kind=MPI_ADDRESS_KIND) :: val
#else
  integer :: val
#endif
  key = MPI_KEYVAL_INVALID
  val = 1
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, key, val, ierr)
end program fail_f90_set_attr_integer
