! mpi_f08 beside C and beside `use mpi` in one executable (C half: mixed_helpers.c, its interfaces:
! mixed_helpers.f90). An mpi_f08 value is an MPI-2 Fortran value (R7.3): C reads it through an
! MPI_Aint*, `use mpi`'s MPI_COMM_GET_ATTR reads it whole and MPI_ATTR_GET its low part; a C value
! reads in mpi_f08 as the address-sized integer, an MPI_ATTR_PUT value sign-extended. Handles are
! the same INTEGER in all three (MPI_VAL). Keyvals cross in every direction and their callbacks run
! in their creating binding with its conventions (R1.6, R7.6): mpi_f08 callbacks get TYPE(MPI_Comm)
! whoever duplicates, `use mpi` callbacks an INTEGER, C callbacks an MPI_Comm.
module mpi_side
  use mpi
  implicit none
  private
  public :: m_set, m_get, m_put, m_get1, m_dup, m_free, m_create_keyval, m_copies, m_seen_handle
  integer :: m_copies = 0, m_seen_handle = -1
contains
  subroutine m_set(comm, key, v)
    integer, intent(in) :: comm, key
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: v
    integer :: ierr
    call MPI_COMM_SET_ATTR(comm, key, v, ierr)
  end subroutine m_set
  subroutine m_get(comm, key, v, flag)
    integer, intent(in) :: comm, key
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: v
    logical, intent(out) :: flag
    integer :: ierr
    call MPI_COMM_GET_ATTR(comm, key, v, flag, ierr)
  end subroutine m_get
  subroutine m_put(comm, key, v)
    integer, intent(in) :: comm, key, v
    integer :: ierr
    call MPI_ATTR_PUT(comm, key, v, ierr)
  end subroutine m_put
  integer function m_get1(comm, key)
    integer, intent(in) :: comm, key
    logical :: flag
    integer :: ierr
    m_get1 = -999
    call MPI_ATTR_GET(comm, key, m_get1, flag, ierr)
  end function m_get1
  integer function m_dup(comm)
    integer, intent(in) :: comm
    integer :: ierr
    call MPI_COMM_DUP(comm, m_dup, ierr)
  end function m_dup
  subroutine m_free(comm)
    integer, intent(inout) :: comm
    integer :: ierr
    call MPI_COMM_FREE(comm, ierr)
  end subroutine m_free
  ! A keyval of `use mpi` with a `use mpi` copy callback (INTEGER handle): the copy gets value * 3.
  integer function m_create_keyval()
    integer :: ierr
    call MPI_COMM_CREATE_KEYVAL(m_copy, MPI_COMM_NULL_DELETE_FN, m_create_keyval, 0_MPI_ADDRESS_KIND, ierr)
  end function m_create_keyval
  subroutine m_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    m_copies = m_copies + 1
    m_seen_handle = oldcomm
    val_out = val_in * 3
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine m_copy
end module mpi_side

module f08_side
  use mpi_f08
  implicit none
  private
  public :: g_copies, g_deletes, g_seen, g_seen_handle, g_copy, g_delete
  integer :: g_copies = 0, g_deletes = 0, g_seen_handle = -1
  integer(kind=MPI_ADDRESS_KIND) :: g_seen = 0
contains
  subroutine g_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    g_copies = g_copies + 1
    g_seen = attribute_val_in
    g_seen_handle = oldcomm%MPI_VAL
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine g_copy
  subroutine g_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    g_deletes = g_deletes + 1
    g_seen = attribute_val
    g_seen_handle = comm%MPI_VAL
    ierror = MPI_SUCCESS
  end subroutine g_delete
end module f08_side

