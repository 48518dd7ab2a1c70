! Fortran callbacks through `use mpi_f08` (R1.6, R6, R7.6, R4.5): keyvals of
! MPI_XXX_CREATE_KEYVAL whose callbacks are of the abstract interfaces MPI_Comm_copy_attr_function
! and friends, so they receive TYPE(MPI_Comm) / TYPE(MPI_Datatype) / TYPE(MPI_Win) handles; dup
! (MPI_Comm_dup, _dup_with_info, _idup, MPI_Type_dup) and free of communicators, datatypes and
! windows; the predefined callbacks of mpi_f08, passed and called directly; a callback error
! failing the call that ran it; the optional ierror left out (MPI-4.1 §20.1.2).
module callbacks08
  use mpi_f08
  implicit none
  private
  public :: copies, deletes, fail_with, seen_val, seen_extra, seen_handle
  public :: copy_comm, delete_comm, copy_type, delete_type, delete_win
  integer :: copies = 0, deletes = 0, fail_with = MPI_SUCCESS, seen_handle = -1
  integer(kind=MPI_ADDRESS_KIND) :: seen_val = -1, seen_extra = -1
contains
  ! The copies get value + 1; each callback records the handle it was given.
  subroutine copy_comm(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    copies = copies + 1
    seen_handle = oldcomm%MPI_VAL
    seen_val = attribute_val_in
    seen_extra = extra_state
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = fail_with
  end subroutine copy_comm

  subroutine delete_comm(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    seen_handle = comm%MPI_VAL
    seen_val = attribute_val
    seen_extra = extra_state
    ierror = fail_with
  end subroutine delete_comm

  subroutine copy_type(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    copies = copies + 1
    seen_handle = oldtype%MPI_VAL
    seen_val = attribute_val_in
    seen_extra = extra_state
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = fail_with
  end subroutine copy_type

  subroutine delete_type(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    seen_handle = datatype%MPI_VAL
    seen_val = attribute_val
    seen_extra = extra_state
    ierror = fail_with
  end subroutine delete_type

  subroutine delete_win(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    seen_handle = win%MPI_VAL
    seen_val = attribute_val
    seen_extra = extra_state
    ierror = fail_with
  end subroutine delete_win
end module callbacks08

program test_f08_callbacks
  use mpi_f08
  use callbacks08
  use ftest
  use, intrinsic :: iso_c_binding, only: c_loc
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  type(MPI_Comm) :: comm, dup, dup2
  type(MPI_Datatype) :: t, tdup
  type(MPI_Win) :: win, win_copy
  type(MPI_Request) :: req
  type(MPI_Info) :: info
  integer :: ierr, k2, kdup, knull, kt, kt2, kw, kw2, kerr, cls, ival
  integer(kind=ak) :: val, big
  logical :: flag
  integer, target :: buf(4)

  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  big = 2_ak**40
  info = MPI_INFO_NULL

  ! ---- communicators (R6.2, R4.4, R1.4): the callbacks get TYPE(MPI_Comm) ----
  call MPI_Comm_create_keyval(copy_comm, delete_comm, k2, 11_ak, ierr)
  call expect_i('R1_1 f08 MPI_Comm_create_keyval, ierror', ierr, MPI_SUCCESS)
  call MPI_Comm_set_attr(comm, k2, 100_ak)
  copies = 0
  call MPI_Comm_dup(comm, dup, ierr)
  call expect_i('R6_2 f08 comm dup, copy callback calls', copies, 1)
  call expect_l('R6_2 f08 comm dup, copy callback got the old communicator', seen_handle == comm%MPI_VAL, .true.)
  call expect_a('R6_2 f08 comm dup, copy callback saw value', seen_val, 100_ak)
  call expect_a('R1_4 f08 comm dup, copy callback saw extra_state', seen_extra, 11_ak)
  call MPI_Comm_get_attr(dup, k2, val, flag)
  call expect_l('R6_2 f08 comm dup, flag', flag, .true.)
  call expect_a('R6_2 f08 comm dup, copy holds attribute_val_out', val, 101_ak)
  deletes = 0
  call MPI_Comm_free(dup)
  call expect_i('R4_4 f08 comm free, delete callback calls', deletes, 1)
  call expect_a('R4_4 f08 comm free, delete callback saw value', seen_val, 101_ak)
  call expect_l('R4_4 f08 comm free, handle is MPI_COMM_NULL', dup == MPI_COMM_NULL, .true.)
  call expect_l('R4_4 f08 /= of handles', comm /= MPI_COMM_NULL, .true.)
  ! MPI_Comm_dup_with_info and MPI_Comm_idup copy too (R6.3).
  copies = 0
  call MPI_Comm_dup_with_info(comm, info, dup)
  call MPI_Comm_idup(comm, dup2, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call expect_i('R6_3 f08 dup_with_info and idup, copy callback calls', copies, 2)
  call MPI_Comm_get_attr(dup2, k2, val, flag)
  call expect_a('R6_3 f08 idup, copy holds attribute_val_out', val, 101_ak)
  call expect_l('R6_3 f08 idup, request completed', req == MPI_REQUEST_NULL, .true.)
  call MPI_Comm_free(dup)
  call MPI_Comm_free(dup2)
  ! A value above 2**31 reaches the callbacks whole (R7.3).
  call MPI_Comm_set_attr(comm, k2, big)
  call MPI_Comm_dup(comm, dup)
  call expect_a('R7_3 f08 comm dup, copy callback saw 2**40', seen_val, big)
  call MPI_Comm_free(dup)
  call MPI_Comm_delete_attr(comm, k2, ierr)
  call expect_a('R4_3 f08 delete_attr, delete callback saw 2**40', seen_val, big)
  call expect_l('R4_3 f08 delete_attr, delete callback got the communicator', seen_handle == comm%MPI_VAL, .true.)
  call MPI_Comm_free_keyval(k2)
  call expect_l('R2_1 f08 MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID', k2 == MPI_KEYVAL_INVALID, .true.)

  ! ---- the predefined callbacks of mpi_f08 (R6.5) ----
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kdup, 0_ak)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, knull, 0_ak)
  call MPI_Comm_set_attr(comm, kdup, big + 5)
  call MPI_Comm_set_attr(comm, knull, 6_ak)
  call MPI_Comm_dup(comm, dup)
  call MPI_Comm_get_attr(dup, kdup, val, flag)
  call expect_l('R6_5 f08 MPI_COMM_DUP_FN, copied', flag, .true.)
  call expect_a('R6_5 f08 MPI_COMM_DUP_FN, value', val, big + 5)
  call MPI_Comm_get_attr(dup, knull, val, flag)
  call expect_l('R6_5 f08 MPI_COMM_NULL_COPY_FN, not copied', flag, .false.)
  call MPI_Comm_free(dup, ierr)
  call expect_i('R6_5 f08 MPI_COMM_NULL_DELETE_FN, free succeeds', ierr, MPI_SUCCESS)
  ! Called directly, they do what R6.5 says.
  flag = .false.
  call MPI_COMM_DUP_FN(comm, kdup, 0_ak, big, val, flag, ierr)
  call expect_a('R6_5 f08 MPI_COMM_DUP_FN called directly, attribute_val_out', val, big)
  call expect_l('R6_5 f08 MPI_COMM_DUP_FN called directly, flag', flag, .true.)
  call MPI_COMM_NULL_COPY_FN(comm, kdup, 0_ak, big, val, flag, ierr)
  call expect_l('R6_5 f08 MPI_COMM_NULL_COPY_FN called directly, flag', flag, .false.)
  ierr = -1
  call MPI_COMM_NULL_DELETE_FN(comm, kdup, big, 0_ak, ierr)
  call expect_i('R6_5 f08 MPI_COMM_NULL_DELETE_FN called directly, ierror', ierr, MPI_SUCCESS)
  call MPI_Comm_free_keyval(kdup)
  call MPI_Comm_free_keyval(knull)

  ! ---- datatypes (R6.1, R4.4): the callbacks get TYPE(MPI_Datatype) ----
  call MPI_Type_contiguous(2, MPI_INTEGER, t)
  call MPI_Type_create_keyval(copy_type, delete_type, kt, 33_ak)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kt2, 0_ak)
  call MPI_Type_set_attr(t, kt, -200_ak)
  call MPI_Type_set_attr(t, kt2, big)
  copies = 0
  call MPI_Type_dup(t, tdup)
  call expect_i('R6_1 f08 type dup, copy callback calls', copies, 1)
  call expect_l('R6_1 f08 type dup, copy callback got the old datatype', seen_handle == t%MPI_VAL, .true.)
  call expect_a('R6_1 f08 type dup, copy callback saw value', seen_val, -200_ak)
  call expect_a('R1_4 f08 type dup, copy callback saw extra_state', seen_extra, 33_ak)
  call MPI_Type_get_attr(tdup, kt, val, flag)
  call expect_a('R6_1 f08 type dup, copy holds attribute_val_out', val, -199_ak)
  call MPI_Type_get_attr(tdup, kt2, val, flag)
  call expect_a('R6_5 f08 MPI_TYPE_DUP_FN, value', val, big)
  deletes = 0
  ival = tdup%MPI_VAL
  call MPI_Type_free(tdup)
  call expect_i('R4_4 f08 type free, delete callback calls', deletes, 1)
  call expect_l('R4_4 f08 type free, delete callback got the datatype', seen_handle == ival, .true.)
  call expect_l('R4_4 f08 type free, handle is MPI_DATATYPE_NULL', tdup == MPI_DATATYPE_NULL, .true.)
  call MPI_Type_delete_attr(t, kt)
  call expect_i('R4_3 f08 type delete_attr, delete callback calls', deletes, 2)
  call MPI_Type_free(t)
  call MPI_Type_free_keyval(kt)
  call MPI_Type_free_keyval(kt2)
  call expect_l('R2_1 f08 MPI_Type_free_keyval sets MPI_KEYVAL_INVALID', kt2 == MPI_KEYVAL_INVALID, .true.)

  ! ---- windows (R4.4, R6.1): delete callbacks on free, TYPE(MPI_Win) ----
  call MPI_Win_create(buf, 16_ak, 4, MPI_INFO_NULL, MPI_COMM_SELF, win)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_win, kw, 44_ak)
  call MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, kw2, 0_ak)
  call MPI_Win_set_attr(win, kw, 300_ak)
  call MPI_Win_set_attr(win, kw2, 301_ak)
  call MPI_Win_get_attr(win, kw2, val, flag)
  call expect_a('R4_2 f08 win get_attr', val, 301_ak)
  deletes = 0
  call MPI_Win_set_attr(win, kw, 302_ak)
  call expect_i('R4_1 f08 win set_attr replace, delete callback calls', deletes, 1)
  call expect_a('R4_1 f08 win set_attr replace, delete callback saw old value', seen_val, 300_ak)
  call expect_l('R4_1 f08 win set_attr replace, delete callback got the window', seen_handle == win%MPI_VAL, .true.)
  win_copy = win
  call MPI_Win_free(win)
  call expect_i('R4_4 f08 win free, delete callback calls', deletes, 2)
  call expect_a('R4_4 f08 win free, delete callback saw value', seen_val, 302_ak)
  call expect_a('R1_4 f08 win free, delete callback saw extra_state', seen_extra, 44_ak)
  call expect_l('R4_4 f08 win free, delete callback got the window', seen_handle == win_copy%MPI_VAL, .true.)
  call expect_l('R4_4 f08 win free, handle is MPI_WIN_NULL', win == MPI_WIN_NULL, .true.)
  call MPI_Win_free_keyval(kw)
  call MPI_Win_free_keyval(kw2)

  ! ---- predefined attributes read through mpi_f08 (R8, R7.5) ----
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call expect_l('R8_2 f08 MPI_TAG_UB is at least 32767', flag .and. val >= 32767_ak, .true.)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, val, flag)
  call expect_l('R8_2 f08 MPI_WTIME_IS_GLOBAL is absent, 0 or 1', (.not. flag) .or. val == 0 .or. val == 1, .true.)
  call MPI_Win_create(buf, 16_ak, 4, MPI_INFO_NULL, MPI_COMM_SELF, win)
  call MPI_Win_get_attr(win, MPI_WIN_BASE, val, flag)
  call expect_l('R8_3 f08 MPI_WIN_BASE is the buffer''s address', flag .and. val == transfer(c_loc(buf), val), .true.)
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag)
  call expect_a('R8_3 f08 MPI_WIN_SIZE', val, 16_ak)
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
  call expect_a('R8_3 f08 MPI_WIN_DISP_UNIT', val, 4_ak)
  call MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, val, flag)
  call expect_l('R8_3 f08 MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_CREATE', val == MPI_WIN_FLAVOR_CREATE, .true.)
  call MPI_Win_get_attr(win, MPI_WIN_MODEL, val, flag)
  call expect_l('R8_3 f08 MPI_WIN_MODEL is unified or separate', &
       val == MPI_WIN_UNIFIED .or. val == MPI_WIN_SEPARATE, .true.)
  call MPI_Win_free(win)

  ! ---- a callback error fails the call that ran it (R4.5) ----
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Comm_create_keyval(copy_comm, delete_comm, kerr, 0_ak)
  call MPI_Comm_set_attr(comm, kerr, 1_ak)
  fail_with = MPI_ERR_OTHER
  call MPI_Comm_dup(comm, dup, ierr)
  fail_with = MPI_SUCCESS
  call MPI_Error_class(ierr, cls)
  call expect_l('R4_5 f08 failing copy callback fails MPI_Comm_dup', cls == MPI_ERR_OTHER, .true.)
  call expect_l('R4_5 f08 failed MPI_Comm_dup leaves MPI_COMM_NULL', dup == MPI_COMM_NULL, .true.)
  fail_with = MPI_ERR_OTHER
  call MPI_Comm_delete_attr(comm, kerr, ierr)
  fail_with = MPI_SUCCESS
  call expect_l('R4_3 f08 failing delete callback fails MPI_Comm_delete_attr', ierr /= MPI_SUCCESS, .true.)
  call MPI_Comm_get_attr(comm, kerr, val, flag)
  call expect_l('R4_3 f08 failed MPI_Comm_delete_attr keeps the attribute', flag .and. val == 1_ak, .true.)
  call MPI_Comm_delete_attr(comm, kerr)
  call MPI_Comm_free_keyval(kerr)

  call MPI_Comm_free(comm)
  call MPI_Finalize(ierr)
  call expect_i('R10 f08 MPI_Finalize, ierror', ierr, MPI_SUCCESS)
  call ftest_finish()
end program test_f08_callbacks
