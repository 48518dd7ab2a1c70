! R4_comm_attr_values_mpi.F90: one program for `include 'mpif.h'` (built with -DMPIF_H: R4_comm_attr_values_mpif) and
! `use mpi` (R4_comm_attr_values_usempi).
! MPI_COMM_SET_ATTR, MPI_COMM_GET_ATTR and MPI_COMM_DELETE_ATTR values from Fortran, and the
! predefined attributes of MPI_COMM_WORLD.
!
! MPI-4.1 §8.7.2: MPI_COMM_GET_ATTR gives FLAG = .FALSE. for a key with no value on the object
! (not an error, R4.2) and otherwise the value set; a set on one communicator leaves others
! unchanged; after MPI_COMM_DELETE_ATTR the flag is .FALSE. again. §20.3.7 (R7.3, F2 -> F2): a
! value set by MPI_COMM_SET_ATTR is an INTEGER(KIND=MPI_ADDRESS_KIND) and MPI_COMM_GET_ATTR gives
! it back whole: 2**32 and above, negative values and HUGE() included. Every rank sets values of
! its own.
!
! MPI-4.1 §10.1.2, §12.10, §10.5.1 (R8.2) with §20.3.7 (R7.5): the environment attributes of
! MPI_COMM_WORLD are integer-valued; MPI_COMM_GET_ATTR gives the number. MPI_TAG_UB, MPI_HOST,
! MPI_IO and MPI_LASTUSEDCODE are attached; MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE and MPI_APPNUM
! may be absent, but their keys are valid. MPI_TAG_UB >= 32767 and the same on all processes.
! Whether each is found and its value are FACT lines: with mpiattr in front the host answers them.
!
! MPI-4.1 §6.4.3, §20.3.4 (D68): a Fortran handle freed and given to a new communicator names the
! new one: a get through it gives the value set on the new communicator.
program R4_comm_attr_values
#ifndef MPIF_H
  use mpi
#endif
  use fhost_check
  implicit none
#ifdef MPIF_H
  include 'mpif.h'
