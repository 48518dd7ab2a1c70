! D51 through `use mpi`: the routines of the Fortran bindings only (spec/fortran.toml) and the
! conversions between the two Fortran statuses.
!  - MPI_SIZEOF (MPI-4.1 §19.1.9): the size of one element of its argument, for every intrinsic
!    type and kind the generic interface has, scalar and array, equal to STORAGE_SIZE / 8;
!  - MPI_F_SYNC_REG (§19.1.17): accepts any buffer and changes nothing in it (MPI_F_SYNC_REG(BUF):
!    no IERROR);
!  - MPI_STATUS_F2F08 then MPI_STATUS_F082F (§19.3.5) with the mpi module's TYPE(MPI_Status): SOURCE,
!    TAG, ERROR and the count MPI_STATUS_SET_ELEMENTS stored survive the round trip.
! fdiffrun.py defines MPIATTR_PEER_MPICH or MPIATTR_PEER_OPENMPI when it builds this program for a
! peer: what a peer's mpi module lacks (it does not compile or link) is left out there, and the
! line says so (tests/fortran/divergences.toml).
program test_D51_fortran_only_routines
  use mpi
  use ftest
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64, real128
  implicit none
  integer(kind=int8) :: i1, i1v(3)
  integer(kind=int16) :: i2
  integer(kind=int32) :: i4v(2)
  integer(kind=int64) :: i8
  real(kind=real32) :: r4
  real(kind=real64) :: r8v(4)
  complex(kind=real32) :: c4
  logical :: l, lv(2)
  character(len=5) :: ch
  character(len=1) :: c1
  integer :: s, ierr
  logical :: ok
  character(len=*), parameter :: SIZEOF_MORE = &
    'SIZEOF of INTEGER(INT64) rank 2, REAL(REAL64) rank 3, REAL(REAL128), COMPLEX(REAL64), &
    &COMPLEX(REAL128) is STORAGE_SIZE / 8'
  character(len=*), parameter :: SYNC_REG = 'F_SYNC_REG leaves an array and a scalar as they are'
  character(len=*), parameter :: STATUS_ROUND_TRIP = &
    'STATUS_F2F08 then STATUS_F082F keep SOURCE, TAG, ERROR and the count of STATUS_SET_ELEMENTS'
  character(len=*), parameter :: STATUS_IGNORE_REFUSED = &
    'STATUS_F2F08 of MPI_STATUS_IGNORE is MPI_ERR_ARG and leaves the TYPE(MPI_Status) as it was'
#ifndef MPIATTR_PEER_MPICH
  integer(kind=int64) :: i8m(2, 3)
  real(kind=real64) :: r8m(2, 2, 2)
  real(kind=real128) :: r16
  complex(kind=real64) :: c8
  complex(kind=real128) :: c16
#endif
#if !defined(MPIATTR_PEER_MPICH) && !defined(MPIATTR_PEER_OPENMPI)
  integer :: st(MPI_STATUS_SIZE), back(MPI_STATUS_SIZE), count
  type(MPI_Status) :: f08
