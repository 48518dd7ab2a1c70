! fhost_check.f90: the check harness of the Fortran host tests (tests/host/fortran/), the Fortran
! twin of c/host_check.h. It prints exactly the lines tests/host/hostrun.py parses; the runner
! compiles it (and fhost_provider.c) before each program, with the host's mpifort.
!
!   use fhost_check
!   call check(name, cond)   records a named LOGICAL result on this rank. Every rank must record
!                            the same names in the same order: keep check calls unconditional and
!                            compute the condition conditionally instead. Names are unique within
!                            a program and contain no blanks or colons (at most 95 characters).
!   call fact(name, value)   an INTEGER (any kind up to 8 bytes) rank 0 prints as
!                            "FACT <name>: <value>"; the runner compares the facts of a
!                            host+mpiattr run with those of the host alone.
!   call info_value(name, value), call info_text(name, text)
!                            a value rank 0 prints as "INFO <name>: <value>"; never compared
!                            (`info` itself is left free: programs name MPI_Info handles so).
!   call report([bindings])  before MPI_FINALIZE, on every rank (collective over MPI_COMM_WORLD):
!                            combines each check over the ranks (MPI_ALLREDUCE); rank 0 prints
!                            "CHECK <name>: ok" or "CHECK <name>: FAIL (ranks r1,r2)" per check,
!                            the two harness checks, the FACT and INFO lines, then
!                            "HOSTCHECK DONE ranks=<n> checks=<c>".
!
! report() first adds the check "harness_caching_routines_provider" when the runner asks for it
! (HOSTCHECK_PROVIDER / HOSTCHECK_NOT_PROVIDER, see fhost_provider.c): every caching routine,
! under the link names of the bindings the program calls them through, must come from the library
! in front of the host (linked, preload) or not from it (alone). `bindings` names them, blank
! separated: "mpif" (mpif.h and `use mpi`: mpi_x_, the default), "f08" (`use mpi_f08`:
! mpi_x_f08_), "c" (the C names, for a program whose C part calls them).
!
! The harness itself calls MPI through `use mpi` (MPI_COMM_RANK, MPI_ALLREDUCE: no caching
! routine), which every program may use whatever binding it calls the caching routines through;
! the module exports nothing of `mpi`. Failing checks are also shown on stderr, per rank. There is
! no local_report() (checks after MPI_FINALIZE) as in C: no Fortran program needs one yet.
module fhost_check
  use, intrinsic :: iso_c_binding, only: c_int, c_char
  use, intrinsic :: iso_fortran_env, only: output_unit, error_unit, int64
  use mpi
  implicit none
  private
  public :: check, fact, info_value, info_text, report, check_added_code

  integer, parameter :: max_checks = 1024, max_values = 256, name_len = 96, text_len = 160
  character(len=name_len) :: check_names(max_checks)
  logical :: check_oks(max_checks)
  integer :: nchecks = 0
  character(len=name_len) :: value_names(max_values)
  character(len=text_len) :: value_texts(max_values)
  logical :: value_is_fact(max_values)
  integer :: nvalues = 0
  integer :: bad_names = 0
  integer :: my_rank = -1, my_size = -1

  interface fact
    module procedure fact_i4, fact_i8
  end interface fact
  interface info_value
    module procedure info_i4, info_i8
  end interface info_value

  interface
    integer(c_int) function fhc_provider_check(bindings, text, text_len) &
        bind(c, name='fhc_provider_check')
      import :: c_int, c_char
      integer(c_int), intent(in) :: bindings, text_len
      character(kind=c_char), intent(out) :: text(*)
    end function fhc_provider_check
    subroutine fhc_provider_symbol(bindings, text, text_len) bind(c, name='fhc_provider_symbol')
      import :: c_int, c_char
      integer(c_int), intent(in) :: bindings, text_len
      character(kind=c_char), intent(out) :: text(*)
    end subroutine fhc_provider_symbol
  end interface

