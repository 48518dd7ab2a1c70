! The special addresses of `use mpi` (MPI-4.1 §3.5.4, §20.1.2), which mpif.h shares: MPI_IN_PLACE
! as a reduction's send buffer, MPI_STATUS_IGNORE that no routine writes, MPI_BOTTOM as a window's
! base; MPI_GET_ADDRESS. test_special_addresses_f08.f90 does the same through mpi_f08.
program test_special_addresses
  use mpi
  use ftest
  use, intrinsic :: iso_c_binding, only: c_loc
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, comm, req, win, source_before
  integer, target :: buf(4)
  integer(kind=ak) :: val, addr
  logical :: flag

  call MPI_INIT(ierr)
  buf = [1, 2, 3, 4]
  call MPI_ALLREDUCE(MPI_IN_PLACE, buf, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect_i('IN_PLACE allreduce, ierror', ierr, MPI_SUCCESS)
  call expect_l('IN_PLACE allreduce on one process keeps the buffer', all(buf == [1, 2, 3, 4]), .true.)

  source_before = MPI_STATUS_IGNORE(MPI_SOURCE)
  call MPI_COMM_IDUP(MPI_COMM_WORLD, comm, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call expect_i('STATUS_IGNORE wait, ierror', ierr, MPI_SUCCESS)
  call expect_l('STATUS_IGNORE is not written', MPI_STATUS_IGNORE(MPI_SOURCE) == source_before, .true.)

  call MPI_GET_ADDRESS(buf, addr, ierr)
  call expect_l('GET_ADDRESS of a buffer is its address', addr == transfer(c_loc(buf), addr), .true.)
  call MPI_WIN_CREATE(MPI_BOTTOM, 0_ak, 1, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call expect_i('BOTTOM window, ierror', ierr, MPI_SUCCESS)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, val, flag, ierr)
  call expect_l('BOTTOM window, MPI_WIN_BASE is 0', flag .and. val == 0_ak, .true.)
  call MPI_WIN_FREE(win, ierr)

  call MPI_COMM_FREE(comm, ierr)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_special_addresses
