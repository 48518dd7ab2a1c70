! R6_type_win_caching_usempi.f90 (use mpi): R6_type_win_caching_mpif.f90 through the `mpi`
! module. Datatype and window attributes from Fortran, with Fortran callbacks and the predefined
! ones.
!
! Datatypes, MPI-4.1 §8.7.4 and §6.1.10: MPI_TYPE_DUP runs each attribute's copy callback with the
! old datatype's handle, the key, extra_state and the value (FLAG = .TRUE. stores
! ATTRIBUTE_VAL_OUT on the new type); MPI_TYPE_DUP_FN copies the value, MPI_TYPE_NULL_COPY_FN
! copies nothing (R6.5); MPI_TYPE_DELETE_ATTR, a replacing MPI_TYPE_SET_ATTR and MPI_TYPE_FREE
! run the delete callback with the datatype's handle (R4.1, R4.3, R4.4). Predefined datatypes
! (here MPI_INTEGER) may carry attributes too.
! Windows, MPI-4.1 §8.7.3: the same for MPI_WIN_SET_ATTR / GET_ATTR / DELETE_ATTR and
! MPI_WIN_FREE; no routine duplicates a window, so no window copy callback ever runs (R6.1). A
! window caches MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and
! MPI_WIN_MODEL at creation (§13.2.6, R8.3); Fortran gets the base address as an integer and the
! others as their values (§20.3.7, R7.5).
! Fortran callbacks get the Fortran INTEGER handle the program holds (§20.3.7, R1.6).
! MPI-4.1 §5.1.10, §20.3.4 (D68): a Fortran handle freed and given to a new datatype names the new one.
module cb_log
#ifndef MPIF_H
  use mpi
#endif
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  private
  public :: maxlog, ncopy, ndel, copy_obj, copy_key, copy_extra, copy_val, &
            del_obj, del_key, del_extra, del_val, type_copy, type_delete, win_copy, win_delete
  integer, parameter :: maxlog = 32
  integer :: ncopy = 0, ndel = 0
  integer :: copy_obj(maxlog), copy_key(maxlog), del_obj(maxlog), del_key(maxlog)
  integer(kind=MPI_ADDRESS_KIND) :: copy_extra(maxlog), copy_val(maxlog)
  integer(kind=MPI_ADDRESS_KIND) :: del_extra(maxlog), del_val(maxlog)
