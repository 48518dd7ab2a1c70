! Must NOT compile (tests/fortran/CMakeLists.txt: fortran_compile_fail_f08_set_attr_integer):
! through `use mpi_f08`, MPI_Comm_set_attr's attribute_val is INTEGER(KIND=MPI_ADDRESS_KIND), so
! a default INTEGER matches no specific procedure of the generic. The same program with the right
! kind compiles (fortran_compile_ok_f08_set_attr_integer, built with -DRIGHT_KIND), so the
! failure is the argument's type and nothing else. ierror is left out: it is optional.
program fail_f08_set_attr_integer
  use mpi_f08
  implicit none
  integer :: key
#ifdef RIGHT_KIND
  integer(kind=MPI_ADDRESS_KIND) :: val
#else
  integer :: val
#endif
  key = MPI_KEYVAL_INVALID
  val = 1
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val)
end program fail_f08_set_attr_integer
