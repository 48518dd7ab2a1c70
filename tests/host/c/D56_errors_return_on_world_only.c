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
 * Then (docs/decisions.md D101) a recording handler on MPI_COMM_WORLD, and errors on objects whose
 * handler was never set. MPICH keeps none on them (MPI_COMM_SELF, a window, a duplicate of either
 * or of MPI_COMM_WORLD made before its handler was set): its MPI_*_get_errhandler reads
 * MPI_ERRORS_ARE_FATAL, but it sends its own errors there to MPI_COMM_WORLD's handler, and so must
 * mpiattr its errors on them, and it must not change where MPICH sends its own (before D101 its
 * start-up probe set MPI_COMM_SELF's handler, and MPICH's own errors on MPI_COMM_SELF then ended
 * the process). Open MPI sets MPI_ERRORS_ARE_FATAL on each: there only the checks that hold on
 * both hosts run.
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

/* D101: MPI_COMM_WORLD's handler records what reaches it. */
static int world_calls, world_last_class;
static MPI_Comm world_seen = MPI_COMM_NULL;
static void on_world(MPI_Comm *c, int *code, ...)
{
    world_calls++;
    world_seen = *c;
    MPI_Error_class(*code, &world_last_class);
}

#ifdef MPICH_VERSION
/* D101: rc is an error of class cls that reached MPI_COMM_WORLD's handler once, as its own. */
static int reached_world(int rc, int cls, int calls_before)
{
    int c = -1;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c);
    return c == cls && world_calls == calls_before + 1 && world_last_class == cls &&
           world_seen == MPI_COMM_WORLD;
}
#endif

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
    MPI_Comm early; /* D101: made before MPI_COMM_WORLD's handler is set */
    MPI_Comm_dup(MPI_COMM_WORLD, &early);
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

    /* ---- D101: handlers never set ---- */
    int kw, calls;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kw, NULL);
    MPI_Errhandler rec, eh = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(on_world, &rec);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, rec);
    calls = world_calls;
    free_invalid("D101_no_object_error_after_errors_returned", MPI_Comm_free_keyval);
    CHECK("D101_no_object_error_reaches_world_handler", world_calls == calls + 1 &&
          world_seen == MPI_COMM_WORLD);
    INFO("D101_no_object_error_class", world_last_class);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh);
    CHECK("D101_self_handler_still_reads_fatal", eh == MPI_ERRORS_ARE_FATAL);
    MPI_Comm self_dup;
    MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
    MPI_Comm_set_errhandler(self_dup, MPI_ERRORS_RETURN);
    calls = world_calls;
    rc = MPI_Comm_set_attr(self_dup, kw, &ival); /* a window's keyval: MPI_ERR_KEYVAL */
    /* (the class: R3_bad_input.c; Open MPI alone gives MPI_ERR_OTHER) */
    CHECK("D101_handler_set_on_the_object_takes_its_error", rc != MPI_SUCCESS && world_calls == calls);
    MPI_Comm_free(&self_dup);
#ifdef MPICH_VERSION
    /* MPICH's own error on MPI_COMM_SELF, after mpiattr raised and returned errors */
    int buf = 0;
    calls = world_calls;
    rc = MPI_Send(&buf, 1, MPI_INT, 5, 0, MPI_COMM_SELF);
    CHECK("D101_mpich_own_error_on_self_reaches_world_handler", reached_world(rc, MPI_ERR_RANK, calls));
    calls = world_calls;
    rc = MPI_Comm_set_attr(MPI_COMM_SELF, kw, &ival);
    CHECK("D101_caching_error_on_self_reaches_world_handler", reached_world(rc, MPI_ERR_KEYVAL, calls));
    MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
    calls = world_calls;
    rc = MPI_Comm_get_attr(self_dup, kw, &v, &flag);
    CHECK("D101_caching_error_on_dup_of_self_reaches_world_handler", reached_world(rc, MPI_ERR_KEYVAL, calls));
    calls = world_calls;
    rc = MPI_Comm_delete_attr(early, kw);
    CHECK("D101_caching_error_on_early_dup_of_world_reaches_world_handler",
          reached_world(rc, MPI_ERR_KEYVAL, calls));
    static int mem[4];
    MPI_Win w;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &w);
    calls = world_calls;
    rc = MPI_Win_set_attr(w, kc, &ival); /* a communicator's keyval (MPICH's errors/attr/keyvalmis.c) */
    CHECK("D101_caching_error_on_window_reaches_world_handler", reached_world(rc, MPI_ERR_KEYVAL, calls));
    calls = world_calls;
    rc = MPI_Win_lock(MPI_LOCK_SHARED, 5, 0, w);
    CHECK("D101_mpich_own_error_on_window_reaches_world_handler", reached_world(rc, MPI_ERR_RANK, calls));
    MPI_Win_get_errhandler(w, &eh);
    CHECK("D101_window_handler_still_reads_fatal", eh == MPI_ERRORS_ARE_FATAL);
    MPI_Win_free(&w);
    MPI_Comm_free(&self_dup);
#endif
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh);
    CHECK("D101_self_handler_reads_fatal_at_the_end", eh == MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&rec);
    MPI_Win_free_keyval(&kw);
    MPI_Comm_free(&early);

    CHECK("D56_program_went_on_to_the_end", 1);
    report();
    MPI_Finalize();
    return 0;
}
