! Fixed form with mpif.h: the declarations MPI-4.1 gives mpif.h beyond
! INTEGER constants (D141). MPI_DISPLACEMENT_CURRENT is an
! INTEGER(KIND=MPI_OFFSET_KIND) (Annex A.1.1): MPI_FILE_SET_VIEW reads
! its DISP as one, so a default INTEGER there read other bytes and set
! a wrong view. The functions' profiling names PMPI_WTIME and
! PMPI_WTICK are declared with their types (and PMPI_AINT_ADD and
! PMPI_AINT_DIFF, which MPICH's mpif.h lacks: test_pmpi_names.F90).
      PROGRAM F77DECL
      USE FTEST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, FH, BUF(3), STATUS(MPI_STATUS_SIZE)
      INTEGER(KIND=MPI_OFFSET_KIND) DISP, POS
      INTEGER ETYPE, FTYPE
      CHARACTER(LEN=MPI_MAX_DATAREP_STRING) REP
      DOUBLE PRECISION T0, T1
      CALL MPI_INIT(IERR)
      CALL EXPECT_L('D141 MPI_DISPLACEMENT_CURRENT has MPI_OFFSET_KIND',
     &     KIND(MPI_DISPLACEMENT_CURRENT) .EQ. MPI_OFFSET_KIND, .TRUE.)
!
! ---- MPI_FILE_SET_VIEW(fh, MPI_DISPLACEMENT_CURRENT, ...) ----
      CALL MPI_FILE_OPEN(MPI_COMM_SELF, 'd141_view.tmp',
     &     MPI_MODE_WRONLY + MPI_MODE_CREATE, MPI_INFO_NULL, FH, IERR)
      BUF(1) = 7
      BUF(2) = 8
      BUF(3) = 9
      CALL MPI_FILE_WRITE(FH, BUF, 3, MPI_INTEGER, STATUS, IERR)
      CALL MPI_FILE_CLOSE(FH, IERR)
      CALL MPI_FILE_OPEN(MPI_COMM_SELF, 'd141_view.tmp',
     &     MPI_MODE_RDONLY + MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, FH,
     &     IERR)
      CALL MPI_FILE_READ_SHARED(FH, BUF, 1, MPI_INTEGER, STATUS, IERR)
      CALL MPI_FILE_SET_VIEW(FH, MPI_DISPLACEMENT_CURRENT, MPI_INTEGER,
     &     MPI_INTEGER, 'native', MPI_INFO_NULL, IERR)
      CALL EXPECT_I('D141 set_view at MPI_DISPLACEMENT_CURRENT, ierror',
     &     IERR, MPI_SUCCESS)
      CALL MPI_FILE_GET_VIEW(FH, DISP, ETYPE, FTYPE, REP, IERR)
      CALL EXPECT_L('D141 the view starts at the shared pointer',
     &     DISP .EQ. 4_MPI_OFFSET_KIND, .TRUE.)
      CALL MPI_FILE_GET_POSITION_SHARED(FH, POS, IERR)
      CALL EXPECT_L('D141 the shared pointer is at the view''s start',
     &     POS .EQ. 0_MPI_OFFSET_KIND, .TRUE.)
      BUF(1) = -1
      CALL MPI_FILE_READ_SHARED(FH, BUF, 1, MPI_INTEGER, STATUS, IERR)
      CALL EXPECT_I('D141 read after the view, the second integer',
     &     BUF(1), 8)
      CALL MPI_FILE_CLOSE(FH, IERR)
      CALL MPI_FILE_DELETE('d141_view.tmp', MPI_INFO_NULL, IERR)
!
! ---- the functions' profiling names, typed by mpif.h ----
      T0 = PMPI_WTIME()
      T1 = MPI_WTIME()
      CALL EXPECT_L('D141 PMPI_WTIME is a DOUBLE PRECISION time',
     &     T1 .GE. T0 .AND. T1 - T0 .LT. 1.0D0, .TRUE.)
      T0 = PMPI_WTICK()
      T1 = MPI_WTICK()
      CALL EXPECT_L('D141 PMPI_WTICK is MPI_WTICK',
     &     .NOT. (T0 .LT. T1 .OR. T0 .GT. T1), .TRUE.)
      CALL MPI_FINALIZE(IERR)
      CALL FTEST_FINISH()
      END PROGRAM F77DECL
