! Configure-time probe (bindings_fortran/CMakeLists.txt): facts about the Fortran compiler that the
! binding needs and must not assume: the bit patterns of .TRUE. and .FALSE., the sizes of INTEGER
! and LOGICAL, and the kinds behind MPI_ADDRESS_KIND, MPI_OFFSET_KIND and MPI_COUNT_KIND.
program probe
  use, intrinsic :: iso_c_binding, only: c_intptr_t, c_int64_t
  implicit none
  integer :: i
  logical :: t, f
  t = .true.
  f = .false.
  print '(a,i0)', 'MPIATTR_F_TRUE=', transfer(t, i)
  print '(a,i0)', 'MPIATTR_F_FALSE=', transfer(f, i)
  print '(a,i0)', 'MPIATTR_SIZEOF_F_LOGICAL=', storage_size(t) / 8
  print '(a,i0)', 'MPIATTR_SIZEOF_F_INTEGER=', storage_size(i) / 8
  print '(a,i0)', 'MPIATTR_F_ADDRESS_KIND=', c_intptr_t
  print '(a,i0)', 'MPIATTR_F_OFFSET_KIND=', c_int64_t
  print '(a,i0)', 'MPIATTR_F_INTEGER_KIND=', kind(i)
end program probe
