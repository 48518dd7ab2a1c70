! D55: a few of the MPI-4.1 routines apis.json lacks, through mpi_f08: the status accessors, a
! communicator's own buffer for MPI_Bsend, MPI_BUFFER_AUTOMATIC as the process's buffer (a
! special variable like MPI_BOTTOM), MPI_Type_get_value_index and MPI_Request_get_status_all; and
! MPI-4.1's names of the null handles (MPI_Comm_get_name of MPI_COMM_NULL, D116).
! mpiattr only: the peers (MPICH 4.0, Open MPI 4.1) do not have these routines.
program test_D55_mpi41_additions_f08
  use mpi_f08
  use ftest
  use, intrinsic :: iso_c_binding, only: c_ptr
  implicit none
  type(MPI_Status) :: st, sts(2)
  type(MPI_Comm) :: dup
  type(MPI_Datatype) :: pair
  type(MPI_Request) :: reqs(2)
  type(c_ptr) :: addr
  integer :: ierr, src, tag, err, cls, size, a(4), b(4)
  integer :: buf(256)
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: oname
  integer :: olen

  call MPI_Init(ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)

  ! The status accessors: what is set is what is read, each field alone.
  call MPI_Status_set_source(st, 3, ierr)
  call MPI_Status_set_tag(st, 42)
  call MPI_Status_set_error(st, MPI_ERR_TAG, ierr)
  call MPI_Status_get_source(st, src, ierr)
  call MPI_Status_get_tag(st, tag)
  call MPI_Status_get_error(st, err, ierr)
  call expect_i('status source', src, 3)
  call expect_i('status tag', tag, 42)
  call expect_i('status error', err, MPI_ERR_TAG)
  call expect_i('status MPI_SOURCE field', st%MPI_SOURCE, 3)

  ! A communicator's own buffer, room for one message of 4 integers; none is attached to the
  ! process: the same send on MPI_COMM_WORLD finds no buffer.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_attach_buffer(dup, buf, 16 + MPI_BSEND_OVERHEAD, ierr)  ! one 4-integer message
  call expect_i('comm attach buffer', ierr, MPI_SUCCESS)
  a = [1, 2, 3, 4]
  call MPI_Bsend(a, 4, MPI_INTEGER, 0, 7, dup, ierr)
  call expect_i('bsend on the communicator with a buffer', ierr, MPI_SUCCESS)
  call MPI_Bsend(a, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('bsend on world, no buffer: class', cls, MPI_ERR_BUFFER)
  call MPI_Comm_flush_buffer(dup, ierr)
  call expect_i('comm flush buffer', ierr, MPI_SUCCESS)
  call MPI_Comm_detach_buffer(dup, addr, size, ierr)
  call expect_i('comm detach buffer', ierr, MPI_SUCCESS)
  call expect_i('comm detach buffer: size', size, 16 + MPI_BSEND_OVERHEAD)
  b = 0
  call MPI_Recv(b, 4, MPI_INTEGER, 0, 7, dup, MPI_STATUS_IGNORE, ierr)
  call expect_l('the buffered message arrives after the detach', all(b == a), .true.)
  call MPI_Comm_detach_buffer(dup, addr, size, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('detach again: class', cls, MPI_ERR_BUFFER)

  ! MPI_BUFFER_AUTOMATIC: any buffered send fits; detach gives size 0.
  call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierr)
  call expect_i('attach MPI_BUFFER_AUTOMATIC', ierr, MPI_SUCCESS)
  call MPI_Bsend(a, 4, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, ierr)
  call expect_i('bsend into the automatic buffer', ierr, MPI_SUCCESS)
  call MPI_Buffer_flush(ierr)
  call expect_i('buffer flush', ierr, MPI_SUCCESS)
  size = -1
  call MPI_Buffer_detach(addr, size, ierr)
  call expect_i('detach the automatic buffer', ierr, MPI_SUCCESS)
  call expect_i('detach the automatic buffer: size', size, 0)

  ! MPI_Request_get_status_all: a receive that its message completes; nothing is freed.
  b = 0
  call MPI_Irecv(b, 4, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, reqs(1), ierr)
  reqs(2) = MPI_REQUEST_NULL
  call MPI_Request_get_status_all(2, reqs, flag, sts, ierr)
  call expect_l('get_status_all: flag', flag, .true.)
  call expect_i('get_status_all: tag', sts(1)%MPI_TAG, 8)
  call expect_l('get_status_all: the request stays', reqs(1) /= MPI_REQUEST_NULL, .true.)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call expect_l('the automatic buffer''s message', all(b == a), .true.)

  ! MPI_Type_get_value_index: the Fortran pairs, and none for a mixed pair.
  call MPI_Type_get_value_index(MPI_REAL, MPI_REAL, pair, ierr)
  call expect_l('value index REAL, REAL', pair == MPI_2REAL, .true.)
  call MPI_Type_get_value_index(MPI_REAL, MPI_INTEGER, pair, ierr)
  call expect_l('value index REAL, INTEGER', pair == MPI_DATATYPE_NULL, .true.)

  call MPI_Comm_free(dup)
  ! The null handles are named after themselves (MPI-4.1 section 7.8, 6.1.14 and 13.2.6).
  call MPI_Comm_get_name(MPI_COMM_NULL, oname, olen, ierr)
  call expect_i('comm_get_name of MPI_COMM_NULL, ierror', ierr, MPI_SUCCESS)
  call expect_s('comm_get_name of MPI_COMM_NULL', oname(1:olen), 'MPI_COMM_NULL')
  call MPI_Type_get_name(MPI_DATATYPE_NULL, oname, olen, ierr)
  call expect_s('type_get_name of MPI_DATATYPE_NULL', oname(1:olen), 'MPI_DATATYPE_NULL')
  call MPI_Win_get_name(MPI_WIN_NULL, oname, olen, ierr)
  call expect_s('win_get_name of MPI_WIN_NULL', oname(1:olen), 'MPI_WIN_NULL')

  call MPI_Finalize(ierr)
  call ftest_finish()
end program test_D55_mpi41_additions_f08
