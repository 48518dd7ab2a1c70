! ftest: what every Fortran test program uses to state a fact. Each expect_* prints one line
! "LABEL: VALUE" (the differential runner, fdiffrun.py, compares these lines with MPICH and Open MPI)
! and counts a failure when VALUE is not the expected one; ftest_finish ends the program with
! `error stop` when anything failed, unless FTEST_REPORT_ONLY is set (the runner sets it for peers,
! whose known deviations are recorded in divergences.toml, not failed on).
module ftest
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  private
  public :: expect_i, expect_a, expect_l, expect_s, ftest_finish
  integer :: failures = 0
contains
  subroutine expect_i(label, got, want)
    character(len=*), intent(in) :: label
    integer, intent(in) :: got, want
    print '(a,": ",i0)', label, got
    if (got /= want) call failed(label)
  end subroutine expect_i

  subroutine expect_a(label, got, want)
    character(len=*), intent(in) :: label
    integer(int64), intent(in) :: got, want
    print '(a,": ",i0)', label, got
    if (got /= want) call failed(label)
  end subroutine expect_a

  subroutine expect_l(label, got, want)
    character(len=*), intent(in) :: label
    logical, intent(in) :: got, want
    print '(a,": ",l1)', label, got
    if (got .neqv. want) call failed(label)
  end subroutine expect_l

  subroutine expect_s(label, got, want)
    character(len=*), intent(in) :: label, got, want
    print '(a,": ",a)', label, trim(got)
    if (trim(got) /= trim(want)) call failed(label)
  end subroutine expect_s

  subroutine failed(label)
    character(len=*), intent(in) :: label
    failures = failures + 1
    write (0, '(a,a)') 'FAILED: ', label
  end subroutine failed

  subroutine ftest_finish()
    integer :: n
    call get_environment_variable('FTEST_REPORT_ONLY', length=n)
    if (failures > 0 .and. n == 0) error stop 'some expectations failed (see FAILED lines on stderr)'
  end subroutine ftest_finish
end module ftest
