! D56_errors_return_on_world_only_mpif.f90 (`include 'mpif.h'`, as the Intel MPI suite's Fortran
! tests): the Intel MPI suite's Fortran attribute error tests (MPI_Attr_get_err1, _put_err1,
! _delete_err1, MPI_Keyval_free_err1) set MPI_ERRORS_RETURN on MPI_COMM_WORLD alone and expect
! IERROR back from caching calls that have no communicator to raise the error on (invalid keyvals,
! datatypes). MPICH 4.0.2 and Open MPI 4.1.4 alone raise such errors on MPI_COMM_WORLD's handler;
! over a host mpiattr raises its own where the host raises its own (docs/decisions.md D56), so
! the program runs to the end linked or preloaded too. MPI_COMM_SELF keeps MPI_ERRORS_ARE_FATAL.
! (Null handles are left out: Open MPI's Fortran bindings accept MPI_COMM_NULL and MPI_DATATYPE_NULL
! here, docs/host.md.)
! Safety on the hosts alone: no keyval is freed twice, and no freed keyval is used.
program D56_errors_return_on_world_only
  use fhost_check
  implicit none
  include 'mpif.h'
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, rc, kc, kt, invalid, ival
  integer(kind=ak) :: v
  logical :: f

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
  call check('D56_program_went_on_to_the_end', .true.)

  call MPI_COMM_FREE_KEYVAL(kc, ierr)
  call MPI_TYPE_FREE_KEYVAL(kt, ierr)
  call report('mpif')
  call MPI_FINALIZE(ierr)
end program D56_errors_return_on_world_only
