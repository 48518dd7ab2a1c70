! D58: the MPI-1 routines MPI-3.0 removed through `use mpi` (MPI-2.2's bindings: INTEGER
! displacements, extents and addresses), and a legacy buffer argument given a scalar and an array
! in one file. An extent that does not fit in a default INTEGER is MPI_ERR_VALUE_TOO_LARGE (the
! peers truncate it: that line states mpiattr's answer for them, not compared).
program d58_use_mpi
  use mpi
  use ftest
  implicit none
  integer :: ierr, t, ext, lb, ub, hv, big, cls, eh, got, n
  integer :: bl(3), disp(3), types(3)
  integer :: a1, a2
  double precision :: x, y(4)
  integer(kind=MPI_ADDRESS_KIND) :: ga1, ga2
  call MPI_Init(ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  bl = 1
  disp = (/ 0, 8, 32 /)
  types = (/ MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_UB /)
  call MPI_Type_struct(3, bl, disp, types, t, ierr)
  call expect_i('D58 use mpi type_struct ierror', ierr, MPI_SUCCESS)
  call MPI_Type_lb(t, lb, ierr)
  call MPI_Type_ub(t, ub, ierr)
  call MPI_Type_extent(t, ext, ierr)
  call expect_i('D58 use mpi struct UB lb', lb, 0)
  call expect_i('D58 use mpi struct UB ub', ub, 32)
  call expect_i('D58 use mpi struct UB extent', ext, 32)
  call MPI_Type_free(t, ierr)
  ! MPI_LB alone: the upper bound is the data's, padded to the double's alignment (MPI-2.2
  ! §4.1.6: the epsilon goes where no MPI_UB sets the upper bound).
  types = (/ MPI_LB, MPI_DOUBLE_PRECISION, MPI_INTEGER /)
  disp = (/ -8, 0, 8 /)
  call MPI_Type_struct(3, bl, disp, types, t, ierr)
  call MPI_Type_lb(t, lb, ierr)
  call MPI_Type_extent(t, ext, ierr)
  call expect_i('D58 use mpi struct LB lb', lb, -8)
  call expect_i('D58 use mpi struct LB extent', ext, 24)
  call MPI_Type_free(t, ierr)
  ! The same buffer argument with a scalar and with an array (legal with mpif.h's implicit
  ! interfaces, and with `use mpi`'s choice buffers)
#if defined(MPIATTR_PEER_OPENMPI)
  ! (Open MPI's `use mpi` has no interface for MPI_ADDRESS: a scalar and an array there are a
  ! "Rank mismatch" for gfortran without -fallow-argument-mismatch, which mpifort.openmpi lacks.)
  call MPI_Address(x, a1, ierr)
  call MPI_Address(y(1), a2, ierr)
  call MPI_Get_address(x, ga1, ierr)
  call MPI_Get_address(y(1), ga2, ierr)
#else
  call MPI_Address(x, a1, ierr)
  call MPI_Address(y, a2, ierr)
  call MPI_Get_address(x, ga1, ierr)
  call MPI_Get_address(y, ga2, ierr)
#endif
  call expect_l('D58 use mpi address differences agree', int(ga2 - ga1) == a2 - a1, .true.)
  ! An extent no default INTEGER holds
  call MPI_Type_hvector(2, 1, huge(1), MPI_INTEGER, hv, ierr)
  call expect_i('D58 use mpi hvector with a huge stride', ierr, MPI_SUCCESS)
#if defined(MPIATTR_PEER_MPICH) || defined(MPIATTR_PEER_OPENMPI)
  call expect_l('D58 use mpi type_extent too large: MPI_ERR_VALUE_TOO_LARGE', .true., .true.)
#else
  big = -1
  call MPI_Type_extent(hv, big, ierr)
  call MPI_Error_class(ierr, cls, n)
  call expect_l('D58 use mpi type_extent too large: MPI_ERR_VALUE_TOO_LARGE', &
                cls == MPI_ERR_VALUE_TOO_LARGE, .true.)
#endif
  call MPI_Type_free(hv, ierr)
  call MPI_Errhandler_get(MPI_COMM_WORLD, got, ierr)
  call expect_l('D58 use mpi errhandler_get', got == MPI_ERRORS_RETURN, .true.)
  call MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
  call expect_l('D58 use mpi errhandler_set', eh == MPI_ERRORS_ARE_FATAL, .true.)
  call MPI_Finalize(ierr)
  call ftest_finish()
end program d58_use_mpi
