! D151: a program that includes mpif.h builds at -std=f2008, in fixed
! and in free form (CMake compiles this file both ways), and
! MPI_SIZEOF gives the size of one element of every type it takes,
! scalar and array of every rank 1 to 15 (STORAGE_SIZE / 8). Until
! D151 mpif.h declared MPI_SIZEOF's argument assumed rank, which is
! Fortran 2018: gfortran refused the file at -std=f2008.
! The statements start in column 7 and end by column 72, with no
! continuation lines: the same text in both source forms.
      program std_D151_mpif_f2008
      use, intrinsic :: iso_fortran_env, only: int8, int16, int64
      use, intrinsic :: iso_fortran_env, only: real32, real64, real128
      implicit none
      include 'mpif.h'
      integer(kind=int8) i1
      integer(kind=int16) i2(3)
      integer i4(2, 2)
      integer(kind=int64) i8(1, 1, 2)
      real(kind=real32) r4
      real(kind=real64) r8
      real(kind=real128) r16(2)
      complex(kind=real32) c4(2)
      complex(kind=real64) c8
      complex(kind=real128) c16(1, 2)
      logical l(2)
      character(len=7) ch
      character(len=3) chv(2, 2, 2)
      real(kind=real64) a1(2), a2(1,2), a3(1,1,2), a4(1,1,1,2)
      real(kind=real64) a5(1,1,1,1,2), a6(1,1,1,1,1,2)
      real(kind=real64) a7(1,1,1,1,1,1,2), a8(1,1,1,1,1,1,1,2)
      real(kind=real64) a9(1,1,1,1,1,1,1,1,2)
      real(kind=real64) a10(1,1,1,1,1,1,1,1,1,2)
      real(kind=real64) a11(1,1,1,1,1,1,1,1,1,1,2)
      real(kind=real64) a12(1,1,1,1,1,1,1,1,1,1,1,2)
      real(kind=real64) a13(1,1,1,1,1,1,1,1,1,1,1,1,2)
      real(kind=real64) a14(1,1,1,1,1,1,1,1,1,1,1,1,1,2)
      real(kind=real64) a15(1,1,1,1,1,1,1,1,1,1,1,1,1,1,2)
      integer ierr, s, r8size, failures
      failures = 0
      call MPI_INIT(ierr)
      r8size = storage_size(r8) / 8
      call MPI_SIZEOF(i1, s, ierr)
      call check('INTEGER(INT8) scalar', s, storage_size(i1) / 8)
      call MPI_SIZEOF(i2, s, ierr)
      call check('INTEGER(INT16) rank 1', s, storage_size(i2) / 8)
      call MPI_SIZEOF(i4, s, ierr)
      call check('INTEGER rank 2', s, storage_size(i4) / 8)
      call MPI_SIZEOF(i8, s, ierr)
      call check('INTEGER(INT64) rank 3', s, storage_size(i8) / 8)
      call MPI_SIZEOF(r4, s, ierr)
      call check('REAL(REAL32) scalar', s, storage_size(r4) / 8)
      call MPI_SIZEOF(r8, s, ierr)
      call check('REAL(REAL64) scalar', s, r8size)
      call MPI_SIZEOF(r16, s, ierr)
      call check('REAL(REAL128) rank 1', s, storage_size(r16) / 8)
      call MPI_SIZEOF(c4, s, ierr)
      call check('COMPLEX(REAL32) rank 1', s, storage_size(c4) / 8)
      call MPI_SIZEOF(c8, s, ierr)
      call check('COMPLEX(REAL64) scalar', s, storage_size(c8) / 8)
      call MPI_SIZEOF(c16, s, ierr)
      call check('COMPLEX(REAL128) rank 2', s, storage_size(c16) / 8)
      call MPI_SIZEOF(l, s, ierr)
      call check('LOGICAL rank 1', s, storage_size(l) / 8)
      call MPI_SIZEOF(ch, s, ierr)
      call check('CHARACTER(LEN=7) scalar: one character', s, 1)
      call MPI_SIZEOF(chv, s, ierr)
      call check('CHARACTER(LEN=3) rank 3: one character', s, 1)
      call check('the last ierror', ierr, MPI_SUCCESS)
      call MPI_SIZEOF(a1, s, ierr)
      call check('REAL(REAL64) rank 1', s, r8size)
      call MPI_SIZEOF(a2, s, ierr)
      call check('REAL(REAL64) rank 2', s, r8size)
      call MPI_SIZEOF(a3, s, ierr)
      call check('REAL(REAL64) rank 3', s, r8size)
      call MPI_SIZEOF(a4, s, ierr)
      call check('REAL(REAL64) rank 4', s, r8size)
      call MPI_SIZEOF(a5, s, ierr)
      call check('REAL(REAL64) rank 5', s, r8size)
      call MPI_SIZEOF(a6, s, ierr)
      call check('REAL(REAL64) rank 6', s, r8size)
      call MPI_SIZEOF(a7, s, ierr)
      call check('REAL(REAL64) rank 7', s, r8size)
      call MPI_SIZEOF(a8, s, ierr)
      call check('REAL(REAL64) rank 8', s, r8size)
      call MPI_SIZEOF(a9, s, ierr)
      call check('REAL(REAL64) rank 9', s, r8size)
      call MPI_SIZEOF(a10, s, ierr)
      call check('REAL(REAL64) rank 10', s, r8size)
      call MPI_SIZEOF(a11, s, ierr)
      call check('REAL(REAL64) rank 11', s, r8size)
      call MPI_SIZEOF(a12, s, ierr)
      call check('REAL(REAL64) rank 12', s, r8size)
      call MPI_SIZEOF(a13, s, ierr)
      call check('REAL(REAL64) rank 13', s, r8size)
      call MPI_SIZEOF(a14, s, ierr)
      call check('REAL(REAL64) rank 14', s, r8size)
      call MPI_SIZEOF(a15, s, ierr)
      call check('REAL(REAL64) rank 15', s, r8size)
      call check('ierror at rank 15', ierr, MPI_SUCCESS)
      call MPI_FINALIZE(ierr)
      if (failures /= 0) error stop 1
      print '(a)', 'D151: mpif.h at -std=f2008: ok'
      contains
      subroutine check(what, got, want)
      character(len=*), intent(in) :: what
      integer, intent(in) :: got, want
      if (got /= want) then
      print '(a,a,i0,a,i0)', what, ': got ', got, ', expected ', want
      failures = failures + 1
      end if
      end subroutine check
      end program std_D151_mpif_f2008
