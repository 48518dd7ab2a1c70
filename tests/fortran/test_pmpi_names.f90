! The Fortran profiling names (MPI-4.1 §16.2) are the same routines as the MPI names: through
! `use mpi` (PMPI_COMM_CREATE_KEYVAL, ...; any mangling) and `use mpi_f08` (the generic
! PMPI_Comm_set_attr, specific PMPI_Comm_set_attr_f08). Standalone only: over a host MPI the PMPI
! names are the host's (docs/host.md), so this program has no host-mode differential run.
module f08_profiled
  use mpi_f08
  implicit none
  private
  public :: f08_set_through_pmpi
contains
  subroutine f08_set_through_pmpi(commval, key, v)
    integer, intent(in) :: commval, key
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: v
    type(MPI_Comm) :: comm
    comm%MPI_VAL = commval
    call PMPI_Comm_set_attr(comm, key, v)
  end subroutine f08_set_through_pmpi
end module f08_profiled

program test_pmpi_names
  use mpi
  use f08_profiled
  use ftest
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, comm, key
  integer(kind=ak) :: val
  logical :: flag

  call MPI_INIT(ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call PMPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, 0_ak, ierr)
  call expect_i('PMPI_COMM_CREATE_KEYVAL, ierror', ierr, MPI_SUCCESS)
  call PMPI_COMM_SET_ATTR(comm, key, 42_ak, ierr)
  call MPI_COMM_GET_ATTR(comm, key, val, flag, ierr)
  call expect_l('PMPI_COMM_SET_ATTR sets what MPI_COMM_GET_ATTR reads', flag .and. val == 42_ak, .true.)
  call f08_set_through_pmpi(comm, key, 43_ak)
  call MPI_COMM_GET_ATTR(comm, key, val, flag, ierr)
  call expect_l('PMPI_Comm_set_attr (mpi_f08) sets what MPI_COMM_GET_ATTR reads', flag .and. val == 43_ak, .true.)
  call MPI_COMM_FREE(comm, ierr)
  call PMPI_COMM_FREE_KEYVAL(key, ierr)
  call expect_l('PMPI_COMM_FREE_KEYVAL frees', key == MPI_KEYVAL_INVALID, .true.)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_pmpi_names
