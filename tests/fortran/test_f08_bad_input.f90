! Bad input through `use mpi_f08` (R3, R1.5, R2.3, R8.1): every caching routine given an invalid
! keyval, a keyval of another kind, a freed keyval, a predefined keyval to set or delete, or a null
! handle returns the right error class under MPI_ERRORS_RETURN and changes nothing. The same calls
! without the optional ierror (MPI-4.1 §20.1.2) still run the error handler: an error handler
! created from mpi_f08 is called with the TYPE(MPI_Comm) / TYPE(MPI_Win) and the code, and the
! attribute is still there afterwards. MPI_Error_string describes the code.
module handler08
  use mpi_f08
  implicit none
  private
  public :: calls, last_code, last_handle, on_comm_error, on_win_error, class_of
  integer :: calls = 0, last_code = MPI_SUCCESS, last_handle = -1
contains
  subroutine on_comm_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    calls = calls + 1
    last_code = error_code
    last_handle = comm%MPI_VAL
  end subroutine on_comm_error

  subroutine on_win_error(win, error_code)
    type(MPI_Win) :: win
    integer :: error_code
    calls = calls + 1
    last_code = error_code
    last_handle = win%MPI_VAL
  end subroutine on_win_error

  ! A module procedure, not an internal one: gfortran builds a trampoline for an internal function
  ! (at -O0 with the sanitizers), and with it an executable stack, which the linker warns about.
  integer function class_of(code)
    integer, intent(in) :: code
    integer :: rc
    class_of = -1
    call MPI_Error_class(code, class_of, rc)
    if (rc /= MPI_SUCCESS) class_of = -2
  end function class_of
end module handler08

