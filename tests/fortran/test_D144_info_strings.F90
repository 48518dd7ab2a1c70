! Info keys and values through the mpi module (MPI-4.1 §10, D144): in Fortran a key or value loses
! its leading and trailing blanks; MPI_INFO_GET and MPI_INFO_GET_STRING leave VALUE as it was when
! the key is missing, and MPI_INFO_GET_STRING also when BUFLEN is 0; Fortran's BUFLEN counts the
! characters only ("In C, buflen includes the required space for the null terminator").
! fdiffrun.py defines MPIATTR_PEER_OPENMPI for Open MPI 4.1, which has no MPI_INFO_GET_STRING
! (MPI-4.0): those lines say so there (tests/fortran/divergences.toml). A negative length is
! MPI_ERR_ARG and leaves VALUE (and BUFLEN) as they were (MPICH takes a negative BUFLEN as 0).
program test_D144_info_strings
  use mpi
  use ftest
  implicit none
  integer :: info, ierr, nkeys, vlen, cls, ierr2
  logical :: flag
  character(len=MPI_MAX_INFO_VAL) :: val
#ifndef MPIATTR_PEER_OPENMPI
  integer :: buflen
  logical :: ok
#endif

  call MPI_INIT(ierr)
  call MPI_INFO_CREATE(info, ierr)
  call MPI_INFO_SET(info, '  lead', 'v1', ierr)
  call MPI_INFO_SET(info, 'k2', '  v2  ', ierr)
  call MPI_INFO_SET(info, 'file', '123', ierr)
  val = 'Canary'
  call MPI_INFO_GET(info, 'lead', MPI_MAX_INFO_VAL, val, flag, ierr)
  call expect_l('D144 a key set with leading blanks is found without them', flag, .true.)
  call expect_s('D144 its value', trim(val), 'v1')
  call MPI_INFO_GET(info, '   k2 ', MPI_MAX_INFO_VAL, val, flag, ierr)
  call expect_s('D144 a value set with leading blanks, read with a blank-padded key', trim(val), 'v2')
  call MPI_INFO_GET_VALUELEN(info, ' k2', vlen, flag, ierr)
  call expect_i('D144 its length', vlen, 2)
  val = 'Canary'
  call MPI_INFO_GET(info, 'nokey', MPI_MAX_INFO_VAL, val, flag, ierr)
  call expect_l('D144 get of a missing key, flag', flag, .false.)
  call expect_s('D144 get of a missing key leaves VALUE', trim(val), 'Canary')
  ! Errors with no communicator: MPI_COMM_SELF's handler (MPI-4.1), MPI_COMM_WORLD's on the hosts.
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_INFO_GET(info, 'file', -3, val, flag, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr2)
  call expect_l('D144 get with a negative VALUELEN is MPI_ERR_ARG and leaves VALUE', &
                cls == MPI_ERR_ARG .and. val == 'Canary', .true.)
#ifndef MPIATTR_PEER_OPENMPI
  ! (one line, so that one divergence covers what Open MPI 4.1 lacks)
  val = 'Canary'
  buflen = 10
  call MPI_INFO_GET_STRING(info, 'nokey', buflen, val, flag, ierr)
  ok = .not. flag .and. val == 'Canary'
  buflen = 0
  call MPI_INFO_GET_STRING(info, 'k2', buflen, val, flag, ierr)
  ok = ok .and. flag .and. buflen == 2 .and. val == 'Canary'
  buflen = 2
  call MPI_INFO_GET_STRING(info, 'file', buflen, val, flag, ierr)
  ok = ok .and. flag .and. buflen == 3 .and. val == '12'
  call expect_l('D144 INFO_GET_STRING keeps VALUE when missing or BUFLEN 0, counts characters', &
                ok, .true.)
  val = 'Canary'
  buflen = -3
  call MPI_INFO_GET_STRING(info, 'file', buflen, val, flag, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr2)
  call expect_l('D144 INFO_GET_STRING with a negative BUFLEN is MPI_ERR_ARG and leaves VALUE, BUFLEN', &
                cls == MPI_ERR_ARG .and. val == 'Canary' .and. buflen == -3, .true.)
#else
  print '(a)', 'D144 INFO_GET_STRING keeps VALUE when missing or BUFLEN 0, counts characters: not built for this peer'
  print '(a)', 'D144 INFO_GET_STRING with a negative BUFLEN is MPI_ERR_ARG and leaves VALUE, BUFLEN: not built for this peer'
#endif
  call MPI_INFO_DELETE(info, ' lead ', ierr)
  call expect_i('D144 delete of a blank-padded key, ierror', ierr, MPI_SUCCESS)
  call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
  call expect_i('D144 keys left', nkeys, 2)
  call MPI_INFO_FREE(info, ierr)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_D144_info_strings