#endif

  call MPI_INIT(ierr)

  ! ---- MPI_SIZEOF ----
  call MPI_SIZEOF(i1, s, ierr)
  call expect_i('SIZEOF INTEGER(INT8) scalar, ierror', ierr, MPI_SUCCESS)
  call expect_i('SIZEOF INTEGER(INT8) scalar', s, storage_size(i1) / 8)
  call MPI_SIZEOF(i1v, s, ierr)
  call expect_i('SIZEOF INTEGER(INT8) array', s, storage_size(i1v) / 8)
  call MPI_SIZEOF(i2, s, ierr)
  call expect_i('SIZEOF INTEGER(INT16)', s, storage_size(i2) / 8)
  call MPI_SIZEOF(i4v, s, ierr)
  call expect_i('SIZEOF INTEGER(INT32) array', s, storage_size(i4v) / 8)
  call MPI_SIZEOF(i8, s, ierr)
  call expect_i('SIZEOF INTEGER(INT64)', s, storage_size(i8) / 8)
  call MPI_SIZEOF(r4, s, ierr)
  call expect_i('SIZEOF REAL(REAL32)', s, storage_size(r4) / 8)
  call MPI_SIZEOF(r8v, s, ierr)
  call expect_i('SIZEOF REAL(REAL64) array', s, storage_size(r8v) / 8)
  call MPI_SIZEOF(c4, s, ierr)
  call expect_i('SIZEOF COMPLEX(REAL32)', s, storage_size(c4) / 8)
  call MPI_SIZEOF(l, s, ierr)
  call expect_i('SIZEOF LOGICAL', s, storage_size(l) / 8)
  call MPI_SIZEOF(lv, s, ierr)
  call expect_i('SIZEOF LOGICAL array', s, storage_size(lv) / 8)
  ! CHARACTER: the size of one character, whatever the length (D51)
  call MPI_SIZEOF(ch, s, ierr)
  call expect_i('SIZEOF CHARACTER(LEN=5), one character', s, storage_size(c1) / 8)
  ! (one line for what MPICH's mpi module lacks, so that one divergence covers it)
#ifndef MPIATTR_PEER_MPICH
  ok = .true.
  call MPI_SIZEOF(i8m, s, ierr)
  ok = ok .and. s == storage_size(i8m) / 8 .and. ierr == MPI_SUCCESS
  call MPI_SIZEOF(r8m, s, ierr)
  ok = ok .and. s == storage_size(r8m) / 8 .and. ierr == MPI_SUCCESS
  call MPI_SIZEOF(r16, s, ierr)
  ok = ok .and. s == storage_size(r16) / 8 .and. ierr == MPI_SUCCESS
  call MPI_SIZEOF(c8, s, ierr)
  ok = ok .and. s == storage_size(c8) / 8 .and. ierr == MPI_SUCCESS
  call MPI_SIZEOF(c16, s, ierr)
  ok = ok .and. s == storage_size(c16) / 8 .and. ierr == MPI_SUCCESS
  call expect_l(SIZEOF_MORE, ok, .true.)
#else
  print '(a)', SIZEOF_MORE // ': not built for this peer'
#endif

  ! ---- MPI_F_SYNC_REG: any buffer, left as it is (one line: MPICH's crashes) ----
#ifndef MPIATTR_PEER_MPICH
  i4v = [11, -3]
  i1 = 7
  call MPI_F_SYNC_REG(i4v)
  call MPI_F_SYNC_REG(i1)
  call expect_l(SYNC_REG, all(i4v == [11, -3]) .and. i1 == 7, .true.)
#else
  print '(a)', SYNC_REG // ': not built for this peer'
#endif

  ! ---- MPI_STATUS_F2F08 and MPI_STATUS_F082F ----
  ! (one line, for the peers lack them)
#if !defined(MPIATTR_PEER_MPICH) && !defined(MPIATTR_PEER_OPENMPI)
  st = 0
  st(MPI_SOURCE) = 3
  st(MPI_TAG) = 42
  st(MPI_ERROR) = MPI_ERR_TRUNCATE
  call MPI_STATUS_SET_ELEMENTS(st, MPI_INTEGER, 5, ierr)
  ok = ierr == MPI_SUCCESS
  call MPI_STATUS_F2F08(st, f08, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. f08%MPI_SOURCE == 3 .and. f08%MPI_TAG == 42 &
       .and. f08%MPI_ERROR == MPI_ERR_TRUNCATE
  back = -1
  call MPI_STATUS_F082F(f08, back, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. back(MPI_SOURCE) == 3 .and. back(MPI_TAG) == 42 &
       .and. back(MPI_ERROR) == MPI_ERR_TRUNCATE
  call MPI_GET_COUNT(back, MPI_INTEGER, count, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. count == 5
  call MPI_GET_ELEMENTS(back, MPI_INTEGER, count, ierr)
  ok = ok .and. ierr == MPI_SUCCESS .and. count == 5
  call expect_l(STATUS_ROUND_TRIP, ok, .true.)
  ! MPI_STATUS_IGNORE is no status to convert (§19.3.5): an error tied to no object, which goes to
  ! MPI_COMM_SELF's handler (D4), with the output untouched.
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  f08%MPI_SOURCE = 17
  call MPI_STATUS_F2F08(MPI_STATUS_IGNORE, f08, ierr)
  call MPI_ERROR_CLASS(ierr, count, s)
  call expect_l(STATUS_IGNORE_REFUSED, count == MPI_ERR_ARG .and. f08%MPI_SOURCE == 17, .true.)
#else
  print '(a)', STATUS_ROUND_TRIP // ': not built for this peer'
  print '(a)', STATUS_IGNORE_REFUSED // ': not built for this peer'
#endif

  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_D51_fortran_only_routines
