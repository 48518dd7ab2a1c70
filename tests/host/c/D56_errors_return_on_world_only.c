/* D56_errors_return_on_world_only.c: a program written for the host that sets MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD alone, as the Intel MPI suite's attribute error tests (MPI_Attr_get_err1,
 * MPI_Attr_put_err1, MPI_Attr_delete_err1, MPI_Keyval_free_err1) and MPICH's
 * test/mpi/attr/attrerrtype.c do, then makes caching calls that fail with no communicator or
 * window to raise the error on: null communicators, invalid keyvals, datatypes, a datatype's
 * failing delete callback. MPI_COMM_SELF keeps MPI_ERRORS_ARE_FATAL.
 *
 * MPICH 4.0.2 and Open MPI 4.1.4 alone raise such errors on MPI_COMM_WORLD's handler, so each
 * call returns an error code and the program goes on. docs/decisions.md D56: over a host, mpiattr
 * raises its own such errors where the host raises its own (one policy per process), so the same
 * program must run to the end with mpiattr linked or preloaded; before D56, mpiattr over MPICH
 * raised them on MPI_COMM_SELF's handler (MPICH declares MPI-4.0) and the first call aborted.
 * Standalone mpiattr keeps the MPI-4.1 rule (MPI_COMM_SELF, §10.3): no standalone run.
 *
 * Open MPI 4.1.4 alone accepts MPI_Attr_get(MPI_COMM_NULL, ...) (divergences.toml).
 *
 * Safety on the hosts alone: no keyval is freed twice, and no freed keyval is used.
 */
#include "host_check.h"

static int type_deletes;

static int failing_type_delete(MPI_Datatype t, int k, void *v, void *e)
{
    (void)t, (void)k, (void)v, (void)e;
    type_deletes++;
    return MPI_ERR_OTHER;
}

static int ok_type_delete(MPI_Datatype t, int k, void *v, void *e)
{
    (void)t, (void)k, (void)v, (void)e;
    return MPI_SUCCESS;
}

/* A free-keyval routine given MPI_KEYVAL_INVALID. */
static void free_invalid(const char *check, int (*free_keyval)(int *))
{
    int invalid = MPI_KEYVAL_INVALID;
    CHECK(check, free_keyval(&invalid) != MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int rc, flag = 0, ival = 0, kc, kt, kfail;
    void *v = NULL;
    MPI_Datatype t;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* WORLD only */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kc, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, ok_type_delete, &kt, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, failing_type_delete, &kfail, NULL);

    /* ---- the Intel suite's MPI-1 calls, on MPI_COMM_NULL and with MPI_KEYVAL_INVALID ---- */
    rc = MPI_Attr_get(MPI_COMM_NULL, kc, &ival, &flag);
    CHECK("D56_attr_get_COMM_NULL_returns_an_error", rc != MPI_SUCCESS);
    rc = MPI_Attr_put(MPI_COMM_NULL, kc, &ival);
    CHECK("D56_attr_put_COMM_NULL_returns_an_error", rc != MPI_SUCCESS);
    rc = MPI_Attr_delete(MPI_COMM_NULL, kc);
    CHECK("D56_attr_delete_COMM_NULL_returns_an_error", rc != MPI_SUCCESS);
    free_invalid("D56_keyval_free_KEYVAL_INVALID_returns_an_error", MPI_Keyval_free);
    free_invalid("D56_comm_free_keyval_KEYVAL_INVALID_returns_an_error", MPI_Comm_free_keyval);

    /* ---- datatypes (attrerrtype.c): bad keys and handles ---- */
    rc = MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, &ival);
    CHECK("D56_type_set_attr_KEYVAL_INVALID_returns_an_error", rc != MPI_SUCCESS);
    rc = MPI_Type_get_attr(MPI_DATATYPE_NULL, kt, &v, &flag);
    CHECK("D56_type_get_attr_DATATYPE_NULL_returns_an_error", rc != MPI_SUCCESS);
    rc = MPI_Type_delete_attr(MPI_DATATYPE_NULL, kt);
    CHECK("D56_type_delete_attr_DATATYPE_NULL_returns_an_error", rc != MPI_SUCCESS);
    free_invalid("D56_type_free_keyval_KEYVAL_INVALID_returns_an_error", MPI_Type_free_keyval);

    /* ---- datatypes (attrerrtype.c): a delete callback that fails ---- */
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_set_attr(t, kfail, &ival);
    type_deletes = 0;
    rc = MPI_Type_set_attr(t, kfail, &flag); /* replaces: the old value's delete callback fails */
    CHECK("D56_type_set_attr_failing_delete_returns_an_error",
          rc != MPI_SUCCESS && type_deletes == 1);
    type_deletes = 0;
    rc = MPI_Type_delete_attr(t, kfail);
    CHECK("D56_type_delete_attr_failing_delete_returns_an_error",
          rc != MPI_SUCCESS && type_deletes == 1);

    CHECK("D56_program_went_on_to_the_end", 1);
    report();
    MPI_Finalize();
    return 0;
}
