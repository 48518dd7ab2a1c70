! R8_predefined_beside_user_attributes_mpi.F90: one program for `include 'mpif.h'` (built with
! -DMPIF_H: R8_predefined_beside_user_attributes_mpif) and `use mpi`
! (R8_predefined_beside_user_attributes_usempi); the Fortran twin of
! c/R8_predefined_beside_user_attributes.c. The predefined attributes read the same whatever user
! attributes an object carries, every rank.
!
! MPI-4.1 §10.1.2, §12.10.1, §12.10.3, §10.5.1: MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
! MPI_UNIVERSE_SIZE, MPI_APPNUM and MPI_LASTUSEDCODE are MPI_COMM_WORLD's from init to finalize,
! unchanged; §13.2.6: MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and
! MPI_WIN_MODEL are a window's for its life. §8.7.2-§8.7.3: setting, replacing or deleting a user
! attribute, or freeing its key, touches that attribute alone. So after each such step on
! MPI_COMM_WORLD, MPI_COMM_SELF, a duplicate of MPI_COMM_WORLD and a window, every predefined key
! must read exactly as it did before the object carried any user attribute (found flag and
! value), through MPI_COMM_GET_ATTR (INTEGER(KIND=MPI_ADDRESS_KIND) values), MPI_ATTR_GET (INTEGER
! values, §17.1, §20.3.7: the same numbers) and MPI_WIN_GET_ATTR (Fortran gets MPI_WIN_BASE as the
! address, an integer, and the others as their values, §20.3.7). §10.5.1: MPI_LASTUSEDCODE
! follows MPI_ADD_ERROR_CLASS (at least the new class) while MPI_COMM_WORLD carries a user
! attribute.
!
! In host mode the user keys are mpiattr's and the predefined ones the host's: a get of a
! predefined key on an object that has an mpiattr record must still reach the host's Fortran
! routine (Open MPI's MPI_TAG_UB is keyval 0, which mpiattr's fast get once took for one of its
! own, issue 27).
module r8_steps
#ifndef MPIF_H
  use mpi
#endif
  use fhost_check
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  private
  public :: comm_steps, dup_copy_step, win_steps, lastusedcode_step

  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer, parameter :: nc = 7, nw = 5
  character(len=16), parameter :: comm_names(nc) = [character(len=16) :: 'TAG_UB', 'HOST', &
      'IO', 'WTIME_IS_GLOBAL', 'UNIVERSE_SIZE', 'APPNUM', 'LASTUSEDCODE']
  character(len=16), parameter :: win_names(nw) = [character(len=16) :: 'BASE', 'SIZE', &
      'DISP_UNIT', 'CREATE_FLAVOR', 'MODEL']

  type reading
    integer :: rc
    logical :: found
    integer(kind=ak) :: value
  end type reading

  integer :: deletes = 0
  integer(kind=8), save :: winbuf(8)

