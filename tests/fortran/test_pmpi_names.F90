! The Fortran profiling names (MPI-4.1 §16.2) are the same routines as the MPI names: through
! `use mpi` (PMPI_COMM_CREATE_KEYVAL, ...; any mangling; the functions PMPI_WTIME, ... typed, D141) and `use mpi_f08` (the generic
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
  double precision :: t0, t1, w0, w1
#ifndef MPIATTR_PEER_MPICH
  integer(kind=ak) :: a0, a1
#endif

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
  ! The functions' profiling names are declared by the module, with their types (D141).
  t0 = PMPI_WTIME()
  t1 = MPI_WTIME()
  w0 = PMPI_WTICK()
  w1 = MPI_WTICK()
  call expect_l('D141 PMPI_WTIME, PMPI_WTICK are DOUBLE PRECISION functions', &
                t1 >= t0 .and. t1 - t0 < 1.0d0 .and. .not. (w0 < w1 .or. w0 > w1), .true.)
#ifndef MPIATTR_PEER_MPICH
  ! (MPICH 4.0's mpi module declares MPI_AINT_ADD and MPI_AINT_DIFF but not their profiling names;
  ! Open MPI's declares both, as mpiattr does: tests/fortran/divergences.toml.)
  a0 = PMPI_AINT_ADD(2_ak**40, 3_ak)
  a1 = PMPI_AINT_DIFF(5_ak, 2_ak)
  call expect_l('D141 PMPI_AINT_ADD, PMPI_AINT_DIFF', a0 == 2_ak**40 + 3 .and. a1 == 3_ak, .true.)
#else
  print '(a)', 'D141 PMPI_AINT_ADD, PMPI_AINT_DIFF: not built for this peer'
#endif
  call MPI_COMM_FREE(comm, ierr)
  call PMPI_COMM_FREE_KEYVAL(key, ierr)
  call expect_l('PMPI_COMM_FREE_KEYVAL frees', key == MPI_KEYVAL_INVALID, .true.)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_pmpi_names
