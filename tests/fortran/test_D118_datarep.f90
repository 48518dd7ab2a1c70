! D118: MPI_REGISTER_DATAREP with Fortran callbacks, through `use mpi` (subroutines of implicit
! interface, every argument by reference) and mpi_f08 (MPI_Datarep_conversion_function: the buffers
! as TYPE(C_PTR), VALUE; MPI_Datarep_extent_function). The representation "negated" stores each
! INTEGER negated: a write through it, read back through "native", gives the negated values, and a
! read through it gives the values written; the functions get the access's datatype, the count of
! items, position 0 and the EXTRA_STATE given at registration. MPI_CONVERSION_FN_NULL (each
! module's) converts nothing: the file holds the values themselves, and no conversion function of
! the program runs. A name registered twice is MPI_ERR_DUP_DATAREP.
! mpiattr only (tests/c/D118_register_datarep.c says why the peers are not compared).
module d118_seen
  use mpi, only: MPI_ADDRESS_KIND, MPI_OFFSET_KIND
  implicit none
  integer :: reads = 0, writes = 0, last_count = -1, last_type = -1
  integer(kind=MPI_OFFSET_KIND) :: last_position = -1
  integer(kind=MPI_ADDRESS_KIND) :: last_extra = -1
contains
  ! What a conversion function of the `use mpi` part was given.
  subroutine note(datatype, count, position, extra_state)
    integer, intent(in) :: datatype, count
    integer(kind=MPI_OFFSET_KIND), intent(in) :: position
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
    last_type = datatype
    last_count = count
    last_position = position
    last_extra = extra_state
  end subroutine note
end module d118_seen

subroutine neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  use d118_seen
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  reads = reads + 1
  call note(datatype, count, position, extra_state)
  do i = 1, count
    userbuf(position + i) = -filebuf(i)
  end do
  ierror = MPI_SUCCESS
end subroutine neg_read

subroutine neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  use d118_seen
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  writes = writes + 1
  call note(datatype, count, position, extra_state)
  do i = 1, count
    filebuf(i) = -userbuf(position + i)
  end do
  ierror = MPI_SUCCESS
end subroutine neg_write

subroutine size_extent(datatype, extent, extra_state, ierror)
  use mpi
  implicit none
  integer :: datatype, ierror, size
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
  call MPI_TYPE_SIZE(datatype, size, ierror)
  extent = size
end subroutine size_extent

module d118_f08
  use mpi_f08
  use d118_seen, only: reads, writes, last_count
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
contains
  subroutine neg_read08(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    call c_f_pointer(userbuf, u, [int(position) + count])
    call c_f_pointer(filebuf, f, [count])
    reads = reads + 1
    last_count = count
    u(position + 1:position + count) = -f(1:count)
    ierror = MPI_SUCCESS
  end subroutine neg_read08
  subroutine neg_write08(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    call c_f_pointer(userbuf, u, [int(position) + count])
    call c_f_pointer(filebuf, f, [count])
    writes = writes + 1
    last_count = count
    f(1:count) = -u(position + 1:position + count)
    ierror = MPI_SUCCESS
  end subroutine neg_write08
  ! MPI_Register_datarep_c's: the count an INTEGER(KIND=MPI_COUNT_KIND).
  subroutine neg_write08c(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_COUNT_KIND) :: count
    integer :: ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    call c_f_pointer(userbuf, u, [int(position + count)])
    call c_f_pointer(filebuf, f, [int(count)])
    writes = writes + 1
    last_count = int(count)
    f(1:count) = -u(position + 1:position + count)
    ierror = MPI_SUCCESS
  end subroutine neg_write08c
  subroutine size_extent08(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror, size
    call MPI_Type_size(datatype, size, ierror)
    extent = size
  end subroutine size_extent08

  ! The same checks as the `use mpi` part, through mpi_f08, on the open file fh.
  subroutine f08_part(ifh)
    use ftest
    integer, intent(in) :: ifh
    type(MPI_File) :: fh
    type(MPI_Status) :: st
    integer :: ierr, data(3), got(3)
    fh%MPI_VAL = ifh
    call MPI_Register_datarep('negated-f08', neg_read08, neg_write08, size_extent08, 7_MPI_ADDRESS_KIND, ierr)
    call expect_i('D118 mpi_f08 MPI_Register_datarep', ierr, MPI_SUCCESS)
    call MPI_Register_datarep('none-f08', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, size_extent08, &
                              0_MPI_ADDRESS_KIND, ierr)
    call expect_i('D118 mpi_f08 MPI_Register_datarep of MPI_CONVERSION_FN_NULL', ierr, MPI_SUCCESS)
    data = [4, 5, 6]
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'negated-f08', MPI_INFO_NULL, ierr)
    writes = 0
    call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, data, 3, MPI_INTEGER, st, ierr)
    call expect_i('D118 mpi_f08 write through the representation', ierr, MPI_SUCCESS)
    call expect_i('D118 mpi_f08 the write function ran once', writes, 1)
    call expect_i('D118 mpi_f08 its count', last_count, 3)
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
    got = 0
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, 3, MPI_INTEGER, st, ierr)
    call expect_i('D118 mpi_f08 the file holds -4', got(1), -4)
    call expect_i('D118 mpi_f08 the file holds -6', got(3), -6)
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'negated-f08', MPI_INFO_NULL, ierr)
    got = 0
    reads = 0
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, 3, MPI_INTEGER, st, ierr)
    call expect_i('D118 mpi_f08 the read function ran once', reads, 1)
    call expect_i('D118 mpi_f08 read back 4', got(1), 4)
    call expect_i('D118 mpi_f08 read back 6', got(3), 6)
    ! mpi_f08's MPI_CONVERSION_FN_NULL: no conversion.
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'none-f08', MPI_INFO_NULL, ierr)
    reads = 0
    writes = 0
    call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, data, 3, MPI_INTEGER, st, ierr)
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
    got = 0
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, 3, MPI_INTEGER, st, ierr)
    call expect_i('D118 mpi_f08 MPI_CONVERSION_FN_NULL: the file holds 5', got(2), 5)
    call expect_i('D118 mpi_f08 MPI_CONVERSION_FN_NULL: no function ran', reads + writes, 0)
    ! The large-count form: its write function (MPI_COUNT_KIND count), and MPI_CONVERSION_FN_NULL_C
    ! for reading, which reads the file's bytes as they are.
    call MPI_Register_datarep_c('negated-c-f08', MPI_CONVERSION_FN_NULL_C, neg_write08c, size_extent08, &
                                0_MPI_ADDRESS_KIND, ierr)
    call expect_i('D118 mpi_f08 MPI_Register_datarep_c', ierr, MPI_SUCCESS)
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'negated-c-f08', MPI_INFO_NULL, ierr)
    writes = 0
    call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, data, 3, MPI_INTEGER, st, ierr)
    call expect_i('D118 mpi_f08 the large write function ran once', writes, 1)
    call expect_i('D118 mpi_f08 its MPI_COUNT_KIND count', last_count, 3)
    got = 0
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, 3, MPI_INTEGER, st, ierr)
    call expect_i('D118 mpi_f08 MPI_CONVERSION_FN_NULL_C reads the file as it is: -5', got(2), -5)
  end subroutine f08_part
