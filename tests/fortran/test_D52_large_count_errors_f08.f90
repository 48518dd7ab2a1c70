! D52: what mpi_f08's large-count specifics do with counts beyond INTEGER. Messages, collectives
! with scalar counts, RMA and I/O take them (D115): a count whose bytes MPI_Aint cannot count is
! MPI_ERR_COUNT, and MPI_Reduce_local calls an INTEGER-length user function on pieces of at most
! HUGE(0) elements. Where the standalone runtime cannot carry them out (the v-collectives' arrays,
! docs/decisions.md D47): MPI_ERR_COUNT saying which argument, through the communicator's error
! handler where the routine has one, and nothing written; a refused routine's large form is
! refused as the routine is. The datatype constructors take them (D113): the datatype is described with large counts,
! which the INTEGER MPI_Type_get_envelope refuses with MPI_ERR_TYPE. mpiattr only (the peers
! carry such counts out): not compared.
! MPI_Op_create_c's user function, in a module: an internal procedure passed as an argument would
! need a trampoline on an executable stack.
module d52_user_op
  use mpi_f08
  implicit none
  integer(kind=MPI_COUNT_KIND) :: last_len = -1
  integer :: int_calls = 0, int_longest = 0
  integer(kind=MPI_COUNT_KIND) :: int_total = 0
