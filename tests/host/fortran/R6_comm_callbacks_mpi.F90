! R6_comm_callbacks_mpi.F90: one program for `include 'mpif.h'` (built with -DMPIF_H: R6_comm_callbacks_mpif) and
! `use mpi` (R6_comm_callbacks_usempi).
! Keyvals with Fortran copy and delete callbacks;
! MPI_COMM_DUP, MPI_COMM_DUP_WITH_INFO and MPI_COMM_IDUP run the copy callbacks, MPI_COMM_FREE,
! MPI_COMM_DELETE_ATTR and a replacing MPI_COMM_SET_ATTR the delete callbacks; the predefined
! MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN and MPI_COMM_NULL_DELETE_FN.
!
! MPI-4.1 §8.7.2: a copy callback is called with the old communicator's handle, the key, the
! extra_state given at MPI_COMM_CREATE_KEYVAL and the attribute's value; FLAG = .TRUE. puts
! ATTRIBUTE_VAL_OUT on the new communicator, .FALSE. leaves it off. MPI_COMM_DUP_FN copies the
! value, MPI_COMM_NULL_COPY_FN copies nothing, MPI_COMM_NULL_DELETE_FN does nothing (R6.5).
! MPI_COMM_FREE and MPI_COMM_DELETE_ATTR call the delete callback with the communicator's handle,
! the key, the value and extra_state; MPI_COMM_SET_ATTR on a key that has a value first deletes
! the old one (R4.1). A key freed while in use keeps its callbacks (R2.2). Fortran callbacks are
! called with Fortran conventions (MPI-4.1 §20.3.7, R1.6): the handle is the Fortran INTEGER the
! program holds, values are INTEGER(KIND=MPI_ADDRESS_KIND), here above 2**32.
! The profiling names (PMPI_COMM_CREATE_KEYVAL, PMPI_COMM_SET_ATTR, ...) are the same routines
! (MPI-4.1 §16.2.1): a keyval created through either name is served alike through both (D131).
module cb_log
#ifndef MPIF_H
  use mpi
#endif
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  private
  public :: maxlog, ncopy, ndel, copy_comm, copy_key, copy_extra, copy_val, &
            del_comm, del_key, del_extra, del_val, copy_plus_1000, copy_flag_false, record_delete
  integer, parameter :: maxlog = 32
  integer :: ncopy = 0, ndel = 0
  integer :: copy_comm(maxlog), copy_key(maxlog), del_comm(maxlog), del_key(maxlog)
  integer(kind=MPI_ADDRESS_KIND) :: copy_extra(maxlog), copy_val(maxlog)
  integer(kind=MPI_ADDRESS_KIND) :: del_extra(maxlog), del_val(maxlog)
