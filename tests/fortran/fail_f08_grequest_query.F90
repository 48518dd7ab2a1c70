! Must NOT compile (tests/fortran/CMakeLists.txt: fortran_compile_fail_f08_grequest_query): through
! `use mpi_f08`, MPI_Grequest_start's query_fn is PROCEDURE(MPI_Grequest_query_function), whose
! status is TYPE(MPI_Status) (docs/decisions.md D54; before it the argument was EXTERNAL and any
! procedure passed). A query function taking the mpi module's INTEGER status array does not have
! that interface. With -DRIGHT_KIND (fortran_compile_ok_f08_grequest_query) the same program, its
! status a TYPE(MPI_Status), compiles, so the failure is the callback's interface and nothing else.
! (The callbacks' explicit interfaces are interface blocks, not a module: the two tests compile
! this file at once in one directory, and a module file would be written by both.)
program fail_f08_grequest_query
  use mpi_f08
  implicit none
  interface
    subroutine query_fn(extra_state, status, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
#ifdef RIGHT_KIND
      type(MPI_Status) :: status
#else
      integer :: status(MPI_STATUS_SIZE)
#endif
      integer :: ierror
    end subroutine query_fn
    subroutine free_fn(extra_state, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer :: ierror
    end subroutine free_fn
    subroutine cancel_fn(extra_state, complete, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      logical :: complete
      integer :: ierror
    end subroutine cancel_fn
  end interface
  type(MPI_Request) :: request
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  extra_state = 0
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request)
end program fail_f08_grequest_query
