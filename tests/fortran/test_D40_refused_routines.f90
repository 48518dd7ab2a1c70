! D40 (after D36): every routine of the spec has a `use mpi` binding, and one the standalone runtime
! does not carry out raises MPI_ERR_UNSUPPORTED_OPERATION through its object's error handler, the
! message naming the routine, as its C entry point does. One routine of each argument shape:
! arrays with lengths, of handles and of strings (MPI_COMM_SPAWN_MULTIPLE), strings and string
! arrays (MPI_COMM_SPAWN), LOGICAL (MPI_INTERCOMM_MERGE), callbacks (MPI_REGISTER_DATAREP). Choice
! buffers of several ranks and types (MPI_FILE_IWRITE), a status and INTEGER(KIND=MPI_OFFSET_KIND)
! (MPI_FILE_READ, MPI_FILE_SEEK) go to file routines, carried out since D107, on MPI_FILE_NULL:
! MPI_ERR_FILE, only returned. MPI_TESTSOME (arrays of
! statuses) and MPI_GREQUEST_START (callbacks) are carried out since D44: their Fortran conventions
! are checked. Under
! MPI_ERRORS_RETURN each returns the code and changes nothing a program can see: buffers and
! INOUT arguments keep their values, the communicator stays usable. (An INTENT(OUT) argument is
! undefined on entry to the call in Fortran, so the compiler may drop a store before it: whether
! the entry point wrote one is checked through mpif.h, which has no interfaces: _f77.)
module refused90
  use mpi
  use ftest
  implicit none
  private
  public :: check, check_file, query_fn, free_fn, cancel_fn, conv_fn, extent_fn, gcalls
  integer :: gcalls = 0