#endif
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer, parameter :: nvals = 9, npre = 7, nreuse = 8
  integer :: ierr, rc, rank, nranks, k, k2, comm, i, bad, reuse(nreuse)
  integer(kind=ak) :: v, vals(nvals), vw, vs, vc, minmax(2), red(2)
  integer(kind=ak) :: pre_val(npre)
  integer :: pre_key(npre)
  logical :: f, fw, fs, fc, pre_found(npre)
  character(len=20) :: vname(nvals), pname(npre)

  bad = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)

  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_ak, rc)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k2, 0_ak, ierr)
  call check('R1_create_keyval_succeeds', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. &
             k /= MPI_KEYVAL_INVALID .and. k2 /= MPI_KEYVAL_INVALID .and. k /= k2)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call MPI_COMM_SET_ERRHANDLER(comm, MPI_ERRORS_RETURN, ierr)

  f = .true.
  call MPI_COMM_GET_ATTR(comm, k, v, f, rc)
  call check('R4_get_attr_key_without_value_flag_false', rc == MPI_SUCCESS .and. .not. f)

  ! ---- values round-trip whole (R7.3 F2 -> F2) ----
  vname = [character(len=20) :: 'zero', 'minus_one', '2_31_minus_1', '2_31', '2_32', &
           '2_32_plus_rank', '2_40_plus_rank', 'minus_2_40', 'huge']
  vals = [0_ak, -1_ak, 2_ak**31 - 1, 2_ak**31, 2_ak**32, 2_ak**32 + rank, &
          2_ak**40 + 3 * rank, -(2_ak**40) - rank, huge(0_ak) - rank]
  do i = 1, nvals
    call MPI_COMM_SET_ATTR(comm, k, vals(i), rc)
    v = -12345
    f = .false.
    call MPI_COMM_GET_ATTR(comm, k, v, f, ierr)
    call check('R4_set_get_round_trip_' // trim(vname(i)), rc == MPI_SUCCESS .and. &
               ierr == MPI_SUCCESS .and. f .and. v == vals(i))
  end do

  ! ---- attributes are per object and per key ----
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, k, 2_ak**35 + 100 + rank, rc)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, k, 2_ak**36 + 200 + rank, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_SET_ATTR(comm, k, 2_ak**37 + 300 + rank, ierr)
  rc = max(rc, ierr)
  call check('R4_set_attr_on_world_self_and_dup_succeeds', rc == MPI_SUCCESS)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, k, vw, fw, rc)
  call MPI_COMM_GET_ATTR(MPI_COMM_SELF, k, vs, fs, ierr)
  rc = max(rc, ierr)
  call MPI_COMM_GET_ATTR(comm, k, vc, fc, ierr)
  rc = max(rc, ierr)
  call check('R4_attributes_are_per_object', rc == MPI_SUCCESS .and. fw .and. fs .and. fc .and. &
             vw == 2_ak**35 + 100 + rank .and. vs == 2_ak**36 + 200 + rank .and. &
             vc == 2_ak**37 + 300 + rank)
  call MPI_COMM_GET_ATTR(comm, k2, v, f, rc)
  call check('R4_other_key_has_no_value', rc == MPI_SUCCESS .and. .not. f)

  ! ---- delete ----
  call MPI_COMM_DELETE_ATTR(comm, k, rc)
  f = .true.
  call MPI_COMM_GET_ATTR(comm, k, v, f, ierr)
  call check('R4_delete_attr_then_get_flag_false', rc == MPI_SUCCESS .and. &
             ierr == MPI_SUCCESS .and. .not. f)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, k, vw, fw, ierr)
  call check('R4_delete_attr_leaves_other_objects', ierr == MPI_SUCCESS .and. fw .and. &
             vw == 2_ak**35 + 100 + rank)
  call MPI_COMM_SET_ATTR(comm, k, -7_ak - rank, rc)
  call MPI_COMM_GET_ATTR(comm, k, v, f, ierr)
  call check('R4_set_attr_after_delete', rc == MPI_SUCCESS .and. f .and. v == -7_ak - rank)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, k, rc)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, k, ierr)
  call check('R4_delete_attr_on_world_and_self', rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS)

  ! ---- a freed Fortran handle given to the next communicator (D68) ----
  ! Open MPI hands out the lowest free Fortran handle and its allocator the memory freed last, so
  ! the new communicators below get the old ones' handles with other C handles (objects) behind
  ! them; MPICH reuses both. Over Open MPI mpiattr caches which C handle a Fortran handle names:
  ! each get must still give the value of the communicator the handle names now.
  do i = 1, nreuse
    call MPI_COMM_DUP(MPI_COMM_WORLD, reuse(i), ierr)
    call MPI_COMM_SET_ATTR(reuse(i), k, int(100 + i, ak), rc)
    call MPI_COMM_GET_ATTR(reuse(i), k, v, f, ierr)
    bad = bad + merge(0, 1, rc == MPI_SUCCESS .and. ierr == MPI_SUCCESS .and. f .and. v == 100 + i)
  end do
  do i = 1, nreuse
    call MPI_COMM_FREE(reuse(i), ierr)
  end do
  do i = 1, nreuse
    call MPI_COMM_DUP(MPI_COMM_WORLD, reuse(i), ierr)
    call MPI_COMM_SET_ATTR(reuse(i), k, int(200 + i, ak), rc)
  end do
  do i = 1, nreuse
    call MPI_COMM_GET_ATTR(reuse(i), k, v, f, ierr)
    bad = bad + merge(0, 1, ierr == MPI_SUCCESS .and. f .and. v == 200 + i)
  end do
  call check('D68_reused_fortran_handle_gets_the_new_communicators_value', bad == 0)
  do i = 1, nreuse
    call MPI_COMM_FREE(reuse(i), ierr)
  end do

  ! ---- the environment attributes of MPI_COMM_WORLD (R8.2, R7.5) ----
  pname = [character(len=20) :: 'MPI_TAG_UB', 'MPI_HOST', 'MPI_IO', 'MPI_WTIME_IS_GLOBAL', &
           'MPI_UNIVERSE_SIZE', 'MPI_APPNUM', 'MPI_LASTUSEDCODE']
  pre_key = [MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, &
             MPI_LASTUSEDCODE]
  do i = 1, npre
    pre_val(i) = -999
    pre_found(i) = .false.
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, pre_key(i), pre_val(i), pre_found(i), rc)
    call check('R8_get_attr_' // trim(pname(i)) // '_succeeds', rc == MPI_SUCCESS)
    if (.not. pre_found(i)) pre_val(i) = -1
    call fact(trim(pname(i)) // '_found', merge(1, 0, pre_found(i)))
    if (i /= 3) call fact(trim(pname(i)) // '_value', pre_val(i))  ! MPI_IO may differ per rank
  end do
  call check('R8_MPI_TAG_UB_attached', pre_found(1))
  call check('R8_MPI_TAG_UB_at_least_32767', pre_found(1) .and. pre_val(1) >= 32767)
  minmax = [pre_val(1), -pre_val(1)]
  call MPI_ALLREDUCE(minmax, red, 2, MPI_INTEGER8, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check('R8_MPI_TAG_UB_same_on_all_ranks', ierr == MPI_SUCCESS .and. red(1) == -red(2))
  call check('R8_MPI_HOST_attached', pre_found(2))
  call check('R8_MPI_HOST_is_proc_null_or_rank', pre_val(2) == MPI_PROC_NULL .or. &
             (pre_val(2) >= 0 .and. pre_val(2) < nranks))
  call check('R8_MPI_IO_attached', pre_found(3))
  call check('R8_MPI_IO_is_any_source_proc_null_or_rank', pre_val(3) == MPI_ANY_SOURCE .or. &
             pre_val(3) == MPI_PROC_NULL .or. (pre_val(3) >= 0 .and. pre_val(3) < nranks))
  call check('R8_MPI_WTIME_IS_GLOBAL_0_or_1_if_set', .not. pre_found(4) .or. &
             pre_val(4) == 0 .or. pre_val(4) == 1)
  call check('R8_MPI_UNIVERSE_SIZE_positive_if_set', .not. pre_found(5) .or. pre_val(5) >= 1)
  call check('R8_MPI_APPNUM_0_if_set', .not. pre_found(6) .or. pre_val(6) == 0)
  call check('R8_MPI_LASTUSEDCODE_attached', pre_found(7))
  call check('R8_MPI_LASTUSEDCODE_at_least_MPI_ERR_LASTCODE', pre_found(7) .and. &
             pre_val(7) >= MPI_ERR_LASTCODE)

  ! a predefined attribute read again after user keys came and went: unchanged
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, v, f, rc)
  call check('R8_MPI_TAG_UB_read_again_same', rc == MPI_SUCCESS .and. f .and. v == pre_val(1))

  call MPI_COMM_FREE(comm, rc)
  call MPI_COMM_FREE_KEYVAL(k, ierr)
  call MPI_COMM_FREE_KEYVAL(k2, ierr)
  call check('R2_free_keyval_sets_invalid', k == MPI_KEYVAL_INVALID .and. &
             k2 == MPI_KEYVAL_INVALID)
  call report('mpif')
  call MPI_FINALIZE(ierr)
end program R4_comm_attr_values
