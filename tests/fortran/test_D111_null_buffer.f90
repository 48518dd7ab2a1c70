! D111 through Fortran: MPI_BOTTOM (which reaches the library as address 0) with data to carry and a
! datatype that is not of absolute addresses is MPI_ERR_BUFFER on the communicator's handler,
! through `use mpi` and `use mpi_f08`; with a count of 0 it is legal. (Not compared with the
! peers: the call is erroneous, and Open MPI 4.1.4 returns MPI_SUCCESS, MPICH MPI_ERR_BUFFER.)
subroutine through_f08(failed)
  use mpi_f08
  implicit none
  logical, intent(inout) :: failed
  integer :: ierr, cls
  call MPI_Bcast(MPI_BOTTOM, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER) then
    print *, 'FAIL: mpi_f08 MPI_Bcast(MPI_BOTTOM, 2, MPI_INTEGER): class', cls
    failed = .true.
  end if
  call MPI_Bcast(MPI_BOTTOM, 0, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) then
    print *, 'FAIL: mpi_f08 MPI_Bcast(MPI_BOTTOM, 0, ...):', ierr
    failed = .true.
  end if
end subroutine through_f08

program test_D111_null_buffer
  use mpi
  implicit none
  integer :: ierr, ierr2, cls, buf(2)
  logical :: failed
  failed = .false.
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  buf = [1, 2]
  call MPI_SENDRECV(buf, 2, MPI_INTEGER, 0, 0, MPI_BOTTOM, 2, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr2)
  if (cls /= MPI_ERR_BUFFER) then
    print *, 'FAIL: use mpi MPI_SENDRECV into MPI_BOTTOM: class', cls
    failed = .true.
  end if
  call through_f08(failed)
  call MPI_FINALIZE(ierr)
  if (failed) stop 1
  print *, 'D111 (Fortran) passed'
end program test_D111_null_buffer