contains
  ! An MPI_Op_create function (INTEGER length) that counts its calls and touches no element.
  subroutine count_pieces(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    int_calls = int_calls + 1
    int_total = int_total + len
    int_longest = max(int_longest, len)
  end subroutine count_pieces

  subroutine sum_large(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: x(:), y(:)
    last_len = len
    call c_f_pointer(invec, x, [len])
    call c_f_pointer(inoutvec, y, [len])
    if (datatype == MPI_INTEGER) y = y + x
  end subroutine sum_large
end module d52_user_op

program test_D52_large_count_errors_f08
  use mpi_f08
  use ftest
  use d52_user_op
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer(kind=MPI_COUNT_KIND), parameter :: huge_count = 2_MPI_COUNT_KIND**40
  integer(kind=MPI_COUNT_KIND) :: cpos, blens(2), rcounts(1), nlarge, disps_c(1), ni, na, nd
  integer :: ierr, cls, slen, comb
  character(len=MPI_MAX_ERROR_STRING) :: msg
  type(MPI_Datatype) :: t, tv
  type(MPI_Request) :: req
  type(MPI_Op) :: op
  integer :: a(4), packed(4)

  call MPI_Init(ierr)
  ! Only MPI_COMM_WORLD returns errors: an error raised on MPI_COMM_SELF would end the program.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  a = [1, 2, 3, 4]

  ! 2**40 elements of 2**30 bytes: more bytes than MPI_Aint counts (the count reached the runtime
  ! whole: narrowed, it would not fit in INTEGER).
  call MPI_Type_contiguous(2**28, MPI_INTEGER, tv, ierr)
  call MPI_Type_commit(tv, ierr)
  call MPI_Send(a, huge_count, tv, 0, 1, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('send, count 2**40 of 2**30 bytes: class', cls, MPI_ERR_COUNT)
  call MPI_Error_string(ierr, msg, slen)
  call expect_l('send, count 2**40 of 2**30 bytes: message names count and MPI_Aint', &
                index(msg, 'count = 1099511627776 of a datatype of 1073741824 bytes does not fit in MPI_Aint') > 0, &
                .true.)

  ! Nothing written: the position stays, the request stays.
  cpos = huge_count
  packed = 0
  call MPI_Pack(a, 1_MPI_COUNT_KIND, MPI_INTEGER, packed, 16_MPI_COUNT_KIND, cpos, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('pack, position 2**40 past outsize 16: class', cls, MPI_ERR_TRUNCATE)
  call expect_a('pack, position 2**40: position unchanged', int(cpos, int64), int(huge_count, int64))
  call expect_l('pack, position 2**40: nothing packed', all(packed == 0), .true.)
  req = MPI_REQUEST_NULL
  call MPI_Isend(a, huge_count, tv, 0, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('isend, count 2**40 of 2**30 bytes: class', cls, MPI_ERR_COUNT)
  call expect_l('isend, count 2**40 of 2**30 bytes: request unchanged', req == MPI_REQUEST_NULL, .true.)
  call MPI_Type_free(tv, ierr)

  ! MPI_Reduce_local of 2**40 elements with an INTEGER-length function: 513 pieces of at most
  ! HUGE(0) elements (the function touches none of them).
  call MPI_Op_create(count_pieces, .true., op, ierr)
  call MPI_Reduce_local(a, packed, huge_count, MPI_INTEGER, op, ierr)
  call expect_i('reduce_local, count 2**40, INTEGER-length function: ierror', ierr, MPI_SUCCESS)
  call expect_i('reduce_local, count 2**40: calls', int_calls, 513)
  call expect_a('reduce_local, count 2**40: elements', int(int_total, int64), int(huge_count, int64))
  call expect_i('reduce_local, count 2**40: longest piece', int_longest, huge(0))
  call MPI_Op_free(op, ierr)

  ! The v-collectives' arrays (one element per process) take counts beyond INTEGER (D115): the
  ! process's one INTEGER lands at displacement 1 of a receive with room for 2**40.
  rcounts(1) = huge_count
  disps_c(1) = 1
  packed = 0
  call MPI_Gatherv(a, 1_MPI_COUNT_KIND, MPI_INTEGER, packed, rcounts, disps_c, MPI_INTEGER, 0, &
                   MPI_COMM_WORLD, ierr)
  call expect_i('gatherv, recvcounts(1) 2**40: ierror', ierr, MPI_SUCCESS)
  call expect_l('gatherv, recvcounts(1) 2**40: the block at displacement 1', &
                packed(1) == 0 .and. packed(2) == a(1) .and. packed(3) == 0, .true.)
  ! A neighbourhood collective's arrays have an element per edge: on a 1x1 periodic grid four in
  ! and four out, each displacement an INTEGER(KIND=MPI_ADDRESS_KIND) (read as such: D115).
  block
    type(MPI_Comm) :: grid
    integer(kind=MPI_COUNT_KIND) :: ncounts(4)
    integer(kind=MPI_ADDRESS_KIND) :: ndispls(4)
    integer :: nsend(4), nrecv(4)
    call MPI_Cart_create(MPI_COMM_WORLD, 2, [1, 1], [.true., .true.], .false., grid, ierr)
    ncounts = 1_MPI_COUNT_KIND
    ndispls = [0_MPI_ADDRESS_KIND, 1_MPI_ADDRESS_KIND, 2_MPI_ADDRESS_KIND, 3_MPI_ADDRESS_KIND]
    nsend = [1, 2, 3, 4]
    nrecv = 0
    call MPI_Neighbor_alltoallv(nsend, ncounts, ndispls, MPI_INTEGER, nrecv, ncounts, ndispls, MPI_INTEGER, &
                                grid, ierr)
    call expect_i('neighbor_alltoallv, large form: ierror', ierr, MPI_SUCCESS)
    call expect_l('neighbor_alltoallv, large form: each edge from its displacement', &
                  all(nrecv == [2, 1, 4, 3]), .true.)
    call MPI_Comm_free(grid)
  end block

  ! A datatype routine has no communicator: MPI_COMM_SELF's handler, set to return now.
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  t = MPI_INTEGER
  call MPI_Type_contiguous(huge_count, MPI_INTEGER, t, ierr)
  call expect_i('type_contiguous, count 2**40: ierror', ierr, MPI_SUCCESS)
  call MPI_Type_size(t, nd, ierr)
  call expect_a('type_contiguous, count 2**40: size', int(nd, int64), 4_int64 * 2_int64**40)
  nlarge = -1
  call MPI_Type_get_envelope(t, ni, na, nlarge, nd, comb, ierr)
  call expect_i('type_contiguous, count 2**40: combiner', comb, MPI_COMBINER_CONTIGUOUS)
  call expect_a('type_contiguous, count 2**40: num_large_counts', int(nlarge, int64), 1_int64)
  call expect_a('type_contiguous, count 2**40: num_integers', int(ni, int64), 0_int64)
  block
    integer :: ints(1), ni_int, na_int, nd_int, comb_int
    integer(kind=MPI_ADDRESS_KIND) :: addrs(1)
    integer(kind=MPI_COUNT_KIND) :: large(1)
    type(MPI_Datatype) :: types(1)
    call MPI_Type_get_contents(t, 0_MPI_COUNT_KIND, 0_MPI_COUNT_KIND, 1_MPI_COUNT_KIND, 1_MPI_COUNT_KIND, &
                               ints, addrs, large, types, ierr)
    call expect_i('type_contiguous, count 2**40: contents ierror', ierr, MPI_SUCCESS)
    call expect_a('type_contiguous, count 2**40: the large count', int(large(1), int64), 2_int64**40)
    call expect_l('type_contiguous, count 2**40: its datatype', types(1) == MPI_INTEGER, .true.)
    ! (Its outputs are INTENT(OUT): undefined after the call, so not checked.)
    call MPI_Type_get_envelope(t, ni_int, na_int, nd_int, comb_int, ierr)
    call MPI_Error_class(ierr, cls)
    call expect_i('type_contiguous, count 2**40: INTEGER envelope class', cls, MPI_ERR_TYPE)
  end block
  call MPI_Type_free(t)
  blens = [1_MPI_COUNT_KIND, huge_count]
  call MPI_Type_indexed(2_MPI_COUNT_KIND, blens, [0_MPI_COUNT_KIND, 4_MPI_COUNT_KIND], MPI_INTEGER, t, ierr)
  call expect_i('type_indexed, blocklength(2) 2**40: ierror', ierr, MPI_SUCCESS)
  call MPI_Type_size(t, nd, ierr)
  call expect_a('type_indexed, blocklength(2) 2**40: size', int(nd, int64), 4_int64 + 4_int64 * 2_int64**40)
  call MPI_Type_free(t)
  blens(2) = -huge_count
  call MPI_Type_indexed(2_MPI_COUNT_KIND, blens, [0_MPI_COUNT_KIND, 4_MPI_COUNT_KIND], MPI_INTEGER, t, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('type_indexed, blocklength(2) -2**40: class', cls, MPI_ERR_ARG)
  call MPI_Error_string(ierr, msg, slen)
  call expect_l('type_indexed, blocklength(2) -2**40: message', &
                index(msg, 'array_of_blocklengths[1] = -1099511627776 is negative') > 0, .true.)

  ! A constructor given values INTEGER holds: described as the INTEGER routine's (D47).
  call MPI_Type_vector(2, 1, 2, MPI_INTEGER, tv)
  nlarge = -1
  call MPI_Type_get_envelope(tv, ni, na, nlarge, nd, comb, ierr)
  call expect_i('type_get_envelope large form, ierror', ierr, MPI_SUCCESS)
  call expect_a('type_get_envelope large form, num_large_counts', int(nlarge, int64), 0_int64)
  call expect_a('type_get_envelope large form, num_integers', int(ni, int64), 3_int64)
  call expect_a('type_get_envelope large form, num_datatypes', int(nd, int64), 1_int64)
  call expect_i('type_get_envelope large form, combiner', comb, MPI_COMBINER_VECTOR)
  call MPI_Type_free(tv)

  ! A file routine's large form raises what the routine raises: MPI_FILE_NULL is no file (D107),
  ! MPI_ERR_FILE on MPI_FILE_NULL's handler, MPI_ERRORS_RETURN.
  call MPI_File_write(MPI_FILE_NULL, a, 1_MPI_COUNT_KIND, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_Error_class(ierr, cls)
  call expect_i('file_write large form: class', cls, MPI_ERR_FILE)

  ! An operation made by MPI_Op_create_c: MPI_Reduce_local calls its function with an
  ! INTEGER(KIND=MPI_COUNT_KIND) length (D52), through either form of MPI_Reduce_local.
  call MPI_Op_create_c(sum_large, .true., op, ierr)
  call expect_i('op_create_c, ierror', ierr, MPI_SUCCESS)
  a = [1, 2, 3, 4]
  packed = [10, 20, 30, 40]
  call MPI_Reduce_local(a, packed, 3_MPI_COUNT_KIND, MPI_INTEGER, op, ierr)
  call expect_i('reduce_local (large count), ierror', ierr, MPI_SUCCESS)
  call expect_a('reduce_local (large count), len', int(last_len, int64), 3_int64)
  call MPI_Reduce_local(a, packed, 2, MPI_INTEGER, op, ierr)
  call expect_a('reduce_local (default count), len', int(last_len, int64), 2_int64)
  call expect_l('reduce_local, values', all(packed == [12, 24, 33, 40]), .true.)
  call MPI_Op_free(op)

  call MPI_Finalize(ierr)
  call ftest_finish()
end program test_D52_large_count_errors_f08
