! Mixed C/Fortran in one executable (C half: mixed_helpers.c, its interfaces: mixed_helpers.f90,
! module mixed_c): every cell of the R7.3 table with
! positive, negative and > 2**31 values, predefined attributes from both languages (R7.5), handle
! conversions, and keyvals used across the language boundary, whose callbacks always run in their
! creating language with that language's conventions (R1.6, R7.6).
module mixed_f
  use mpi
  implicit none
  private
  public :: f_copies, f_deletes, f_seen, f_seen1, f_copy, f_delete, f_copy1
  integer :: f_copies = 0, f_deletes = 0
  integer(kind=MPI_ADDRESS_KIND) :: f_seen = 0
  integer :: f_seen1 = 0
contains
  subroutine f_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    f_copies = f_copies + 1
    f_seen = val_in
    val_out = val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine f_copy
  subroutine f_delete(comm, keyval, val, extra_state, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    f_deletes = f_deletes + 1
    f_seen = val
    ierror = MPI_SUCCESS
  end subroutine f_delete
  subroutine f_copy1(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
    integer :: oldcomm, keyval, extra_state, val_in, val_out, ierr
    logical :: flag
    f_copies = f_copies + 1
    f_seen1 = val_in
    val_out = val_in
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine f_copy1
end module mixed_f

program test_mixed_lang
  use mpi
  use mixed_c
  use mixed_f
  use ftest
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, comm, dup, k, ival, flag_c, ck, fk, fk1, cdk, fdk, t, win, i
  integer(kind=ak) :: val, big, p, vals2(3)
  integer :: vals1(4)
  integer :: status(MPI_STATUS_SIZE)
  logical :: flag
  character(len=40) :: lbl
  external :: f_copy_flag2
  integer :: buf(8)

  call MPI_INIT(ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_ak, ierr)
  big = 2_ak**40

  ! ---- set by C (R7.3 row 1): an address-valued attribute ----
  p = c_static_address()
  call c_set(comm, k, p)
  call expect_l('R7_3 C->C, the same pointer', c_get(comm, k, flag_c) == p, .true.)
  call MPI_COMM_GET_ATTR(comm, k, val, flag, ierr)
  call expect_l('R7_3 C->F2, the address, lossless', val == p, .true.)
  call expect_i('R7_3 C->F2, reads the C object through it', c_deref_static(val), 3)
  call MPI_ATTR_GET(comm, k, ival, flag, ierr)
  call expect_l('R7_3 C->F1, low part of the address', ival == lowpart(p), .true.)
  vals2 = [17_ak, -5_ak, big + 7]
  do i = 1, 3
    call c_set(comm, k, vals2(i))
    write (lbl, '(a,i0)') 'R7_3 C->C (void*)v #', i
    call expect_a(trim(lbl), c_get(comm, k, flag_c), vals2(i))
    call MPI_COMM_GET_ATTR(comm, k, val, flag, ierr)
    write (lbl, '(a,i0)') 'R7_3 C->F2 (void*)v #', i
    call expect_a(trim(lbl), val, vals2(i))
    call MPI_ATTR_GET(comm, k, ival, flag, ierr)
    write (lbl, '(a,i0)') 'R7_3 C->F1 (void*)v #', i
    call expect_i(trim(lbl), ival, lowpart(vals2(i)))
  end do

  ! ---- set by Fortran MPI_ATTR_PUT (row 2): C gets an int* ----
  vals1 = [7, -5, huge(0), -huge(0) - 1]
  do i = 1, 4
    call MPI_ATTR_PUT(comm, k, vals1(i), ierr)
    write (lbl, '(a,i0)') 'R7_3 F1->C *(int*) #', i
    call expect_i(trim(lbl), c_get_deref_int(comm, k), vals1(i))
    call MPI_ATTR_GET(comm, k, ival, flag, ierr)
    write (lbl, '(a,i0)') 'R7_3 F1->F1 #', i
    call expect_i(trim(lbl), ival, vals1(i))
    call MPI_COMM_GET_ATTR(comm, k, val, flag, ierr)
    write (lbl, '(a,i0)') 'R7_3 F1->F2 sign-extended #', i
    call expect_a(trim(lbl), val, int(vals1(i), ak))
  end do
  call expect_l('R7_3 F1->C pointer stays valid while the attribute exists', &
       c_get(comm, k, flag_c) == c_get(comm, k, flag_c), .true.)

  ! ---- set by Fortran MPI_COMM_SET_ATTR (row 3): C gets an MPI_Aint* ----
  vals2 = [42_ak, -5_ak, big]
  do i = 1, 3
    call MPI_COMM_SET_ATTR(comm, k, vals2(i), ierr)
    write (lbl, '(a,i0)') 'R7_3 F2->C *(MPI_Aint*) #', i
    call expect_a(trim(lbl), c_get_deref_aint(comm, k), vals2(i))
    call MPI_ATTR_GET(comm, k, ival, flag, ierr)
    write (lbl, '(a,i0)') 'R7_3 F2->F1 low part #', i
    call expect_i(trim(lbl), ival, lowpart(vals2(i)))
    call MPI_COMM_GET_ATTR(comm, k, val, flag, ierr)
    write (lbl, '(a,i0)') 'R7_3 F2->F2 #', i
    call expect_a(trim(lbl), val, vals2(i))
  end do
  call MPI_COMM_SET_ATTR(comm, k, 2_ak**31, ierr)
  call MPI_ATTR_GET(comm, k, ival, flag, ierr)
  call expect_i('R7_3 F2->F1 2**31 truncates', ival, -huge(0) - 1)

  ! ---- a C set replacing what Fortran wrote: the value is C's again (row 1) ----
  call MPI_ATTR_PUT(comm, k, 7, ierr)
  call c_set(comm, k, p)
  call expect_l('R7_3 C over F1, C->C the same pointer', c_get(comm, k, flag_c) == p, .true.)
  call MPI_COMM_SET_ATTR(comm, k, 42_ak, ierr)
  call c_set(comm, k, p)
  call expect_l('R7_3 C over F2, C->C the same pointer', c_get(comm, k, flag_c) == p, .true.)
  call MPI_COMM_GET_ATTR(comm, k, val, flag, ierr)
  call expect_l('R7_3 C over F2, C->F2 the address', val == p, .true.)

  ! ---- predefined attributes (R7.5): the value in Fortran, int* / MPI_Aint* / address in C ----
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  call expect_l('R7_5 MPI_TAG_UB, Fortran value = C *(int*)', ival == c_tag_ub(), .true.)
  call MPI_WIN_CREATE(buf, 32_ak, 4, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, val, flag, ierr)
  call expect_a('R7_5 MPI_WIN_SIZE from Fortran', val, 32_ak)
  call expect_a('R7_5 MPI_WIN_SIZE from C, *(MPI_Aint*)', c_win_size(win), 32_ak)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, val, flag, ierr)
  call expect_l('R7_5 MPI_WIN_BASE, same address in C and Fortran', val == c_win_base(win), .true.)

  ! ---- handles cross as the same integer ----
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call expect_i('C interop, c2f(f2c(h)) == h for comm, type, win', c_roundtrip(comm, t, win), 1)
  call expect_i('C interop, MPI_Comm_f2c(MPI_COMM_WORLD) == C MPI_COMM_WORLD', c_world_is(MPI_COMM_WORLD), 1)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_WIN_FREE(win, ierr)

  ! ---- a C keyval with C callbacks, used from Fortran: C conventions (R1.6, R7.6) ----
  ck = c_create_keyval()
  call MPI_COMM_SET_ATTR(comm, ck, big + 1, ierr)
  call MPI_COMM_DUP(comm, dup, ierr)
  call expect_i('R1_6 C keyval, Fortran dup, C copy callback calls', c_copy_calls(), 1)
  call expect_a('R7_6 C copy callback reads the Fortran value through an MPI_Aint*', c_seen_value(), big + 1)
  call MPI_COMM_GET_ATTR(dup, ck, val, flag, ierr)
  call expect_a('R7_3 the C copy is a C value, Fortran reads it as an address-sized integer', val, big + 2)
  call MPI_COMM_FREE(dup, ierr)
  call expect_i('R1_6 C keyval, Fortran free, C delete callback calls', c_delete_calls(), 1)
  call expect_l('R7_6 C delete callback gets the C value', c_seen_value() == big + 2, .true.)
  call MPI_COMM_FREE_KEYVAL(ck, ierr)
  call expect_l('R1_3 Fortran frees a C keyval', ierr == MPI_SUCCESS .and. ck == MPI_KEYVAL_INVALID, .true.)

  ! ---- a Fortran keyval with Fortran callbacks, used from C: Fortran conventions ----
  call MPI_COMM_CREATE_KEYVAL(f_copy, f_delete, fk, 0_ak, ierr)
  call c_set(comm, fk, big + 10)
  dup = c_dup(comm)
  call expect_i('R1_6 Fortran keyval, C dup, Fortran copy callback calls', f_copies, 1)
  call expect_a('R7_6 Fortran copy callback gets the C value as an integer', f_seen, big + 10)
  call expect_a('R7_3 the Fortran copy is an MPI_Aint for C', c_get_deref_aint(dup, fk), big + 11)
  call expect_i('R1_6 Fortran keyval, C free, rc', c_free(dup), MPI_SUCCESS)
  call expect_i('R1_6 Fortran keyval, C free, Fortran delete callback calls', f_deletes, 1)
  call expect_a('R7_6 Fortran delete callback gets the Fortran value', f_seen, big + 11)
  call expect_i('R1_6 Fortran keyval, C delete_attr, rc', c_delete_attr(comm, fk), MPI_SUCCESS)
  call expect_a('R7_6 Fortran delete callback gets a C value as an integer', f_seen, big + 10)
  ! MPI-1 Fortran callbacks get the C value's low part (R7.1, R7.6).
  call MPI_KEYVAL_CREATE(f_copy1, MPI_NULL_DELETE_FN, fk1, 0, ierr)
  call c_set(comm, fk1, big + 9)
  f_copies = 0
  dup = c_dup(comm)
  call expect_i('R7_6 MPI-1 Fortran copy callback from a C dup, calls', f_copies, 1)
  call expect_i('R7_6 MPI-1 Fortran copy callback gets the low part of a C value', f_seen1, 9)
  call expect_i('R7_3 the MPI-1 copy is an int for C', c_get_deref_int(dup, fk1), 9)
  ival = c_free(dup)

  ! ---- predefined DUP_FN of either language copies the value with its origin (D16) ----
  cdk = c_create_dup_fn_keyval()
  call MPI_COMM_SET_ATTR(comm, cdk, -77_ak, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, fdk, 0_ak, ierr)
  p = c_static_address()
  call c_set(comm, fdk, p)
  call MPI_COMM_DUP(comm, dup, ierr)
  call expect_l('R6_5 C MPI_COMM_DUP_FN on a Fortran value, C still reads an MPI_Aint* to -77', &
       c_get_deref_aint(dup, cdk) == -77_ak, .true.)
  call MPI_COMM_GET_ATTR(dup, cdk, val, flag, ierr)
  call expect_l('R6_5 C MPI_COMM_DUP_FN on a Fortran value, Fortran reads -77', val == -77_ak, .true.)
  call expect_l('R6_5 Fortran MPI_COMM_DUP_FN on a C value, C reads the same pointer', &
       c_get(dup, fdk, flag_c) == p, .true.)
  call MPI_COMM_FREE(dup, ierr)

  ! ---- LOGICAL from a callback: any non-zero value is true ----
  call MPI_COMM_CREATE_KEYVAL(f_copy_flag2, MPI_COMM_NULL_DELETE_FN, fdk, 0_ak, ierr)
  call MPI_COMM_SET_ATTR(comm, fdk, 5_ak, ierr)
  call MPI_COMM_DUP(comm, dup, ierr)
  call MPI_COMM_GET_ATTR(dup, fdk, val, flag, ierr)
  call expect_l('F_LOGICAL a copy callback FLAG of 2 keeps the attribute', flag, .true.)
  call MPI_COMM_FREE(dup, ierr)

  ! ---- F16: MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE reach C as MPI_F_STATUS_IGNORE and
  ! MPI_F_STATUSES_IGNORE (MPI-4.1 section 19.3.5), a status of the program's as neither ----
  call expect_i('F16 C sees MPI_STATUS_IGNORE as MPI_F_STATUS_IGNORE', &
       c_which_f_status_ignore(MPI_STATUS_IGNORE), 1)
  call expect_i('F16 C sees MPI_STATUSES_IGNORE as MPI_F_STATUSES_IGNORE', &
       c_which_f_status_ignore(MPI_STATUSES_IGNORE), 2)
  call expect_i('F16 C sees a status array of the program as no IGNORE', c_which_f_status_ignore(status), 0)

  call MPI_COMM_FREE(comm, ierr)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_mixed_lang

! A copy callback whose FLAG holds 2, not the compiler's .TRUE. (declared INTEGER here to store
! it; an external procedure, so no interface is checked): any non-zero flag counts as true.
subroutine f_copy_flag2(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
  use mpi, only: MPI_ADDRESS_KIND, MPI_SUCCESS
  implicit none
  integer :: oldcomm, keyval, ierror, flag
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  val_out = val_in
  flag = 2
  ierror = MPI_SUCCESS
end subroutine f_copy_flag2