contains

  subroutine fetch_rank()
    logical :: init, fin
    integer :: ierr
    if (my_rank >= 0) return
    call MPI_INITIALIZED(init, ierr)
    call MPI_FINALIZED(fin, ierr)
    if (init .and. .not. fin) then
      call MPI_COMM_RANK(MPI_COMM_WORLD, my_rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, my_size, ierr)
    end if
  end subroutine fetch_rank

  logical function valid_name(name)
    character(len=*), intent(in) :: name
    integer :: n
    n = len_trim(name)
    valid_name = n > 0 .and. n < name_len .and. index(name(1:n), ' ') == 0 .and. &
                 index(name(1:n), ':') == 0 .and. index(name(1:n), char(9)) == 0
  end function valid_name

  ! D87: under mpiattr's library (the runner sets HOSTCHECK_PROVIDER), an error code a caching
  ! call returned is not the bare class `bare` (over a host, a code the host added to the class,
  ! which the host's own MPI_ERROR_CLASS classes) and `text`, its MPI_ERROR_STRING, names
  ! `routine`. On the host alone the check holds trivially.
  subroutine check_added_code(name, code, bare, text, routine)
    character(len=*), intent(in) :: name, text, routine
    integer, intent(in) :: code, bare
    integer :: n
    call get_environment_variable('HOSTCHECK_PROVIDER', length=n)
    call check(name, n == 0 .or. (code /= bare .and. index(text, routine) > 0))
  end subroutine check_added_code

  subroutine check(name, cond)
    character(len=*), intent(in) :: name
    logical, intent(in) :: cond
    integer :: i
    call fetch_rank()
    if (.not. cond) write (error_unit, '(a,i0,3a)') 'fhost_check: rank ', my_rank, ': CHECK ', &
                                                    trim(name), ' failed'
    if (.not. valid_name(name) .or. nchecks >= max_checks) then
      write (error_unit, '(a,i0,2a)') 'fhost_check: rank ', my_rank, &
                                      ': bad or too many check names at ', trim(name)
      bad_names = 1
      return
    end if
    do i = 1, nchecks
      if (check_names(i) == name) then
        write (error_unit, '(a,i0,3a)') 'fhost_check: rank ', my_rank, ': check name ', &
                                        trim(name), ' recorded twice'
        bad_names = 1
        return
      end if
    end do
    nchecks = nchecks + 1
    check_names(nchecks) = name
    check_oks(nchecks) = cond
  end subroutine check

  subroutine add_value(name, text, is_fact)
    character(len=*), intent(in) :: name, text
    logical, intent(in) :: is_fact
    integer :: i, slot
    character(len=text_len) :: clean
    if (.not. valid_name(name) .or. nvalues >= max_values) then
      write (error_unit, '(2a)') 'fhost_check: bad or too many fact names at ', trim(name)
      bad_names = 1
      return
    end if
    clean = text
    do i = 1, len_trim(clean)  ! one line per value: control characters become blanks
      if (iachar(clean(i:i)) < 32) clean(i:i) = ' '
    end do
    slot = nvalues + 1
    do i = 1, nvalues  ! the last value wins; a name is printed once
      if (value_names(i) == name) slot = i
    end do
    if (slot > nvalues) nvalues = slot
    value_names(slot) = name
    value_texts(slot) = clean
    value_is_fact(slot) = is_fact
  end subroutine add_value

  function itoa(v) result(s)
    integer(int64), intent(in) :: v
    character(len=24) :: s
    write (s, '(i0)') v
  end function itoa

  subroutine fact_i4(name, value)
    character(len=*), intent(in) :: name
    integer, intent(in) :: value
    call add_value(name, itoa(int(value, int64)), .true.)
  end subroutine fact_i4

  subroutine fact_i8(name, value)
    character(len=*), intent(in) :: name
    integer(int64), intent(in) :: value
    call add_value(name, itoa(value), .true.)
  end subroutine fact_i8

  subroutine info_i4(name, value)
    character(len=*), intent(in) :: name
    integer, intent(in) :: value
    call add_value(name, itoa(int(value, int64)), .false.)
  end subroutine info_i4

  subroutine info_i8(name, value)
    character(len=*), intent(in) :: name
    integer(int64), intent(in) :: value
    call add_value(name, itoa(value), .false.)
  end subroutine info_i8

  subroutine info_text(name, text)
    character(len=*), intent(in) :: name, text
    call add_value(name, text, .false.)
  end subroutine info_text

  ! The "harness_caching_routines_provider" check (fhost_provider.c), for these bindings.
  subroutine provider_check(bindings)
    character(len=*), intent(in) :: bindings
    integer(c_int) :: mask, rc, tlen
    character(kind=c_char, len=1) :: text(text_len), sym(name_len)
    character(len=text_len) :: provider
    character(len=name_len) :: symname
    integer :: i
    mask = 0
    if (has_word(bindings, 'c')) mask = ior(mask, 1_c_int)
    if (has_word(bindings, 'mpif')) mask = ior(mask, 2_c_int)
    if (has_word(bindings, 'f08')) mask = ior(mask, 4_c_int)
    if (mask == 0) then
      write (error_unit, '(3a)') 'fhost_check: report(): unknown bindings "', trim(bindings), '"'
      bad_names = 1
      mask = 2
    end if
    tlen = text_len
    rc = fhc_provider_check(mask, text, tlen)
    if (rc < 0) return
    tlen = name_len
    call fhc_provider_symbol(mask, sym, tlen)
    do i = 1, text_len
      provider(i:i) = text(i)
    end do
    do i = 1, name_len
      symname(i:i) = sym(i)
    end do
    call info_text('provider_of_' // trim(symname), trim(provider))
    call check('harness_caching_routines_provider', rc == 1)
  end subroutine provider_check

  logical function has_word(list, word)
    character(len=*), intent(in) :: list, word
    has_word = index(' ' // trim(list) // ' ', ' ' // word // ' ') > 0
  end function has_word

  ! Names are compared across ranks by count and by an FNV-1a hash of the sequence (as in C).
  integer(int64) function names_hash()
    integer :: i, j, n
    integer(int64), parameter :: mask32 = 4294967295_int64
    names_hash = 1469598103_int64
    do i = 1, nchecks
      n = len_trim(check_names(i))
      do j = 1, n + 1
        if (j <= n) then
          names_hash = ieor(names_hash, int(ichar(check_names(i)(j:j)), int64))
        end if
        names_hash = iand(names_hash * 16777619_int64, mask32)
      end do
    end do
  end function names_hash

  subroutine report(bindings)
    character(len=*), intent(in), optional :: bindings
    integer(int64) :: mine(3), lo(3), hi(3)
    integer(int64), allocatable :: failed(:), all_failed(:)
    integer :: n, i, r, ierr
    logical :: same, any_failed, first
    character(len=:), allocatable :: line

    if (present(bindings)) then
      call provider_check(bindings)
    else
      call provider_check('mpif')
    end if
    call fetch_rank()

    ! all reductions are of INTEGER(int64) arrays (MPI_INTEGER8)
    mine = [int(nchecks, int64), names_hash(), int(bad_names, int64)]
    call MPI_ALLREDUCE(mine, lo, 3, MPI_INTEGER8, MPI_MIN, MPI_COMM_WORLD, ierr)
    call MPI_ALLREDUCE(mine, hi, 3, MPI_INTEGER8, MPI_MAX, MPI_COMM_WORLD, ierr)
    same = lo(1) == hi(1) .and. lo(2) == hi(2)

    n = int(hi(1))
    ! failed(i * size + r + 1) = 1 when check i+1 failed (or is missing) on rank r
    allocate (failed(max(n, 1) * my_size), all_failed(max(n, 1) * my_size))
    failed = 0
    do i = 0, n - 1
      if (i < nchecks) then
        if (.not. check_oks(i + 1)) failed(i * my_size + my_rank + 1) = 1
      else
        failed(i * my_size + my_rank + 1) = 1
      end if
    end do
    call MPI_ALLREDUCE(failed, all_failed, max(n, 1) * my_size, MPI_INTEGER8, MPI_MAX, &
                       MPI_COMM_WORLD, ierr)

    if (my_rank == 0) then
      do i = 0, n - 1
        if (i < nchecks) then
          line = 'CHECK ' // trim(check_names(i + 1)) // ':'
        else
          line = 'CHECK harness_missing_check:'
        end if
        any_failed = any(all_failed(i * my_size + 1:i * my_size + my_size) /= 0)
        if (.not. any_failed) then
          line = line // ' ok'
        else
          line = line // ' FAIL (ranks '
          first = .true.
          do r = 0, my_size - 1
            if (all_failed(i * my_size + r + 1) /= 0) then
              if (.not. first) line = line // ','
              line = line // trim(itoa(int(r, int64)))
              first = .false.
            end if
          end do
          line = line // ')'
        end if
        write (output_unit, '(a)') line
      end do
      if (same) then
        write (output_unit, '(a)') 'CHECK harness_same_checks_on_all_ranks: ok'
      else
        write (output_unit, '(a)') 'CHECK harness_same_checks_on_all_ranks: FAIL (ranks 0)'
      end if
      if (hi(3) == 0) then
        write (output_unit, '(a)') 'CHECK harness_check_names_valid: ok'
      else
        write (output_unit, '(a)') 'CHECK harness_check_names_valid: FAIL (ranks 0)'
      end if
      do i = 1, nvalues
        if (value_is_fact(i)) then
          write (output_unit, '(4a)') 'FACT ', trim(value_names(i)), ': ', trim(value_texts(i))
        else
          write (output_unit, '(4a)') 'INFO ', trim(value_names(i)), ': ', trim(value_texts(i))
        end if
      end do
      write (output_unit, '(a,i0,a,i0)') 'HOSTCHECK DONE ranks=', my_size, ' checks=', n + 2
      flush (output_unit)
    end if
    deallocate (failed, all_failed)
    nchecks = 0
    nvalues = 0
  end subroutine report

end module fhost_check
