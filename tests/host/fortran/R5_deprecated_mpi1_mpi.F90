! R5_deprecated_mpi1_mpi.F90: one program for `include 'mpif.h'` (built with -DMPIF_H: R5_deprecated_mpi1_mpif) and
! `use mpi` (R5_deprecated_mpi1_usempi).
! (the routines have no mpi_f08 binding). The MPI-1 caching routines MPI_KEYVAL_CREATE,
! MPI_KEYVAL_FREE, MPI_ATTR_PUT, MPI_ATTR_GET, MPI_ATTR_DELETE with INTEGER values, extra_state
! and callbacks, the predefined MPI_DUP_FN / MPI_NULL_COPY_FN / MPI_NULL_DELETE_FN, and how their
! INTEGER values meet the MPI-2 routines' INTEGER(KIND=MPI_ADDRESS_KIND) ones.
!
! MPI-4.1 §17.1 (deprecated, not removed; no mpi_f08 binding, R9.2): the routines have the
! definitions of MPI_COMM_CREATE_KEYVAL, ..., with INTEGER attribute values and extra_state; the
! copy callback of an MPI_KEYVAL_CREATE key runs on MPI_COMM_DUP (R6.7), the delete callback on
! MPI_ATTR_DELETE, on a replacing MPI_ATTR_PUT and on MPI_COMM_FREE, with the communicator's
! handle. §20.3.7 (R7.1, R7.3): every attribute is stored as an address-sized word;
! MPI_ATTR_PUT stores its INTEGER sign-extended, MPI_ATTR_GET returns the low-order part (so
! 2**31 reads as -2**31 and 2**40 as 0, the standard's example), and the same holds for the
! values an MPI-1 Fortran copy callback returns. Keys of both routines live in one space: an
! MPI_COMM_CREATE_KEYVAL key works with MPI_ATTR_PUT / MPI_ATTR_GET. MPI_TAG_UB read with
! MPI_ATTR_GET is the number (R7.5).
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
            del_comm, del_key, del_extra, del_val, mpi1_copy_negate, mpi1_delete
  integer, parameter :: maxlog = 32
  integer :: ncopy = 0, ndel = 0
  integer :: copy_comm(maxlog), copy_key(maxlog), copy_extra(maxlog), copy_val(maxlog)
  integer :: del_comm(maxlog), del_key(maxlog), del_extra(maxlog), del_val(maxlog)
contains
  ! MPI-1 COPY_FUNCTION: every argument INTEGER; returns minus the value
  subroutine mpi1_copy_negate(oldcomm, keyval, extra_state, attribute_val_in, &
                              attribute_val_out, flag, ierr)
    integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
    logical :: flag
    ncopy = ncopy + 1
    if (ncopy <= maxlog) then
      copy_comm(ncopy) = oldcomm
      copy_key(ncopy) = keyval
      copy_extra(ncopy) = extra_state
      copy_val(ncopy) = attribute_val_in
    end if
    attribute_val_out = -attribute_val_in
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine mpi1_copy_negate

  ! MPI-1 DELETE_FUNCTION
  subroutine mpi1_delete(comm, keyval, attribute_val, extra_state, ierr)
    integer :: comm, keyval, attribute_val, extra_state, ierr
    ndel = ndel + 1
    if (ndel <= maxlog) then
      del_comm(ndel) = comm
      del_key(ndel) = keyval
      del_extra(ndel) = extra_state
      del_val(ndel) = attribute_val
    end if
    ierr = MPI_SUCCESS
  end subroutine mpi1_delete
end module cb_log

program R5_deprecated_mpi1
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
  integer :: ierr, rc, rank, base, dup, saved, k1, k2, k3, k2s, x2, x3, ival, kmpi2
  integer(kind=ak) :: v, tag_ub
  logical :: f, ok

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  x2 = 200 + rank
  x3 = -300 - rank

  rc = MPI_SUCCESS
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, k1, 0, ierr)
  rc = max(rc, ierr)
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, mpi1_delete, k2, x2, ierr)
  rc = max(rc, ierr)
  call MPI_KEYVAL_CREATE(mpi1_copy_negate, mpi1_delete, k3, x3, ierr)
  rc = max(rc, ierr)
  call check('R5_keyval_create_succeeds', rc == MPI_SUCCESS .and. &
             k1 /= MPI_KEYVAL_INVALID .and. k2 /= MPI_KEYVAL_INVALID .and. &
             k3 /= MPI_KEYVAL_INVALID .and. k1 /= k2 .and. k1 /= k3 .and. k2 /= k3)
  call MPI_COMM_DUP(MPI_COMM_WORLD, base, ierr)
  call MPI_COMM_SET_ERRHANDLER(base, MPI_ERRORS_RETURN, ierr)

  f = .true.
  call MPI_ATTR_GET(base, k1, ival, f, rc)
  call check('R5_attr_get_without_value_flag_false', rc == MPI_SUCCESS .and. .not. f)
  rc = MPI_SUCCESS
  call MPI_ATTR_PUT(base, k1, 10 + rank, ierr)
  rc = max(rc, ierr)
  call MPI_ATTR_PUT(base, k2, -20 - rank, ierr)
  rc = max(rc, ierr)
  call MPI_ATTR_PUT(base, k3, 7 + rank, ierr)
  rc = max(rc, ierr)
  call check('R5_attr_put_succeeds', rc == MPI_SUCCESS)
  call MPI_ATTR_GET(base, k1, ival, f, rc)
  call check('R5_attr_put_get_round_trip', rc == MPI_SUCCESS .and. f .and. ival == 10 + rank)
  call MPI_ATTR_GET(base, k2, ival, f, rc)
  call check('R5_attr_put_get_negative', rc == MPI_SUCCESS .and. f .and. ival == -20 - rank)

  ! ---- a replacing MPI_ATTR_PUT runs the delete callback on the old value ----
  ndel = 0
  call MPI_ATTR_PUT(base, k2, -21 - rank, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == k2 .and. del_val(1) == -20 - rank .and. del_extra(1) == x2
  call check('R5_attr_put_replace_runs_delete_callback', ok)
  call check('R5_attr_put_replace_delete_callback_gets_comm_handle', ndel == 1 .and. &
             del_comm(1) == base)

  ! ---- MPI_COMM_DUP runs the MPI-1 copy callbacks ----
  ncopy = 0
  dup = MPI_COMM_NULL
  call MPI_COMM_DUP(base, dup, rc)
  call check('R5_dup_succeeds', rc == MPI_SUCCESS .and. dup /= MPI_COMM_NULL)
  call check('R5_dup_runs_mpi1_copy_callback_once', ncopy == 1)
  call check('R5_mpi1_copy_callback_gets_old_comm_handle', ncopy == 1 .and. copy_comm(1) == base)
  ok = ncopy == 1
  if (ok) ok = copy_key(1) == k3 .and. copy_extra(1) == x3 .and. copy_val(1) == 7 + rank
  call check('R5_mpi1_copy_callback_gets_key_extra_state_value', ok)
  if (dup == MPI_COMM_NULL) dup = MPI_COMM_SELF  ! the checks below fail, safely
  call MPI_ATTR_GET(dup, k1, ival, f, rc)
  call check('R5_MPI_DUP_FN_copies_value', rc == MPI_SUCCESS .and. f .and. ival == 10 + rank)
  call MPI_ATTR_GET(dup, k2, ival, f, rc)
  call check('R5_MPI_NULL_COPY_FN_copies_nothing', rc == MPI_SUCCESS .and. .not. f)
  call MPI_ATTR_GET(dup, k3, ival, f, rc)
  call check('R5_mpi1_copy_flag_true_stores_value_out', rc == MPI_SUCCESS .and. f .and. &
             ival == -7 - rank)
  call MPI_COMM_GET_ATTR(dup, k3, v, f, rc)
  call check('R7_1_mpi1_copy_callback_value_sign_extended', rc == MPI_SUCCESS .and. f .and. &
             v == int(-7 - rank, ak))

  ! ---- MPI_ATTR_DELETE, and MPI_COMM_FREE, run the delete callback ----
  ndel = 0
  call MPI_ATTR_DELETE(dup, k3, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == k3 .and. del_val(1) == -7 - rank .and. del_extra(1) == x3
  call check('R5_attr_delete_runs_delete_callback', ok)
  call check('R5_attr_delete_delete_callback_gets_comm_handle', ndel == 1 .and. &
             del_comm(1) == dup)
  call MPI_ATTR_GET(dup, k3, ival, f, rc)
  call check('R5_attr_delete_removes_the_attribute', rc == MPI_SUCCESS .and. .not. f)
  call MPI_ATTR_PUT(dup, k2, 55 + rank, rc)
  ndel = 0
  saved = dup
  call MPI_COMM_FREE(dup, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 1
  if (ok) ok = del_key(1) == k2 .and. del_val(1) == 55 + rank .and. del_extra(1) == x2
  call check('R5_comm_free_runs_mpi1_delete_callback', ok)
  call check('R5_comm_free_mpi1_delete_callback_gets_freed_comm_handle', ndel == 1 .and. &
             del_comm(1) == saved)

  ! ---- the value rules of MPI-4.1 §20.3.7 (R7.1, R7.3) ----
  call MPI_ATTR_PUT(base, k1, -5 - rank, rc)
  call MPI_COMM_GET_ATTR(base, k1, v, f, ierr)
  call check('R7_1_attr_put_negative_read_by_comm_get_attr_sign_extended', rc == MPI_SUCCESS &
             .and. ierr == MPI_SUCCESS .and. f .and. v == int(-5 - rank, ak))
  call MPI_ATTR_PUT(base, k1, huge(0) - rank, rc)
  call MPI_COMM_GET_ATTR(base, k1, v, f, ierr)
  call check('R7_1_attr_put_huge_read_by_comm_get_attr', rc == MPI_SUCCESS .and. f .and. &
             v == int(huge(0) - rank, ak))
  call MPI_COMM_SET_ATTR(base, k1, 2_ak**32 + 7 + rank, rc)
  call MPI_ATTR_GET(base, k1, ival, f, ierr)
  call check('R7_1_attr_get_gives_low_part', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. &
             f .and. ival == 7 + rank)
  call MPI_COMM_SET_ATTR(base, k1, 2_ak**31, rc)
  call MPI_ATTR_GET(base, k1, ival, f, ierr)
  call check('R7_1_attr_get_of_2_31_is_minus_2_31', rc == MPI_SUCCESS .and. f .and. &
             ival == -huge(0) - 1)
  call MPI_COMM_SET_ATTR(base, k1, 2_ak**40, rc)
  call MPI_ATTR_GET(base, k1, ival, f, ierr)
  call check('R7_3_attr_get_of_2_40_is_0', rc == MPI_SUCCESS .and. f .and. ival == 0)
  call MPI_COMM_SET_ATTR(base, k1, -2_ak, rc)
  call MPI_ATTR_GET(base, k1, ival, f, ierr)
  call check('R7_1_attr_get_of_minus_2_is_minus_2', rc == MPI_SUCCESS .and. f .and. ival == -2)

  ! ---- one key space: an MPI_COMM_CREATE_KEYVAL key with the MPI-1 routines ----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kmpi2, 0_ak, ierr)
  call MPI_ATTR_PUT(base, kmpi2, 123 + rank, rc)
  call MPI_ATTR_GET(base, kmpi2, ival, f, ierr)
  call check('R5_mpi2_key_with_attr_put_get', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. &
             f .and. ival == 123 + rank)
  call MPI_ATTR_DELETE(base, kmpi2, rc)
  call MPI_COMM_GET_ATTR(base, kmpi2, v, f, ierr)
  call check('R5_mpi2_key_with_attr_delete', rc == MPI_SUCCESS .and. .not. f)
  call MPI_COMM_FREE_KEYVAL(kmpi2, ierr)

  ! ---- MPI_TAG_UB with MPI_ATTR_GET (R7.5) ----
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, f, ierr)
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, ival, f, rc)
  call check('R8_attr_get_MPI_TAG_UB_is_the_value', rc == MPI_SUCCESS .and. f .and. &
             ival >= 32767 .and. int(ival, ak) == tag_ub)
  call fact('MPI_TAG_UB_by_attr_get', ival)

  ! ---- MPI_KEYVAL_FREE; the free of base runs the delete callbacks of k2 (freed, R2.2) and k3 ----
  k2s = k2
  call MPI_KEYVAL_FREE(k2, rc)
  call check('R5_keyval_free_sets_invalid', rc == MPI_SUCCESS .and. k2 == MPI_KEYVAL_INVALID)
  ndel = 0
  saved = base
  call MPI_COMM_FREE(base, rc)
  ok = rc == MPI_SUCCESS .and. ndel == 2
  if (ok) ok = (del_key(1) == k2s .and. del_val(1) == -21 - rank .and. del_key(2) == k3 .and. &
                del_val(2) == 7 + rank) .or. (del_key(2) == k2s .and. del_val(2) == -21 - rank &
                .and. del_key(1) == k3 .and. del_val(1) == 7 + rank)
  call check('R5_comm_free_runs_delete_callbacks_also_of_a_freed_keyval', ok)
  call check('R5_comm_free_delete_callbacks_get_comm_handle', ndel == 2 .and. &
             all(del_comm(1:min(ndel, 2)) == saved))
  call MPI_KEYVAL_FREE(k1, rc)
  call MPI_KEYVAL_FREE(k3, ierr)
  call check('R5_keyval_free_all', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. &
             k1 == MPI_KEYVAL_INVALID .and. k3 == MPI_KEYVAL_INVALID)

  call report('mpif')
  call MPI_FINALIZE(ierr)
end program R5_deprecated_mpi1
