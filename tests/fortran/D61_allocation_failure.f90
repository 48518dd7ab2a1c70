! D61: out of memory is an error, never an abort, through the Fortran bindings. For each caching
! routine, the 1st, 2nd, ... Nth allocation that mpiattr itself makes is made to fail (mpiattr's
! test switch, docs/decisions.md D61, reached through a BIND(C) interface to
! D61_allocation_failure_switch.c), until the routine no longer reaches N; after each attempt
! IERROR must be MPI_SUCCESS or an MPI_ERR_NO_MEM code (MPI_ERRORS_RETURN) whose MPI_ERROR_STRING
! names the routine, and after a failure the state must be exactly what it was: every attribute
! and value, no new keyval or object, and each value a Fortran copy callback made deleted once,
! none twice, none lost. Each sweep runs twice: failing the Nth allocation only, and the Nth and
! every later one (memory that stays exhausted).
!   use mpi_f08: MPI_Comm_create_keyval (Fortran and predefined callbacks), MPI_Comm_set_attr
!     through a store's growths and as replacements, MPI_Comm_delete_attr, MPI_Comm_dup of 0, 5
!     and every attribute, MPI_Comm_free, MPI_Type_create_keyval, _set_attr and MPI_Type_dup,
!     MPI_Win_create_keyval and _set_attr, and the three free_keyval;
!   use mpi (the link names of mpif.h too): MPI_KEYVAL_CREATE and MPI_COMM_CREATE_KEYVAL with
!     Fortran callbacks, MPI_ATTR_PUT through growths and as replacements, MPI_COMM_DUP running
!     those callbacks, MPI_TYPE_CREATE_KEYVAL, MPI_TYPE_SET_ATTR, MPI_TYPE_DUP,
!     MPI_WIN_CREATE_KEYVAL, MPI_WIN_SET_ATTR.
! (tests/c/D61_allocation_failure.c sweeps the C routines and `use mpi`'s MPI_COMM_SET_ATTR and
! MPI_COMM_DUP.) Only mpiattr's allocations fail: gfortran's runtime never does.
!
! Standalone (fortran_D61_allocation_failure, under ASan in ./test.sh's last stage too) and, built
! with the host's mpifort and run with libmpiattr_<host>.so preloaded, over each host
! (host_<host>_preload_D61_allocation_failure_fortran, tests/host/alloc/alloc_failure.py).
! Prints FAIL lines and stops with status 1 on failure.

! ---- the sweep, the values and the checks (error codes are INTEGERs in every binding) ----
module d61_sweep
  use, intrinsic :: iso_c_binding, only: c_long, c_int
  use mpi, only: MPI_SUCCESS, MPI_ERR_NO_MEM, MPI_MAX_ERROR_STRING, MPI_ADDRESS_KIND, &
                 MPI_KEYVAL_INVALID, MPI_ERROR_CLASS, MPI_ERROR_STRING
  implicit none
  private
  public :: ak, new_token, end_token, plain_value, check, sweep, op_fn, state_fn, took_keyval, &
            token_set_state
  public :: live_tokens, failures, injected, persistent
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer, parameter :: max_tokens = 200000
  logical, save :: alive(max_tokens) = .false.
  integer, save :: next_token = 1, live_tokens = 0, failures = 0, injected = 0
  integer(ak), save :: next_plain = 2_ak**40
  integer(c_int), save :: persistent = 0
  character(len=200), save :: context = ''

  abstract interface
    integer function op_fn()  ! one attempt: its IERROR
    end function op_fn
    subroutine state_fn(failed)  ! checks the state after it (undoing what the next attempt needs)
      logical, intent(in) :: failed
    end subroutine state_fn
  end interface

  interface
    function fail_allocation(fail_at, persistent) bind(C, name='d61_fail_allocation') result(made)
      import :: c_long, c_int
      integer(c_long), value :: fail_at
      integer(c_int), value :: persistent
      integer(c_long) :: made
    end function fail_allocation
  end interface

contains
  integer(ak) function new_token()
    if (next_token >= max_tokens) then
      write (*, '(a)') 'FAIL: out of tokens'
      error stop 1
    end if
    alive(next_token) = .true.
    live_tokens = live_tokens + 1
    new_token = next_token
    next_token = next_token + 1
  end function new_token

  subroutine end_token(v, who)
    integer(ak), intent(in) :: v
    character(*), intent(in) :: who
    logical :: ok
    ok = v > 0 .and. v < max_tokens
    if (ok) ok = alive(v)
    call check(ok, who // ': a value deleted that is not alive (deleted twice?)')
    if (ok) then
      alive(v) = .false.
      live_tokens = live_tokens - 1
    end if
  end subroutine end_token

  integer(ak) function plain_value()  ! values of keys with no delete callback: never tokens
    plain_value = next_plain
    next_plain = next_plain + 1
  end function plain_value

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what
    if (cond) return
    failures = failures + 1
    write (*, '(a,a,a,a)') 'FAIL: ', trim(context), ': ', what
    if (failures > 20) error stop 1
  end subroutine check

  pure function upper(s) result(u)
    character(*), intent(in) :: s
    character(len=len(s)) :: u
    integer :: i
    u = s
    do i = 1, len(s)
      if (s(i:i) >= 'a' .and. s(i:i) <= 'z') u(i:i) = achar(iachar(s(i:i)) - 32)
    end do
  end function upper

  ! The result of one attempt: MPI_SUCCESS, or MPI_ERR_NO_MEM whose message names the routine.
  logical function outcome(rc, routine)
    integer, intent(in) :: rc
    character(*), intent(in) :: routine
    integer :: cls, ierr, length
    character(len=MPI_MAX_ERROR_STRING) :: msg
    outcome = rc /= MPI_SUCCESS
    if (.not. outcome) return
    cls = -1
    call MPI_ERROR_CLASS(rc, cls, ierr)
    call check(cls == MPI_ERR_NO_MEM, 'an error class other than MPI_ERR_NO_MEM')
    if (persistent == 0) then
      msg = ''
      call MPI_ERROR_STRING(rc, msg, length, ierr)
      call check(index(upper(msg), upper(routine)) > 0 .and. index(msg, 'out of memory') > 0, &
                 'the message does not say the routine ran out of memory: ' // trim(msg))
    end if
  end function outcome

  ! After a keyval creation into `key`: a keyval exactly when it succeeded, kept in `slot`.
  subroutine took_keyval(failed, key, slot)
    logical, intent(in) :: failed
    integer, intent(in) :: key
    integer, intent(inout) :: slot
    call check(failed .eqv. (key == MPI_KEYVAL_INVALID), 'a keyval exactly when it succeeds')
    if (.not. failed) slot = key
  end subroutine took_keyval

  ! After a set of the new token `token` on a datatype or window, read back as `flag` and `v`: stored
  ! exactly when it succeeded; after a failure the token is the program's again.
  subroutine token_set_state(failed, flag, v, token, what)
    logical, intent(in) :: failed, flag
    integer(ak), intent(in) :: v, token
    character(*), intent(in) :: what
    if (failed) then
      call check(.not. flag, 'a failed ' // what // ' stored its value')
      call end_token(token, 'the value a failed set did not store')
    else
      call check(flag .and. v == token, what // ' did not store')
    end if
  end subroutine token_set_state

  ! Runs op with the nth allocation failing, n = 1, 2, ... until op makes fewer than n.
  subroutine sweep(routine, op, state)
    character(*), intent(in) :: routine
    procedure(op_fn) :: op
    procedure(state_fn) :: state
    integer(c_long) :: n, made
    integer :: rc
    logical :: failed
    n = 0
    do
      n = n + 1
      write (context, '(a,a,i0,a,i0,a)') routine, ' (allocation ', n, ' failing, persistent ', &
        persistent, ')'
      made = fail_allocation(n, persistent)
      rc = op()
      made = fail_allocation(0_c_long, 0_c_int)
      failed = outcome(rc, routine)
      if (failed) injected = injected + 1
      call state(failed)
      if (made < n) then
        call check(.not. failed, 'failed with no allocation failing')
        exit
      end if
    end do
    context = ''
  end subroutine sweep
end module d61_sweep

! ---- use mpi_f08 ----
module d61_f08
  use mpi_f08
  use d61_sweep
  implicit none
  private
  public :: f08_sweeps, f08_finalize_value
  integer, parameter :: nk = 40  ! even keys: Fortran callbacks; odd: MPI_COMM_DUP_FN
  integer, save :: ckeys(0:nk - 1), tkeys(0:3), wkeys(0:3), cur, newkey
  type(MPI_Comm), save :: work, src, newcomm, victim
  type(MPI_Datatype), save :: wtype, newtype
  type(MPI_Win), save :: win
  integer(ak), save :: value
  ! the state before an attempt
  logical, save :: bflag(0:nk - 1)
  integer(ak), save :: bval(0:nk - 1)
  integer, save :: blive
  integer, save, target :: wbuf(4)

contains
  ! ---- callbacks: every copy makes a token, every delete ends one ----
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, &
                       flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    attribute_val_out = new_token()
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call end_token(attribute_val, 'mpi_f08 communicator delete callback')
    ierror = MPI_SUCCESS
  end subroutine comm_delete

  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, &
                       flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    attribute_val_out = new_token()
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_delete(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call end_token(attribute_val, 'mpi_f08 datatype delete callback')
    ierror = MPI_SUCCESS
  end subroutine type_delete

  subroutine win_delete(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call end_token(attribute_val, 'mpi_f08 window delete callback')
    ierror = MPI_SUCCESS
  end subroutine win_delete

  ! ---- the state of a communicator ----
  subroutine take(c, flag, val, live)
    type(MPI_Comm), intent(in) :: c
    logical, intent(out) :: flag(0:nk - 1)
    integer(ak), intent(out) :: val(0:nk - 1)
    integer, intent(out) :: live
    integer :: i, ierr
    do i = 0, nk - 1
      val(i) = 0
      call MPI_Comm_get_attr(c, ckeys(i), val(i), flag(i), ierr)
      call check(ierr == MPI_SUCCESS, 'MPI_Comm_get_attr failed')
      if (.not. flag(i)) val(i) = 0
    end do
    live = live_tokens
  end subroutine take

  subroutine remember(c)
    type(MPI_Comm), intent(in) :: c
    call take(c, bflag, bval, blive)
  end subroutine remember

  ! The communicator's state now against `flag`, `val` and `live`.
  subroutine same(c, flag, val, live, what)
    type(MPI_Comm), intent(in) :: c
    logical, intent(in) :: flag(0:nk - 1)
    integer(ak), intent(in) :: val(0:nk - 1)
    integer, intent(in) :: live
    character(*), intent(in) :: what
    logical :: nflag(0:nk - 1)
    integer(ak) :: nval(0:nk - 1)
    integer :: nlive
    call take(c, nflag, nval, nlive)
    call check(all(nflag .eqv. flag) .and. all(nval == val), what // ': the attributes differ')
    call check(nlive == live, what // ': another number of values alive')
  end subroutine same

  ! ---- the operations ----
  integer function op_create_keyval()
    integer :: ierr
    newkey = MPI_KEYVAL_INVALID
    if (mod(cur, 2) == 0) then
      call MPI_Comm_create_keyval(comm_copy, comm_delete, newkey, 0_ak, ierr)
    else
      call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, newkey, 0_ak, &
                                  ierr)
    end if
    op_create_keyval = ierr
  end function op_create_keyval
  subroutine state_create_keyval(failed)
    logical, intent(in) :: failed
    call took_keyval(failed, newkey, ckeys(cur))
  end subroutine state_create_keyval

  integer function op_set()
    integer :: ierr
    if (mod(cur, 2) == 0) then
      value = new_token()
    else
      value = plain_value()
    end if
    call MPI_Comm_set_attr(work, ckeys(cur), value, ierr)
    op_set = ierr
  end function op_set
  subroutine state_set(failed)
    logical, intent(in) :: failed
    logical :: eflag(0:nk - 1)
    integer(ak) :: eval(0:nk - 1)
    integer :: elive
    if (failed) then
      if (mod(cur, 2) == 0) call end_token(value, 'the value a failed set did not store')
      call same(work, bflag, bval, blive, 'a failed MPI_Comm_set_attr')
    else
      eflag = bflag
      eval = bval
      elive = blive
      eflag(cur) = .true.
      eval(cur) = value
      if (mod(cur, 2) == 0 .and. .not. bflag(cur)) elive = elive + 1  ! (a replaced one was deleted)
      call same(work, eflag, eval, elive, 'MPI_Comm_set_attr')
      call remember(work)
    end if
  end subroutine state_set

  integer function op_delete()
    integer :: ierr
    call MPI_Comm_delete_attr(work, ckeys(cur), ierr)
    op_delete = ierr
  end function op_delete
  subroutine state_delete(failed)
    logical, intent(in) :: failed
    logical :: eflag(0:nk - 1)
    integer(ak) :: eval(0:nk - 1)
    integer :: elive
    if (failed) then
      call same(work, bflag, bval, blive, 'a failed MPI_Comm_delete_attr')
    else
      eflag = bflag
      eval = bval
      elive = blive
      eflag(cur) = .false.
      eval(cur) = 0
      if (mod(cur, 2) == 0 .and. bflag(cur)) elive = elive - 1
      call same(work, eflag, eval, elive, 'MPI_Comm_delete_attr')
      call remember(work)
    end if
  end subroutine state_delete

  integer function op_dup()
    integer :: ierr
    newcomm = MPI_COMM_NULL
    call MPI_Comm_dup(src, newcomm, ierr)
    op_dup = ierr
  end function op_dup
  subroutine state_dup(failed)
    logical, intent(in) :: failed
    logical :: flag(0:nk - 1)
    integer(ak) :: val(0:nk - 1)
    integer :: live, copies, ierr
    copies = live_tokens - blive
    call take(src, flag, val, live)
    call check(all(flag .eqv. bflag) .and. all(val == bval), 'MPI_Comm_dup changed the original')
    if (failed) then
      call check(newcomm == MPI_COMM_NULL, 'a failed MPI_Comm_dup gave a communicator')
      call check(copies == 0, 'a failed MPI_Comm_dup left copied values alive')
      return
    end if
    call take(newcomm, flag, val, live)
    call check(count(flag) == count(bflag), 'the duplicate lacks attributes')
    call check(copies == count(flag(0::2)), 'not one copied value per attribute with a copy callback')
    call MPI_Comm_free(newcomm, ierr)
    call check(ierr == MPI_SUCCESS .and. live_tokens == blive, &
               'freeing the duplicate did not delete its values')
  end subroutine state_dup

  integer function op_free()
    integer :: ierr
    call MPI_Comm_free(victim, ierr)
    op_free = ierr
  end function op_free
  subroutine state_free(failed)
    logical, intent(in) :: failed
    integer :: ierr
    if (failed) then  ! the communicator stays, with its attributes
      call check(victim /= MPI_COMM_NULL, 'a failed MPI_Comm_free freed')
      call MPI_Comm_free(victim, ierr)
    end if
    call check(live_tokens == blive, 'MPI_Comm_free left values alive')
    call MPI_Comm_dup(work, victim, ierr)  ! the next attempt's
  end subroutine state_free


  integer function op_type_create_keyval()
    integer :: ierr
    newkey = MPI_KEYVAL_INVALID
    call MPI_Type_create_keyval(type_copy, type_delete, newkey, 0_ak, ierr)
    op_type_create_keyval = ierr
  end function op_type_create_keyval
  subroutine state_type_create_keyval(failed)
    logical, intent(in) :: failed
    call took_keyval(failed, newkey, tkeys(cur))
  end subroutine state_type_create_keyval

  integer function op_type_set()
    integer :: ierr
    value = new_token()
    call MPI_Type_set_attr(wtype, tkeys(cur), value, ierr)
    op_type_set = ierr
  end function op_type_set
  subroutine state_type_set(failed)
    logical, intent(in) :: failed
    logical :: flag
    integer(ak) :: v
    integer :: ierr
    v = 0
    call MPI_Type_get_attr(wtype, tkeys(cur), v, flag, ierr)
    call token_set_state(failed, flag, v, value, 'MPI_Type_set_attr')
  end subroutine state_type_set

  integer function op_type_dup()
    integer :: ierr
    newtype = MPI_DATATYPE_NULL
    call MPI_Type_dup(wtype, newtype, ierr)
    op_type_dup = ierr
  end function op_type_dup
  subroutine state_type_dup(failed)
    logical, intent(in) :: failed
    logical :: flag
    integer(ak) :: v
    integer :: i, ierr, copies
    if (failed) then
      call check(newtype == MPI_DATATYPE_NULL, 'a failed MPI_Type_dup gave a datatype')
    else
      copies = 0
      do i = 0, 3
        call MPI_Type_get_attr(newtype, tkeys(i), v, flag, ierr)
        if (flag) copies = copies + 1
      end do
      call check(copies == 4 .and. live_tokens == blive + 4, 'the duplicate datatype lacks copies')
      call MPI_Type_free(newtype, ierr)
    end if
    call check(live_tokens == blive, 'MPI_Type_dup left values alive')
  end subroutine state_type_dup

  integer function op_win_create_keyval()
    integer :: ierr
    newkey = MPI_KEYVAL_INVALID
    call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, newkey, 0_ak, ierr)
    op_win_create_keyval = ierr
  end function op_win_create_keyval
  subroutine state_win_create_keyval(failed)
    logical, intent(in) :: failed
    call took_keyval(failed, newkey, wkeys(cur))
  end subroutine state_win_create_keyval

  integer function op_win_set()
    integer :: ierr
    value = new_token()
    call MPI_Win_set_attr(win, wkeys(cur), value, ierr)
    op_win_set = ierr
  end function op_win_set
  subroutine state_win_set(failed)
    logical, intent(in) :: failed
    logical :: flag
    integer(ak) :: v
    integer :: ierr
    v = 0
    call MPI_Win_get_attr(win, wkeys(cur), v, flag, ierr)
    call token_set_state(failed, flag, v, value, 'MPI_Win_set_attr')
  end subroutine state_win_set

  integer function op_free_keyval()
    integer :: ierr
    call MPI_Comm_free_keyval(ckeys(cur), ierr)
    op_free_keyval = ierr
  end function op_free_keyval
  subroutine state_free_keyval(failed)
    logical, intent(in) :: failed
    call check(failed .neqv. (ckeys(cur) == MPI_KEYVAL_INVALID), 'freed exactly when it succeeds')
  end subroutine state_free_keyval

  subroutine f08_sweeps()
    type(MPI_Comm) :: none, five, dups(3)
    integer :: ierr, i
    do cur = 0, nk - 1
      call sweep('MPI_Comm_create_keyval', op_create_keyval, state_create_keyval)
    end do
    call MPI_Comm_dup(MPI_COMM_SELF, work, ierr)
    call remember(work)
    do cur = 0, nk - 1  ! through the store's growths
      call sweep('MPI_Comm_set_attr', op_set, state_set)
    end do
    do cur = 0, 9  ! replacements (their delete callbacks run)
      call sweep('MPI_Comm_set_attr', op_set, state_set)
    end do
    call MPI_Comm_dup(MPI_COMM_SELF, none, ierr)
    call MPI_Comm_dup(work, five, ierr)
    do i = 5, nk - 1
      call MPI_Comm_delete_attr(five, ckeys(i), ierr)
    end do
    dups = [none, five, work]
    do i = 1, 3
      src = dups(i)
      call remember(src)
      call sweep('MPI_Comm_dup', op_dup, state_dup)
    end do
    call remember(work)
    call MPI_Comm_dup(work, victim, ierr)
    call sweep('MPI_Comm_free', op_free, state_free)
    call MPI_Comm_free(victim, ierr)
    call remember(work)
    do cur = 0, nk - 1, 3
      call sweep('MPI_Comm_delete_attr', op_delete, state_delete)
    end do
    ! datatypes
    call MPI_Type_contiguous(2, MPI_INTEGER, wtype, ierr)
    do cur = 0, 3
      call sweep('MPI_Type_create_keyval', op_type_create_keyval, state_type_create_keyval)
    end do
    do cur = 0, 3
      call sweep('MPI_Type_set_attr', op_type_set, state_type_set)
    end do
    blive = live_tokens
    call sweep('MPI_Type_dup', op_type_dup, state_type_dup)
    ! windows
    call MPI_Win_create(wbuf, int(size(wbuf) * 4, ak), 4, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
    call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
    do cur = 0, 3
      call sweep('MPI_Win_create_keyval', op_win_create_keyval, state_win_create_keyval)
    end do
    do cur = 0, 3
      call sweep('MPI_Win_set_attr', op_win_set, state_win_set)
    end do
    ! everything goes: the delete callbacks run for every attribute there is
    do cur = 0, nk - 1
      call sweep('MPI_Comm_free_keyval', op_free_keyval, state_free_keyval)
    end do
    do i = 0, 3
      call MPI_Type_free_keyval(tkeys(i), ierr)
      call MPI_Win_free_keyval(wkeys(i), ierr)
    end do
    call MPI_Win_free(win, ierr)
    call MPI_Type_free(wtype, ierr)
    call MPI_Comm_free(work, ierr)
    call MPI_Comm_free(five, ierr)
    call MPI_Comm_free(none, ierr)
    call check(live_tokens == 0, 'mpi_f08: values never deleted')
  end subroutine f08_sweeps

  ! MPI_Finalize deletes MPI_COMM_SELF's attributes: one with a Fortran delete callback.
  subroutine f08_finalize_value()
    integer :: key, ierr
    call MPI_Comm_create_keyval(comm_copy, comm_delete, key, 0_ak, ierr)
    call MPI_Comm_set_attr(MPI_COMM_SELF, key, new_token(), ierr)
    call MPI_Comm_free_keyval(key, ierr)
  end subroutine f08_finalize_value
end module d61_f08

! ---- use mpi (the same link names as mpif.h) ----
module d61_mpi
  use mpi
  use d61_sweep, only: ak, new_token, end_token, check, sweep, live_tokens, took_keyval, &
                       token_set_state
  implicit none
  private
  public :: mpi_sweeps
  integer, parameter :: nm = 40  ! even keys: MPI_KEYVAL_CREATE, odd: MPI_COMM_CREATE_KEYVAL
  integer, save :: mkeys(0:nm - 1), tkeys(0:1), wkeys(0:1), cur, newkey
  integer, save :: work, newcomm, wtype, newtype, win
  integer, save :: ivalue, blive
  integer(ak), save :: value
  logical, save :: bflag(0:nm - 1)
  integer, save :: bval(0:nm - 1)
  integer, save :: wbuf(4)

contains
  subroutine mpi1_copy(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, &
                       ierr)
    integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
    logical :: flag
    attribute_val_out = int(new_token())
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine mpi1_copy

  subroutine mpi1_delete(comm, keyval, attribute_val, extra_state, ierr)
    integer :: comm, keyval, attribute_val, extra_state, ierr
    call end_token(int(attribute_val, ak), 'MPI-1 delete callback')
    ierr = MPI_SUCCESS
  end subroutine mpi1_delete

  subroutine comm_copy(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, &
                       ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    attribute_val_out = new_token()
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_delete(comm, keyval, attribute_val, extra_state, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call end_token(attribute_val, '`use mpi` communicator delete callback')
    ierr = MPI_SUCCESS
  end subroutine comm_delete

  subroutine type_copy(oldtype, keyval, extra_state, attribute_val_in, attribute_val_out, flag, &
                       ierr)
    integer :: oldtype, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    attribute_val_out = new_token()
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_delete(datatype, keyval, attribute_val, extra_state, ierr)
    integer :: datatype, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call end_token(attribute_val, '`use mpi` datatype delete callback')
    ierr = MPI_SUCCESS
  end subroutine type_delete

  subroutine win_delete(w, keyval, attribute_val, extra_state, ierr)
    integer :: w, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    call end_token(attribute_val, '`use mpi` window delete callback')
    ierr = MPI_SUCCESS
  end subroutine win_delete

  ! The state of a communicator, read with MPI_ATTR_GET (every value here fits an INTEGER).
  subroutine take(c, flag, val)
    integer, intent(in) :: c
    logical, intent(out) :: flag(0:nm - 1)
    integer, intent(out) :: val(0:nm - 1)
    integer :: i, ierr
    do i = 0, nm - 1
      val(i) = 0
      call MPI_ATTR_GET(c, mkeys(i), val(i), flag(i), ierr)
      call check(ierr == MPI_SUCCESS, 'MPI_ATTR_GET failed')
      if (.not. flag(i)) val(i) = 0
    end do
  end subroutine take

  integer function op_keyval_create()
    integer :: ierr
    newkey = MPI_KEYVAL_INVALID
    if (mod(cur, 2) == 0) then
      call MPI_KEYVAL_CREATE(mpi1_copy, mpi1_delete, newkey, 0, ierr)
    else
      call MPI_COMM_CREATE_KEYVAL(comm_copy, comm_delete, newkey, 0_ak, ierr)
    end if
    op_keyval_create = ierr
  end function op_keyval_create
  subroutine state_keyval_create(failed)
    logical, intent(in) :: failed
    call took_keyval(failed, newkey, mkeys(cur))
  end subroutine state_keyval_create

  integer function op_attr_put()
    integer :: ierr
    ivalue = int(new_token())
    call MPI_ATTR_PUT(work, mkeys(cur), ivalue, ierr)
    op_attr_put = ierr
  end function op_attr_put
  subroutine state_attr_put(failed)
    logical, intent(in) :: failed
    logical :: flag(0:nm - 1), eflag(0:nm - 1)
    integer :: val(0:nm - 1), eval(0:nm - 1), elive
    eflag = bflag
    eval = bval
    elive = blive
    if (failed) then
      call end_token(int(ivalue, ak), 'the value a failed MPI_ATTR_PUT did not store')
    else
      eflag(cur) = .true.
      eval(cur) = ivalue
      if (.not. bflag(cur)) elive = elive + 1  ! (a replaced value was deleted)
    end if
    call take(work, flag, val)
    call check(all(flag .eqv. eflag) .and. all(val == eval), 'MPI_ATTR_PUT: the attributes differ')
    call check(live_tokens == elive, 'MPI_ATTR_PUT: another number of values alive')
    bflag = flag
    bval = val
    blive = live_tokens
  end subroutine state_attr_put

  integer function op_dup()
    integer :: ierr
    newcomm = MPI_COMM_NULL
    call MPI_COMM_DUP(work, newcomm, ierr)
    op_dup = ierr
  end function op_dup
  subroutine state_dup(failed)
    logical, intent(in) :: failed
    logical :: flag(0:nm - 1)
    integer :: val(0:nm - 1), copies, ierr
    copies = live_tokens - blive
    call take(work, flag, val)
    call check(all(flag .eqv. bflag) .and. all(val == bval), 'MPI_COMM_DUP changed the original')
    if (failed) then
      call check(newcomm == MPI_COMM_NULL, 'a failed MPI_COMM_DUP gave a communicator')
      call check(copies == 0, 'a failed MPI_COMM_DUP left copied values alive')
      return
    end if
    call take(newcomm, flag, val)
    call check(count(flag) == count(bflag) .and. copies == count(bflag), &
               'the duplicate lacks copies')
    call MPI_COMM_FREE(newcomm, ierr)
    call check(live_tokens == blive, 'freeing the duplicate did not delete its values')
  end subroutine state_dup

  integer function op_type_create_keyval()
    integer :: ierr
    newkey = MPI_KEYVAL_INVALID
    call MPI_TYPE_CREATE_KEYVAL(type_copy, type_delete, newkey, 0_ak, ierr)
    op_type_create_keyval = ierr
  end function op_type_create_keyval
  subroutine state_type_create_keyval(failed)
    logical, intent(in) :: failed
    call took_keyval(failed, newkey, tkeys(cur))
  end subroutine state_type_create_keyval


  integer function op_type_set()
    integer :: ierr
    value = new_token()
    call MPI_TYPE_SET_ATTR(wtype, tkeys(cur), value, ierr)
    op_type_set = ierr
  end function op_type_set
  subroutine state_type_set(failed)
    logical, intent(in) :: failed
    logical :: flag
    integer(ak) :: v
    integer :: ierr
    v = 0
    call MPI_TYPE_GET_ATTR(wtype, tkeys(cur), v, flag, ierr)
    call token_set_state(failed, flag, v, value, 'MPI_TYPE_SET_ATTR')
  end subroutine state_type_set

  integer function op_type_dup()
    integer :: ierr
    newtype = MPI_DATATYPE_NULL
    call MPI_TYPE_DUP(wtype, newtype, ierr)
    op_type_dup = ierr
  end function op_type_dup
  subroutine state_type_dup(failed)
    logical, intent(in) :: failed
    integer :: ierr
    if (failed) then
      call check(newtype == MPI_DATATYPE_NULL, 'a failed MPI_TYPE_DUP gave a datatype')
    else
      call check(live_tokens == blive + 2, 'the duplicate datatype lacks copies')
      call MPI_TYPE_FREE(newtype, ierr)
    end if
    call check(live_tokens == blive, 'MPI_TYPE_DUP left values alive')
  end subroutine state_type_dup

  integer function op_win_create_keyval()
    integer :: ierr
    newkey = MPI_KEYVAL_INVALID
    call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, win_delete, newkey, 0_ak, ierr)
    op_win_create_keyval = ierr
  end function op_win_create_keyval
  subroutine state_win_create_keyval(failed)
    logical, intent(in) :: failed
    call took_keyval(failed, newkey, wkeys(cur))
  end subroutine state_win_create_keyval

  integer function op_win_set()
    integer :: ierr
    value = new_token()
    call MPI_WIN_SET_ATTR(win, wkeys(cur), value, ierr)
    op_win_set = ierr
  end function op_win_set
  subroutine state_win_set(failed)
    logical, intent(in) :: failed
    logical :: flag
    integer(ak) :: v
    integer :: ierr
    v = 0
    call MPI_WIN_GET_ATTR(win, wkeys(cur), v, flag, ierr)
    call token_set_state(failed, flag, v, value, 'MPI_WIN_SET_ATTR')
  end subroutine state_win_set

  subroutine mpi_sweeps()
    integer :: ierr, i
    do cur = 0, nm - 1
      if (mod(cur, 2) == 0) then
        call sweep('MPI_KEYVAL_CREATE', op_keyval_create, state_keyval_create)
      else
        call sweep('MPI_COMM_CREATE_KEYVAL', op_keyval_create, state_keyval_create)
      end if
    end do
    call MPI_COMM_DUP(MPI_COMM_SELF, work, ierr)
    call take(work, bflag, bval)
    blive = live_tokens
    do cur = 0, nm - 1  ! through the store's growths
      call sweep('MPI_ATTR_PUT', op_attr_put, state_attr_put)
    end do
    do cur = 0, 5  ! replacements
      call sweep('MPI_ATTR_PUT', op_attr_put, state_attr_put)
    end do
    call sweep('MPI_COMM_DUP', op_dup, state_dup)
    call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, wtype, ierr)
    do cur = 0, 1
      call sweep('MPI_TYPE_CREATE_KEYVAL', op_type_create_keyval, state_type_create_keyval)
    end do
    do cur = 0, 1
      call sweep('MPI_TYPE_SET_ATTR', op_type_set, state_type_set)
    end do
    blive = live_tokens
    call sweep('MPI_TYPE_DUP', op_type_dup, state_type_dup)
    call MPI_WIN_CREATE(wbuf, int(size(wbuf) * 4, ak), 4, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
    call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
    do cur = 0, 1
      call sweep('MPI_WIN_CREATE_KEYVAL', op_win_create_keyval, state_win_create_keyval)
    end do
    do cur = 0, 1
      call sweep('MPI_WIN_SET_ATTR', op_win_set, state_win_set)
    end do
    do i = 0, nm - 1
      if (mod(i, 2) == 0) then
        call MPI_KEYVAL_FREE(mkeys(i), ierr)
      else
        call MPI_COMM_FREE_KEYVAL(mkeys(i), ierr)
      end if
    end do
    do i = 0, 1
      call MPI_TYPE_FREE_KEYVAL(tkeys(i), ierr)
      call MPI_WIN_FREE_KEYVAL(wkeys(i), ierr)
    end do
    call MPI_WIN_FREE(win, ierr)
    call MPI_TYPE_FREE(wtype, ierr)
    call MPI_COMM_FREE(work, ierr)
    call check(live_tokens == 0, '`use mpi`: values never deleted')
  end subroutine mpi_sweeps
end module d61_mpi

program D61_allocation_failure
  use mpi_f08, only: MPI_Init, MPI_Finalize, MPI_Comm_set_errhandler, MPI_COMM_WORLD, &
                     MPI_COMM_SELF, MPI_ERRORS_RETURN
  use d61_sweep, only: check, live_tokens, failures, injected, persistent
  use d61_f08, only: f08_sweeps, f08_finalize_value
  use d61_mpi, only: mpi_sweeps
  implicit none
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  do persistent = 0, 1
    call f08_sweeps()
    call mpi_sweeps()
  end do
  call f08_finalize_value()
  call MPI_Finalize()
  call check(live_tokens == 0, 'MPI_Finalize left values undeleted')
  call check(injected > 60, 'few attempts failed: the sweeps do not reach mpiattr''s allocations')
  if (failures /= 0) error stop 1
  write (*, '(a,i0,a)') 'D61 (Fortran): every sweep ran to the end (', injected, &
    ' attempts failed with MPI_ERR_NO_MEM)'
end program D61_allocation_failure