contains
  subroutine log_copy(obj, keyval, extra_state, val)
    integer :: obj, keyval
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val
    ncopy = ncopy + 1
    if (ncopy <= maxlog) then
      copy_obj(ncopy) = obj
      copy_key(ncopy) = keyval
      copy_extra(ncopy) = extra_state
      copy_val(ncopy) = val
    end if
  end subroutine log_copy

  subroutine log_delete(obj, keyval, val, extra_state)
    integer :: obj, keyval
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val
    ndel = ndel + 1
    if (ndel <= maxlog) then
      del_obj(ndel) = obj
      del_key(ndel) = keyval
      del_extra(ndel) = extra_state
      del_val(ndel) = val
    end if
  end subroutine log_delete

  subroutine type_copy(oldtype, keyval, extra_state, attribute_val_in, attribute_val_out, flag, &
                       ierror)
    integer :: oldtype, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call log_copy(oldtype, keyval, extra_state, attribute_val_in)
    attribute_val_out = attribute_val_in + 1000
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_delete(datatype, keyval, attribute_val, extra_state, ierror)
    integer :: datatype, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call log_delete(datatype, keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine type_delete

  subroutine win_copy(oldwin, keyval, extra_state, attribute_val_in, attribute_val_out, flag, &
                      ierror)
    integer :: oldwin, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    call log_copy(oldwin, keyval, extra_state, attribute_val_in)
    attribute_val_out = attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine win_copy

  subroutine win_delete(win, keyval, attribute_val, extra_state, ierror)
    integer :: win, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call log_delete(win, keyval, attribute_val, extra_state)
    ierror = MPI_SUCCESS
  end subroutine win_delete
end module cb_log

program R6_type_win_caching
#ifndef MPIF_H
  use mpi
#endif
  use fhost_check
  use cb_log
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer(kind=ak), parameter :: big = 2_ak**34 + 9
  integer, parameter :: nreuse = 8
  integer :: ierr, rc, rank, t, t2, saved, tk, tkdup, tknull, win, wk, wk2, i, nbad, reuse(nreuse)
  integer(kind=ak) :: xt, xd, xw, v, vt, vtdup, vw, addr
  logical :: f, ok
  integer :: buf(16)

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  xt = big + 50 + rank
  xd = -3_ak - rank
  xw = 2_ak**33 + 70 + rank
  vt = big + rank
  vtdup = 2 * big + rank
  vw = 3 * big + rank

  ! ================= datatypes =================
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  rc = MPI_SUCCESS
  call MPI_TYPE_CREATE_KEYVAL(type_copy, type_delete, tk, xt, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, type_delete, tkdup, xd, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tknull, 0_ak, ierr)
  rc = max(rc, ierr)
  call check('R1_type_create_keyval_succeeds', rc == MPI_SUCCESS .and. &
             tk /= MPI_KEYVAL_INVALID .and. tkdup /= MPI_KEYVAL_INVALID .and. &
             tknull /= MPI_KEYVAL_INVALID .and. tk /= tkdup .and. tk /= tknull .and. &
             tkdup /= tknull)
  f = .true.
  call MPI_TYPE_GET_ATTR(t, tk, v, f, rc)
  call check('R4_type_get_attr_without_value_flag_false', rc == MPI_SUCCESS .and. .not. f)
  rc = MPI_SUCCESS
  call MPI_TYPE_SET_ATTR(t, tk, vt, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_SET_ATTR(t, tkdup, vtdup, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_SET_ATTR(t, tknull, 5_ak + rank, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_GET_ATTR(t, tk, v, f, ierr)
  call check('R4_type_set_get_round_trip_above_2_32', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. f .and. v == vt)

  ! ---- MPI_TYPE_DUP ----
  ncopy = 0
  t2 = MPI_DATATYPE_NULL
  call MPI_TYPE_DUP(t, t2, rc)
  call check('R6_type_dup_succeeds', rc == MPI_SUCCESS .and. t2 /= MPI_DATATYPE_NULL .and. &
             t2 /= t)
  call check('R6_type_dup_runs_user_copy_callback_once', ncopy == 1)
  call check('R6_type_copy_callback_gets_old_type_handle', ncopy == 1 .and. copy_obj(1) == t)
  ok = ncopy == 1
  if (ok) ok = copy_key(1) == tk .and. copy_extra(1) == xt .and. copy_val(1) == vt
  call check('R6_type_copy_callback_gets_key_extra_state_value', ok)
  if (t2 == MPI_DATATYPE_NULL) t2 = MPI_INTEGER  ! the checks below fail, safely
  call MPI_TYPE_GET_ATTR(t2, tk, v, f, ierr)
  call check('R6_type_copy_flag_true_stores_value_out', ierr == MPI_SUCCESS .and. f .and. &
             v == vt + 1000)
  call MPI_TYPE_GET_ATTR(t2, tkdup, v, f, ierr)
  call check('R6_TYPE_DUP_FN_copies_value', ierr == MPI_SUCCESS .and. f .and. v == vtdup)
  call MPI_TYPE_GET_ATTR(t2, tknull, v, f, ierr)
  call check('R6_TYPE_NULL_COPY_FN_copies_nothing', ierr == MPI_SUCCESS .and. .not. f)

  ! ---- MPI_TYPE_DELETE_ATTR, replacing MPI_TYPE_SET_ATTR ----
  ndel = 0
  call MPI_TYPE_DELETE_ATTR(t2, tkdup, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == tkdup .and. del_val(1) == vtdup .and. del_extra(1) == xd
  call check('R4_type_delete_attr_runs_delete_callback', ok)
  call check('R4_type_delete_attr_delete_callback_gets_type_handle', ndel == 1 .and. &
             del_obj(1) == t2)
  call MPI_TYPE_GET_ATTR(t2, tkdup, v, f, ierr)
  call check('R4_type_delete_attr_removes_the_attribute', ierr == MPI_SUCCESS .and. .not. f)
  ndel = 0
  call MPI_TYPE_SET_ATTR(t2, tk, vt + 7, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == tk .and. del_val(1) == vt + 1000 .and. del_extra(1) == xt
  call check('R4_type_set_attr_replace_runs_delete_callback_on_old_value', ok)
  call check('R4_type_set_attr_replace_delete_callback_gets_type_handle', ndel == 1 .and. &
             del_obj(1) == t2)
  call MPI_TYPE_GET_ATTR(t2, tk, v, f, ierr)
  call check('R4_type_set_attr_replace_stores_new_value', ierr == MPI_SUCCESS .and. f .and. &
             v == vt + 7)

  ! ---- MPI_TYPE_FREE of the copy (it has tk), then of the original (tk and tkdup) ----
  ndel = 0
  saved = t2
  call MPI_TYPE_FREE(t2, rc)
  ok = rc == MPI_SUCCESS .and. t2 == MPI_DATATYPE_NULL .and. ndel == 1
  if (ok) ok = del_key(1) == tk .and. del_val(1) == vt + 7
  call check('R4_type_free_runs_delete_callback', ok)
  call check('R4_type_free_delete_callback_gets_freed_type_handle', ndel == 1 .and. &
             del_obj(1) == saved)
  ndel = 0
  saved = t
  call MPI_TYPE_FREE(t, rc)
  ok = rc == MPI_SUCCESS .and. t == MPI_DATATYPE_NULL .and. ndel == 2
  if (ok) ok = (del_key(1) == tk .and. del_key(2) == tkdup) .or. &
               (del_key(1) == tkdup .and. del_key(2) == tk)
  call check('R4_type_free_original_runs_delete_callbacks', ok)
  ok = ndel == 2
  do i = 1, min(ndel, maxlog)
    ok = ok .and. del_obj(i) == saved
  end do
  call check('R4_type_free_original_delete_callbacks_get_its_handle', ok)

  ! ---- an attribute on a predefined datatype ----
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tk, vt + 11, rc)
  call MPI_TYPE_GET_ATTR(MPI_INTEGER, tk, v, f, ierr)
  call check('R4_type_attr_on_MPI_INTEGER_round_trip', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. f .and. v == vt + 11)
  ndel = 0
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, tk, rc)
  call check('R4_type_attr_on_MPI_INTEGER_delete_runs_callback', rc == MPI_SUCCESS .and. &
             ndel == 1 .and. del_val(1) == vt + 11)
  call check('R4_type_attr_on_MPI_INTEGER_delete_callback_gets_its_handle', ndel == 1 .and. &
             del_obj(1) == MPI_INTEGER)

  rc = MPI_SUCCESS
  call MPI_TYPE_FREE_KEYVAL(tk, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_FREE_KEYVAL(tkdup, ierr)
  rc = max(rc, ierr)
  call MPI_TYPE_FREE_KEYVAL(tknull, ierr)
  rc = max(rc, ierr)
  call check('R2_type_free_keyval_sets_invalid', rc == MPI_SUCCESS .and. &
             tk == MPI_KEYVAL_INVALID .and. tkdup == MPI_KEYVAL_INVALID .and. &
             tknull == MPI_KEYVAL_INVALID)

  ! ================= windows =================
  buf = rank
  ncopy = 0
  call MPI_WIN_CREATE(buf, int(16 * 4, ak), 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, rc)
  call check('R8_win_create_succeeds', rc == MPI_SUCCESS .and. win /= MPI_WIN_NULL)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  rc = MPI_SUCCESS
  call MPI_WIN_CREATE_KEYVAL(win_copy, win_delete, wk, xw, ierr)
  rc = max(rc, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, wk2, 0_ak, ierr)
  rc = max(rc, ierr)
  call check('R1_win_create_keyval_succeeds', rc == MPI_SUCCESS .and. &
             wk /= MPI_KEYVAL_INVALID .and. wk2 /= MPI_KEYVAL_INVALID .and. wk /= wk2)
  f = .true.
  call MPI_WIN_GET_ATTR(win, wk, v, f, rc)
  call check('R4_win_get_attr_without_value_flag_false', rc == MPI_SUCCESS .and. .not. f)
  call MPI_WIN_SET_ATTR(win, wk, vw, rc)
  call MPI_WIN_GET_ATTR(win, wk, v, f, ierr)
  call check('R4_win_set_get_round_trip_above_2_32', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. f .and. v == vw)
  call MPI_WIN_SET_ATTR(win, wk2, vw + 1, rc)
  call MPI_WIN_GET_ATTR(win, wk2, v, f, ierr)
  call check('R4_win_second_key_round_trip', rc == MPI_SUCCESS .and. f .and. v == vw + 1)

  ! the attributes cached at creation (R8.3): Fortran gets the values
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, v, f, rc)
  call check('R8_MPI_WIN_SIZE_value', rc == MPI_SUCCESS .and. f .and. v == 64)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, v, f, rc)
  call check('R8_MPI_WIN_DISP_UNIT_value', rc == MPI_SUCCESS .and. f .and. v == 4)
  call MPI_GET_ADDRESS(buf, addr, ierr)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, v, f, rc)
  call check('R8_MPI_WIN_BASE_is_the_address_as_an_integer', rc == MPI_SUCCESS .and. f .and. &
             v == addr)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_CREATE_FLAVOR, v, f, rc)
  call check('R8_MPI_WIN_CREATE_FLAVOR_is_create', rc == MPI_SUCCESS .and. f .and. &
             v == MPI_WIN_FLAVOR_CREATE)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_MODEL, v, f, rc)
  call check('R8_MPI_WIN_MODEL_separate_or_unified', rc == MPI_SUCCESS .and. f .and. &
             (v == MPI_WIN_SEPARATE .or. v == MPI_WIN_UNIFIED))
  if (.not. f) v = -1
  call fact('MPI_WIN_MODEL_value', v)

  ndel = 0
  call MPI_WIN_DELETE_ATTR(win, wk, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == wk .and. del_val(1) == vw .and. del_extra(1) == xw
  call check('R4_win_delete_attr_runs_delete_callback', ok)
  call check('R4_win_delete_attr_delete_callback_gets_win_handle', ndel == 1 .and. &
             del_obj(1) == win)
  call MPI_WIN_GET_ATTR(win, wk, v, f, ierr)
  call check('R4_win_delete_attr_removes_the_attribute', ierr == MPI_SUCCESS .and. .not. f)
  call MPI_WIN_SET_ATTR(win, wk, vw + 5, rc)
  ndel = 0
  call MPI_WIN_SET_ATTR(win, wk, vw + 6, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == wk .and. del_val(1) == vw + 5
  call check('R4_win_set_attr_replace_runs_delete_callback_on_old_value', ok)
  call check('R4_win_set_attr_replace_delete_callback_gets_win_handle', ndel == 1 .and. &
             del_obj(1) == win)

  ndel = 0
  saved = win
  call MPI_WIN_FREE(win, rc)
  ok = rc == MPI_SUCCESS .and. win == MPI_WIN_NULL .and. ndel == 1
  if (ok) ok = del_key(1) == wk .and. del_val(1) == vw + 6 .and. del_extra(1) == xw
  call check('R4_win_free_runs_delete_callback', ok)
  call check('R4_win_free_delete_callback_gets_freed_win_handle', ndel == 1 .and. &
             del_obj(1) == saved)
  call check('R6_win_copy_callback_never_runs', ncopy == 0)
  call MPI_WIN_FREE_KEYVAL(wk, rc)
  call MPI_WIN_FREE_KEYVAL(wk2, ierr)
  call check('R2_win_free_keyval_sets_invalid', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. &
             wk == MPI_KEYVAL_INVALID .and. wk2 == MPI_KEYVAL_INVALID)

  ! ---- a freed Fortran datatype handle given to the next datatype (D68) ----
  ! Over Open MPI mpiattr caches which C handle a Fortran handle names; the new datatypes get the
  ! old ones' Fortran handles with other objects behind them, and each get must give the value
  ! set on the datatype the handle names now.
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tk, 0_ak, ierr)
  nbad = 0
  do i = 1, nreuse
    call MPI_TYPE_CONTIGUOUS(i, MPI_INTEGER, reuse(i), ierr)
    call MPI_TYPE_SET_ATTR(reuse(i), tk, int(100 + i, ak), rc)
    call MPI_TYPE_GET_ATTR(reuse(i), tk, v, f, ierr)
    if (.not. (rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. f .and. v == 100 + i)) nbad = nbad + 1
  end do
  do i = 1, nreuse
    call MPI_TYPE_FREE(reuse(i), ierr)
  end do
  do i = 1, nreuse
    call MPI_TYPE_CONTIGUOUS(i, MPI_INTEGER, reuse(i), ierr)
    call MPI_TYPE_SET_ATTR(reuse(i), tk, int(200 + i, ak), rc)
  end do
  do i = 1, nreuse
    call MPI_TYPE_GET_ATTR(reuse(i), tk, v, f, ierr)
    if (.not. (ierr == MPI_SUCCESS .and. f .and. v == 200 + i)) nbad = nbad + 1
    call MPI_TYPE_FREE(reuse(i), ierr)
  end do
  call MPI_TYPE_FREE_KEYVAL(tk, ierr)
  call check('D68_reused_fortran_datatype_handle_gets_the_new_datatypes_value', nbad == 0)

  call report('mpif')
  call MPI_FINALIZE(ierr)
end program R6_type_win_caching
