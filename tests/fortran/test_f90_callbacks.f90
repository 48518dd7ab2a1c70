! Fortran callbacks in their own conventions (R1.6, R6, R7.6, R4.5), through `use mpi`: MPI-2 style
! (MPI_XXX_CREATE_KEYVAL: INTEGER(KIND=MPI_ADDRESS_KIND) values) and MPI-1 style
! (MPI_KEYVAL_CREATE: INTEGER values) on dup and free of communicators and datatypes and on window
! free; the predefined callbacks; a callback error failing the call that ran it.
module callbacks
  use mpi
  implicit none
  private
  public :: copies, deletes, fail_with, seen_val, seen_extra, seen_val1, seen_extra1
  public :: copy2, delete2, copy1, delete1
  integer :: copies = 0, deletes = 0, fail_with = MPI_SUCCESS
  integer(kind=MPI_ADDRESS_KIND) :: seen_val = -1, seen_extra = -1
  integer :: seen_val1 = -1, seen_extra1 = -1
contains
  ! COMM_COPY_ATTR_FUNCTION (also TYPE_ and WIN_): the copy gets value + 1.
  subroutine copy2(oldobj, keyval, extra_state, val_in, val_out, flag, ierror)
    integer :: oldobj, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    copies = copies + 1
    seen_val = val_in
    seen_extra = extra_state
    val_out = val_in + 1
    flag = .true.
    ierror = fail_with
  end subroutine copy2

  subroutine delete2(obj, keyval, val, extra_state, ierror)
    integer :: obj, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    deletes = deletes + 1
    seen_val = val
    seen_extra = extra_state
    ierror = fail_with
  end subroutine delete2

  ! COPY_FUNCTION (MPI-1): everything INTEGER; the copy gets value * 2.
  subroutine copy1(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
    integer :: oldcomm, keyval, extra_state, val_in, val_out, ierr
    logical :: flag
    copies = copies + 1
    seen_val1 = val_in
    seen_extra1 = extra_state
    val_out = val_in * 2
    flag = .true.
    ierr = fail_with
  end subroutine copy1

  subroutine delete1(comm, keyval, val, extra_state, ierr)
    integer :: comm, keyval, val, extra_state, ierr
    deletes = deletes + 1
    seen_val1 = val
    seen_extra1 = extra_state
    ierr = fail_with
  end subroutine delete1

end module callbacks

program test_f90_callbacks
  use mpi
  use callbacks
  use ftest
  implicit none
  integer :: ierr, comm, dup, k2, k1, kdup, knull, k1dup, k1null, kt, kt2, kw, kw2, kerr
  integer :: t, tdup, win, ival, cls
  integer(kind=MPI_ADDRESS_KIND) :: val, extra, big
  logical :: flag
  integer :: buf(4)

  call MPI_INIT(ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  big = 2_MPI_ADDRESS_KIND**40

  ! ---- communicators, MPI-2 callbacks (R6.2, R4.4) ----
  extra = 11
  call MPI_COMM_CREATE_KEYVAL(copy2, delete2, k2, extra, ierr)
  call MPI_COMM_SET_ATTR(comm, k2, 100_MPI_ADDRESS_KIND, ierr)
  copies = 0
  call MPI_COMM_DUP(comm, dup, ierr)
  call expect_i('R6_2 comm dup, mpi2 copy callback calls', copies, 1)
  call expect_a('R6_2 comm dup, mpi2 copy callback saw value', seen_val, 100_MPI_ADDRESS_KIND)
  call expect_a('R1_4 comm dup, mpi2 copy callback saw extra_state', seen_extra, 11_MPI_ADDRESS_KIND)
  call MPI_COMM_GET_ATTR(dup, k2, val, flag, ierr)
  call expect_a('R6_2 comm dup, copy holds val_out', val, 101_MPI_ADDRESS_KIND)
  deletes = 0
  call MPI_COMM_FREE(dup, ierr)
  call expect_i('R4_4 comm free, mpi2 delete callback calls', deletes, 1)
  call expect_a('R4_4 comm free, mpi2 delete callback saw value', seen_val, 101_MPI_ADDRESS_KIND)
  call expect_l('R4_4 comm free, handle is MPI_COMM_NULL', dup == MPI_COMM_NULL, .true.)
  ! A value above 2**31 reaches an MPI-2 callback whole.
  call MPI_COMM_SET_ATTR(comm, k2, big, ierr)
  call MPI_COMM_DUP(comm, dup, ierr)
  call expect_a('R7_3 comm dup, mpi2 copy callback saw 2**40', seen_val, big)
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_DELETE_ATTR(comm, k2, ierr)
  call expect_a('R4_3 delete_attr, mpi2 delete callback saw 2**40', seen_val, big)

  ! ---- communicators, MPI-1 callbacks (R6.7, R7.1) ----
  call MPI_KEYVAL_CREATE(copy1, delete1, k1, 22, ierr)
  call MPI_ATTR_PUT(comm, k1, -7, ierr)
  copies = 0
  call MPI_COMM_DUP(comm, dup, ierr)
  call expect_i('R6_7 comm dup, mpi1 copy callback calls', copies, 1)
  call expect_i('R6_7 comm dup, mpi1 copy callback saw value', seen_val1, -7)
  call expect_i('R1_4 comm dup, mpi1 copy callback saw extra_state', seen_extra1, 22)
  call MPI_ATTR_GET(dup, k1, ival, flag, ierr)
  call expect_i('R6_7 comm dup, MPI_ATTR_GET of the copy', ival, -14)
  call MPI_COMM_GET_ATTR(dup, k1, val, flag, ierr)
  call expect_a('R7_1 comm dup, MPI_COMM_GET_ATTR of the copy (sign-extended)', val, -14_MPI_ADDRESS_KIND)
  deletes = 0
  call MPI_COMM_FREE(dup, ierr)
  call expect_i('R4_4 comm free, mpi1 delete callback calls', deletes, 1)
  call expect_i('R4_4 comm free, mpi1 delete callback saw value', seen_val1, -14)
  ! An MPI-2 value through an MPI-1 callback: its low part (R7.6).
  call MPI_COMM_SET_ATTR(comm, k1, big + 3, ierr)
  call MPI_COMM_DUP(comm, dup, ierr)
  call expect_i('R7_6 comm dup, mpi1 copy callback saw low part of 2**40+3', seen_val1, 3)
  call MPI_COMM_FREE(dup, ierr)
  call MPI_ATTR_DELETE(comm, k1, ierr)
  call expect_i('R4_3 MPI_ATTR_DELETE, mpi1 delete callback saw low part', seen_val1, 3)
  call MPI_KEYVAL_FREE(k1, ierr)
  call expect_l('R2_1 MPI_KEYVAL_FREE sets MPI_KEYVAL_INVALID', k1 == MPI_KEYVAL_INVALID, .true.)

  ! ---- predefined callbacks passed from Fortran (R6.5) ----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kdup, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, knull, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, k1dup, 0, ierr)
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, k1null, 0, ierr)
  call MPI_COMM_SET_ATTR(comm, kdup, big + 5, ierr)
  call MPI_COMM_SET_ATTR(comm, knull, 6_MPI_ADDRESS_KIND, ierr)
  call MPI_ATTR_PUT(comm, k1dup, -8, ierr)
  call MPI_ATTR_PUT(comm, k1null, 9, ierr)
  call MPI_COMM_DUP(comm, dup, ierr)
  call MPI_COMM_GET_ATTR(dup, kdup, val, flag, ierr)
  call expect_l('R6_5 MPI_COMM_DUP_FN, copied', flag, .true.)
  call expect_a('R6_5 MPI_COMM_DUP_FN, value', val, big + 5)
  call MPI_COMM_GET_ATTR(dup, knull, val, flag, ierr)
  call expect_l('R6_5 MPI_COMM_NULL_COPY_FN, not copied', flag, .false.)
  call MPI_ATTR_GET(dup, k1dup, ival, flag, ierr)
  call expect_l('R6_5 MPI_DUP_FN, copied', flag, .true.)
  call expect_i('R6_5 MPI_DUP_FN, value', ival, -8)
  call MPI_ATTR_GET(dup, k1null, ival, flag, ierr)
  call expect_l('R6_5 MPI_NULL_COPY_FN, not copied', flag, .false.)
  call MPI_COMM_FREE(dup, ierr)
  call expect_i('R6_5 MPI_COMM_NULL_DELETE_FN, free succeeds', ierr, MPI_SUCCESS)
  ! Called directly, they do what R6.5 says.
  flag = .false.
  call MPI_COMM_DUP_FN(comm, kdup, extra, big, val, flag, ierr)
  call expect_a('R6_5 MPI_COMM_DUP_FN called directly, val_out', val, big)
  call expect_l('R6_5 MPI_COMM_DUP_FN called directly, flag', flag, .true.)
  call MPI_COMM_NULL_COPY_FN(comm, kdup, extra, big, val, flag, ierr)
  call expect_l('R6_5 MPI_COMM_NULL_COPY_FN called directly, flag', flag, .false.)

  ! ---- datatypes: MPI-2 callbacks and the TYPE predefined ones (R6.1, R4.4) ----
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call MPI_TYPE_CREATE_KEYVAL(copy2, delete2, kt, 33_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kt2, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_SET_ATTR(t, kt, -200_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_SET_ATTR(t, kt2, big, ierr)
  copies = 0
  call MPI_TYPE_DUP(t, tdup, ierr)
  call expect_i('R6_1 type dup, mpi2 copy callback calls', copies, 1)
  call expect_a('R6_1 type dup, copy callback saw value', seen_val, -200_MPI_ADDRESS_KIND)
  call expect_a('R1_4 type dup, copy callback saw extra_state', seen_extra, 33_MPI_ADDRESS_KIND)
  call MPI_TYPE_GET_ATTR(tdup, kt, val, flag, ierr)
  call expect_a('R6_1 type dup, copy holds val_out', val, -199_MPI_ADDRESS_KIND)
  call MPI_TYPE_GET_ATTR(tdup, kt2, val, flag, ierr)
  call expect_a('R6_5 MPI_TYPE_DUP_FN, value', val, big)
  deletes = 0
  call MPI_TYPE_FREE(tdup, ierr)
  call expect_i('R4_4 type free, delete callback calls', deletes, 1)
  call expect_a('R4_4 type free, delete callback saw value', seen_val, -199_MPI_ADDRESS_KIND)
  call MPI_TYPE_DELETE_ATTR(t, kt, ierr)
  call expect_i('R4_3 type delete_attr, delete callback calls', deletes, 2)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_FREE_KEYVAL(kt, ierr)
  call expect_l('R2_1 MPI_TYPE_FREE_KEYVAL sets MPI_KEYVAL_INVALID', kt == MPI_KEYVAL_INVALID, .true.)
  call MPI_TYPE_FREE_KEYVAL(kt2, ierr)

  ! ---- windows: delete callbacks on free; the WIN predefined callbacks (R4.4, R6.1) ----
  call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, delete2, kw, 44_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, kw2, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_SET_ATTR(win, kw, 300_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_SET_ATTR(win, kw2, 301_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_GET_ATTR(win, kw2, val, flag, ierr)
  call expect_a('R4_2 win get_attr', val, 301_MPI_ADDRESS_KIND)
  deletes = 0
  call MPI_WIN_SET_ATTR(win, kw, 302_MPI_ADDRESS_KIND, ierr)
  call expect_i('R4_1 win set_attr replace, delete callback calls', deletes, 1)
  call expect_a('R4_1 win set_attr replace, delete callback saw old value', seen_val, 300_MPI_ADDRESS_KIND)
  call MPI_WIN_FREE(win, ierr)
  call expect_i('R4_4 win free, delete callback calls', deletes, 2)
  call expect_a('R4_4 win free, delete callback saw value', seen_val, 302_MPI_ADDRESS_KIND)
  call expect_a('R1_4 win free, delete callback saw extra_state', seen_extra, 44_MPI_ADDRESS_KIND)
  call expect_l('R4_4 win free, handle is MPI_WIN_NULL', win == MPI_WIN_NULL, .true.)
  call MPI_WIN_FREE_KEYVAL(kw, ierr)
  call MPI_WIN_FREE_KEYVAL(kw2, ierr)

  ! ---- a callback error fails the call that ran it (R4.5) ----
  call MPI_COMM_SET_ERRHANDLER(comm, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_CREATE_KEYVAL(copy2, delete2, kerr, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(comm, kerr, 1_MPI_ADDRESS_KIND, ierr)
  fail_with = MPI_ERR_OTHER
  call MPI_COMM_DUP(comm, dup, ierr)
  fail_with = MPI_SUCCESS
  call MPI_ERROR_CLASS(ierr, cls, ival)
  call expect_l('R4_5 failing copy callback fails MPI_COMM_DUP', cls == MPI_ERR_OTHER, .true.)
  fail_with = MPI_ERR_OTHER
  call MPI_COMM_DELETE_ATTR(comm, kerr, ierr)
  fail_with = MPI_SUCCESS
  call expect_l('R4_3 failing delete callback fails MPI_COMM_DELETE_ATTR', ierr /= MPI_SUCCESS, .true.)
  call MPI_COMM_DUP(MPI_COMM_SELF, dup, ierr)
  call MPI_COMM_SET_ERRHANDLER(dup, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ATTR(dup, kerr, 2_MPI_ADDRESS_KIND, ierr)
  fail_with = MPI_ERR_OTHER
  call MPI_COMM_FREE(dup, ierr)
  fail_with = MPI_SUCCESS
  call expect_l('R4_5 failing delete callback fails MPI_COMM_FREE', ierr /= MPI_SUCCESS, .true.)
  call MPI_COMM_DELETE_ATTR(comm, kerr, ierr)

  call MPI_COMM_FREE(comm, ierr)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_f90_callbacks
