! mpi_f08's large-count specifics (MPI-4.1 sections 19.1.4 and 20.2; docs/decisions.md D52): the
! same generic name called with INTEGER(KIND=MPI_COUNT_KIND) counts reaches the routine's
! large-count form MPI_X_c, and with default INTEGER counts the routine itself; the values are the
! same either way. MPI_Type_get_extent has no _c specific (MPI_ADDRESS_KIND = MPI_COUNT_KIND): its
! own specific takes the large kind.
program test_large_counts_f08
  use mpi_f08
  use ftest
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer(kind=MPI_COUNT_KIND) :: n3, csize, ccount, cpos, cpsize, clb, cext
  integer :: isize, icount, ipos, ierr
  type(MPI_Datatype) :: t3, ti
  type(MPI_Request) :: req
  type(MPI_Status) :: st
  integer :: a(6), b(6), packed(8), c(6)

  call MPI_Init(ierr)
  n3 = 3

  ! MPI_Type_size: the size in the kind given.
  call MPI_Type_size(MPI_INTEGER, csize, ierr)
  call expect_a('type_size count kind, integer', int(csize, int64), 4_int64)
  call expect_i('type_size count kind, ierror', ierr, MPI_SUCCESS)
  call MPI_Type_size(MPI_INTEGER, isize, ierr)
  call expect_i('type_size default kind, integer', isize, 4)

  ! MPI_Type_contiguous: a count of either kind makes the same type.
  call MPI_Type_contiguous(n3, MPI_INTEGER, t3, ierr)
  call expect_i('type_contiguous count kind, ierror', ierr, MPI_SUCCESS)
  call MPI_Type_commit(t3)
  call MPI_Type_contiguous(3, MPI_INTEGER, ti, ierr)
  call MPI_Type_commit(ti)
  call MPI_Type_size(t3, csize)
  call expect_a('type_size of contiguous(3) count kind', int(csize, int64), 12_int64)
  call MPI_Type_size(ti, isize)
  call expect_i('type_size of contiguous(3) default kind', isize, 12)
  call MPI_Type_get_extent(t3, clb, cext, ierr)
  call expect_a('type_get_extent count kind, lb', int(clb, int64), 0_int64)
  call expect_a('type_get_extent count kind, extent', int(cext, int64), 12_int64)
  call MPI_Type_get_true_extent(t3, clb, cext, ierr)
  call expect_a('type_get_true_extent count kind, extent', int(cext, int64), 12_int64)

  ! Messages to self: MPI_Isend and MPI_Recv with large counts, MPI_Get_count in both kinds.
  a = [1, 2, 3, 4, 5, 6]
  b = 0
  call MPI_Isend(a, 2_MPI_COUNT_KIND, t3, 0, 5, MPI_COMM_WORLD, req, ierr)
  call expect_i('isend count kind, ierror', ierr, MPI_SUCCESS)
  call MPI_Recv(b, 6_MPI_COUNT_KIND, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, st, ierr)
  call expect_i('recv count kind, ierror', ierr, MPI_SUCCESS)
  call expect_l('recv count kind, data', all(b == a), .true.)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Get_count(st, MPI_INTEGER, ccount, ierr)
  call expect_a('get_count count kind, integers', int(ccount, int64), 6_int64)
  call MPI_Get_count(st, t3, ccount)
  call expect_a('get_count count kind, contiguous(3)', int(ccount, int64), 2_int64)
  call MPI_Get_count(st, MPI_INTEGER, icount)
  call expect_i('get_count default kind, integers', icount, 6)
  b = 0
  call MPI_Isend(a, 1, t3, 0, 6, MPI_COMM_WORLD, req)
  call MPI_Recv(b, 3, MPI_INTEGER, 0, 6, MPI_COMM_WORLD, st)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call expect_l('recv default kind, data', all(b(1:3) == a(1:3)) .and. all(b(4:6) == 0), .true.)

  ! MPI_Pack_size, MPI_Pack and MPI_Unpack: every count and the position in MPI_COUNT_KIND.
  call MPI_Pack_size(n3, MPI_INTEGER, MPI_COMM_WORLD, cpsize, ierr)
  call expect_a('pack_size count kind', int(cpsize, int64), 12_int64)
  packed = 0
  cpos = 0
  call MPI_Pack(a, n3, MPI_INTEGER, packed, int(size(packed) * 4, MPI_COUNT_KIND), cpos, MPI_COMM_WORLD, ierr)
  call expect_i('pack count kind, ierror', ierr, MPI_SUCCESS)
  call expect_a('pack count kind, position', int(cpos, int64), 12_int64)
  call MPI_Pack(a(4), 1_MPI_COUNT_KIND, MPI_INTEGER, packed, 32_MPI_COUNT_KIND, cpos, MPI_COMM_WORLD)
  call expect_a('pack count kind, position after a second', int(cpos, int64), 16_int64)
  c = 0
  cpos = 0
  call MPI_Unpack(packed, 32_MPI_COUNT_KIND, cpos, c, 4_MPI_COUNT_KIND, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call expect_i('unpack count kind, ierror', ierr, MPI_SUCCESS)
  call expect_a('unpack count kind, position', int(cpos, int64), 16_int64)
  call expect_l('unpack count kind, data', all(c(1:4) == a(1:4)), .true.)
  ipos = 0
  c = 0
  call MPI_Unpack(packed, 32, ipos, c, 2, MPI_INTEGER, MPI_COMM_WORLD)
  call expect_i('unpack default kind, position', ipos, 8)
  call expect_l('unpack default kind, data', all(c(1:2) == a(1:2)) .and. c(3) == 0, .true.)

  ! Collectives on one process.
  b = [7, 8, 9, 0, 0, 0]
  call MPI_Bcast(b, n3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call expect_i('bcast count kind, ierror', ierr, MPI_SUCCESS)
  call expect_l('bcast count kind, data unchanged', all(b == [7, 8, 9, 0, 0, 0]), .true.)
  c = 0
  call MPI_Allreduce(a, c, 4_MPI_COUNT_KIND, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect_i('allreduce count kind, ierror', ierr, MPI_SUCCESS)
  call expect_l('allreduce count kind, data', all(c(1:4) == a(1:4)) .and. all(c(5:6) == 0), .true.)
  c = 0
  call MPI_Allreduce(a, c, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect_l('allreduce default kind, data', all(c(1:2) == a(1:2)) .and. all(c(3:6) == 0), .true.)

  ! Errors are the routine's: a negative large count is MPI_ERR_COUNT (MPI_ERRORS_RETURN).
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)  ! a datatype routine's
  call MPI_Send(a, -1_MPI_COUNT_KIND, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, icount)
  call expect_i('send count kind -1, class', icount, MPI_ERR_COUNT)
  call MPI_Type_contiguous(-1_MPI_COUNT_KIND, MPI_INTEGER, ti, ierr)
  call MPI_Error_class(ierr, icount)
  call expect_i('type_contiguous count kind -1, class', icount, MPI_ERR_COUNT)

  call MPI_Type_free(t3)
  call MPI_Finalize(ierr)
  call ftest_finish()
end program test_large_counts_f08
