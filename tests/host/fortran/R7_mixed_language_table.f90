! R7_mixed_language_table.f90 (use mpi, with the C half R7_mixed_language_table_helpers.c): the
! 3x3 table of MPI-4.1 §20.3.7 on every rank, in one executable: a keyval created by one language
! (C MPI_Comm_create_keyval, Fortran MPI-1 MPI_KEYVAL_CREATE, Fortran MPI-2
! MPI_COMM_CREATE_KEYVAL), a value set by one (C MPI_Comm_set_attr, MPI_ATTR_PUT,
! MPI_COMM_SET_ATTR), read by each of the three (C MPI_Comm_get_attr, MPI_ATTR_GET,
! MPI_COMM_GET_ATTR), on the communicator and on a duplicate made by another language. Then
! keyvals whose callbacks cross the language boundary, and MPI_TAG_UB from both languages.
!
! What the standard says each cell gives (MPI-4.1 §20.3.7, "Attributes"; rules R7.1-R7.3; the
! standard's examples 1-3 and tests/fortran/test_mixed_lang.f90 check the same):
!
!   set by \ read by  C MPI_Comm_get_attr         Fortran MPI_ATTR_GET    MPI_COMM_GET_ATTR
!   C  (void*)p       p itself                    the low 32 bits of p    p as an address-sized
!                     (the same pointer)          (the address, cut)      integer (lossless)
!   MPI_ATTR_PUT VAL  a pointer to an int in MPI  VAL                     VAL sign-extended
!   (INTEGER)         storage holding VAL                                 to MPI_ADDRESS_KIND
!   MPI_COMM_SET_ATTR a pointer to an MPI_Aint    the low 32 bits of VAL  VAL
!   VAL (ADDR. KIND)  in MPI storage holding VAL  (2**40 + 42 reads 42)
!
! Here C sets the address of a C object (a real pointer, above 2**32 on x86-64, so the MPI-1
! read truncates it), MPI_ATTR_PUT sets -7 - rank (sign extension), MPI_COMM_SET_ATTR sets
! 2**40 + 42 + rank (truncation). Checks R7_3_<creator>key_<setter>set_<reader>get.
!
! Every keyval is created with its language's predefined DUP_FN (C MPI_COMM_DUP_FN, MPI_DUP_FN,
! MPI_COMM_DUP_FN), which copies attribute_val_in to attribute_val_out (MPI-4.1 §8.7.2, §17.1,
! R6.5); the duplicate is made by C for a Fortran keyval and by Fortran for a C keyval. Checks
! R6_5_<creator>key_<setter>set_<reader>get_after_DUP_FN: each reader reads the duplicate as it
! reads the original, i.e. a predefined DUP_FN copies the stored value with its origin, whichever
! language's DUP_FN it is and whoever set the value (docs/decisions.md D16, docs/fortran.md F5).
! That is mpiattr's reading, recorded as such in tests/fortran/divergences.toml too: taken
! literally, §20.3.7 would run a DUP_FN as a callback of its language with the converted value
! (a C DUP_FN copies the pointer C sees for a Fortran value, so the copy becomes a C address; an
! MPI-1 Fortran MPI_DUP_FN sees and stores only the low part: "also when MPI-1 Fortran copy
! callbacks are invoked"), which is what the hosts alone do in the cells divergences.toml lists.
!
! Callbacks across languages (MPI-4.1 §20.3.7, §8.7.2, R1.6, R7.6): a callback is called in the
! language of the keyval's creator, with that language's handle for the same communicator
! (MPI_Comm_f2c / c2f of the one duplicated or freed), and the value converted as the table says
! for that language (a C callback reads an MPI_COMM_SET_ATTR value through an MPI_Aint*, an MPI-2
! Fortran callback reads a C value as an integer, an MPI-1 Fortran callback the low part); what a
! callback returns is stored as if its language had set it. MPI_TAG_UB (R7.5) is integer-valued:
! Fortran reads the number, C a pointer to an int holding it.
module mixed_c
  use, intrinsic :: iso_c_binding, only: c_int, c_intptr_t
  implicit none
  interface
    integer(c_intptr_t) function mx_c_object_address(value) bind(c, name='mx_c_object_address')
      import :: c_int, c_intptr_t
      integer(c_int), value :: value
    end function
    integer(c_int) function mx_c_create_dup_fn_keyval() bind(c, name='mx_c_create_dup_fn_keyval')
      import :: c_int
    end function
    integer(c_int) function mx_c_free_keyval(key) bind(c, name='mx_c_free_keyval')
      import :: c_int
      integer(c_int), value :: key
    end function
    integer(c_int) function mx_c_set(comm, key, value) bind(c, name='mx_c_set')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
      integer(c_intptr_t), value :: value
    end function
    integer(c_intptr_t) function mx_c_get(comm, key, flag) bind(c, name='mx_c_get')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
      integer(c_int) :: flag
    end function
    integer(c_int) function mx_c_get_deref_int(comm, key, ok) bind(c, name='mx_c_get_deref_int')
      import :: c_int
      integer(c_int), value :: comm, key
      integer(c_int) :: ok
    end function
    integer(c_intptr_t) function mx_c_get_deref_aint(comm, key, ok) &
        bind(c, name='mx_c_get_deref_aint')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
      integer(c_int) :: ok
    end function
    integer(c_int) function mx_c_dup(comm, rc) bind(c, name='mx_c_dup')
      import :: c_int
      integer(c_int), value :: comm
      integer(c_int) :: rc
    end function
    integer(c_int) function mx_c_free(comm) bind(c, name='mx_c_free')
      import :: c_int
      integer(c_int), value :: comm
    end function
    integer(c_int) function mx_c_tag_ub() bind(c, name='mx_c_tag_ub')
      import :: c_int
    end function
    integer(c_int) function mx_c_create_logging_keyval() bind(c, name='mx_c_create_logging_keyval')
      import :: c_int
    end function
    integer(c_int) function mx_c_copy_calls() bind(c, name='mx_c_copy_calls')
      import :: c_int
    end function
    integer(c_int) function mx_c_delete_calls() bind(c, name='mx_c_delete_calls')
      import :: c_int
    end function
    integer(c_int) function mx_c_copy_comm_is(comm) bind(c, name='mx_c_copy_comm_is')
      import :: c_int
      integer(c_int), value :: comm
    end function
    subroutine mx_c_remember(comm) bind(c, name='mx_c_remember')
      import :: c_int
      integer(c_int), value :: comm
    end subroutine
    integer(c_int) function mx_c_delete_comm_is_remembered() &
        bind(c, name='mx_c_delete_comm_is_remembered')
      import :: c_int
    end function
    integer(c_int) function mx_c_extra_states_ok() bind(c, name='mx_c_extra_states_ok')
      import :: c_int
    end function
    integer(c_intptr_t) function mx_c_copy_in_deref_aint() bind(c, name='mx_c_copy_in_deref_aint')
      import :: c_intptr_t
    end function
    integer(c_intptr_t) function mx_c_delete_value() bind(c, name='mx_c_delete_value')
      import :: c_intptr_t
    end function
    integer(c_intptr_t) function mx_c_delete_value_deref_aint() &
        bind(c, name='mx_c_delete_value_deref_aint')
      import :: c_intptr_t
    end function
  end interface
end module mixed_c

! Fortran callbacks that record what they get.
module mixed_f
  use mpi
  implicit none
  private
  public :: f_copies, f_deletes, f_copy_comm, f_delete_comm, f_copy_in, f_delete_val, f_extra, &
            f1_copy_in, f1_copy_comm, f_copy_plus_1, f_delete, f1_copy_same
  integer :: f_copies = 0, f_deletes = 0, f_copy_comm = -1, f_delete_comm = -1
  integer :: f1_copy_in = 0, f1_copy_comm = -1
  integer(kind=MPI_ADDRESS_KIND) :: f_copy_in = 0, f_delete_val = 0, f_extra = 0
contains
  subroutine f_copy_plus_1(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, &
                           flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    f_copies = f_copies + 1
    f_copy_comm = oldcomm
    f_copy_in = attribute_val_in
    f_extra = extra_state
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine f_copy_plus_1

  subroutine f_delete(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    f_deletes = f_deletes + 1
    f_delete_comm = comm
    f_delete_val = attribute_val
    ierror = MPI_SUCCESS
  end subroutine f_delete

  ! MPI-1 copy callback: INTEGER everything
  subroutine f1_copy_same(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, &
                          flag, ierr)
    integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
    logical :: flag
    f_copies = f_copies + 1
    f1_copy_comm = oldcomm
    f1_copy_in = attribute_val_in
    attribute_val_out = attribute_val_in
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine f1_copy_same
end module mixed_f

program R7_mixed_language_table
  use mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_intptr_t
  use mixed_c
  use mixed_f
  use fhost_check
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  character(len=2), parameter :: lang(3) = ['C ', 'F1', 'F2']
  integer :: ierr, rc, rank, ic, is, ir, key, base, dup, saved, ck, fk, fk1, ival
  integer(kind=ak) :: p, val1, val2, v, big
  integer(c_int) :: cok
  logical :: f
  character(len=64) :: name

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  p = mx_c_object_address(100 + rank)
  val1 = -7 - rank
  val2 = 2_ak**40 + 42 + rank
  big = 2_ak**36

  ! ================= the 3x3 table, for each creating language =================
  do ic = 1, 3
    select case (ic)
    case (1)
      key = mx_c_create_dup_fn_keyval()
    case (2)
      call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, key, 0, ierr)
    case (3)
      call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, 0_ak, ierr)
    end select
    call check('R1_3_keyval_created_by_' // trim(lang(ic)), key /= MPI_KEYVAL_INVALID)
    do is = 1, 3
      call MPI_COMM_DUP(MPI_COMM_WORLD, base, ierr)
      select case (is)
      case (1)
        rc = mx_c_set(base, key, p)
      case (2)
        call MPI_ATTR_PUT(base, key, int(val1), rc)
      case (3)
        call MPI_COMM_SET_ATTR(base, key, val2, rc)
      end select
      write (name, '(5a)') 'R7_3_', trim(lang(ic)), 'key_', trim(lang(is)), 'set_succeeds'
      call check(trim(name), rc == MPI_SUCCESS)
      ! the duplicate: by C for a Fortran keyval, by Fortran for a C keyval
      if (ic == 1) then
        call MPI_COMM_DUP(base, dup, rc)
      else
        dup = mx_c_dup(base, rc)
      end if
      write (name, '(5a)') 'R6_', trim(lang(ic)), 'key_', trim(lang(is)), 'set_dup_succeeds'
      call check(trim(name), rc == MPI_SUCCESS .and. dup /= MPI_COMM_NULL)
      do ir = 1, 3
        call read_cell(base, key, is, ir, .false.)
        call read_cell(dup, key, is, ir, .true.)
      end do
      rc = mx_c_free(dup)
      call MPI_COMM_FREE(base, ierr)
    end do
    if (ic == 1) then
      rc = mx_c_free_keyval(key)
    else
      call MPI_COMM_FREE_KEYVAL(key, rc)
    end if
  end do

  ! ================= callbacks across the language boundary =================
  call MPI_COMM_DUP(MPI_COMM_WORLD, base, ierr)

  ! ---- a C keyval with C callbacks; Fortran sets, duplicates and frees ----
  ck = mx_c_create_logging_keyval()
  call MPI_COMM_SET_ATTR(base, ck, big + 1, rc)
  call MPI_COMM_DUP(base, dup, ierr)
  call check('R1_6_C_keyval_Fortran_dup_runs_C_copy_callback', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. mx_c_copy_calls() == 1)
  call check('R1_6_C_copy_callback_gets_the_C_handle_of_the_Fortran_comm', &
             mx_c_copy_comm_is(base) == 1)
  call check('R7_6_C_copy_callback_reads_Fortran_value_through_MPI_Aint_pointer', &
             mx_c_copy_in_deref_aint() == big + 1)
  call MPI_COMM_GET_ATTR(dup, ck, v, f, ierr)
  call check('R7_3_C_copy_result_is_a_C_value_read_by_Fortran_as_integer', &
             ierr == MPI_SUCCESS .and. f .and. v == big + 2)
  call mx_c_remember(dup)
  call MPI_COMM_FREE(dup, rc)
  call check('R1_6_C_keyval_Fortran_free_runs_C_delete_callback', rc == MPI_SUCCESS .and. &
             mx_c_delete_calls() == 1)
  call check('R1_6_C_delete_callback_gets_the_C_handle_of_the_freed_comm', &
             mx_c_delete_comm_is_remembered() == 1)
  call check('R7_6_C_delete_callback_gets_the_C_value', mx_c_delete_value() == big + 2)
  call check('R1_4_C_callbacks_get_extra_state', mx_c_extra_states_ok() == 1)
  call MPI_COMM_DELETE_ATTR(base, ck, rc)
  call check('R1_6_C_keyval_Fortran_delete_attr_runs_C_delete_callback', rc == MPI_SUCCESS .and. &
             mx_c_delete_calls() == 2)
  call check('R7_6_C_delete_callback_reads_Fortran_value_through_MPI_Aint_pointer', &
             mx_c_delete_value_deref_aint() == big + 1)
  call MPI_COMM_FREE_KEYVAL(ck, rc)
  call check('R1_3_Fortran_frees_a_C_keyval', rc == MPI_SUCCESS .and. ck == MPI_KEYVAL_INVALID)

  ! ---- a Fortran MPI-2 keyval with Fortran callbacks; C sets, duplicates and frees ----
  call MPI_COMM_CREATE_KEYVAL(f_copy_plus_1, f_delete, fk, big + 5 + rank, ierr)
  rc = mx_c_set(base, fk, big + 10)
  dup = mx_c_dup(base, ierr)
  call check('R1_6_Fortran_keyval_C_dup_runs_Fortran_copy_callback', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. f_copies == 1)
  call check('R1_6_Fortran_copy_callback_gets_the_Fortran_handle_of_the_C_comm', &
             f_copy_comm == base)
  call check('R1_4_Fortran_copy_callback_gets_extra_state', f_extra == big + 5 + rank)
  call check('R7_6_Fortran_copy_callback_gets_C_value_as_integer', f_copy_in == big + 10)
  v = mx_c_get_deref_aint(dup, fk, cok)
  call check('R7_3_Fortran_copy_result_is_MPI_Aint_pointer_for_C', cok == 1 .and. v == big + 11)
  saved = dup
  rc = mx_c_free(dup)
  call check('R1_6_Fortran_keyval_C_free_runs_Fortran_delete_callback', rc == MPI_SUCCESS .and. &
             f_deletes == 1)
  call check('R1_6_Fortran_delete_callback_gets_the_Fortran_handle_of_the_freed_comm', &
             f_delete_comm == saved)
  call check('R7_6_Fortran_delete_callback_gets_the_Fortran_value', f_delete_val == big + 11)
  call MPI_COMM_DELETE_ATTR(base, fk, rc)
  call check('R7_6_Fortran_delete_callback_gets_a_C_value_as_integer', rc == MPI_SUCCESS .and. &
             f_deletes == 2 .and. f_delete_val == big + 10)
  rc = mx_c_free_keyval(fk)
  call check('R1_3_C_frees_a_Fortran_keyval', rc == MPI_SUCCESS)

  ! ---- a Fortran MPI-1 keyval: its callback gets the low part of a C value (R7.1, R7.6) ----
  call MPI_KEYVAL_CREATE(f1_copy_same, MPI_NULL_DELETE_FN, fk1, 0, ierr)
  rc = mx_c_set(base, fk1, big + 9 + rank)
  f_copies = 0
  dup = mx_c_dup(base, ierr)
  call check('R1_6_MPI1_Fortran_keyval_C_dup_runs_Fortran_copy_callback', &
             ierr == MPI_SUCCESS .and. f_copies == 1)
  call check('R1_6_MPI1_Fortran_copy_callback_gets_the_Fortran_handle', f1_copy_comm == base)
  call check('R7_6_MPI1_Fortran_copy_callback_gets_low_part_of_C_value', f1_copy_in == 9 + rank)
  ival = mx_c_get_deref_int(dup, fk1, cok)
  call check('R7_3_MPI1_copy_result_is_int_pointer_for_C', cok == 1 .and. ival == 9 + rank)
  rc = mx_c_free(dup)
  call MPI_KEYVAL_FREE(fk1, ierr)

  ! ---- MPI_TAG_UB from both languages (R7.5) ----
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, ival, f, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, v, f, rc)
  call check('R7_5_MPI_TAG_UB_Fortran_values_equal_C_int_pointer_target', &
             ierr == MPI_SUCCESS .and. rc == MPI_SUCCESS .and. ival == mx_c_tag_ub() .and. &
             v == int(ival, ak) .and. ival >= 32767)

  call MPI_COMM_FREE(base, ierr)
  call report('c mpif')
  call MPI_FINALIZE(ierr)

contains

  ! The least significant 32 bits as a (two's complement) INTEGER: what MPI_ATTR_GET gives (R7.1).
  integer function lowpart(w)
    integer(kind=ak), intent(in) :: w
    integer(kind=ak) :: x
    x = iand(w, 4294967295_ak)
    if (x >= 2147483648_ak) x = x - 4294967296_ak
    lowpart = int(x)
  end function lowpart

  ! Reads the attribute of `key` on comm with reader ir, set by setter is, and checks the cell.
  subroutine read_cell(comm, key, is, ir, on_dup)
    integer, intent(in) :: comm, key, is, ir
    logical, intent(in) :: on_dup
    integer :: rc, ival
    integer(kind=ak) :: v, got
    integer(c_int) :: cflag, cok
    logical :: f, ok
    character(len=64) :: name
    ok = .false.
    select case (ir)
    case (1)  ! C MPI_Comm_get_attr
      select case (is)
      case (1)
        got = mx_c_get(comm, key, cflag)
        ok = cflag == 1 .and. got == p
      case (2)
        ival = mx_c_get_deref_int(comm, key, cok)
        ok = cok == 1 .and. ival == val1
      case (3)
        got = mx_c_get_deref_aint(comm, key, cok)
        ok = cok == 1 .and. got == val2
      end select
    case (2)  ! Fortran MPI_ATTR_GET
      ival = -12345
      call MPI_ATTR_GET(comm, key, ival, f, rc)
      select case (is)
      case (1)
        ok = rc == MPI_SUCCESS .and. f .and. ival == lowpart(p)
      case (2)
        ok = rc == MPI_SUCCESS .and. f .and. ival == val1
      case (3)
        ok = rc == MPI_SUCCESS .and. f .and. ival == lowpart(val2)
      end select
    case (3)  ! Fortran MPI_COMM_GET_ATTR
      v = -12345
      call MPI_COMM_GET_ATTR(comm, key, v, f, rc)
      select case (is)
      case (1)
        ok = rc == MPI_SUCCESS .and. f .and. v == p
      case (2)
        ok = rc == MPI_SUCCESS .and. f .and. v == int(val1, ak)
      case (3)
        ok = rc == MPI_SUCCESS .and. f .and. v == val2
      end select
    end select
    write (name, '(7a)') 'R7_3_', trim(lang(ic)), 'key_', trim(lang(is)), 'set_', &
                         trim(lang(ir)), 'get'
    if (on_dup) write (name, '(7a)') 'R6_5_', trim(lang(ic)), 'key_', trim(lang(is)), 'set_', &
                                     trim(lang(ir)), 'get_after_DUP_FN'
    call check(trim(name), ok)
  end subroutine read_cell
end program R7_mixed_language_table
