! lang_bench.F90 - the Fortran figures of bench/run.py --lang (docs/decisions.md D68).
!
! One program, standard Fortran MPI only, built unchanged with mpiattr's wrapper (mpiattr-fort,
! standalone), each host's own (mpifort.mpich, mpifort.openmpi) and mpiattr's over each host
! (mpiattr-<host>-fort: the host's mpif.h and modules, libmpiattr_<host> in front). The three
! Fortran forms are three subroutines of the one program, so that one binary and one process per
! implementation give every figure: bench_f77 (include 'mpif.h'), bench_f90 (use mpi), bench_f08
! (use mpi_f08; MPI_ATTR_GET and MPI_ATTR_PUT, deprecated MPI-1 routines, have no mpi_f08 form).
! The three run the same loops, written once in lang_bench_loops.inc, which each includes.
!
! Each figure is one routine called in a loop on an object that carries one attribute under the
! key it reads or replaces, timed as attr_bench's figures are (D79, D92): one untimed batch of
! `base` calls sizes the timed ones to at least `mintime` s each, `nbatch` timed batches follow,
! and the fastest is printed, in ns per call, as
!   RESULT <form>_<figure> <ns>
! The clock is the calling thread's CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID)), the same for
! every implementation: neither time preempted by other work nor the host's own threads count.
! Arguments: `quick` (tiny counts: a smoke test, no timing claims), `multiple` (initialise with
! MPI_THREAD_MULTIPLE instead of MPI_THREAD_SINGLE), `batches=B` (default 5), `mintime=S` (default
! 0.02). run.py links the program after a padding object of 0, 16, 32 or 48 bytes (D92), which
! moves every loop by that much in the 64-byte lines: the four placements of D86.
module lang_bench_clock
  use, intrinsic :: iso_c_binding, only: c_int, c_long
  implicit none
  integer, parameter :: i8 = selected_int_kind(18)
  integer, parameter :: r8 = selected_real_kind(15)
  integer, parameter :: maxbatch = 50
  integer(c_int), parameter :: clock_thread_cputime_id = 3  ! Linux
  integer :: nbatch = 5
  integer :: base = 200000
  integer :: iters = 200000
  real(r8) :: mintime = 0.02_r8
  integer :: nbad = 0
  real(r8) :: samples(maxbatch)
  type, bind(C) :: timespec
    integer(c_long) :: tv_sec, tv_nsec
  end type timespec
  interface
    function clock_gettime(clk, ts) bind(C, name='clock_gettime') result(rc)
      import :: c_int, timespec
      integer(c_int), value :: clk
      type(timespec), intent(out) :: ts
      integer(c_int) :: rc
    end function clock_gettime
  end interface
contains
  ! The calling thread's CPU time in ns (D79, D92: CPU_TIME, the process's, would also count
  ! the host's own threads, Open MPI's among them).
  function now_ns() result(t)
    integer(i8) :: t
    type(timespec) :: ts
    if (clock_gettime(clock_thread_cputime_id, ts) /= 0) nbad = nbad + 1
    t = int(ts%tv_sec, i8) * 1000000000_i8 + int(ts%tv_nsec, i8)
  end function now_ns

  ! Batch b (0: the untimed sizing batch of `base` calls) started at t0 has just ended.
  subroutine lap(b, t0)
    integer, intent(in) :: b
    integer(i8), intent(in) :: t0
    integer(i8) :: t1
    real(r8) :: per
    t1 = now_ns()
    per = real(t1 - t0, r8) / real(iters, r8)
    if (b > 0) then
      samples(b) = per
    else if (mintime > 0 .and. per > 0) then
      iters = max(base, int(min(mintime * 1.0e9_r8 / per + 1, 2.0e9_r8)))
    end if
  end subroutine lap

  ! Prints the fastest timed batch as the figure <form><name>; the next figure sizes anew.
  subroutine report(form, name)
    character(len=*), intent(in) :: form, name
    write (*, '(A,A,A,A,F0.3)') 'RESULT ', form, name, ' ', minval(samples(1:nbatch))
    iters = base
  end subroutine report
end module lang_bench_clock

! mpif.h: MPI_COMM_GET_ATTR / SET_ATTR (INTEGER(KIND=MPI_ADDRESS_KIND)), MPI_ATTR_GET / PUT
! (INTEGER), MPI_TYPE_*, MPI_WIN_*.
subroutine bench_f77(comm, dtype, win, ckey, tkey, wkey)
  use lang_bench_clock
  implicit none
  include 'mpif.h'
  integer, intent(in) :: comm, dtype, win, ckey, tkey, wkey
  character(len=*), parameter :: form = 'f77_'
  integer(kind=MPI_ADDRESS_KIND) :: v
  integer :: iv, ierr, i, b
  logical :: flag
  integer(i8) :: t0
