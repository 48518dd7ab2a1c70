! D40 through `use mpi_f08`: the routines the standalone runtime does not carry out have their
! mpi_f08 bindings (generic name, specific _f08 procedure, OPTIONAL ierror) and raise
! MPI_ERR_UNSUPPORTED_OPERATION through the communicator's handler, the message naming the routine,
! as in C (D36). Choice buffers of several ranks, handle types, strings, LOGICAL, TYPE(MPI_Status),
! INTEGER(KIND=MPI_OFFSET_KIND), a PROCEDURE argument (the buffers, status and offset on file
! routines, carried out since D107, on MPI_FILE_NULL: MPI_ERR_FILE); under MPI_ERRORS_RETURN the
! code is returned and buffers are untouched (INTENT(OUT) arguments are undefined on entry in
! Fortran; the _f77 test checks them through mpif.h); without ierror the handler still runs.
module refused08
  use mpi_f08
  use ftest
  implicit none
  private
  public :: check, check_file, on_error, calls, query_fn, free_fn, cancel_fn, gcalls, extent_fn
  integer :: gcalls = 0
  integer :: calls = 0
contains

  ! MPI_Datarep_extent_function's interface (D54), for MPI_Register_datarep.
  subroutine extent_fn(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror
    extent = 4
    ierror = MPI_SUCCESS
    if (.false.) print *, datatype%MPI_VAL, extra_state
  end subroutine extent_fn
  subroutine check(label, ierr, routine)
    character(len=*), intent(in) :: label, routine
    integer, intent(in) :: ierr
    integer :: cls, slen
    character(len=MPI_MAX_ERROR_STRING) :: text
    call MPI_Error_class(ierr, cls)
    call expect_i('D40 '//label//' error class', cls, MPI_ERR_UNSUPPORTED_OPERATION)
    call MPI_Error_string(ierr, text, slen)
    call expect_l('D40 '//label//' message names '//routine, index(text(1:slen), routine) > 0, .true.)
    call expect_l('D40 '//label//' message says why', &
                  index(text(1:slen), 'does not carry it out') > 0, .true.)
  end subroutine check
  ! A file routine on MPI_FILE_NULL, which is no file (MPI-IO is carried out, D107): MPI_ERR_FILE,
  ! the message naming the routine; only returned (MPI_FILE_NULL's handler is MPI_ERRORS_RETURN).
  subroutine check_file(label, ierr, routine)
    character(len=*), intent(in) :: label, routine
    integer, intent(in) :: ierr
    integer :: cls, slen
    character(len=MPI_MAX_ERROR_STRING) :: text
    call MPI_Error_class(ierr, cls)
    call expect_i('D107 '//label//' error class', cls, MPI_ERR_FILE)
    call MPI_Error_string(ierr, text, slen)
    call expect_l('D107 '//label//' message names '//routine, index(text(1:slen), routine) > 0, .true.)
  end subroutine check_file

  subroutine on_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    integer :: cls
    call MPI_Error_class(error_code, cls)
    if (cls == MPI_ERR_UNSUPPORTED_OPERATION) calls = calls + 1
  end subroutine on_error

  subroutine query_fn(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    gcalls = gcalls + 1
    status%MPI_TAG = 5
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
end module refused08

program test_D40_refused_routines_f08
  use mpi_f08
  use ftest
  use refused08
  implicit none
  type(MPI_Comm) :: comm, newcomm
  type(MPI_Request) :: req
  type(MPI_Status) :: status
  type(MPI_Errhandler) :: eh
  integer :: ierr, size
  integer :: s0, s1(4), s2(2, 3), s3(2, 2, 2)
  real :: r1(5)
  character(len=8) :: argv(2)
  integer :: errcodes(1)

  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)

  ! Choice buffers on MPI_FILE_NULL, no file: the code is only returned (MPI_FILE_NULL's handler).
  s0 = 7; s1 = 7; s2 = 7; s3 = 7; r1 = 7.0
  call MPI_File_iwrite(MPI_FILE_NULL, s0, 1, MPI_INTEGER, req, ierr)
  call check_file('MPI_File_iwrite scalar', ierr, 'MPI_FILE_IWRITE')
  call MPI_File_iwrite(MPI_FILE_NULL, s1, 4, MPI_INTEGER, req, ierr)
  call check_file('MPI_File_iwrite rank 1', ierr, 'MPI_FILE_IWRITE')
  call MPI_File_iwrite(MPI_FILE_NULL, s2, 6, MPI_INTEGER, req, ierr)
  call check_file('MPI_File_iwrite rank 2', ierr, 'MPI_FILE_IWRITE')
  call MPI_File_iwrite(MPI_FILE_NULL, s3, 8, MPI_INTEGER, req, ierr)
  call check_file('MPI_File_iwrite rank 3', ierr, 'MPI_FILE_IWRITE')
  call MPI_File_iwrite(MPI_FILE_NULL, r1, 5, MPI_REAL, req, ierr)
  call check_file('MPI_File_iwrite real', ierr, 'MPI_FILE_IWRITE')
  call expect_l('D40 buffers unchanged', all(s1 == 7) .and. all(s2 == 7) .and. all(s3 == 7) &
                .and. s0 == 7 .and. all(abs(r1 - 7.0) < 1e-6), .true.)

  argv(1) = 'a'; argv(2) = ' '
  newcomm%MPI_VAL = -5; errcodes = -5
  call MPI_Comm_spawn('./nothing', argv, 1, MPI_INFO_NULL, 0, comm, newcomm, errcodes, ierr)
  call check('MPI_Comm_spawn', ierr, 'MPI_COMM_SPAWN')

  newcomm%MPI_VAL = -5
  call MPI_Intercomm_merge(comm, .false., newcomm, ierr)
  call check('MPI_Intercomm_merge', ierr, 'MPI_INTERCOMM_MERGE')

  status%MPI_SOURCE = 3
  call MPI_File_read(MPI_FILE_NULL, s1, 1, MPI_INTEGER, status, ierr)
  call check_file('MPI_File_read', ierr, 'MPI_FILE_READ')

  call MPI_File_seek(MPI_FILE_NULL, 10_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  call check_file('MPI_File_seek', ierr, 'MPI_FILE_SEEK')

  ! MPI_CONVERSION_FN_NULL is a procedure of the Datarep_conversion_function interface (D54).
  ! Carried out since D118 (test_file_io_f08.f90 converts through it).
  call MPI_Register_datarep('d40', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, &
                            0_MPI_ADDRESS_KIND, ierr)
  call expect_i('D118 MPI_Register_datarep', ierr, MPI_SUCCESS)

  req%MPI_VAL = -5
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, 0_MPI_ADDRESS_KIND, req, ierr)
  call expect_i('D44 MPI_Grequest_start', ierr, MPI_SUCCESS)
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, status, ierr)
  call expect_i('D44 MPI_Wait of a generalized request', ierr, MPI_SUCCESS)
  call expect_i('D44 query_fn and free_fn ran once each', gcalls, 11)
  call expect_i('D44 the status query_fn wrote', status%MPI_TAG, 5)
  call expect_l('D44 the generalized request is freed', req == MPI_REQUEST_NULL, .true.)

  ! Without ierror, the communicator's handler runs (and returns here).
  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_set_errhandler(comm, eh)
  call MPI_Intercomm_merge(comm, .false., newcomm)
  call expect_i('D40 MPI_Intercomm_merge without ierror: handler calls', calls, 1)

  call MPI_Comm_size(comm, size, ierr)
  call expect_i('D40 comm still usable', ierr, MPI_SUCCESS)
  call MPI_Comm_free(comm)
  call MPI_Errhandler_free(eh)
  call MPI_Finalize(ierr)
  call expect_i('D40 MPI_Finalize', ierr, MPI_SUCCESS)
  call ftest_finish()
end program test_D40_refused_routines_f08
