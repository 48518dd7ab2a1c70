! MPIATTR_REPORT names the routine that created each keyval: `use mpi_f08` (report_check.py).
program creator_f08
  use mpi_f08
  implicit none
  integer :: key
  type(MPI_Datatype) :: t
  call MPI_Init()
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, key, 0_MPI_ADDRESS_KIND)  ! D60: keyval
  call MPI_Type_dup(MPI_INTEGER, t)  ! D60: dup
  call MPI_Type_set_attr(t, key, -5_MPI_ADDRESS_KIND)  ! D60: set
  call MPI_Finalize()
end program creator_f08