contains
  subroutine copy_plus_1000(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, &
                            flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    if (ncopy <= maxlog) then
      copy_comm(ncopy) = oldcomm
      copy_key(ncopy) = keyval
      copy_extra(ncopy) = extra_state
      copy_val(ncopy) = attribute_val_in
    end if
    attribute_val_out = attribute_val_in + 1000
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine copy_plus_1000

  subroutine copy_flag_false(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, &
                             flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    if (ncopy <= maxlog) then
      copy_comm(ncopy) = oldcomm
      copy_key(ncopy) = keyval
      copy_extra(ncopy) = extra_state
      copy_val(ncopy) = attribute_val_in
    end if
    attribute_val_out = -1
    flag = .false.
    ierror = MPI_SUCCESS
  end subroutine copy_flag_false

  subroutine record_delete(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndel = ndel + 1
    if (ndel <= maxlog) then
      del_comm(ndel) = comm
      del_key(ndel) = keyval
      del_extra(ndel) = extra_state
      del_val(ndel) = attribute_val
    end if
    ierror = MPI_SUCCESS
  end subroutine record_delete
end module cb_log

program R6_comm_callbacks
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
  integer(kind=ak), parameter :: big = 2_ak**33 + 5
  integer :: ierr, rc, rank, base, nc, saved, kplus, kzero, kdup, knull, kgone, kgone_saved
  integer :: info, req, i, iplus, izero, how, nc2, kp, pk(2)
  integer(kind=ak) :: xa, xb, xd, v, vin, vout
  integer(kind=ak) :: vplus, vzero, vdup, vnull
  logical :: f, ok
  character(len=16) :: hname(3)
  integer :: status(MPI_STATUS_SIZE)

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  xa = big * 3 + rank
  xb = 4000 + rank
  xd = -(big + rank)
  vplus = big + 3 + rank
  vzero = 4 + rank
  vdup = big * 2 + 1 + rank
  vnull = 2 + rank

  rc = MPI_SUCCESS
  call MPI_COMM_CREATE_KEYVAL(copy_plus_1000, record_delete, kplus, xa, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_CREATE_KEYVAL(copy_flag_false, record_delete, kzero, xb, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, record_delete, kdup, xd, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, knull, 0_ak, ierr)
  rc = max(rc, ierr)
  call check('R1_create_keyval_succeeds', rc == MPI_SUCCESS .and. &
             kplus /= MPI_KEYVAL_INVALID .and. kzero /= MPI_KEYVAL_INVALID .and. &
             kdup /= MPI_KEYVAL_INVALID .and. knull /= MPI_KEYVAL_INVALID .and. &
             kplus /= kzero .and. kplus /= kdup .and. kplus /= knull .and. kzero /= kdup .and. &
             kzero /= knull .and. kdup /= knull)

  call MPI_COMM_DUP(MPI_COMM_WORLD, base, ierr)
  call MPI_COMM_SET_ERRHANDLER(base, MPI_ERRORS_RETURN, ierr)
  rc = MPI_SUCCESS
  call MPI_COMM_SET_ATTR(base, kplus, vplus, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_SET_ATTR(base, kzero, vzero, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_SET_ATTR(base, kdup, vdup, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_SET_ATTR(base, knull, vnull, ierr)
  rc = max(rc, ierr)
  call check('R4_set_attr_succeeds', rc == MPI_SUCCESS)

  ! ---- the three duplicating routines ----
  hname = [character(len=16) :: 'dup', 'dup_with_info', 'idup']
  do how = 1, 3
    ncopy = 0
    nc = MPI_COMM_NULL
    select case (how)
    case (1)
      call MPI_COMM_DUP(base, nc, rc)
    case (2)
      call MPI_INFO_CREATE(info, ierr)
      call MPI_INFO_SET(info, 'hostcheck_private_hint', '1', ierr)
      call MPI_COMM_DUP_WITH_INFO(base, info, nc, rc)
      call MPI_INFO_FREE(info, ierr)
    case (3)
      call MPI_COMM_IDUP(base, nc, req, rc)
      if (rc == MPI_SUCCESS) call MPI_WAIT(req, status, rc)
    end select
    call check('R6_' // trim(hname(how)) // '_succeeds', rc == MPI_SUCCESS .and. &
               nc /= MPI_COMM_NULL .and. nc /= base)
    iplus = 0
    izero = 0
    do i = 1, min(ncopy, maxlog)
      if (copy_key(i) == kplus) iplus = i
      if (copy_key(i) == kzero) izero = i
    end do
    call check('R6_' // trim(hname(how)) // '_runs_each_user_copy_callback_once', &
               ncopy == 2 .and. iplus > 0 .and. izero > 0)
    ok = iplus > 0 .and. izero > 0
    if (ok) ok = copy_comm(iplus) == base .and. copy_comm(izero) == base
    call check('R6_' // trim(hname(how)) // '_copy_callback_gets_old_comm_handle', ok)
    ok = iplus > 0 .and. izero > 0
    if (ok) ok = copy_extra(iplus) == xa .and. copy_extra(izero) == xb
    call check('R6_' // trim(hname(how)) // '_copy_callback_gets_extra_state', ok)
    ok = iplus > 0 .and. izero > 0
    if (ok) ok = copy_val(iplus) == vplus .and. copy_val(izero) == vzero
    call check('R6_' // trim(hname(how)) // '_copy_callback_gets_value_above_2_32', ok)
    if (nc == MPI_COMM_NULL) nc = MPI_COMM_SELF  ! the checks below fail, safely
    call MPI_COMM_GET_ATTR(nc, kplus, v, f, ierr)
    call check('R6_' // trim(hname(how)) // '_copy_flag_true_stores_value_out', &
               ierr == MPI_SUCCESS .and. f .and. v == vplus + 1000)
    call MPI_COMM_GET_ATTR(nc, kzero, v, f, ierr)
    call check('R6_' // trim(hname(how)) // '_copy_flag_false_copies_nothing', &
               ierr == MPI_SUCCESS .and. .not. f)
    call MPI_COMM_GET_ATTR(nc, kdup, v, f, ierr)
    call check('R6_' // trim(hname(how)) // '_COMM_DUP_FN_copies_value', &
               ierr == MPI_SUCCESS .and. f .and. v == vdup)
    call MPI_COMM_GET_ATTR(nc, knull, v, f, ierr)
    call check('R6_' // trim(hname(how)) // '_COMM_NULL_COPY_FN_copies_nothing', &
               ierr == MPI_SUCCESS .and. .not. f)
    ok = .true.
    call MPI_COMM_GET_ATTR(base, kplus, v, f, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. f .and. v == vplus
    call MPI_COMM_GET_ATTR(base, kzero, v, f, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. f .and. v == vzero
    call check('R6_' // trim(hname(how)) // '_old_comm_keeps_its_attributes', ok)

    ! MPI_COMM_FREE of the copy: the delete callbacks of kplus and kdup (kzero was not copied,
    ! knull has MPI_COMM_NULL_DELETE_FN), in the call, with the copy's handle
    if (nc == MPI_COMM_SELF) nc = MPI_COMM_NULL
    saved = nc
    ndel = 0
    rc = MPI_ERR_COMM
    if (nc /= MPI_COMM_NULL) call MPI_COMM_FREE(nc, rc)
    call check('R4_' // trim(hname(how)) // '_free_succeeds_and_nulls_handle', &
               rc == MPI_SUCCESS .and. nc == MPI_COMM_NULL)
    ok = ndel == 2
    do i = 1, min(ndel, maxlog)
      ok = ok .and. del_comm(i) == saved
    end do
    call check('R4_' // trim(hname(how)) // '_free_delete_callbacks_get_freed_comm_handle', ok)
    ok = ndel == 2
    if (ok) ok = (del_key(1) == kplus .and. del_val(1) == vplus + 1000 .and. del_extra(1) == xa &
                  .and. del_key(2) == kdup .and. del_val(2) == vdup .and. del_extra(2) == xd) &
                 .or. (del_key(2) == kplus .and. del_val(2) == vplus + 1000 .and. &
                  del_extra(2) == xa .and. del_key(1) == kdup .and. del_val(1) == vdup .and. &
                  del_extra(1) == xd)
    call check('R4_' // trim(hname(how)) // '_free_delete_callbacks_get_key_value_extra_state', ok)
  end do

  ! ---- MPI_COMM_DELETE_ATTR runs the delete callback; then the attribute is gone ----
  ndel = 0
  call MPI_COMM_DELETE_ATTR(base, kzero, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == kzero .and. del_val(1) == vzero .and. del_extra(1) == xb
  call check('R4_delete_attr_runs_delete_callback_with_key_value_extra_state', ok)
  call check('R4_delete_attr_delete_callback_gets_comm_handle', ndel == 1 .and. del_comm(1) == base)
  call MPI_COMM_GET_ATTR(base, kzero, v, f, ierr)
  call check('R4_delete_attr_removes_the_attribute', ierr == MPI_SUCCESS .and. .not. f)

  ! ---- MPI_COMM_SET_ATTR on a set key deletes the old value first ----
  ndel = 0
  call MPI_COMM_SET_ATTR(base, kplus, vplus + 7, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == kplus .and. del_val(1) == vplus .and. del_extra(1) == xa
  call check('R4_set_attr_replace_runs_delete_callback_on_old_value', ok)
  call check('R4_set_attr_replace_delete_callback_gets_comm_handle', ndel == 1 .and. &
             del_comm(1) == base)
  call MPI_COMM_GET_ATTR(base, kplus, v, f, ierr)
  call check('R4_set_attr_replace_stores_new_value', ierr == MPI_SUCCESS .and. f .and. &
             v == vplus + 7)

  ! ---- MPI_COMM_NULL_DELETE_FN: delete_attr succeeds and removes ----
  call MPI_COMM_DELETE_ATTR(base, knull, rc)
  call MPI_COMM_GET_ATTR(base, knull, v, f, ierr)
  call check('R6_COMM_NULL_DELETE_FN_delete_attr_succeeds', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. .not. f)

  ! ---- the predefined callbacks called directly (R6.5) ----
  vin = big + 11 + rank
  vout = 0
  f = .false.
  call MPI_COMM_DUP_FN(base, kdup, xd, vin, vout, f, ierr)
  call check('R6_COMM_DUP_FN_called_directly_copies', ierr == MPI_SUCCESS .and. f .and. &
             vout == vin)
  vout = 5
  f = .true.
  call MPI_COMM_NULL_COPY_FN(base, kdup, xd, vin, vout, f, ierr)
  call check('R6_COMM_NULL_COPY_FN_called_directly_flag_false', ierr == MPI_SUCCESS .and. &
             .not. f)
  ierr = -1
  call MPI_COMM_NULL_DELETE_FN(base, kdup, vin, xd, ierr)
  call check('R6_COMM_NULL_DELETE_FN_called_directly_succeeds', ierr == MPI_SUCCESS)

  ! ---- a key freed while in use keeps its callbacks (R2.2) ----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, record_delete, kgone, xd, ierr)
  kgone_saved = kgone
  call MPI_COMM_DUP(MPI_COMM_WORLD, nc, ierr)
  call MPI_COMM_SET_ATTR(nc, kgone, big + 77 + rank, ierr)
  call MPI_COMM_FREE_KEYVAL(kgone, rc)
  call check('R2_free_keyval_in_use_sets_invalid', rc == MPI_SUCCESS .and. &
             kgone == MPI_KEYVAL_INVALID)
  ndel = 0
  saved = nc
  call MPI_COMM_FREE(nc, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == kgone_saved .and. del_val(1) == big + 77 + rank .and. &
               del_extra(1) == xd
  call check('R2_freed_keyval_delete_callback_runs_at_comm_free', ok)
  call check('R2_freed_keyval_delete_callback_gets_comm_handle', ndel == 1 .and. &
             del_comm(1) == saved)

  ! ---- free of the base: kplus (replaced value) and kdup have a delete callback ----
  ndel = 0
  saved = base
  call MPI_COMM_FREE(base, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 2 .and. base == MPI_COMM_NULL
  if (ok) ok = (del_key(1) == kplus .and. del_key(2) == kdup) .or. &
               (del_key(1) == kdup .and. del_key(2) == kplus)
  call check('R4_base_free_runs_delete_callbacks', ok)
  ok = ndel == 2
  do i = 1, min(ndel, maxlog)
    ok = ok .and. del_comm(i) == saved
  end do
  call check('R4_base_free_delete_callbacks_get_its_handle', ok)

  ! ---- the profiling names are the same routines (MPI-4.1 §16.2.1, D131) ----
  ! A keyval created through PMPI_COMM_CREATE_KEYVAL with Fortran callbacks, and kplus, created
  ! through the MPI_ name: each set and replaced through both names, read through PMPI_COMM_GET_ATTR,
  ! copied by MPI_COMM_DUP (the callback gets the value and extra_state, not an address) and
  ! deleted through PMPI_COMM_DELETE_ATTR.
  call PMPI_COMM_CREATE_KEYVAL(copy_plus_1000, record_delete, kp, xa, rc)
  call check('R1_pmpi_create_keyval_succeeds', rc == MPI_SUCCESS .and. kp /= MPI_KEYVAL_INVALID)
  pk(1) = kp
  pk(2) = kplus
  ok = .true.
  do i = 1, 2
    call MPI_COMM_DUP(MPI_COMM_WORLD, nc, ierr)
    ncopy = 0
    ndel = 0
    call MPI_COMM_SET_ATTR(nc, pk(i), vplus, ierr)
    ok = ok .and. ierr == MPI_SUCCESS
    call PMPI_COMM_GET_ATTR(nc, pk(i), v, f, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. f .and. v == vplus
    call PMPI_COMM_SET_ATTR(nc, pk(i), vplus + 1, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. ndel == 1
    if (ok) ok = del_val(1) == vplus .and. del_extra(1) == xa
    call MPI_COMM_DUP(nc, nc2, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. ncopy == 1
    if (ok) ok = copy_val(1) == vplus + 1 .and. copy_extra(1) == xa .and. copy_key(1) == pk(i)
    call PMPI_COMM_GET_ATTR(nc2, pk(i), v, f, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. f .and. v == vplus + 1001
    call PMPI_COMM_DELETE_ATTR(nc, pk(i), ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. ndel == 2
    if (ok) ok = del_val(2) == vplus + 1
    call MPI_COMM_GET_ATTR(nc, pk(i), v, f, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. .not. f
    call MPI_COMM_FREE(nc2, ierr)
    ok = ok .and. ierr == MPI_SUCCESS .and. ndel == 3
    if (ok) ok = del_val(3) == vplus + 1001
    call MPI_COMM_FREE(nc, ierr)
  end do
  call check('R4_pmpi_names_set_get_copy_delete_fortran_values', ok)
  call PMPI_COMM_FREE_KEYVAL(kp, rc)
  call check('R2_pmpi_free_keyval_sets_invalid', rc == MPI_SUCCESS .and. kp == MPI_KEYVAL_INVALID)

  rc = MPI_SUCCESS
  call MPI_COMM_FREE_KEYVAL(kplus, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_FREE_KEYVAL(kzero, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_FREE_KEYVAL(kdup, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_FREE_KEYVAL(knull, ierr)
  rc = max(rc, ierr)
  call check('R2_free_keyval_succeeds_and_sets_invalid', rc == MPI_SUCCESS .and. &
             kplus == MPI_KEYVAL_INVALID .and. kzero == MPI_KEYVAL_INVALID .and. &
             kdup == MPI_KEYVAL_INVALID .and. knull == MPI_KEYVAL_INVALID)

  call report('mpif')
  call MPI_FINALIZE(ierr)
end program R6_comm_callbacks
