! D56_errors_return_on_world_only_mpif.f90 (`include 'mpif.h'`, as the Intel MPI suite's Fortran
! tests): the Intel MPI suite's Fortran attribute error tests (MPI_Attr_get_err1, _put_err1,
! _delete_err1, MPI_Keyval_free_err1) set MPI_ERRORS_RETURN on MPI_COMM_WORLD alone and expect
! IERROR back from caching calls that have no communicator to raise the error on (invalid keyvals,
! datatypes). MPICH 4.0.2 and Open MPI 4.1.4 alone raise such errors on MPI_COMM_WORLD's handler;
! over a host mpiattr raises its own where the host raises its own (docs/decisions.md D56), so
! the program runs to the end linked or preloaded too. MPI_COMM_SELF keeps MPI_ERRORS_ARE_FATAL.
! (Null handles are left out: Open MPI's Fortran bindings accept MPI_COMM_NULL and MPI_DATATYPE_NULL
! here, docs/host.md.)
! Then over MPICH (docs/decisions.md D101): caching errors through the Fortran routines on objects
! whose handler was never set (a window, MPI_COMM_SELF), which MPICH sends to MPI_COMM_WORLD's
! handler; Open MPI sets MPI_ERRORS_ARE_FATAL on them, and these checks run over MPICH only.
! Safety on the hosts alone: no keyval is freed twice, and no freed keyval is used.
program D56_errors_return_on_world_only
  use fhost_check
  implicit none
  include 'mpif.h'
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, rc, kc, kt, kw, invalid, ival, w, cls, vlen
  integer(kind=ak) :: v, sz
  integer :: mem(4)
  logical :: f
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)  ! WORLD only
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kc, 0_ak, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, kt, 0_ak, ierr)

  invalid = MPI_KEYVAL_INVALID
  call MPI_KEYVAL_FREE(invalid, rc)
  call check('D56_keyval_free_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  invalid = MPI_KEYVAL_INVALID
  call MPI_COMM_FREE_KEYVAL(invalid, rc)
  call check('D56_comm_free_keyval_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  invalid = MPI_KEYVAL_INVALID
  call MPI_TYPE_FREE_KEYVAL(invalid, rc)
  call check('D56_type_free_keyval_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, MPI_KEYVAL_INVALID, 1_ak, rc)
  call check('D56_type_set_attr_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, MPI_KEYVAL_INVALID, rc)
  call check('D56_type_delete_attr_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  call MPI_TYPE_GET_ATTR(MPI_INTEGER, MPI_KEYVAL_INVALID, v, f, rc)
  call check('D56_type_get_attr_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  ival = 0
  call MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, ival, rc)
  call check('D56_attr_put_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, rc)
  call check('D56_attr_delete_KEYVAL_INVALID_returns_an_error', rc /= MPI_SUCCESS)
  call MPI_GET_LIBRARY_VERSION(version, vlen, ierr)
  if (index(version(1:vlen), 'MPICH') > 0) then
    call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kw, 0_ak, ierr)
    sz = 16
    call MPI_WIN_CREATE(mem, sz, 4, MPI_INFO_NULL, MPI_COMM_SELF, w, ierr)
    call MPI_WIN_SET_ATTR(w, kc, 7_ak, rc)  ! a communicator's keyval on a window
    cls = -1
    if (rc /= MPI_SUCCESS) call MPI_ERROR_CLASS(rc, cls, ierr)
    call check('D101_win_set_attr_on_unset_window_returns_keyval_error', cls == MPI_ERR_KEYVAL)
    call MPI_COMM_SET_ATTR(MPI_COMM_SELF, kw, 7_ak, rc)  ! a window's keyval on MPI_COMM_SELF
    cls = -1
    if (rc /= MPI_SUCCESS) call MPI_ERROR_CLASS(rc, cls, ierr)
    call check('D101_comm_set_attr_on_unset_self_returns_keyval_error', cls == MPI_ERR_KEYVAL)
    call MPI_WIN_FREE(w, ierr)
    call MPI_WIN_FREE_KEYVAL(kw, ierr)
  end if
  call check('D56_program_went_on_to_the_end', .true.)

  call MPI_COMM_FREE_KEYVAL(kc, ierr)
  call MPI_TYPE_FREE_KEYVAL(kt, ierr)
  call report('mpif')
  call MPI_FINALIZE(ierr)
end program D56_errors_return_on_world_only
