! Messages to self through `use mpi` (MPI-4.1 §4): a status array filled by MPI_RECV and read by
! MPI_GET_COUNT, MPI_WAITANY's index counted from 1 in Fortran, MPI_WAITALL's array of statuses,
! MPI_STATUS_IGNORE. Sends whose receive comes later are MPI_ISEND (the standard does not promise
! that MPI_SEND buffers). test_messages_to_self_f08.f90 is the same through mpi_f08.
program test_messages_to_self
  use mpi
  use ftest
  implicit none
  integer :: ierr, st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2), reqs(2), sreq, idx, n
  integer :: a(3), b(3), x, y

  call MPI_INIT(ierr)
  a = [1, 2, 3]
  b = 0
  call MPI_ISEND(a, 3, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, sreq, ierr)
  call MPI_RECV(b, 3, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_l('recv, data', all(b == a), .true.)
  call expect_i('recv, status tag', st(MPI_TAG), 7)
  call expect_i('recv, status source', st(MPI_SOURCE), 0)
  call expect_i('recv, count', n, 3)
  call MPI_WAIT(sreq, MPI_STATUS_IGNORE, ierr)
  call expect_l('isend completed, request null', sreq == MPI_REQUEST_NULL, .true.)

  x = 0
  reqs(1) = MPI_REQUEST_NULL
  call MPI_IRECV(x, 1, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, reqs(2), ierr)
  y = 42
  call MPI_SEND(y, 1, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(2, reqs, idx, st, ierr)
  call expect_i('waitany, index counts from 1', idx, 2)
  call expect_i('waitany, value', x, 42)

  call MPI_IRECV(x, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_IRECV(b, 2, MPI_INTEGER, 0, 10, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_SEND(y, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, ierr)
  call MPI_SEND(a, 2, MPI_INTEGER, 0, 10, MPI_COMM_WORLD, ierr)
  call MPI_WAITALL(2, reqs, sts, ierr)
  call MPI_GET_COUNT(sts(:, 2), MPI_INTEGER, n, ierr)
  call expect_i('waitall, ierror', ierr, MPI_SUCCESS)
  call expect_i('waitall, second status tag', sts(MPI_TAG, 2), 10)
  call expect_i('waitall, second count', n, 2)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_messages_to_self