program test_mixed_f08_lang
  use mpi_f08
  use mixed_c
  use mpi_side
  use f08_side
  use ftest
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  type(MPI_Comm) :: comm, dup
  type(MPI_Win) :: win
  type(MPI_Status) :: status
  integer :: k, i, flag_c, ck, gk, mk, cdk, gdk, idup
  integer(kind=ak) :: val, big, p, vals(3)
  integer :: ivals(4)
  logical :: flag
  character(len=48) :: lbl
  integer :: buf(8)

  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_ak)
  big = 2_ak**40

  ! ---- set by C (R7.3 row 1): mpi_f08 reads what `use mpi` reads ----
  p = c_static_address()
  call c_set(comm%MPI_VAL, k, p)
  call MPI_Comm_get_attr(comm, k, val, flag)
  call expect_l('R7_3 C->F08, the address, lossless', flag .and. val == p, .true.)
  call expect_i('R7_3 C->F08, reads the C object through it', c_deref_static(val), 3)
  vals = [17_ak, -5_ak, big + 7]
  do i = 1, 3
    call c_set(comm%MPI_VAL, k, vals(i))
    call MPI_Comm_get_attr(comm, k, val, flag)
    write (lbl, '(a,i0)') 'R7_3 C->F08 (void*)v #', i
    call expect_a(trim(lbl), val, vals(i))
  end do

  ! ---- set by mpi_f08 (an MPI-2 Fortran value): C, `use mpi` and MPI_ATTR_GET read it ----
  vals = [42_ak, -5_ak, big + 3]
  do i = 1, 3
    call MPI_Comm_set_attr(comm, k, vals(i))
    write (lbl, '(a,i0)') 'R7_3 F08->C *(MPI_Aint*) #', i
    call expect_a(trim(lbl), c_get_deref_aint(comm%MPI_VAL, k), vals(i))
    call m_get(comm%MPI_VAL, k, val, flag)
    write (lbl, '(a,i0)') 'R7_3 F08->F2 (use mpi) #', i
    call expect_a(trim(lbl), val, vals(i))
    write (lbl, '(a,i0)') 'R7_3 F08->F1 low part #', i
    call expect_i(trim(lbl), m_get1(comm%MPI_VAL, k), lowpart(vals(i)))
  end do

  ! ---- set by `use mpi`: MPI_ATTR_PUT sign-extended, MPI_COMM_SET_ATTR whole ----
  ivals = [7, -5, huge(0), -huge(0) - 1]
  do i = 1, 4
    call m_put(comm%MPI_VAL, k, ivals(i))
    call MPI_Comm_get_attr(comm, k, val, flag)
    write (lbl, '(a,i0)') 'R7_3 F1->F08 sign-extended #', i
    call expect_a(trim(lbl), val, int(ivals(i), ak))
  end do
  call m_set(comm%MPI_VAL, k, big + 11)
  call MPI_Comm_get_attr(comm, k, val, flag)
  call expect_a('R7_3 F2 (use mpi)->F08', val, big + 11)

  ! ---- predefined attributes (R7.5) and handles ----
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  p = int(c_tag_ub(), ak)
  call expect_l('R7_5 MPI_TAG_UB, mpi_f08 value = C *(int*)', flag .and. val == p, .true.)
  call MPI_Win_create(buf, 32_ak, 4, MPI_INFO_NULL, MPI_COMM_SELF, win)
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag)
  call expect_a('R7_5 MPI_WIN_SIZE from mpi_f08', val, 32_ak)
  call expect_a('R7_5 MPI_WIN_SIZE from C, *(MPI_Aint*)', c_win_size(win%MPI_VAL), 32_ak)
  call MPI_Win_get_attr(win, MPI_WIN_BASE, val, flag)
  call expect_l('R7_5 MPI_WIN_BASE, same address in C and mpi_f08', val == c_win_base(win%MPI_VAL), .true.)
  call MPI_Win_free(win)
  call expect_i('C interop, MPI_Comm_f2c(MPI_COMM_WORLD%MPI_VAL) == C MPI_COMM_WORLD', &
       c_world_is(MPI_COMM_WORLD%MPI_VAL), 1)

  ! ---- a C keyval with C callbacks, duplicated from mpi_f08: C conventions (R1.6, R7.6) ----
  ck = c_create_keyval()
  call MPI_Comm_set_attr(comm, ck, big + 1)
  call MPI_Comm_dup(comm, dup)
  call expect_i('R1_6 C keyval, mpi_f08 dup, C copy callback calls', c_copy_calls(), 1)
  call expect_a('R7_6 C copy callback reads the mpi_f08 value through an MPI_Aint*', c_seen_value(), big + 1)
  call MPI_Comm_get_attr(dup, ck, val, flag)
  call expect_a('R7_3 the C copy reads in mpi_f08 as an address-sized integer', val, big + 2)
  call MPI_Comm_free(dup)
  call expect_i('R1_6 C keyval, mpi_f08 free, C delete callback calls', c_delete_calls(), 1)
  call MPI_Comm_free_keyval(ck)
  call expect_l('R1_3 mpi_f08 frees a C keyval', ck == MPI_KEYVAL_INVALID, .true.)

  ! ---- an mpi_f08 keyval, duplicated and freed from C and from `use mpi` ----
  call MPI_Comm_create_keyval(g_copy, g_delete, gk, 0_ak)
  call c_set(comm%MPI_VAL, gk, big + 10)
  idup = c_dup(comm%MPI_VAL)
  call expect_i('R1_6 mpi_f08 keyval, C dup, mpi_f08 copy callback calls', g_copies, 1)
  call expect_a('R7_6 mpi_f08 copy callback gets the C value as an integer', g_seen, big + 10)
  call expect_l('R1_6 mpi_f08 copy callback gets TYPE(MPI_Comm) of the old communicator', &
       g_seen_handle == comm%MPI_VAL, .true.)
  call expect_a('R7_3 the mpi_f08 copy is an MPI_Aint for C', c_get_deref_aint(idup, gk), big + 11)
  call expect_i('R1_6 mpi_f08 keyval, C free, rc', c_free(idup), MPI_SUCCESS)
  call expect_i('R1_6 mpi_f08 keyval, C free, mpi_f08 delete callback calls', g_deletes, 1)
  call expect_l('R1_6 mpi_f08 delete callback gets TYPE(MPI_Comm) of the freed communicator', &
       g_seen_handle == idup, .true.)
  call m_set(comm%MPI_VAL, gk, 5_ak)
  idup = m_dup(comm%MPI_VAL)
  call expect_i('R1_6 mpi_f08 keyval, use mpi dup, mpi_f08 copy callback calls', g_copies, 2)
  call expect_a('R7_6 mpi_f08 copy callback gets the use mpi value', g_seen, 5_ak)
  call m_get(idup, gk, val, flag)
  call expect_a('R7_3 the mpi_f08 copy reads in use mpi', val, 6_ak)
  g_deletes = 0
  call m_free(idup)
  call expect_i('R1_6 mpi_f08 keyval, use mpi free, mpi_f08 delete callback calls', g_deletes, 1)
  call MPI_Comm_delete_attr(comm, gk)
  call MPI_Comm_free_keyval(gk)

  ! ---- a `use mpi` keyval, duplicated from mpi_f08: `use mpi` conventions (INTEGER handle) ----
  mk = m_create_keyval()
  call MPI_Comm_set_attr(comm, mk, -4_ak)
  call MPI_Comm_dup(comm, dup)
  call expect_i('R1_6 use mpi keyval, mpi_f08 dup, use mpi copy callback calls', m_copies, 1)
  call expect_l('R1_6 use mpi copy callback gets the INTEGER handle', m_seen_handle == comm%MPI_VAL, .true.)
  call MPI_Comm_get_attr(dup, mk, val, flag)
  call expect_a('R7_3 the use mpi copy reads in mpi_f08', val, -12_ak)
  call MPI_Comm_free(dup)
  call MPI_Comm_delete_attr(comm, mk)
  call MPI_Comm_free_keyval(mk)

  ! ---- MPI_COMM_DUP_FN of C and of mpi_f08 copy the value with its origin (D16) ----
  cdk = c_create_dup_fn_keyval()
  call MPI_Comm_set_attr(comm, cdk, -77_ak)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, gdk, 0_ak)
  p = c_static_address()
  call c_set(comm%MPI_VAL, gdk, p)
  call MPI_Comm_dup(comm, dup)
  call expect_l('R6_5 C MPI_COMM_DUP_FN on an mpi_f08 value, C reads an MPI_Aint* to -77', &
       c_get_deref_aint(dup%MPI_VAL, cdk) == -77_ak, .true.)
  call MPI_Comm_get_attr(dup, cdk, val, flag)
  call expect_l('R6_5 C MPI_COMM_DUP_FN on an mpi_f08 value, mpi_f08 reads -77', val == -77_ak, .true.)
  call expect_l('R6_5 mpi_f08 MPI_COMM_DUP_FN on a C value, C reads the same pointer', &
       c_get(dup%MPI_VAL, gdk, flag_c) == p, .true.)
  call MPI_Comm_free(dup)

  ! ---- F16: mpi_f08's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE reach C as MPI_F08_STATUS_IGNORE
  ! and MPI_F08_STATUSES_IGNORE (MPI-4.1 section 19.3.5; MPI-4.0's: -1 from an older mpi.h) ----
  call expect_i('F16 C sees MPI_STATUS_IGNORE as MPI_F08_STATUS_IGNORE', &
       c_which_f08_status_ignore(MPI_STATUS_IGNORE), 1)
  call expect_i('F16 C sees MPI_STATUSES_IGNORE as MPI_F08_STATUSES_IGNORE', &
       c_which_f08_statuses_ignore(MPI_STATUSES_IGNORE), 2)
  call expect_i('F16 C sees a TYPE(MPI_Status) of the program as no IGNORE', c_which_f08_status_ignore(status), 0)

  call MPI_Comm_free(comm)
  call MPI_Finalize()
  call ftest_finish()
end program test_mixed_f08_lang
