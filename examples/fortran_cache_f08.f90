! fortran_cache_f08.f90: attribute caching through `use mpi_f08`, with callbacks written in Fortran.
!
! A key whose copy callback doubles the value on every MPI_Comm_dup and whose delete callback
! counts deletions; the program checks what MPI did and stops with `error stop` if it is wrong.
module cache_callbacks
  use mpi_f08
  implicit none
  integer :: deletions = 0
contains
  subroutine double_on_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, &
                            attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    attribute_val_out = 2 * attribute_val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine double_on_copy

  subroutine count_deletion(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletions = deletions + 1
    ierror = MPI_SUCCESS
  end subroutine count_deletion
end module cache_callbacks

program fortran_cache_f08
  use mpi_f08
  use cache_callbacks
  implicit none
  type(MPI_Comm) :: dup1, dup2
  integer :: key, ierr, eclass
  integer(kind=MPI_ADDRESS_KIND) :: val
  integer(kind=MPI_ADDRESS_KIND), parameter :: big = 2_MPI_ADDRESS_KIND**40
  logical :: found

  call MPI_Init()
  call MPI_Comm_create_keyval(double_on_copy, count_deletion, key, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, big)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup1)   ! double_on_copy: 2**41
  call MPI_Comm_dup(dup1, dup2)             ! and again: 2**42
  call MPI_Comm_get_attr(dup2, key, val, found)
  print '(a, l2, i16)', 'dup of dup:', found, val
  if (.not. found .or. val /= 4 * big) error stop 'the copy callback did not run twice'

  call MPI_Comm_free(dup2)                  ! count_deletion
  call MPI_Comm_delete_attr(dup1, key)      ! count_deletion
  call MPI_Comm_get_attr(dup1, key, val, found)
  if (found) error stop 'the attribute is still there after MPI_Comm_delete_attr'
  if (deletions /= 2) error stop 'the delete callback did not run twice'
  call MPI_Comm_free(dup1)                  ! nothing cached: no callback
  if (deletions /= 2) error stop 'a delete callback ran without an attribute'

  ! Errors: with MPI_ERRORS_RETURN the optional ierror carries the class.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Error_class(ierr, eclass)
  if (eclass /= MPI_ERR_KEYVAL) error stop 'MPI_KEYVAL_INVALID did not give MPI_ERR_KEYVAL'

  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key)  ! count_deletion
  call MPI_Comm_free_keyval(key)
  if (key /= MPI_KEYVAL_INVALID) error stop 'MPI_Comm_free_keyval did not reset the key'
  call MPI_Comm_get_attr(MPI_COMM_WORLD, key, val, found, ierr)  ! MPI_KEYVAL_INVALID: an error
  if (ierr == MPI_SUCCESS) error stop 'reading under MPI_KEYVAL_INVALID succeeded'
  if (deletions /= 3) error stop 'the delete callback did not run three times'
  call MPI_Finalize()
  print '(a)', 'ok: two copies and three deletions, as expected'
end program fortran_cache_f08
