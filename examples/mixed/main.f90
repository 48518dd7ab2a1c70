! main.f90: the Fortran half of the mixed example: a `use mpi` program that calls the C library of
! counter.c on its communicators, and caches a value the library reads back in C.
program mixed
  use mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_intptr_t
  implicit none
  interface
    integer(c_int) function counter_call(comm) bind(C, name='counter_call')
      import :: c_int
      integer(c_int), value :: comm          ! MPI_Fint: a Fortran handle, by value
    end function counter_call
    subroutine counter_done(comm) bind(C, name='counter_done')
      import :: c_int
      integer(c_int), value :: comm
    end subroutine counter_done
    integer(c_intptr_t) function read_fortran_attr(comm, key) bind(C, name='read_fortran_attr')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
    end function read_fortran_attr
  end interface
  integer :: ierr, dup, key, n
  integer(kind=MPI_ADDRESS_KIND), parameter :: value = 2_MPI_ADDRESS_KIND**40 + 7

  call MPI_INIT(ierr)
  n = counter_call(MPI_COMM_WORLD)
  n = counter_call(MPI_COMM_WORLD)
  if (n /= 2) error stop 'the C library did not count two calls'

  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)   ! the C copy callback runs
  n = counter_call(dup)
  print '(a, i0)', 'calls on the duplicate, counting the original''s: ', n
  if (n /= 3) error stop 'the duplicate did not get a copy of the counter'
  call MPI_COMM_FREE(dup, ierr)                  ! the C delete callback runs
  if (counter_call(MPI_COMM_WORLD) /= 3) error stop 'the original''s counter changed'
  call counter_done(MPI_COMM_WORLD)

  ! A Fortran attribute, read in C.
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, &
                              0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, key, value, ierr)
  print '(a, i0)', 'set from Fortran, read in C: ', read_fortran_attr(MPI_COMM_WORLD, key)
  if (read_fortran_attr(MPI_COMM_WORLD, key) /= value) error stop 'C read another value'
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, key, ierr)
  call MPI_COMM_FREE_KEYVAL(key, ierr)
  call MPI_FINALIZE(ierr)
  print '(a)', 'ok'
end program mixed