contains

  function comm_keys() result(k)
    integer :: k(nc)
    k = [MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, &
         MPI_LASTUSEDCODE]
  end function comm_keys

  function win_keys() result(k)
    integer :: k(nw)
    k = [MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL]
  end function win_keys

  ! the delete callbacks of the user keys: they count
  subroutine count_delete(comm, keyval, attribute_val, extra_state, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine count_delete

  subroutine win_count_delete(win, keyval, attribute_val, extra_state, ierror)
    integer :: win, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine win_count_delete

  ! Every predefined key of c, through MPI_COMM_GET_ATTR or (mpi1) MPI_ATTR_GET. A value not
  ! found reads as -1 (the flag is compared too).
  subroutine read_comm(c, r, mpi1)
    integer, intent(in) :: c
    type(reading), intent(out) :: r(nc)
    logical, intent(in) :: mpi1
    integer :: keys(nc), i, ival
    integer(kind=ak) :: v
    logical :: f
    keys = comm_keys()
    do i = 1, nc
      f = .false.
      if (mpi1) then
        ival = -12345
        call MPI_ATTR_GET(c, keys(i), ival, f, r(i)%rc)
        v = int(ival, ak)
      else
        v = -12345
        call MPI_COMM_GET_ATTR(c, keys(i), v, f, r(i)%rc)
      end if
      r(i)%found = r(i)%rc == MPI_SUCCESS .and. f
      if (r(i)%found) then
        r(i)%value = v
      else if (r(i)%rc == MPI_SUCCESS) then
        r(i)%value = -1
      else
        r(i)%value = -2
      end if
    end do
  end subroutine read_comm

  ! CHECK that every key of c reads now as it did at the start through each get routine:
  ! before(:, 1) through MPI_COMM_GET_ATTR, before(:, 2) through MPI_ATTR_GET. (Each routine is
  ! compared with itself: Open MPI copies the predefined attributes to a duplicate as C pointers,
  ! which MPI_COMM_GET_ATTR then gives as the address and MPI_ATTR_GET as its low-order part.)
  subroutine same_comm(obj, step, c, before)
    character(len=*), intent(in) :: obj, step
    integer, intent(in) :: c
    type(reading), intent(in) :: before(nc, 2)
    type(reading) :: now(nc)
    integer :: i, m
    character(len=8) :: how
    do m = 1, 2
      call read_comm(c, now, m == 2)
      how = merge('Attr_get', 'get_attr', m == 2)
      do i = 1, nc
        call check('R8_' // obj // '_' // trim(comm_names(i)) // '_' // step // '_' // how, &
                   now(i)%rc == MPI_SUCCESS .and. (now(i)%found .eqv. before(i, m)%found) .and. &
                   now(i)%value == before(i, m)%value)
      end do
    end do
  end subroutine same_comm

  ! The start readings of c through both routines (before(:, 1), before(:, 2)), their found
  ! flags as facts.
  subroutine start_comm(obj, c, before)
    character(len=*), intent(in) :: obj
    integer, intent(in) :: c
    type(reading), intent(out) :: before(nc, 2)
    integer :: i
    call read_comm(c, before(:, 1), .false.)
    call read_comm(c, before(:, 2), .true.)
    do i = 1, nc
      call fact(obj // '_' // trim(comm_names(i)) // '_found', merge(1, 0, before(i, 1)%found))
      call fact(obj // '_' // trim(comm_names(i)) // '_found_Attr_get', &
                merge(1, 0, before(i, 2)%found))
    end do
  end subroutine start_comm

  ! The steps of one communicator: set, replace, delete, set again, free the key (the attribute
  ! stays, §8.7.2), delete under the freed key.
  subroutine comm_steps(obj, c, is_self)
    character(len=*), intent(in) :: obj
    integer, intent(in) :: c
    logical, intent(in) :: is_self
    type(reading) :: before(nc, 2)
    integer :: i, key, kept, rc, ierr
    integer(kind=ak) :: v
    logical :: f, ok
    call start_comm(obj, c, before)
    call check('R8_' // obj // '_TAG_UB_found_at_start', is_self .or. &
               (before(1, 1)%found .and. before(1, 2)%found))
    ! both routines find the same keys; on MPI_COMM_WORLD, where they are the predefined
    ! attributes themselves, with the same integer values (§20.3.7)
    ok = .true.
    do i = 1, nc
      ok = ok .and. before(i, 1)%rc == MPI_SUCCESS .and. before(i, 2)%rc == MPI_SUCCESS .and. &
           (before(i, 1)%found .eqv. before(i, 2)%found)
      if (obj == 'world') ok = ok .and. before(i, 1)%value == before(i, 2)%value
    end do
    call check('R8_' // obj // '_Attr_get_agrees_with_get_attr_at_start', ok)

    key = MPI_KEYVAL_INVALID
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, count_delete, key, 0_ak, rc)
    call check('R8_' // obj // '_user_create_keyval_succeeds', rc == MPI_SUCCESS .and. &
               key /= MPI_KEYVAL_INVALID)
    deletes = 0
    rc = MPI_SUCCESS
    call MPI_COMM_SET_ATTR(c, key, 11_ak, ierr)
    rc = max(rc, ierr)
    call same_comm(obj, 'after_set', c, before)
    call MPI_COMM_SET_ATTR(c, key, 12_ak, ierr)
    rc = max(rc, ierr)
    call same_comm(obj, 'after_replace', c, before)
    call MPI_COMM_DELETE_ATTR(c, key, ierr)
    rc = max(rc, ierr)
    call same_comm(obj, 'after_delete', c, before)
    call MPI_COMM_SET_ATTR(c, key, 13_ak, ierr)
    rc = max(rc, ierr)
    kept = key
    call MPI_COMM_FREE_KEYVAL(key, ierr)
    rc = max(rc, ierr)
    call same_comm(obj, 'after_free_keyval', c, before)
    v = -1
    f = .false.
    call MPI_COMM_GET_ATTR(c, kept, v, f, ierr)
    call check('R8_' // obj // '_user_attribute_kept_after_free_keyval', &
               ierr == MPI_SUCCESS .and. f .and. v == 13)
    call MPI_COMM_DELETE_ATTR(c, kept, ierr)
    rc = max(rc, ierr)
    call same_comm(obj, 'after_last_delete', c, before)
    call check('R8_' // obj // '_user_steps_succeed', rc == MPI_SUCCESS .and. &
               key == MPI_KEYVAL_INVALID)
    call check('R8_' // obj // '_user_deletes_ran', deletes == 3)
  end subroutine comm_steps

  ! A user attribute copied to a duplicate (MPI_COMM_DUP_FN): the duplicate's predefined keys read
  ! as the original's.
  subroutine dup_copy_step(dup)
    integer, intent(in) :: dup
    type(reading) :: before(nc, 2)
    integer :: key, dup2, rc, ierr
    integer(kind=ak) :: v
    logical :: f
    call read_comm(dup, before(:, 1), .false.)
    call read_comm(dup, before(:, 2), .true.)
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, 0_ak, rc)
    call MPI_COMM_SET_ATTR(dup, key, 31_ak, ierr)
    rc = max(rc, ierr)
    dup2 = MPI_COMM_NULL
    call MPI_COMM_DUP(dup, dup2, ierr)
    rc = max(rc, ierr)
    v = -1
    f = .false.
    call MPI_COMM_GET_ATTR(dup2, key, v, f, ierr)
    call check('R8_dup_of_dup_user_attribute_copied', rc == MPI_SUCCESS .and. &
               ierr == MPI_SUCCESS .and. f .and. v == 31)
    call same_comm('dup_of_dup', 'after_copy', dup2, before)
    call MPI_COMM_FREE(dup2, ierr)
    call MPI_COMM_FREE_KEYVAL(key, ierr)
  end subroutine dup_copy_step

  subroutine read_win(w, r)
    integer, intent(in) :: w
    type(reading), intent(out) :: r(nw)
    integer :: keys(nw), i
    integer(kind=ak) :: v
    logical :: f
    keys = win_keys()
    do i = 1, nw
      f = .false.
      v = -12345
      call MPI_WIN_GET_ATTR(w, keys(i), v, f, r(i)%rc)
      r(i)%found = r(i)%rc == MPI_SUCCESS .and. f
      if (r(i)%found) then
        r(i)%value = v
      else
        r(i)%value = -1
      end if
    end do
  end subroutine read_win

  subroutine same_win(step, w, before)
    character(len=*), intent(in) :: step
    integer, intent(in) :: w
    type(reading), intent(in) :: before(nw)
    type(reading) :: now(nw)
    integer :: i
    call read_win(w, now)
    do i = 1, nw
      call check('R8_win_' // trim(win_names(i)) // '_' // step, now(i)%rc == MPI_SUCCESS .and. &
                 (now(i)%found .eqv. before(i)%found) .and. now(i)%value == before(i)%value)
    end do
  end subroutine same_win

  subroutine win_steps(rank)
    integer, intent(in) :: rank
    type(reading) :: before(nw)
    integer :: w, key, rc, ierr
    integer(kind=ak) :: addr
    w = MPI_WIN_NULL
    call MPI_WIN_CREATE(winbuf, int((rank + 1) * 8, ak), 8, MPI_INFO_NULL, MPI_COMM_WORLD, w, rc)
    call check('R8_win_create_succeeds', rc == MPI_SUCCESS .and. w /= MPI_WIN_NULL)
    call MPI_GET_ADDRESS(winbuf, addr, ierr)
    call read_win(w, before)
    call check('R8_win_predefined_found_at_start', all(before%found) .and. &
               before(1)%value == addr .and. before(2)%value == (rank + 1) * 8 .and. &
               before(3)%value == 8 .and. before(4)%value == MPI_WIN_FLAVOR_CREATE)
    key = MPI_KEYVAL_INVALID
    call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, win_count_delete, key, 0_ak, rc)
    deletes = 0
    call MPI_WIN_SET_ATTR(w, key, 21_ak, ierr)
    rc = max(rc, ierr)
    call same_win('after_set', w, before)
    call MPI_WIN_SET_ATTR(w, key, 22_ak, ierr)
    rc = max(rc, ierr)
    call same_win('after_replace', w, before)
    call MPI_WIN_DELETE_ATTR(w, key, ierr)
    rc = max(rc, ierr)
    call same_win('after_delete', w, before)
    call MPI_WIN_SET_ATTR(w, key, 23_ak, ierr)
    rc = max(rc, ierr)
    call MPI_WIN_FREE_KEYVAL(key, ierr)
    rc = max(rc, ierr)
    call same_win('after_free_keyval', w, before)
    call MPI_WIN_FREE(w, ierr)
    rc = max(rc, ierr)
    call check('R8_win_user_steps_succeed', rc == MPI_SUCCESS .and. key == MPI_KEYVAL_INVALID &
               .and. w == MPI_WIN_NULL)
    call check('R8_win_user_deletes_ran', deletes == 3)
  end subroutine win_steps

  ! MPI_LASTUSEDCODE follows MPI_ADD_ERROR_CLASS while MPI_COMM_WORLD carries a user attribute
  ! (§10.5.1); the attribute is left on MPI_COMM_WORLD for MPI_FINALIZE.
  subroutine lastusedcode_step()
    integer :: key, cls, rc, ierr, ival
    integer(kind=ak) :: v, t
    logical :: f, g
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, count_delete, key, 0_ak, rc)
    call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, key, 41_ak, ierr)
    call check('R8_user_attribute_set_on_world', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS)
    cls = -1
    call MPI_ADD_ERROR_CLASS(cls, rc)
    call check('R8_add_error_class_succeeds', rc == MPI_SUCCESS .and. cls > MPI_ERR_LASTCODE)
    v = -1
    f = .false.
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_LASTUSEDCODE, v, f, rc)
    call check('R8_LASTUSEDCODE_after_add_error_class_at_least_the_class', &
               rc == MPI_SUCCESS .and. f .and. v >= cls)
    ival = -1
    g = .false.
    call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_LASTUSEDCODE, ival, g, rc)
    call check('R8_LASTUSEDCODE_after_add_error_class_Attr_get_same', &
               rc == MPI_SUCCESS .and. g .and. f .and. int(ival, ak) == v)
    if (f) then
      call fact('LASTUSEDCODE_minus_new_class', v - cls)
    else
      call fact('LASTUSEDCODE_minus_new_class', -1)
    end if
    t = -1
    f = .false.
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, t, f, rc)
    call check('R8_TAG_UB_with_user_attribute_left_on_world', rc == MPI_SUCCESS .and. f .and. &
               t >= 32767)
  end subroutine lastusedcode_step
end module r8_steps

program R8_predefined_beside_user_attributes
#ifndef MPIF_H
  use mpi
#endif
  use fhost_check
  use r8_steps
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  integer :: ierr, rank, dup

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)

  call comm_steps('world', MPI_COMM_WORLD, .false.)
  call comm_steps('self', MPI_COMM_SELF, .true.)
  dup = MPI_COMM_NULL
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call check('R8_dup_succeeds', ierr == MPI_SUCCESS .and. dup /= MPI_COMM_NULL)
  call comm_steps('dup', dup, .false.)
  call dup_copy_step(dup)
  call MPI_COMM_FREE(dup, ierr)

  call win_steps(rank)
  call lastusedcode_step()

  call report('mpif')
  call MPI_FINALIZE(ierr)
end program R8_predefined_beside_user_attributes