contains
  subroutine check(label, ierr, routine)
    character(len=*), intent(in) :: label, routine
    integer, intent(in) :: ierr
    integer :: cls, rc, slen
    character(len=MPI_MAX_ERROR_STRING) :: text
    call MPI_ERROR_CLASS(ierr, cls, rc)
    call expect_i('D40 '//label//' error class', cls, MPI_ERR_UNSUPPORTED_OPERATION)
    call MPI_ERROR_STRING(ierr, text, slen, rc)
    call expect_l('D40 '//label//' message names '//routine, index(text(1:slen), routine) > 0, .true.)
    call expect_l('D40 '//label//' message says why', &
                  index(text(1:slen), 'does not carry it out') > 0, .true.)
  end subroutine check
  ! A file routine on MPI_FILE_NULL, which is no file (MPI-IO is carried out, D107): MPI_ERR_FILE,
  ! the message naming the routine; only returned (MPI_FILE_NULL's handler is MPI_ERRORS_RETURN).
  subroutine check_file(label, ierr, routine)
    character(len=*), intent(in) :: label, routine
    integer, intent(in) :: ierr
    integer :: cls, rc, slen
    character(len=MPI_MAX_ERROR_STRING) :: text
    call MPI_ERROR_CLASS(ierr, cls, rc)
    call expect_i('D107 '//label//' error class', cls, MPI_ERR_FILE)
    call MPI_ERROR_STRING(ierr, text, slen, rc)
    call expect_l('D107 '//label//' message names '//routine, index(text(1:slen), routine) > 0, .true.)
  end subroutine check_file

  subroutine query_fn(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierror
    gcalls = gcalls + 1
    status(MPI_TAG) = 5
    ierror = MPI_SUCCESS
  end subroutine query_fn
  subroutine free_fn(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    gcalls = gcalls + 10
    ierror = MPI_SUCCESS
  end subroutine free_fn
  subroutine cancel_fn(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ierror = MPI_SUCCESS
  end subroutine cancel_fn
  subroutine conv_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*), datatype, count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    ierror = MPI_SUCCESS
  end subroutine conv_fn
  subroutine extent_fn(datatype, extent, extra_state, ierror)
    integer :: datatype, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    ierror = MPI_SUCCESS
  end subroutine extent_fn
end module refused90

program test_D40_refused_routines
  use mpi
  use ftest
  use refused90
  implicit none
  integer :: ierr, comm, size, newcomm, req, outcount, i, cls, ierr2
  integer :: s0, s1(4), s2(2, 3), s3(2, 2, 2)
  double precision :: d2(3, 3)
  integer :: errcodes(1), reqs(2), indices(2), maxprocs(2), infos(2), errcodes2(2)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  character(len=8) :: argv(2), cmds(2), argvs(2, 2)

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call MPI_COMM_SET_ERRHANDLER(comm, MPI_ERRORS_RETURN, ierr)

  ! Choice buffers: a scalar, ranks 1 to 3, another type; none is read or written. (MPI_FILE_NULL
  ! is no file: the code is only returned, MPI_FILE_NULL's handler being MPI_ERRORS_RETURN.)
  s0 = 7; s1 = 7; s2 = 7; s3 = 7; d2 = 7d0
  call MPI_FILE_IWRITE(MPI_FILE_NULL, s0, 1, MPI_INTEGER, req, ierr)
  call check_file('MPI_FILE_IWRITE scalar', ierr, 'MPI_FILE_IWRITE')
  call MPI_FILE_IWRITE(MPI_FILE_NULL, s1, 4, MPI_INTEGER, req, ierr)
  call check_file('MPI_FILE_IWRITE rank 1', ierr, 'MPI_FILE_IWRITE')
  call MPI_FILE_IWRITE(MPI_FILE_NULL, s2, 6, MPI_INTEGER, req, ierr)
  call check_file('MPI_FILE_IWRITE rank 2', ierr, 'MPI_FILE_IWRITE')
  call MPI_FILE_IWRITE(MPI_FILE_NULL, s3, 8, MPI_INTEGER, req, ierr)
  call check_file('MPI_FILE_IWRITE rank 3', ierr, 'MPI_FILE_IWRITE')
  call MPI_FILE_IWRITE(MPI_FILE_NULL, d2(2, :), 3, MPI_DOUBLE_PRECISION, req, ierr)
  call check_file('MPI_FILE_IWRITE strided section', ierr, 'MPI_FILE_IWRITE')
  call expect_l('D40 buffers unchanged', all(s1 == 7) .and. all(s2 == 7) .and. all(s3 == 7) &
                .and. s0 == 7 .and. all(abs(d2 - 7d0) < 1d-12), .true.)

  cmds(1) = './a'; cmds(2) = './b'
  argvs = ' '; argvs(1, 1) = 'x'
  maxprocs = 1; infos = MPI_INFO_NULL; errcodes2 = -5; newcomm = -5
  call MPI_COMM_SPAWN_MULTIPLE(2, cmds, argvs, maxprocs, infos, 0, comm, newcomm, errcodes2, ierr)
  call check('MPI_COMM_SPAWN_MULTIPLE', ierr, 'MPI_COMM_SPAWN_MULTIPLE')
  call expect_l('D40 MPI_COMM_SPAWN_MULTIPLE arrays unchanged', all(maxprocs == 1) .and. &
                all(infos == MPI_INFO_NULL) .and. cmds(2) == './b' .and. argvs(1, 1) == 'x', .true.)

  argv(1) = 'a'; argv(2) = ' '
  newcomm = -5; errcodes = -5
  call MPI_COMM_SPAWN('./nothing', argv, 1, MPI_INFO_NULL, 0, comm, newcomm, errcodes, ierr)
  call check('MPI_COMM_SPAWN', ierr, 'MPI_COMM_SPAWN')

  newcomm = -5
  call MPI_INTERCOMM_MERGE(comm, .true., newcomm, ierr)
  call check('MPI_INTERCOMM_MERGE', ierr, 'MPI_INTERCOMM_MERGE')
  ! An invalid communicator is MPI_ERR_COMM first, as in a routine carried out (D103). (NEWCOMM
  ! is INTENT(OUT) here: the compiler may drop a value stored before the call; mpif.h's twin,
  ! test_D40_refused_routines_f77.f, checks that nothing is written.)
  call MPI_INTERCOMM_MERGE(MPI_COMM_NULL, .true., newcomm, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr2)
  call expect_i('D103 MPI_INTERCOMM_MERGE of MPI_COMM_NULL, class', cls, MPI_ERR_COMM)

  status = 3
  call MPI_FILE_READ(MPI_FILE_NULL, s1, 1, MPI_INTEGER, status, ierr)
  call check_file('MPI_FILE_READ', ierr, 'MPI_FILE_READ')

  reqs = MPI_REQUEST_NULL; outcount = -5; indices = -5; statuses = 3
  call MPI_TESTSOME(2, reqs, outcount, indices, statuses, ierr)
  call expect_i('D44 MPI_TESTSOME of null requests', ierr, MPI_SUCCESS)
  call expect_i('D44 MPI_TESTSOME outcount', outcount, MPI_UNDEFINED)
  call expect_l('D44 MPI_TESTSOME requests (INOUT) unchanged', all(reqs == MPI_REQUEST_NULL), .true.)

  call MPI_FILE_SEEK(MPI_FILE_NULL, 10_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  call check_file('MPI_FILE_SEEK', ierr, 'MPI_FILE_SEEK')

  req = -5
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, 0_MPI_ADDRESS_KIND, req, ierr)
  call expect_i('D44 MPI_GREQUEST_START', ierr, MPI_SUCCESS)
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_WAIT(req, status, ierr)
  call expect_i('D44 MPI_WAIT of a generalized request', ierr, MPI_SUCCESS)
  call expect_i('D44 query_fn and free_fn ran once each', gcalls, 11)
  call expect_i('D44 the status query_fn wrote', status(MPI_TAG), 5)
  call expect_l('D44 the generalized request is freed', req == MPI_REQUEST_NULL, .true.)

  ! Carried out since D118 (its callbacks' Fortran conventions: test_file_io.f90): a name once.
  call MPI_REGISTER_DATAREP('d40', conv_fn, conv_fn, extent_fn, 0_MPI_ADDRESS_KIND, ierr)
  call expect_i('D118 MPI_REGISTER_DATAREP', ierr, MPI_SUCCESS)
  call MPI_REGISTER_DATAREP('d40', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, &
                            0_MPI_ADDRESS_KIND, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr2)
  call expect_i('D118 MPI_REGISTER_DATAREP of a name registered', cls, MPI_ERR_DUP_DATAREP)

  ! The communicator is untouched and usable.
  call MPI_COMM_SIZE(comm, size, ierr)
  call expect_i('D40 comm still usable', ierr, MPI_SUCCESS)
  call MPI_COMM_FREE(comm, ierr)
  i = 0
  call MPI_FINALIZE(ierr)
  call expect_i('D40 MPI_FINALIZE', ierr, MPI_SUCCESS)
  call ftest_finish()
end program test_D40_refused_routines