#include "lang_bench_loops.inc"
end subroutine bench_f77

! use mpi: the same routines through the module's explicit interfaces.
subroutine bench_f90(comm, dtype, win, ckey, tkey, wkey)
  use mpi
  use lang_bench_clock
  implicit none
  integer, intent(in) :: comm, dtype, win, ckey, tkey, wkey
  character(len=*), parameter :: form = 'f90_'
  integer(kind=MPI_ADDRESS_KIND) :: v
  integer :: iv, ierr, i, b
  logical :: flag
  integer(i8) :: t0
#include "lang_bench_loops.inc"
end subroutine bench_f90

! use mpi_f08: the handles are TYPE(MPI_Comm), ... around the same INTEGERs (MPI_VAL).
subroutine bench_f08(icomm, itype, iwin, ckey, tkey, wkey)
  use mpi_f08
  use lang_bench_clock
  implicit none
  integer, intent(in) :: icomm, itype, iwin, ckey, tkey, wkey
  character(len=*), parameter :: form = 'f08_'
  type(MPI_Comm) :: comm
  type(MPI_Datatype) :: dtype
  type(MPI_Win) :: win
  integer(kind=MPI_ADDRESS_KIND) :: v
  integer :: ierr, i, b
  logical :: flag
  integer(i8) :: t0
  comm%MPI_VAL = icomm
  dtype%MPI_VAL = itype
  win%MPI_VAL = iwin
#define LANG_BENCH_F08
#include "lang_bench_loops.inc"
#undef LANG_BENCH_F08
end subroutine bench_f08

program lang_bench
  use mpi
  use lang_bench_clock
  implicit none
  integer :: comm, dtype, win, ckey, tkey, wkey, ierr, provided, level, i
  integer :: buf(64)
  integer(kind=MPI_ADDRESS_KIND) :: extra
  character(len=32) :: arg
  level = MPI_THREAD_SINGLE
  do i = 1, command_argument_count()
    call get_command_argument(i, arg)
    if (arg == 'quick') then
      base = 200
      iters = 200
      nbatch = 3
      mintime = 0
    else if (arg(1:8) == 'batches=') then
      read (arg(9:), *) nbatch
      nbatch = max(1, min(nbatch, maxbatch))
    else if (arg(1:8) == 'mintime=') then
      read (arg(9:), *) mintime
    else if (arg == 'multiple') then
      level = MPI_THREAD_MULTIPLE
    end if
  end do
  call MPI_INIT_THREAD(level, provided, ierr)
  extra = 0
  buf = 0
  call MPI_COMM_DUP(MPI_COMM_SELF, comm, ierr)
  call MPI_TYPE_DUP(MPI_INTEGER, dtype, ierr)
  call MPI_WIN_CREATE(buf, int(size(buf) * 4, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_SELF, &
                      win, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ckey, extra, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tkey, extra, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, wkey, extra, ierr)
  call MPI_COMM_SET_ATTR(comm, ckey, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_SET_ATTR(dtype, tkey, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_SET_ATTR(win, wkey, 7_MPI_ADDRESS_KIND, ierr)
  if (level == MPI_THREAD_MULTIPLE .and. provided /= MPI_THREAD_MULTIPLE) then
    write (*, '(A,I0)') 'lang_bench: MPI_THREAD_MULTIPLE asked, provided ', provided
    nbad = nbad + 1
  end if

  call bench_f77(comm, dtype, win, ckey, tkey, wkey)
  call bench_f90(comm, dtype, win, ckey, tkey, wkey)
  call bench_f08(comm, dtype, win, ckey, tkey, wkey)

  call MPI_WIN_FREE(win, ierr)
  call MPI_TYPE_FREE(dtype, ierr)
  call MPI_COMM_FREE(comm, ierr)
  call MPI_COMM_FREE_KEYVAL(ckey, ierr)
  call MPI_TYPE_FREE_KEYVAL(tkey, ierr)
  call MPI_WIN_FREE_KEYVAL(wkey, ierr)
  write (*, '(A,I0)') 'BAD ', nbad
  call MPI_FINALIZE(ierr)
  if (nbad /= 0) stop 1
end program lang_bench
