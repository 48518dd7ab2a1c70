! rt_prog_f: the Fortran program runtime_check.py runs (D26, D27). The first argument is what it does:
!   hello   MPI_INIT, print "rank R of S", MPI_FINALIZE
!   abort   print three lines to unit 6 (print *, write), MPI_ABORT(MPI_COMM_WORLD, 3)
!   fatal   print three lines, then an error under MPI_ERRORS_ARE_FATAL (a keyval that is not one);
!           on stderr first the exit status expected, the class MPI_ERR_KEYVAL (D150)
! gfortran buffers unit 6 when it is a file: what reaches the file is what MPI flushed.
program rt_prog_f
  use mpi
  implicit none
  character(len=32) :: mode
  integer :: ierr, rank, size
  call get_command_argument(1, mode)
  if (len_trim(mode) == 0) mode = 'hello'
  call MPI_INIT(ierr)
  select case (trim(mode))
  case ('hello')
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
    write (*, '(a,i0,a,i0)') 'rank ', rank, ' of ', size
  case ('abort')
    call three_lines()
    call MPI_ABORT(MPI_COMM_WORLD, 3, ierr)
  case ('fatal')
    call three_lines()
    ! (D150: the exit status is the error's class; runtime_check.py reads it from this line)
    write (0, '(a,i0,a)') 'rt_prog_f: expecting exit status ', MPI_ERR_KEYVAL, ' (MPI_ERR_KEYVAL)'
    call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, 12345, 0_MPI_ADDRESS_KIND, ierr)
  case default
    write (0, '(2a)') 'rt_prog_f: unknown mode ', trim(mode)
    stop 2
  end select
  call MPI_FINALIZE(ierr)
contains
  subroutine three_lines()
    write (*, '(a)') 'D27: Fortran line 1 of 3'
    print '(a)', 'D27: Fortran line 2 of 3'
    write (6, '(a)') 'D27: Fortran line 3 of 3'
  end subroutine three_lines
end program rt_prog_f
