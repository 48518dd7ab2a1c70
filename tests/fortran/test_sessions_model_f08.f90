! The Sessions Model without MPI_Init through `use mpi_f08` (docs/decisions.md D49): a session, a
! group from its process set, a communicator from the group, an attribute on it that its dup copies
! (MPI_COMM_DUP_FN), MPI_Initialized / MPI_Finalized false throughout, the session finalized.
! (Open MPI 4.1's mpi_f08 has no sessions, MPI-4.0: compared with MPICH only.)
program test_sessions_model_f08
  use mpi_f08
  use ftest
  implicit none
  type(MPI_Session) :: s
  type(MPI_Group) :: g
  type(MPI_Comm) :: c, d
  integer :: ierr, key, n, rank
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag, init, fin

  call MPI_INITIALIZED(init, ierr)
  call MPI_FINALIZED(fin, ierr)
  call expect_l('before anything, initialized', init, .false.)
  call expect_l('before anything, finalized', fin, .false.)

  call MPI_SESSION_INIT(MPI_INFO_NULL, MPI_ERRORS_RETURN, s, ierr)
  call expect_i('session_init, ierror', ierr, MPI_SUCCESS)
  call MPI_GROUP_FROM_SESSION_PSET(s, 'mpi://WORLD', g, ierr)
  call expect_i('group_from_session_pset, ierror', ierr, MPI_SUCCESS)
  call MPI_GROUP_SIZE(g, n, ierr)
  call expect_i('the group''s size', n, 1)
  call MPI_COMM_CREATE_FROM_GROUP(g, 'org.mpiattr.f08', MPI_INFO_NULL, MPI_ERRORS_RETURN, c, ierr)
  call expect_i('comm_create_from_group, ierror', ierr, MPI_SUCCESS)
  call MPI_COMM_RANK(c, rank, ierr)
  call expect_i('its rank', rank, 0)

  extra = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  call expect_i('create_keyval, ierror', ierr, MPI_SUCCESS)
  val = 4242
  call MPI_COMM_SET_ATTR(c, key, val, ierr)
  call expect_i('set_attr, ierror', ierr, MPI_SUCCESS)
  val = 0
  call MPI_COMM_GET_ATTR(c, key, val, flag, ierr)
  call expect_l('get_attr, flag', flag, .true.)
  call expect_a('get_attr, value', val, 4242_MPI_ADDRESS_KIND)
  call MPI_COMM_DUP(c, d, ierr)
  val = 0
  call MPI_COMM_GET_ATTR(d, key, val, flag, ierr)
  call expect_l('the dup has it, flag', flag, .true.)
  call expect_a('the dup has it, value', val, 4242_MPI_ADDRESS_KIND)
  call MPI_COMM_DELETE_ATTR(c, key, ierr)
  call MPI_COMM_GET_ATTR(c, key, val, flag, ierr)
  call expect_l('deleted, flag', flag, .false.)

  call MPI_INITIALIZED(init, ierr)
  call MPI_FINALIZED(fin, ierr)
  call expect_l('sessions only, initialized', init, .false.)
  call expect_l('sessions only, finalized', fin, .false.)

  call MPI_COMM_FREE(d, ierr)
  call MPI_COMM_FREE(c, ierr)
  call MPI_COMM_FREE_KEYVAL(key, ierr)
  call MPI_GROUP_FREE(g, ierr)
  call MPI_SESSION_FINALIZE(s, ierr)
  call expect_i('session_finalize, ierror', ierr, MPI_SUCCESS)
  call MPI_INITIALIZED(init, ierr)
  call MPI_FINALIZED(fin, ierr)
  call expect_l('after the session, initialized', init, .false.)
  call expect_l('after the session, finalized', fin, .false.)
  call ftest_finish()
end program test_sessions_model_f08