end module d118_f08

program test_D118_datarep
  use mpi
  use ftest
  use d118_seen
  use d118_f08, only: f08_part
  implicit none
  external :: neg_read, neg_write, size_extent
  integer :: ierr, fh, cls, data(4), got(4), status(MPI_STATUS_SIZE), pid
  character(len=64) :: fname

  call MPI_INIT(ierr)
  call MPI_REGISTER_DATAREP('negated', neg_read, neg_write, size_extent, 42_MPI_ADDRESS_KIND, ierr)
  call expect_i('D118 MPI_REGISTER_DATAREP', ierr, MPI_SUCCESS)
  call MPI_REGISTER_DATAREP('negated', neg_read, neg_write, size_extent, 42_MPI_ADDRESS_KIND, ierr)
  call MPI_ERROR_CLASS(ierr, cls, pid)
  call expect_i('D118 MPI_REGISTER_DATAREP twice', cls, MPI_ERR_DUP_DATAREP)
  call MPI_REGISTER_DATAREP('none', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, size_extent, &
                            0_MPI_ADDRESS_KIND, ierr)
  call expect_i('D118 MPI_REGISTER_DATAREP of MPI_CONVERSION_FN_NULL', ierr, MPI_SUCCESS)

  pid = getpid()
  write (fname, '(A,I0,A)') '/tmp/mpiattr_D118_f_', pid, '.dat'
  call MPI_FILE_OPEN(MPI_COMM_SELF, fname, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh, ierr)
  call expect_i('D118 MPI_FILE_OPEN', ierr, MPI_SUCCESS)
  data = [1, 2, 3, 4]
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'negated', MPI_INFO_NULL, ierr)
  call expect_i('D118 MPI_FILE_SET_VIEW', ierr, MPI_SUCCESS)
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, data, 4, MPI_INTEGER, status, ierr)
  call expect_i('D118 write through the representation', ierr, MPI_SUCCESS)
  call expect_i('D118 the write function ran once', writes, 1)
  call expect_i('D118 it got MPI_INTEGER', last_type, MPI_INTEGER)
  call expect_i('D118 it got 4 items', last_count, 4)
  call expect_i('D118 it got position 0', int(last_position), 0)
  call expect_i('D118 it got the EXTRA_STATE', int(last_extra), 42)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  got = 0
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, 4, MPI_INTEGER, status, ierr)
  call expect_i('D118 the file holds -1', got(1), -1)
  call expect_i('D118 the file holds -4', got(4), -4)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'negated', MPI_INFO_NULL, ierr)
  got = 0
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, 4, MPI_INTEGER, status, ierr)
  call expect_i('D118 the read function ran once', reads, 1)
  call expect_i('D118 read back 1', got(1), 1)
  call expect_i('D118 read back 4', got(4), 4)
  ! MPI_CONVERSION_FN_NULL: the values themselves, and no function of the program.
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'none', MPI_INFO_NULL, ierr)
  reads = 0
  writes = 0
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, data, 4, MPI_INTEGER, status, ierr)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  got = 0
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, 4, MPI_INTEGER, status, ierr)
  call expect_i('D118 MPI_CONVERSION_FN_NULL: the file holds 2', got(2), 2)
  call expect_i('D118 MPI_CONVERSION_FN_NULL: no function ran', reads + writes, 0)

  call f08_part(fh)
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_FINALIZE(ierr)
end program test_D118_datarep
