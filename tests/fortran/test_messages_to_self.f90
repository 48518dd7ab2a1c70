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
  integer(kind=MPI_ADDRESS_KIND) :: pos, esize
  character :: ebuf(16)

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
  ! MPI_PCONTROL(level) has no error argument (MPI-4.1 §15.2.4); with no profiling library it does
  ! nothing, at any level. Then external32 through a CHARACTER datarep: big-endian INTEGERs.
  call MPI_PCONTROL(0)
  call MPI_PCONTROL(1)
  call MPI_PCONTROL(2)
  pos = 0
  call MPI_PACK_EXTERNAL_SIZE('external32', 2, MPI_INTEGER, esize, ierr)
  call expect_i('pack_external_size of 2 integers', int(esize), 8)
  call MPI_PACK_EXTERNAL('external32', a, 2, MPI_INTEGER, ebuf, 16_MPI_ADDRESS_KIND, pos, ierr)
  call expect_i('pack_external, ierror', ierr, MPI_SUCCESS)
  call expect_i('pack_external, position', int(pos), 8)
  call expect_i('pack_external, bytes 1 and 4', ichar(ebuf(1)) * 1000 + ichar(ebuf(4)), 1)
  call expect_i('pack_external, bytes 5 and 8', ichar(ebuf(5)) * 1000 + ichar(ebuf(8)), 2)
  b = 0
  pos = 0
  call MPI_UNPACK_EXTERNAL('external32', ebuf, 8_MPI_ADDRESS_KIND, pos, b, 2, MPI_INTEGER, ierr)
  call expect_l('unpack_external, data', b(1) == 1 .and. b(2) == 2 .and. b(3) == 0, .true.)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_messages_to_self
