! test_D51_fortran_only_routines.F90 through `use mpi_f08` (MPI-4.1 §19.1.9, §19.1.17, §19.3.5):
! MPI_Sizeof of every type and kind its generic interface has, scalar and arrays of several
! ranks (x is assumed rank), equal to STORAGE_SIZE / 8, with and without ierror;
! MPI_F_sync_reg on buffers of several ranks, left as they are; MPI_Status_f082f then
! MPI_Status_f2f08, which keep SOURCE, TAG, ERROR and the count MPI_Status_set_elements stored.
! Under MPIATTR_PEER_OPENMPI (fdiffrun.py) the status conversions are left out: Open MPI 4.1's
! mpi_f08 declares them but its library does not define them (divergences.toml).
program test_D51_fortran_only_routines_f08
  use mpi_f08
  use ftest
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64, real128
  implicit none
  integer(kind=int8) :: i1(2, 2)
  integer(kind=int16) :: i2
  integer(kind=int32) :: i4v(3)
  integer(kind=int64) :: i8(2, 2, 2)
  real(kind=real32) :: r4
  real(kind=real64) :: r8v(4)
  real(kind=real128) :: r16
  complex(kind=real32) :: c4
  complex(kind=real64) :: c8(2)
  complex(kind=real128) :: c16
  logical :: l
  character(len=7) :: ch(2)
  character(len=1) :: c1
  integer :: s, ierr
  logical :: ok
  character(len=*), parameter :: STATUS_ROUND_TRIP = &
    'Status_f082f then Status_f2f08 keep SOURCE, TAG, ERROR and the count of Status_set_elements'
#ifndef MPIATTR_PEER_OPENMPI
  type(MPI_Status) :: st, back
  integer :: fst(MPI_STATUS_SIZE), count
#endif

  call MPI_Init()

  ! ---- MPI_Sizeof ----
  call MPI_Sizeof(i1, s, ierr)
  call expect_i('SIZEOF INTEGER(INT8) rank 2, ierror', ierr, MPI_SUCCESS)
  call expect_i('SIZEOF INTEGER(INT8) rank 2', s, storage_size(i1) / 8)
  call MPI_Sizeof(i2, s)
  call expect_i('SIZEOF INTEGER(INT16) without ierror', s, storage_size(i2) / 8)
  call MPI_Sizeof(i4v, s)
  call expect_i('SIZEOF INTEGER(INT32) array', s, storage_size(i4v) / 8)
  call MPI_Sizeof(i8, s)
  call expect_i('SIZEOF INTEGER(INT64) rank 3', s, storage_size(i8) / 8)
  call MPI_Sizeof(r4, s)
  call expect_i('SIZEOF REAL(REAL32)', s, storage_size(r4) / 8)
  call MPI_Sizeof(r8v, s)
  call expect_i('SIZEOF REAL(REAL64) array', s, storage_size(r8v) / 8)
  call MPI_Sizeof(r16, s)
  call expect_i('SIZEOF REAL(REAL128)', s, storage_size(r16) / 8)
  call MPI_Sizeof(c4, s)
  call expect_i('SIZEOF COMPLEX(REAL32)', s, storage_size(c4) / 8)
  call MPI_Sizeof(c8, s)
  call expect_i('SIZEOF COMPLEX(REAL64) array', s, storage_size(c8) / 8)
  call MPI_Sizeof(c16, s)
  call expect_i('SIZEOF COMPLEX(REAL128)', s, storage_size(c16) / 8)
  call MPI_Sizeof(l, s)
  call expect_i('SIZEOF LOGICAL', s, storage_size(l) / 8)
  ! CHARACTER: the size of one character, whatever the length (D51)
  call MPI_Sizeof(ch, s)
  call expect_i('SIZEOF CHARACTER(LEN=7) array, one character', s, storage_size(c1) / 8)

  ! ---- MPI_F_sync_reg: any buffer, left as it is ----
  i8 = 4_int64
  i4v = [11, -3, 0]
  i2 = -9
  call MPI_F_sync_reg(i8)
  call MPI_F_sync_reg(i4v)
  call MPI_F_sync_reg(i2)
  call expect_l('F_sync_reg leaves a rank-3 array as it is', all(i8 == 4_int64), .true.)
  call expect_l('F_sync_reg leaves an array as it is', all(i4v == [11, -3, 0]), .true.)
  call expect_i('F_sync_reg leaves a scalar as it is', int(i2), -9)

  ! ---- MPI_Status_f082f and MPI_Status_f2f08 ----
  ! (one line, for Open MPI lacks them)
#ifndef MPIATTR_PEER_OPENMPI
  st%MPI_SOURCE = 5
  st%MPI_TAG = 17
  st%MPI_ERROR = MPI_ERR_OTHER
  call MPI_Status_set_elements(st, MPI_INTEGER, 6, ierr)
  ok = ierr == MPI_SUCCESS
  fst = -1
  call MPI_Status_f082f(st, fst, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. fst(MPI_SOURCE) == 5 .and. fst(MPI_TAG) == 17 &
       .and. fst(MPI_ERROR) == MPI_ERR_OTHER
  call MPI_Status_f2f08(fst, back)
  ok = ok .and. back%MPI_SOURCE == 5 .and. back%MPI_TAG == 17 .and. back%MPI_ERROR == MPI_ERR_OTHER
  call MPI_Get_count(back, MPI_INTEGER, count, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. count == 6
  call MPI_Get_elements(back, MPI_INTEGER, count, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. count == 6
  call expect_l(STATUS_ROUND_TRIP, ok, .true.)
#else
  print '(a)', STATUS_ROUND_TRIP // ': not built for this peer'
#endif

  call MPI_Finalize()
  call ftest_finish()
end program test_D51_fortran_only_routines_f08
