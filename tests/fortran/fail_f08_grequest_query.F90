! Must NOT compile (tests/fortran/CMakeLists.txt: fortran_compile_fail_f08_grequest_query): through
! `use mpi_f08`, MPI_Grequest_start's query_fn is PROCEDURE(MPI_Grequest_query_function), whose
! status is TYPE(MPI_Status) (docs/decisions.md D54; before it the argument was EXTERNAL and any
! procedure passed). A query function taking the mpi module's INTEGER status array does not have
! that interface. With -DRIGHT_KIND (fortran_compile_ok_f08_grequest_query) the same program, its
! status a TYPE(MPI_Status), compiles, so the failure is the callback's interface and nothing else.
module fail_f08_grequest_query_fns
  use mpi_f08
  implicit none
contains
  subroutine query_fn(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
#ifdef RIGHT_KIND
    type(MPI_Status) :: status
#else
    integer :: status(MPI_STATUS_SIZE)
#endif
    integer :: ierror
    ierror = MPI_SUCCESS
  end subroutine query_fn
  subroutine free_fn(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    ierror = MPI_SUCCESS
  end subroutine free_fn
  subroutine cancel_fn(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ierror = MPI_SUCCESS
  end subroutine cancel_fn
end module fail_f08_grequest_query_fns

program fail_f08_grequest_query
  use mpi_f08
  use fail_f08_grequest_query_fns
  implicit none
  type(MPI_Request) :: request
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  extra_state = 0
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request)
end program fail_f08_grequest_query