program test_f08_bad_input
  use mpi_f08
  use handler08
  use ftest
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  type(MPI_Comm) :: comm, null_comm
  type(MPI_Datatype) :: t
  type(MPI_Win) :: win
  type(MPI_Errhandler) :: eh, weh
  integer :: ierr, rc, kc, kt, kw, kfreed, kcopy, slen
  integer(kind=ak) :: val
  logical :: flag
  character(len=MPI_MAX_ERROR_STRING) :: text
  integer :: buf(2)

  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kc, 0_ak)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kt, 0_ak)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kw, 0_ak)
  call MPI_Comm_set_attr(comm, kc, 42_ak)

  ! ---- with ierror, under MPI_ERRORS_RETURN ----
  call MPI_Comm_set_attr(comm, MPI_KEYVAL_INVALID, 1_ak, ierr)
  call expect_l('R2_3 f08 set_attr MPI_KEYVAL_INVALID, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Comm_get_attr(comm, MPI_KEYVAL_INVALID, val, flag, ierr)
  call expect_l('R2_3 f08 get_attr MPI_KEYVAL_INVALID, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Comm_set_attr(comm, kt, 1_ak, ierr)
  call expect_l('R1_5 f08 comm set_attr with a type keyval, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Comm_get_attr(comm, kw, val, flag, ierr)
  call expect_l('R1_5 f08 comm get_attr with a win keyval, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Comm_set_attr(comm, MPI_TAG_UB, 1_ak, ierr)
  call expect_l('R8_1 f08 set_attr of MPI_TAG_UB, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB, ierr)
  call expect_l('R8_1 f08 delete_attr of MPI_TAG_UB, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  null_comm = MPI_COMM_NULL
  call MPI_Comm_set_attr(null_comm, kc, 1_ak, ierr)
  call expect_l('R3_2 f08 set_attr on MPI_COMM_NULL, class', class_of(ierr) == MPI_ERR_COMM, .true.)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kfreed, 0_ak)
  kcopy = kfreed
  call MPI_Comm_free_keyval(kfreed)
  call MPI_Comm_get_attr(comm, kcopy, val, flag, ierr)
  call expect_l('R2_3 f08 get_attr with a freed keyval, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Comm_free_keyval(kcopy, ierr)
  call expect_l('R2_3 f08 freeing a freed keyval, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Type_free_keyval(kc, ierr)
  call expect_l('R1_5 f08 MPI_Type_free_keyval of a comm keyval, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call expect_l('R1_5 f08 a refused free keyval leaves the variable', kc /= MPI_KEYVAL_INVALID, .true.)
  call MPI_Type_contiguous(1, MPI_INTEGER, t)
  call MPI_Type_set_attr(t, kc, 1_ak, ierr)
  call expect_l('R1_5 f08 type set_attr with a comm keyval, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Type_free(t)
  call MPI_Type_set_attr(MPI_DATATYPE_NULL, kt, 1_ak, ierr)
  call expect_l('R3_2 f08 type set_attr on MPI_DATATYPE_NULL, class', class_of(ierr) == MPI_ERR_TYPE, .true.)
  call MPI_Comm_get_attr(comm, kc, val, flag)
  call expect_l('R3 f08 nothing changed: the attribute is still there', flag .and. val == 42_ak, .true.)
  ! (slen and text are read only when MPI_Error_string succeeds: a failed call may leave them
  ! unset, and Open MPI's fails on its own code here.)
  text = ''
  slen = -1
  call MPI_Comm_set_attr(comm, MPI_KEYVAL_INVALID, 1_ak, ierr)
  call MPI_Error_string(ierr, text, slen, rc)
  call expect_l('R3 f08 MPI_Error_string of the code describes it', &
                rc == MPI_SUCCESS .and. slen > 0 .and. slen <= MPI_MAX_ERROR_STRING, .true.)
  call expect_l('R3 f08 MPI_Error_string length is the text''s', rc == MPI_SUCCESS .and. len_trim(text) == slen, .true.)

  ! ---- without ierror: the error handler still runs, and nothing changes ----
  call MPI_Comm_create_errhandler(on_comm_error, eh)
  call MPI_Comm_set_errhandler(comm, eh)
  calls = 0
  call MPI_Comm_set_attr(comm, MPI_KEYVAL_INVALID, 7_ak)
  call expect_i('R3 f08 no ierror, the f08 error handler ran', calls, 1)
  call expect_l('R3 f08 no ierror, the handler got the code, its class', class_of(last_code) == MPI_ERR_KEYVAL, .true.)
  call expect_l('R3 f08 no ierror, the handler got the communicator', last_handle == comm%MPI_VAL, .true.)
  call MPI_Comm_delete_attr(comm, kt)
  call expect_i('R1_5 f08 no ierror, delete_attr with a type keyval ran the handler', calls, 2)
  call MPI_Comm_get_attr(comm, kc, val, flag)
  call expect_l('R3 f08 no ierror, the attribute is still there', flag .and. val == 42_ak, .true.)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Errhandler_free(eh)

  ! ---- windows: a window error handler from mpi_f08 gets the TYPE(MPI_Win) ----
  call MPI_Win_create(buf, 8_ak, 4, MPI_INFO_NULL, MPI_COMM_SELF, win)
  call MPI_Win_create_errhandler(on_win_error, weh)
  call MPI_Win_set_errhandler(win, weh)
  calls = 0
  call MPI_Win_set_attr(win, kc, 1_ak)
  call expect_i('R1_5 f08 win set_attr with a comm keyval ran the win handler', calls, 1)
  call expect_l('R1_5 f08 win handler got the code, its class', class_of(last_code) == MPI_ERR_KEYVAL, .true.)
  call expect_l('R1_5 f08 win handler got the window', last_handle == win%MPI_VAL, .true.)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN)
  call MPI_Win_set_attr(win, MPI_WIN_BASE, 1_ak, ierr)
  call expect_l('R8_1 f08 set_attr of MPI_WIN_BASE, class', class_of(ierr) == MPI_ERR_KEYVAL, .true.)
  call MPI_Win_free(win)
  call MPI_Errhandler_free(weh)

  call MPI_Comm_free_keyval(kc)
  call MPI_Type_free_keyval(kt)
  call MPI_Win_free_keyval(kw)
  call MPI_Comm_free(comm)
  call MPI_Finalize()
  call ftest_finish()
end program test_f08_bad_input
