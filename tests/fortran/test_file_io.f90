! MPI-IO on one process through `use mpi` (MPI-4.1 §15), the Fortran side of
! tests/diff/c/RT_file_io_one_process.c: a CHARACTER file name, amodes added from the MPI_MODE_
! constants, INTEGER and DOUBLE PRECISION buffers, INTEGER(KIND=MPI_OFFSET_KIND) offsets, sizes and
! positions, a status array read by MPI_GET_COUNT, a CHARACTER datarep in and out, LOGICAL
! atomicity, a Fortran file error handler. Checked:
! - §15.2: open and close (the handle becomes MPI_FILE_NULL), MPI_MODE_EXCL, _get_amode,
!   _get_group, _set_size (file pointers unaffected), _preallocate (never shrinks), _get_size,
!   _sync, MPI_FILE_DELETE (§15.2.3: a missing file is MPI_ERR_NO_SUCH_FILE);
! - §15.3: a view with a displacement, etype MPI_INTEGER and a vector filetype with holes, freed
!   right after _set_view; the pointers reset to 0; _get_view (its CHARACTER datarep
!   blank-padded), _get_byte_offset, _get_type_extent (§15.5.1);
! - §15.4: explicit offsets (they move no pointer), the individual pointer and _seek (SET, CUR,
!   END), a read that reaches the end of file (§15.4.1: the status counts what was read), the
!   shared pointer, MPI_FILE_IWRITE_AT / _IREAD_AT completed by MPI_WAIT (§15.4.2), a split
!   collective (§15.4.5); §15.6.1 atomicity;
! - §15.7, §10.3.3: the default file error handler is MPI_ERRORS_RETURN; a handler made by
!   MPI_FILE_CREATE_ERRHANDLER runs with the file and the code of a failed call, and from
!   MPI_FILE_CALL_ERRHANDLER (§10.5: which returns MPI_SUCCESS); set on MPI_FILE_NULL, it runs
!   with MPI_FILE_NULL for a failed MPI_FILE_OPEN; §15.8 error classes by name:
!   MPI_ERR_ACCESS (read of a WRONLY file), MPI_ERR_NO_SUCH_FILE, MPI_ERR_FILE_EXISTS.
! The file is /tmp/mpiattr_fio_f90_<random>.dat (reserved with MPI_MODE_EXCL, so that concurrent
! runs do not share one) and is deleted at the end. Byte offsets assume 4-byte INTEGERs and 8-byte
! DOUBLE PRECISION (gfortran's defaults, which every build here uses: checked first). Not printed:
! the bytes of holes nothing was written to (undefined). test_file_io_f08.f90 is the same through
! mpi_f08.
module fio_handler
  use mpi
  implicit none
  private
  public :: on_file, calls, seen_file, seen_code, r, w
  integer :: calls = 0, seen_file = -1, seen_code = -1
  ! The buffers of the nonblocking and split collective calls: module variables, which the
  ! compiler cannot keep in registers across MPI_WAIT (§20.1.17).
  integer, asynchronous :: r(4), w(4)
contains
  ! FILE_ERRHANDLER_FUNCTION (§15.7): counts its calls, keeps its arguments.
  subroutine on_file(file, code)
    integer :: file, code
    calls = calls + 1
    seen_file = file
    seen_code = code
  end subroutine on_file
end module fio_handler

program test_file_io
  use, intrinsic :: iso_fortran_env, only: int64
  use mpi
  use ftest
  use fio_handler
  implicit none
  integer :: ierr, fh, fh2, st(MPI_STATUS_SIZE), n, isz, dsz, i, before, req
  integer :: g, gself, cmp, gsize, vec, ftype, etype, ftype2, eh, got
  integer :: ni, na, nd, comb
  integer :: a(6), b(8)
  double precision :: d(3), e(3)
  integer(kind=MPI_OFFSET_KIND) :: pos, fsize, disp, boff
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext
  logical :: flag
  character(len=MPI_MAX_DATAREP_STRING) :: rep
  character(len=96) :: fname

  call MPI_INIT(ierr)
  call expect_l('D141 MPI_DISPLACEMENT_CURRENT has MPI_OFFSET_KIND', &
                kind(MPI_DISPLACEMENT_CURRENT) == MPI_OFFSET_KIND, .true.)
  call MPI_TYPE_SIZE(MPI_INTEGER, isz, ierr)
  call MPI_TYPE_SIZE(MPI_DOUBLE_PRECISION, dsz, ierr)
  call expect_l('INTEGER 4 bytes, DOUBLE PRECISION 8', isz == 4 .and. dsz == 8, .true.)

  ! §15.7: "The default file error handler is MPI_ERRORS_RETURN", MPI_FILE_NULL's.
  call MPI_FILE_GET_ERRHANDLER(MPI_FILE_NULL, got, ierr)
  call expect_l('default file error handler is MPI_ERRORS_RETURN', got == MPI_ERRORS_RETURN, .true.)
  call MPI_ERRHANDLER_FREE(got, ierr)
  call reserve_name()

  ! §15.2.1: MPI_MODE_EXCL on an existing file fails (§15.8: MPI_ERR_FILE_EXISTS).
  call MPI_FILE_OPEN(MPI_COMM_SELF, fname, MPI_MODE_CREATE + MPI_MODE_EXCL + MPI_MODE_RDWR, &
                     MPI_INFO_NULL, fh, ierr)
  call expect_l('open EXCL an existing file fails', ierr /= MPI_SUCCESS, .true.)
  call expect_l('open EXCL an existing file, MPI_ERR_FILE_EXISTS', &
                class_is(ierr, MPI_ERR_FILE_EXISTS), .true.)
  if (ierr == MPI_SUCCESS) call MPI_FILE_CLOSE(fh, ierr)
  call MPI_FILE_OPEN(MPI_COMM_SELF, trim(fname) // '.missing', MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  call expect_l('open a missing file fails', ierr /= MPI_SUCCESS, .true.)
  call expect_l('open a missing file, MPI_ERR_NO_SUCH_FILE', class_is(ierr, MPI_ERR_NO_SUCH_FILE), .true.)
  if (ierr == MPI_SUCCESS) call MPI_FILE_CLOSE(fh, ierr)

  ! ---- §15.2, §15.4: the individual pointer, explicit offsets, sizes. ----
  call MPI_FILE_OPEN(MPI_COMM_SELF, fname, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call expect_i('open CREATE+RDWR, ierror', ierr, MPI_SUCCESS)
  call expect_l('open gives a file', fh /= MPI_FILE_NULL, .true.)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('new file, size', int(fsize, int64), 0_int64)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('new file, position', int(pos, int64), 0_int64)
  a = [(i, i = 1, 6)]
  call MPI_FILE_WRITE(fh, a, 6, MPI_INTEGER, st, ierr)
  call expect_i('write 6 integers, ierror', ierr, MPI_SUCCESS)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('write 6 integers, count', n, 6)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('write 6 integers, position in bytes', int(pos, int64), 24_int64)
  d = [1.5d0, -2.25d0, 1.0d10]
  call MPI_FILE_WRITE(fh, d, 3, MPI_DOUBLE_PRECISION, st, ierr)
  call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, n, ierr)
  call expect_i('write 3 double precision, count', n, 3)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('write 3 double precision, position', int(pos, int64), 48_int64)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('after the writes, size', int(fsize, int64), 48_int64)

  b = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, b, 6, MPI_INTEGER, st, ierr)
  call expect_i('read_at 0 6 integers, ierror', ierr, MPI_SUCCESS)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('read_at 0 6 integers, count', n, 6)
  call expect_l('read_at 0 6 integers, values', all(b(1:6) == a) .and. b(7) == -1, .true.)
  e = 0
  call MPI_FILE_READ_AT(fh, 24_MPI_OFFSET_KIND, e, 3, MPI_DOUBLE_PRECISION, st, ierr)
  call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, n, ierr)
  call expect_i('read_at 24 3 double precision, count', n, 3)
  call expect_l('read_at 24 3 double precision, values', &
                all(transfer(e, [0_int64]) == transfer(d, [0_int64])), .true.)
  call MPI_FILE_READ_AT(fh, 4_MPI_OFFSET_KIND, b, 1, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call expect_i('read_at with MPI_STATUS_IGNORE, ierror', ierr, MPI_SUCCESS)
  call expect_i('read_at with MPI_STATUS_IGNORE, value', b(1), 2)
  ! §15.4.2: explicit offsets leave the file pointers alone.
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('explicit offsets, position unchanged', int(pos, int64), 48_int64)

  ! §15.4.3 MPI_FILE_SEEK: SET, CUR, END, in bytes in the default view.
  call MPI_FILE_SEEK(fh, 8_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  call expect_i('seek 8 SEEK_SET, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('seek 8 SEEK_SET, position', int(pos, int64), 8_int64)
  b = -1
  call MPI_FILE_READ(fh, b, 2, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('read 2 integers at 8, count', n, 2)
  call expect_l('read 2 integers at 8, values 3 4', b(1) == 3 .and. b(2) == 4 .and. b(3) == -1, .true.)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('read 2 integers at 8, position after', int(pos, int64), 16_int64)
  call MPI_FILE_SEEK(fh, 4_MPI_OFFSET_KIND, MPI_SEEK_CUR, ierr)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('seek 4 SEEK_CUR, position', int(pos, int64), 20_int64)
  call MPI_FILE_SEEK(fh, -8_MPI_OFFSET_KIND, MPI_SEEK_END, ierr)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('seek -8 SEEK_END, position', int(pos, int64), 40_int64)
  ! §15.4.3 MPI_FILE_GET_BYTE_OFFSET: the default view is displacement 0, etype MPI_BYTE.
  call MPI_FILE_GET_BYTE_OFFSET(fh, pos, boff, ierr)
  call expect_a('get_byte_offset in the default view', int(boff, int64), 40_int64)
  e = 0
  call MPI_FILE_READ(fh, e, 1, MPI_DOUBLE_PRECISION, st, ierr)
  call expect_l('read 1 double precision at 40, value', &
                transfer(e(1), 0_int64) == transfer(d(3), 0_int64), .true.)
  ! §15.4.1: a read that reaches the end of file reads what is there; the status counts it.
  b = -1
  call MPI_FILE_READ_AT(fh, 40_MPI_OFFSET_KIND, b, 4, MPI_INTEGER, st, ierr)
  call expect_i('read_at 40 4 integers of which 2 exist, ierror', ierr, MPI_SUCCESS)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('read_at 40 4 integers of which 2 exist, count', n, 2)

  ! §15.2.4 MPI_FILE_SET_SIZE truncates or extends, and leaves the file pointers; §15.2.5
  ! MPI_FILE_PREALLOCATE never makes a file smaller.
  call MPI_FILE_SET_SIZE(fh, 24_MPI_OFFSET_KIND, ierr)
  call expect_i('set_size 24, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('set_size 24, size', int(fsize, int64), 24_int64)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('set_size 24, position unchanged', int(pos, int64), 48_int64)
  b = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, b, 8, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('read_at 0 8 integers of 24 bytes, count', n, 6)
  call expect_l('read_at 0 8 integers of 24 bytes, values', all(b(1:6) == a), .true.)
  call MPI_FILE_SET_SIZE(fh, 32_MPI_OFFSET_KIND, ierr)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('set_size 32, size', int(fsize, int64), 32_int64)
  call MPI_FILE_PREALLOCATE(fh, 64_MPI_OFFSET_KIND, ierr)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('preallocate 64, size', int(fsize, int64), 64_int64)
  call MPI_FILE_PREALLOCATE(fh, 16_MPI_OFFSET_KIND, ierr)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('preallocate 16, size', int(fsize, int64), 64_int64)
  call MPI_FILE_SYNC(fh, ierr)
  call expect_i('sync, ierror', ierr, MPI_SUCCESS)

  ! §15.2.7 _get_amode, _get_group; §15.5.1 _get_type_extent ("native": as in memory).
  call MPI_FILE_GET_AMODE(fh, n, ierr)
  call expect_l('get_amode is CREATE+RDWR', n == MPI_MODE_CREATE + MPI_MODE_RDWR, .true.)
  call MPI_FILE_GET_GROUP(fh, g, ierr)
  call expect_i('get_group, ierror', ierr, MPI_SUCCESS)
  call MPI_GROUP_SIZE(g, gsize, ierr)
  call expect_i('get_group, size', gsize, 1)
  call MPI_COMM_GROUP(MPI_COMM_SELF, gself, ierr)
  call MPI_GROUP_COMPARE(g, gself, cmp, ierr)
  call expect_l('get_group is MPI_IDENT to MPI_COMM_SELF''s group', cmp == MPI_IDENT, .true.)
  call MPI_GROUP_FREE(g, ierr)
  call expect_l('free the group from get_group', ierr == MPI_SUCCESS .and. g == MPI_GROUP_NULL, .true.)
  call MPI_GROUP_FREE(gself, ierr)
  call MPI_FILE_GET_TYPE_EXTENT(fh, MPI_DOUBLE_PRECISION, ext, ierr)
  call expect_a('get_type_extent MPI_DOUBLE_PRECISION', int(ext, int64), 8_int64)

  ! §15.6.1: MPI_FILE_SET_ATOMICITY takes a LOGICAL, _GET_ gives it back (the mode a file is
  ! opened in is not printed: Open MPI documents atomic mode at open on several nodes).
  call MPI_FILE_SET_ATOMICITY(fh, .true., ierr)
  call expect_i('set_atomicity true, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_GET_ATOMICITY(fh, flag, ierr)
  call expect_l('atomicity after set true', flag, .true.)
  call MPI_FILE_SET_ATOMICITY(fh, .false., ierr)
  call MPI_FILE_GET_ATOMICITY(fh, flag, ierr)
  call expect_l('atomicity after set false', flag, .false.)
  call MPI_FILE_CLOSE(fh, ierr)
  call expect_i('close, ierror', ierr, MPI_SUCCESS)
  call expect_l('close sets the handle to MPI_FILE_NULL', fh == MPI_FILE_NULL, .true.)

  ! ---- §15.3 a view: from byte 4, etype MPI_INTEGER, integers 0 and 3 of every 5. ----
  call MPI_FILE_OPEN(MPI_COMM_SELF, fname, MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call expect_i('reopen RDWR, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_SET_SIZE(fh, 0_MPI_OFFSET_KIND, ierr)
  call MPI_TYPE_VECTOR(2, 1, 3, MPI_INTEGER, vec, ierr)
  call MPI_TYPE_CREATE_RESIZED(vec, 0_MPI_ADDRESS_KIND, 20_MPI_ADDRESS_KIND, ftype, ierr)
  call MPI_TYPE_FREE(vec, ierr)
  call MPI_TYPE_COMMIT(ftype, ierr)
  call MPI_FILE_SEEK(fh, 12_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  call MPI_FILE_SET_VIEW(fh, 4_MPI_OFFSET_KIND, MPI_INTEGER, ftype, 'native', MPI_INFO_NULL, ierr)
  call expect_i('set_view, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('set_view resets the individual pointer', int(pos, int64), 0_int64)
  call MPI_TYPE_FREE(ftype, ierr)
  call expect_i('free the filetype after set_view, ierror', ierr, MPI_SUCCESS)
  a(1:4) = [10, 20, 30, 40]
  call MPI_FILE_WRITE(fh, a, 4, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('write 4 integers through the view, count', n, 4)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('write 4 integers through the view, position in etypes', int(pos, int64), 4_int64)
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_a('write 4 integers through the view, size in bytes', int(fsize, int64), 40_int64)
  call MPI_FILE_GET_BYTE_OFFSET(fh, 0_MPI_OFFSET_KIND, boff, ierr)
  call expect_a('get_byte_offset of etype 0', int(boff, int64), 4_int64)
  call MPI_FILE_GET_BYTE_OFFSET(fh, 1_MPI_OFFSET_KIND, boff, ierr)
  call expect_a('get_byte_offset of etype 1', int(boff, int64), 16_int64)
  call MPI_FILE_GET_BYTE_OFFSET(fh, 3_MPI_OFFSET_KIND, boff, ierr)
  call expect_a('get_byte_offset of etype 3', int(boff, int64), 36_int64)

  rep = 'x'
  call MPI_FILE_GET_VIEW(fh, disp, etype, ftype2, rep, ierr)
  call expect_i('get_view, ierror', ierr, MPI_SUCCESS)
  call expect_a('get_view, disp', int(disp, int64), 4_int64)
  call expect_l('get_view, etype is MPI_INTEGER', etype == MPI_INTEGER, .true.)
  call expect_s('get_view, datarep', rep, 'native')
  call expect_i('get_view, datarep length', len_trim(rep), 6)
  call expect_l('get_view, datarep blank-padded', rep(7:) == ' ', .true.)
  call MPI_TYPE_SIZE(ftype2, n, ierr)
  call expect_i('get_view, filetype size', n, 8)
  call MPI_TYPE_GET_EXTENT(ftype2, lb, ext, ierr)
  call expect_a('get_view, filetype lb', int(lb, int64), 0_int64)
  call expect_a('get_view, filetype extent', int(ext, int64), 20_int64)
  ! §15.3: a derived etype or filetype comes back as a new datatype the caller frees.
  call MPI_TYPE_GET_ENVELOPE(ftype2, ni, na, nd, comb, ierr)
  call expect_l('get_view, filetype is derived', comb /= MPI_COMBINER_NAMED, .true.)
  if (comb /= MPI_COMBINER_NAMED) call MPI_TYPE_FREE(ftype2, ierr)
  b = -1
  call MPI_FILE_READ_AT(fh, 1_MPI_OFFSET_KIND, b, 3, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('read_at etype 1 through the view, count', n, 3)
  call expect_l('read_at etype 1 through the view, values 20 30 40', &
                b(1) == 20 .and. b(2) == 30 .and. b(3) == 40 .and. b(4) == -1, .true.)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL, ierr)
  call expect_i('set_view back to bytes, ierror', ierr, MPI_SUCCESS)
  b = -1
  call MPI_FILE_READ_AT(fh, 4_MPI_OFFSET_KIND, b(1), 1, MPI_INTEGER, st, ierr)
  call MPI_FILE_READ_AT(fh, 16_MPI_OFFSET_KIND, b(2), 1, MPI_INTEGER, st, ierr)
  call MPI_FILE_READ_AT(fh, 24_MPI_OFFSET_KIND, b(3), 1, MPI_INTEGER, st, ierr)
  call MPI_FILE_READ_AT(fh, 36_MPI_OFFSET_KIND, b(4), 1, MPI_INTEGER, st, ierr)
  call expect_l('raw bytes 4 16 24 36 hold 10 20 30 40', &
                b(1) == 10 .and. b(2) == 20 .and. b(3) == 30 .and. b(4) == 40, .true.)

  ! ---- §15.4.2 nonblocking explicit offsets, completed by MPI_WAIT. ----
  w = [70, 80, 0, 0]
  call MPI_FILE_IWRITE_AT(fh, 40_MPI_OFFSET_KIND, w, 2, MPI_INTEGER, req, ierr)
  call expect_i('iwrite_at 40, ierror', ierr, MPI_SUCCESS)
  call MPI_WAIT(req, st, ierr)
  call expect_i('iwrite_at 40, wait', ierr, MPI_SUCCESS)
  call expect_l('iwrite_at 40, request freed', req == MPI_REQUEST_NULL, .true.)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('iwrite_at 40, count', n, 2)
  r = -1
  call MPI_FILE_IREAD_AT(fh, 36_MPI_OFFSET_KIND, r, 3, MPI_INTEGER, req, ierr)
  call expect_i('iread_at 36, ierror', ierr, MPI_SUCCESS)
  call MPI_WAIT(req, st, ierr)
  call expect_i('iread_at 36, wait', ierr, MPI_SUCCESS)
  call expect_l('iread_at 36, request freed', req == MPI_REQUEST_NULL, .true.)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('iread_at 36, count', n, 3)
  call expect_l('iread_at 36, values 40 70 80', r(1) == 40 .and. r(2) == 70 .and. r(3) == 80 &
                .and. r(4) == -1, .true.)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('nonblocking explicit offsets, position', int(pos, int64), 0_int64)

  ! ---- §15.4.4 the shared pointer: reset by _set_view, apart from the individual one. ----
  call MPI_FILE_GET_POSITION_SHARED(fh, pos, ierr)
  call expect_a('shared pointer after set_view', int(pos, int64), 0_int64)
  call MPI_FILE_SEEK_SHARED(fh, 48_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  a(1:2) = [90, 100]
  call MPI_FILE_WRITE_SHARED(fh, a, 2, MPI_INTEGER, st, ierr)
  call expect_i('write_shared 2 at 48, ierror', ierr, MPI_SUCCESS)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('write_shared 2 at 48, count', n, 2)
  call MPI_FILE_GET_POSITION_SHARED(fh, pos, ierr)
  call expect_a('write_shared 2 at 48, shared position', int(pos, int64), 56_int64)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('write_shared 2 at 48, individual position', int(pos, int64), 0_int64)
  b = -1
  call MPI_FILE_READ_AT(fh, 48_MPI_OFFSET_KIND, b, 2, MPI_INTEGER, st, ierr)
  call expect_l('write_shared 2 at 48, values', b(1) == 90 .and. b(2) == 100, .true.)

  ! ---- §15.4.5 a split collective read through the individual pointer. ----
  call MPI_FILE_SEEK(fh, 4_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  r = -1
  call MPI_FILE_READ_ALL_BEGIN(fh, r, 1, MPI_INTEGER, ierr)
  call expect_i('read_all_begin, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_READ_ALL_END(fh, r, st, ierr)
  call expect_i('read_all_end, ierror', ierr, MPI_SUCCESS)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call expect_i('read_all_end, count', n, 1)
  call expect_i('read_all_end, value', r(1), 10)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call expect_a('read_all, position', int(pos, int64), 8_int64)

  ! ---- §15.7 a file error handler of the program's: set, got, run with the file and code. ----
  call MPI_FILE_CREATE_ERRHANDLER(on_file, eh, ierr)
  call expect_i('file_create_errhandler, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_SET_ERRHANDLER(fh, eh, ierr)
  call expect_i('file_set_errhandler, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_GET_ERRHANDLER(fh, got, ierr)
  call expect_l('file_get_errhandler gives the handler set', got == eh, .true.)
  call MPI_ERRHANDLER_FREE(got, ierr)
  before = calls
  call MPI_FILE_SEEK(fh, 0_MPI_OFFSET_KIND, 12345, ierr)
  call expect_l('seek with a bad whence fails', ierr /= MPI_SUCCESS, .true.)
  call expect_i('seek with a bad whence, handler calls', calls - before, 1)
  call expect_l('seek with a bad whence, the handler got the file', seen_file == fh, .true.)
  call expect_l('seek with a bad whence, the handler got the code', seen_code == ierr, .true.)
  before = calls
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call expect_i('a call that succeeds runs no handler', calls - before, 0)
  before = calls
  call MPI_FILE_CALL_ERRHANDLER(fh, MPI_ERR_IO, ierr)
  call expect_i('file_call_errhandler MPI_ERR_IO, ierror', ierr, MPI_SUCCESS)
  call expect_i('file_call_errhandler MPI_ERR_IO, handler calls', calls - before, 1)
  call expect_l('file_call_errhandler MPI_ERR_IO, the handler got the file', seen_file == fh, .true.)
  call expect_l('file_call_errhandler MPI_ERR_IO, the handler got the code', seen_code == MPI_ERR_IO, .true.)
  ! §15.7: an error with no file (MPI_FILE_OPEN's, MPI_FILE_DELETE's) goes to MPI_FILE_NULL's
  ! handler, whose first argument is then MPI_FILE_NULL.
  call MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL, eh, ierr)
  before = calls
  call MPI_FILE_OPEN(MPI_COMM_SELF, trim(fname) // '.missing', MPI_MODE_RDONLY, MPI_INFO_NULL, fh2, ierr)
  call expect_i('open a missing file, MPI_FILE_NULL''s handler calls', calls - before, 1)
  call expect_l('open a missing file, the handler got MPI_FILE_NULL', seen_file == MPI_FILE_NULL, .true.)
  call expect_l('open a missing file, the handler got the code', seen_code == ierr, .true.)
  call MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)
  call MPI_FILE_SET_ERRHANDLER(fh, MPI_ERRORS_RETURN, ierr)
  call MPI_FILE_GET_ERRHANDLER(fh, got, ierr)
  call expect_l('file_get_errhandler gives MPI_ERRORS_RETURN', got == MPI_ERRORS_RETURN, .true.)
  call MPI_ERRHANDLER_FREE(got, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call expect_l('errhandler_free sets MPI_ERRHANDLER_NULL', eh == MPI_ERRHANDLER_NULL, .true.)
  call MPI_FILE_CLOSE(fh, ierr)
  call expect_l('close after the view, MPI_FILE_NULL', ierr == MPI_SUCCESS .and. fh == MPI_FILE_NULL, .true.)

  ! ---- §15.2.1, §15.8: reading a file opened MPI_MODE_WRONLY; errors return (the default). ----
  call MPI_FILE_OPEN(MPI_COMM_SELF, fname, MPI_MODE_WRONLY, MPI_INFO_NULL, fh, ierr)
  call expect_i('open WRONLY, ierror', ierr, MPI_SUCCESS)
  call MPI_FILE_READ(fh, b, 1, MPI_INTEGER, st, ierr)
  call expect_l('read a WRONLY file fails', ierr /= MPI_SUCCESS, .true.)
  call expect_l('read a WRONLY file, MPI_ERR_ACCESS', class_is(ierr, MPI_ERR_ACCESS), .true.)
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, b, 1, MPI_INTEGER, st, ierr)
  call expect_l('read_at a WRONLY file, MPI_ERR_ACCESS', class_is(ierr, MPI_ERR_ACCESS), .true.)
  call MPI_FILE_CLOSE(fh, ierr)

  ! ---- §15.2.3 MPI_FILE_DELETE. ----
  call MPI_FILE_DELETE(fname, MPI_INFO_NULL, ierr)
  call expect_i('delete, ierror', ierr, MPI_SUCCESS)
  inquire (file=fname, exist=flag)
  call expect_l('deleted file exists', flag, .false.)
  call MPI_FILE_DELETE(fname, MPI_INFO_NULL, ierr)
  call expect_l('delete a missing file, MPI_ERR_NO_SUCH_FILE', class_is(ierr, MPI_ERR_NO_SUCH_FILE), .true.)

  call MPI_FINALIZE(ierr)
  call ftest_finish()

contains
  ! Whether code is of class want.
  logical function class_is(code, want)
    integer, intent(in) :: code, want
    integer :: c, rc
    class_is = .false.
    if (code == MPI_SUCCESS) return
    call MPI_ERROR_CLASS(code, c, rc)
    class_is = rc == MPI_SUCCESS .and. c == want
  end function class_is

  ! fname: a new, empty file of a random name in /tmp, made with MPI_MODE_EXCL.
  subroutine reserve_name()
    integer :: k, rc, f
    integer(int64) :: clk
    real :: x
    call random_seed()
    do k = 1, 20
      call random_number(x)
      call system_clock(count=clk)
      write (fname, '(a,i0,a,i0,a)') &
        '/tmp/mpiattr_fio_f90_', int(x * 1.0e6), '_', mod(clk, 1000000_int64), '.dat'
      call MPI_FILE_OPEN(MPI_COMM_SELF, fname, MPI_MODE_CREATE + MPI_MODE_EXCL + MPI_MODE_WRONLY, &
                         MPI_INFO_NULL, f, rc)
      if (rc == MPI_SUCCESS) then
        call MPI_FILE_CLOSE(f, rc)
        return
      end if
    end do
    error stop 'no file name could be reserved in /tmp'
  end subroutine reserve_name
end program test_file_io
