! D58: the MPI-1 routines MPI-3.0 removed, from fixed-form mpif.h code as
! decades-old programs call them (the NAS benchmarks' BT-IO: MPI_TYPE_EXTENT,
! MPI_TYPE_STRUCT with INTEGER displacements), with their MPI-2.2 meaning:
! MPI_LB/MPI_UB markers set the bounds, the datatypes carry attributes, an
! error handler from MPI_ERRHANDLER_CREATE/_SET routes errors.
      PROGRAM D58F77
      USE FTEST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      EXTERNAL HANDLER
      INTEGER IERR, ELEM, EXT, LB, UB, T, HV, HI, EH, GOT, COMM, KT
      INTEGER BL(3), DISP(3), TYPES(3), HBL(2), HD(2), A1, A2
      INTEGER BUF(4), NCALLS, LASTCODE, CLS
      INTEGER(KIND=MPI_ADDRESS_KIND) VAL, GLB, GEXT
      LOGICAL FLAG
      COMMON /D58H/ NCALLS, LASTCODE
      NCALLS = 0
      CALL MPI_INIT(IERR)
!     MPI_TYPE_EXTENT of a contiguous type (as BT-IO)
      CALL MPI_TYPE_CONTIGUOUS(5, MPI_DOUBLE_PRECISION, ELEM, IERR)
      CALL MPI_TYPE_COMMIT(ELEM, IERR)
      CALL MPI_TYPE_EXTENT(ELEM, EXT, IERR)
      CALL EXPECT_I('D58 type_extent of 5 doubles', EXT, 40)
      CALL EXPECT_I('D58 type_extent ierror', IERR, MPI_SUCCESS)
!     MPI_TYPE_STRUCT with INTEGER displacements and MPI_LB/MPI_UB
      BL(1) = 1
      BL(2) = 1
      BL(3) = 1
      DISP(1) = -4
      DISP(2) = 0
      DISP(3) = 16
      TYPES(1) = MPI_LB
      TYPES(2) = MPI_INTEGER
      TYPES(3) = MPI_UB
      CALL MPI_TYPE_STRUCT(3, BL, DISP, TYPES, T, IERR)
      CALL EXPECT_I('D58 type_struct ierror', IERR, MPI_SUCCESS)
      CALL MPI_TYPE_COMMIT(T, IERR)
      CALL MPI_TYPE_LB(T, LB, IERR)
      CALL MPI_TYPE_UB(T, UB, IERR)
      CALL MPI_TYPE_EXTENT(T, EXT, IERR)
      CALL EXPECT_I('D58 struct LB UB lb', LB, -4)
      CALL EXPECT_I('D58 struct LB UB ub', UB, 16)
      CALL EXPECT_I('D58 struct LB UB extent', EXT, 20)
      CALL MPI_TYPE_GET_EXTENT(T, GLB, GEXT, IERR)
      CALL EXPECT_A('D58 struct LB UB get_extent', GEXT, 20_8)
!     MPI_TYPE_HVECTOR, MPI_TYPE_HINDEXED: INTEGER stride, displacements
      CALL MPI_TYPE_HVECTOR(3, 1, 16, MPI_INTEGER, HV, IERR)
      CALL MPI_TYPE_EXTENT(HV, EXT, IERR)
      CALL EXPECT_I('D58 hvector extent', EXT, 36)
      HBL(1) = 1
      HBL(2) = 2
      HD(1) = 8
      HD(2) = 0
      CALL MPI_TYPE_HINDEXED(2, HBL, HD, MPI_INTEGER, HI, IERR)
      CALL MPI_TYPE_UB(HI, UB, IERR)
      CALL EXPECT_I('D58 hindexed ub', UB, 12)
!     A datatype of theirs carries attributes: deleted when freed
      CALL MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN,
     &     MPI_TYPE_NULL_DELETE_FN, KT, 0_MPI_ADDRESS_KIND, IERR)
      CALL MPI_TYPE_SET_ATTR(T, KT, 77_MPI_ADDRESS_KIND, IERR)
      CALL MPI_TYPE_GET_ATTR(T, KT, VAL, FLAG, IERR)
      CALL EXPECT_A('D58 struct type attribute', VAL, 77_8)
      CALL MPI_TYPE_FREE(T, IERR)
      CALL EXPECT_I('D58 free struct type ierror', IERR, MPI_SUCCESS)
      CALL MPI_TYPE_FREE_KEYVAL(KT, IERR)
!     MPI_ADDRESS: a default INTEGER; differences are exact
      CALL MPI_ADDRESS(BUF(1), A1, IERR)
      CALL MPI_ADDRESS(BUF(3), A2, IERR)
      CALL EXPECT_I('D58 address difference', A2 - A1, 8)
!     The _INTEGER combiners are distinct from the MPI-2 ones
      CALL EXPECT_L('D58 integer combiners distinct',
     &     MPI_COMBINER_STRUCT_INTEGER .NE. MPI_COMBINER_STRUCT .AND.
     &     MPI_COMBINER_HVECTOR_INTEGER .NE. MPI_COMBINER_HVECTOR .AND.
     &     MPI_COMBINER_HINDEXED_INTEGER .NE. MPI_COMBINER_HINDEXED,
     &     .TRUE.)
!     MPI_ERRHANDLER_CREATE / _SET / _GET
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, COMM, IERR)
      CALL MPI_ERRHANDLER_CREATE(HANDLER, EH, IERR)
      CALL MPI_ERRHANDLER_SET(COMM, EH, IERR)
      CALL MPI_ERRHANDLER_GET(COMM, GOT, IERR)
      CALL EXPECT_L('D58 errhandler_get returns it', GOT .EQ. EH,
     &     .TRUE.)
      CALL MPI_ERRHANDLER_FREE(GOT, IERR)
      CALL MPI_SEND(BUF, -1, MPI_INTEGER, 0, 0, COMM, IERR)
      CALL EXPECT_I('D58 handler ran', NCALLS, 1)
      CALL MPI_ERROR_CLASS(LASTCODE, CLS, IERR)
      CALL EXPECT_L('D58 handler saw MPI_ERR_COUNT', CLS .EQ.
     &     MPI_ERR_COUNT, .TRUE.)
      CALL MPI_ERRHANDLER_SET(COMM, MPI_ERRORS_RETURN, IERR)
      CALL MPI_ERRHANDLER_FREE(EH, IERR)
      CALL MPI_COMM_FREE(COMM, IERR)
      CALL MPI_TYPE_FREE(HV, IERR)
      CALL MPI_TYPE_FREE(HI, IERR)
      CALL MPI_TYPE_FREE(ELEM, IERR)
      CALL MPI_FINALIZE(IERR)
      CALL FTEST_FINISH()
      END

      SUBROUTINE HANDLER(COMM, CODE)
      INTEGER COMM, CODE, NCALLS, LASTCODE
      COMMON /D58H/ NCALLS, LASTCODE
      NCALLS = NCALLS + 1
      LASTCODE = CODE
      END
