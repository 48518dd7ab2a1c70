! R3_bad_input_mpi.F90: one program for `include 'mpif.h'` (built with -DMPIF_H: R3_bad_input_mpif) and
! `use mpi` (R3_bad_input_usempi).
! Erroneous caching calls from Fortran under
! MPI_ERRORS_RETURN: IERROR is not MPI_SUCCESS, MPI_ERROR_CLASS of it gives the class the
! standard names, MPI_ERROR_STRING describes it.
!
! MPI-4.1 §8.7 (advice to implementors, R1.5): a key used with another object kind's routine
! should raise an error; §8.7.2 (R2.3): MPI_KEYVAL_INVALID and a freed key are erroneous;
! §8.7.5, §10.4 (R3.1): the class of an erroneous key is MPI_ERR_KEYVAL, of a bad handle
! MPI_ERR_COMM / MPI_ERR_TYPE. §17.1: the same for MPI_ATTR_PUT / MPI_ATTR_GET. §10.3:
! MPI_ERROR_CLASS of a code an MPI routine returned succeeds; §10.4: MPI_ERROR_STRING gives a
! non-empty text of at most MPI_MAX_ERROR_STRING characters. §10.1.2 (R8.1): setting or deleting
! a predefined attribute is erroneous (no class named: only the failure is checked). Errors
! without a communicator or window go to MPI_COMM_SELF's handler (§10.3) or MPI_COMM_WORLD's (the
! MPI-3 rule): both have MPI_ERRORS_RETURN here.
program R3_bad_input
#ifndef MPIF_H
  use mpi
#endif
  use fhost_check
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, rc, rank, comm, t, win, kc, kt, kw, kfreed, ival, slen
  integer(kind=ak) :: v
  logical :: f
  integer :: buf(4)
  character(len=MPI_MAX_ERROR_STRING) :: text

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call MPI_COMM_SET_ERRHANDLER(comm, MPI_ERRORS_RETURN, ierr)
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call MPI_WIN_CREATE(buf, int(16, ak), 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kc, 0_ak, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, kt, 0_ak, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kw, 0_ak, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kfreed, 0_ak, ierr)
  ival = kfreed
  call MPI_COMM_FREE_KEYVAL(ival, ierr)

  ! ---- a key of another object kind (R1.5, R3.1) ----
  call MPI_COMM_SET_ATTR(comm, kt, 1_ak, rc)
  call expect_class('R3_comm_set_attr_type_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_COMM_GET_ATTR(comm, kt, v, f, rc)
  call expect_class('R3_comm_get_attr_type_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_COMM_DELETE_ATTR(comm, kw, rc)
  call expect_class('R3_comm_delete_attr_win_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_TYPE_SET_ATTR(t, kc, 1_ak, rc)
  call expect_class('R3_type_set_attr_comm_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_TYPE_GET_ATTR(t, kw, v, f, rc)
  call expect_class('R3_type_get_attr_win_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_WIN_SET_ATTR(win, kc, 1_ak, rc)
  call expect_class('R3_win_set_attr_comm_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_WIN_GET_ATTR(win, kt, v, f, rc)
  call expect_class('R3_win_get_attr_type_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_ATTR_PUT(comm, kt, 1, rc)
  call expect_class('R3_attr_put_type_keyval_class', rc, MPI_ERR_KEYVAL)
  call MPI_ATTR_GET(comm, kw, ival, f, rc)
  call expect_class('R3_attr_get_win_keyval_class', rc, MPI_ERR_KEYVAL)

  ! ---- MPI_KEYVAL_INVALID and a freed key (R2.3) ----
  call MPI_COMM_GET_ATTR(comm, MPI_KEYVAL_INVALID, v, f, rc)
  call expect_class('R3_comm_get_attr_KEYVAL_INVALID_class', rc, MPI_ERR_KEYVAL)
  call MPI_COMM_SET_ATTR(comm, MPI_KEYVAL_INVALID, 1_ak, rc)
  call expect_class('R3_comm_set_attr_KEYVAL_INVALID_class', rc, MPI_ERR_KEYVAL)
  call MPI_COMM_SET_ATTR(comm, kfreed, 1_ak, rc)
  call expect_class('R3_comm_set_attr_freed_keyval_class', rc, MPI_ERR_KEYVAL)

  ! ---- bad handles (R3.2) ----
  call MPI_COMM_SET_ATTR(MPI_COMM_NULL, kc, 1_ak, rc)
  call expect_class('R3_comm_set_attr_COMM_NULL_class', rc, MPI_ERR_COMM)
  call MPI_TYPE_SET_ATTR(MPI_DATATYPE_NULL, kt, 1_ak, rc)
  call expect_class('R3_type_set_attr_DATATYPE_NULL_class', rc, MPI_ERR_TYPE)

  ! ---- MPI_ERROR_STRING of an error code a caching call returned ----
  call MPI_COMM_SET_ATTR(comm, kt, 1_ak, rc)
  text = ''
  slen = -1
  call MPI_ERROR_STRING(rc, text, slen, ierr)
  call check('R3_error_string_of_keyval_error_non_empty', rc /= MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. slen > 0 .and. slen <= MPI_MAX_ERROR_STRING .and. &
             len_trim(text) > 0)
  call info_text('error_string_of_comm_set_attr_type_keyval', text(1:min(max(slen, 1), 120)))
  call check_added_code('D87_code_is_added_and_gives_mpiattrs_message', rc, MPI_ERR_KEYVAL, &
                        text, 'MPI_COMM_SET_ATTR')

  ! ---- a predefined attribute cannot be set or deleted (R8.1) ----
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, 5_ak, rc)
  call check('R8_set_attr_MPI_TAG_UB_fails', rc /= MPI_SUCCESS)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, rc)
  call check('R8_delete_attr_MPI_TAG_UB_fails', rc /= MPI_SUCCESS)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, v, f, rc)
  call check('R8_MPI_TAG_UB_still_readable', rc == MPI_SUCCESS .and. f .and. v >= 32767)

  ! ---- the failed calls changed nothing: the keys still work where they belong ----
  call MPI_COMM_SET_ATTR(comm, kc, 3_ak + rank, rc)
  call MPI_COMM_GET_ATTR(comm, kc, v, f, ierr)
  call check('R3_keys_still_work_after_errors', rc == MPI_SUCCESS .and. f .and. v == 3 + rank)

  call MPI_WIN_FREE(win, ierr)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_COMM_FREE(comm, ierr)
  call MPI_COMM_FREE_KEYVAL(kc, ierr)
  call MPI_TYPE_FREE_KEYVAL(kt, ierr)
  call MPI_WIN_FREE_KEYVAL(kw, ierr)
  call report('mpif')
  call MPI_FINALIZE(ierr)

contains

  ! CHECK that code is an error of class want; the class seen is an INFO line.
  subroutine expect_class(name, code, want)
    character(len=*), intent(in) :: name
    integer, intent(in) :: code, want
    integer :: cls, e
    cls = -1
    e = MPI_SUCCESS
    if (code == MPI_SUCCESS) then
      cls = MPI_SUCCESS
    else
      call MPI_ERROR_CLASS(code, cls, e)
      if (e /= MPI_SUCCESS) cls = -1000 - e
    end if
    call info_value('class_' // name(4:len(name) - 6), cls)
    call check(name, code /= MPI_SUCCESS .and. e == MPI_SUCCESS .and. cls == want)
  end subroutine expect_class
end program R3_bad_input
