! D40 through mpif.h (fixed form): a routine the standalone runtime
! does not carry out links and returns MPI_ERR_UNSUPPORTED_OPERATION
! under MPI_ERRORS_RETURN, naming the routine, writing nothing (D36).
! A file routine on MPI_FILE_NULL, which is no file (MPI-IO is carried
! out, D107), returns MPI_ERR_FILE, its buffer untouched.
      PROGRAM F77REFUSED
      USE FTEST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, COMM, CLS, SLEN, NEWCOMM, BUF(3, 2), REQ
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER(KIND=MPI_OFFSET_KIND) OFFSET
      CHARACTER*(MPI_MAX_ERROR_STRING) TEXT
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, COMM, IERR)
      CALL MPI_COMM_SET_ERRHANDLER(COMM, MPI_ERRORS_RETURN, IERR)
      BUF = 7
      CALL MPI_FILE_READ(MPI_FILE_NULL, BUF, 6, MPI_INTEGER, STATUS,
     &     IERR)
      CALL MPI_ERROR_CLASS(IERR, CLS, SLEN)
      CALL EXPECT_I('D107 MPI_FILE_READ error class', CLS,
     &     MPI_ERR_FILE)
      CALL MPI_ERROR_STRING(IERR, TEXT, SLEN, CLS)
      CALL EXPECT_L('D40 MPI_FILE_READ message names it',
     &     INDEX(TEXT(1:SLEN), 'MPI_FILE_READ') .GT. 0,
     &     .TRUE.)
      CALL EXPECT_L('D40 MPI_FILE_READ buffer',
     &     ALL(BUF .EQ. 7), .TRUE.)
      NEWCOMM = -5
      CALL MPI_INTERCOMM_MERGE(COMM, .TRUE., NEWCOMM, IERR)
      CALL MPI_ERROR_CLASS(IERR, CLS, SLEN)
      CALL EXPECT_I('D40 MPI_INTERCOMM_MERGE error class', CLS,
     &     MPI_ERR_UNSUPPORTED_OPERATION)
      CALL EXPECT_I('D40 MPI_INTERCOMM_MERGE newcomm unchanged',
     &     NEWCOMM, -5)
C     An invalid communicator is MPI_ERR_COMM first (D103), on the
C     no-object handler (MPI_COMM_SELF's, D4).
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_INTERCOMM_MERGE(MPI_COMM_NULL, .TRUE., NEWCOMM, IERR)
      CALL MPI_ERROR_CLASS(IERR, CLS, SLEN)
      CALL EXPECT_I('D103 MPI_INTERCOMM_MERGE of MPI_COMM_NULL class',
     &     CLS, MPI_ERR_COMM)
      CALL EXPECT_I('D103 MPI_INTERCOMM_MERGE of MPI_COMM_NULL newcomm',
     &     NEWCOMM, -5)
      OFFSET = -5
      CALL MPI_FILE_GET_SIZE(MPI_FILE_NULL, OFFSET, IERR)
      CALL MPI_ERROR_CLASS(IERR, CLS, SLEN)
      CALL EXPECT_I('D107 MPI_FILE_GET_SIZE error class', CLS,
     &     MPI_ERR_FILE)
      CALL EXPECT_L('D40 MPI_FILE_GET_SIZE size unchanged',
     &     OFFSET .EQ. -5, .TRUE.)
      REQ = -5
      CALL MPI_FILE_IREAD(MPI_FILE_NULL, BUF, 6, MPI_INTEGER, REQ,
     &     IERR)
      CALL MPI_ERROR_CLASS(IERR, CLS, SLEN)
      CALL EXPECT_I('D107 MPI_FILE_IREAD error class', CLS,
     &     MPI_ERR_FILE)
C     A failed call of a routine carried out leaves the null handle
C     in its output handle (D65).
      CALL EXPECT_I('D107 MPI_FILE_IREAD request', REQ,
     &     MPI_REQUEST_NULL)
      CALL MPI_COMM_FREE(COMM, IERR)
      CALL MPI_FINALIZE(IERR)
      CALL EXPECT_I('D40 MPI_FINALIZE', IERR, MPI_SUCCESS)
      CALL FTEST_FINISH()
      END PROGRAM F77REFUSED
