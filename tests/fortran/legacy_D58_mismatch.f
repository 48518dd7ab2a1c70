! D58: legacy mpif.h code that gfortran >= 10 rejects unless told to allow it, as MPICH's mpifort
! does: one buffer argument given a scalar and an array ("Rank mismatch"), and a BOZ constant
! outside DATA. mpiattr-fort and mpiattr-<host>-fort must compile it (and it runs standalone).
      PROGRAM LEGACY
      INCLUDE 'mpif.h'
      INTEGER IERR, X, Y(4), MASK, A1, A2
      CALL MPI_INIT(IERR)
      X = 1
      Y(1) = 2
      MASK = Z'7F'
      CALL MPI_ADDRESS(X, A1, IERR)
      CALL MPI_ADDRESS(Y, A2, IERR)
      CALL MPI_BCAST(X, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(Y, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      IF (MASK .NE. 127 .OR. IERR .NE. MPI_SUCCESS) STOP 1
      PRINT *, 'legacy mismatch: ok'
      END
