/* diff_util.h: shared helpers for the differential test programs.
 *
 * Every program prints one fact per line as "LABEL: VALUE". LABEL is unique
 * within a program and contains no colon, so tests/diff/divergences.toml can
 * name a line by its label. VALUE must not depend on the implementation:
 * no addresses, no handle values, no raw error codes (error classes are
 * printed by NAME, because their numeric values differ between MPI
 * libraries; R3). Only the standard C API is used, so the same source builds
 * against mpiattr, MPICH and Open MPI.
 */
#ifndef DIFF_UTIL_H
#define DIFF_UTIL_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Print "label: value". */
static inline void fact(const char *label, long value)
{
    printf("%s: %ld\n", label, value);
}

/* Name of the error class of an MPI return code. Only the classes that the
 * caching chapter and the runtime routines the programs use can produce are
 * listed (R3.1, R3.2); anything else prints
 * a fixed placeholder, never a number. */
static inline const char *errclass_name(int rc)
{
    int cls;
    if (rc == MPI_SUCCESS)
        return "MPI_SUCCESS";
    if (rc < 0) /* the programs use -1 for "the call never happened" */
        return "(not called)";
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        return "(MPI_Error_class failed)";
#define DIFF_CLASS(c) if (cls == c) return #c
    DIFF_CLASS(MPI_SUCCESS);
    DIFF_CLASS(MPI_ERR_KEYVAL);
    DIFF_CLASS(MPI_ERR_COMM);
    DIFF_CLASS(MPI_ERR_WIN);
    DIFF_CLASS(MPI_ERR_TYPE);
    DIFF_CLASS(MPI_ERR_ARG);
    DIFF_CLASS(MPI_ERR_OTHER);
    DIFF_CLASS(MPI_ERR_INTERN);
#ifdef MPI_ERR_UNKNOWN
    DIFF_CLASS(MPI_ERR_UNKNOWN);
#endif
#ifdef MPI_ERR_NO_MEM
    DIFF_CLASS(MPI_ERR_NO_MEM);
#endif
#ifdef MPI_ERR_GROUP
    DIFF_CLASS(MPI_ERR_GROUP);
#endif
#ifdef MPI_ERR_INFO
    DIFF_CLASS(MPI_ERR_INFO);
#endif
#ifdef MPI_ERR_REQUEST
    DIFF_CLASS(MPI_ERR_REQUEST);
#endif
    DIFF_CLASS(MPI_ERR_TRUNCATE);
    DIFF_CLASS(MPI_ERR_RANK);
    DIFF_CLASS(MPI_ERR_TAG);
    DIFF_CLASS(MPI_ERR_OP);
    DIFF_CLASS(MPI_ERR_INFO_NOKEY);
    DIFF_CLASS(MPI_ERR_BUFFER);
    DIFF_CLASS(MPI_ERR_ROOT);
    DIFF_CLASS(MPI_ERR_COUNT);
    /* one-sided communication (MPI-4.1 §13.7) */
    DIFF_CLASS(MPI_ERR_RMA_SYNC);
    DIFF_CLASS(MPI_ERR_RMA_RANGE);
    DIFF_CLASS(MPI_ERR_RMA_FLAVOR);
    DIFF_CLASS(MPI_ERR_RMA_ATTACH);
    DIFF_CLASS(MPI_ERR_RMA_CONFLICT);
    DIFF_CLASS(MPI_ERR_LOCKTYPE);
    DIFF_CLASS(MPI_ERR_DISP);
    /* I/O (MPI-4.1 §15.8) */
    DIFF_CLASS(MPI_ERR_FILE);
    DIFF_CLASS(MPI_ERR_NOT_SAME);
    DIFF_CLASS(MPI_ERR_AMODE);
    DIFF_CLASS(MPI_ERR_UNSUPPORTED_DATAREP);
    DIFF_CLASS(MPI_ERR_UNSUPPORTED_OPERATION);
    DIFF_CLASS(MPI_ERR_NO_SUCH_FILE);
    DIFF_CLASS(MPI_ERR_FILE_EXISTS);
    DIFF_CLASS(MPI_ERR_BAD_FILE);
    DIFF_CLASS(MPI_ERR_ACCESS);
    DIFF_CLASS(MPI_ERR_NO_SPACE);
    DIFF_CLASS(MPI_ERR_QUOTA);
    DIFF_CLASS(MPI_ERR_READ_ONLY);
    DIFF_CLASS(MPI_ERR_FILE_IN_USE);
    DIFF_CLASS(MPI_ERR_DUP_DATAREP);
    DIFF_CLASS(MPI_ERR_CONVERSION);
    DIFF_CLASS(MPI_ERR_IO);
#undef DIFF_CLASS
    return "(unlisted error class)";
}

/* Print "label: CLASS_NAME" for a return code. */
static inline void fact_err(const char *label, int rc)
{
    printf("%s: %s\n", label, errclass_name(rc));
}

/* A call that the test needs to succeed (setup, cleanup). On failure print a
 * line that cannot match any peer's output, so the difference is visible,
 * and carry on. */
#define CHECK(call)                                                        \
    do {                                                                   \
        int check_rc_ = (call);                                            \
        if (check_rc_ != MPI_SUCCESS)                                      \
            printf("SETUP FAILED line %d %s: %s\n", __LINE__, #call,       \
                   errclass_name(check_rc_));                              \
    } while (0)

/* MPI_Init, line-buffered stdout (callbacks print too, possibly during
 * MPI_Finalize), and MPI_ERRORS_RETURN on the two predefined communicators
 * before anything erroneous happens. Errors not tied to an object go to one
 * of them (MPI_COMM_SELF in MPI-4, MPI_COMM_WORLD before). */
static inline void diff_init(int *argc, char ***argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

/* MPI_Finalize, and the exit status every program must have. */
static inline int diff_finish(void)
{
    int rc = MPI_Finalize();
    if (rc != MPI_SUCCESS) /* MPI_Error_class is unusable after finalize */
        printf("MPI_Finalize failed: 1\n");
    fflush(stdout);
    return 0;
}

#endif /* DIFF_UTIL_H */
