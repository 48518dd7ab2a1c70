/* Error handler handles as references (MPI-4.1 §10.3.4): MPI_Comm_get_errhandler gives a new
 * reference that the program frees as it frees the one from MPI_Comm_create_errhandler, in either
 * order; a handler all of whose handles were freed still serves the communicator using it, and a
 * later get gives a handle that can be freed again. Legacy code frees both handles.
 */
#include "diff_util.h"

static int calls;
static void count(MPI_Comm *c, int *code, ...)
{
    (void)c, (void)code;
    calls++;
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    MPI_Comm comm;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Errhandler eh, got;
    CHECK(MPI_Comm_create_errhandler(count, &eh));
    CHECK(MPI_Comm_set_errhandler(comm, eh));
    CHECK(MPI_Comm_get_errhandler(comm, &got));
    fact("get gives the handler set", got == eh);
    fact_err("free of the handle from get", MPI_Errhandler_free(&got));
    fact("get's handle becomes MPI_ERRHANDLER_NULL", got == MPI_ERRHANDLER_NULL);
    fact_err("free of the handle from create", MPI_Errhandler_free(&eh));
    fact("create's handle becomes MPI_ERRHANDLER_NULL", eh == MPI_ERRHANDLER_NULL);

    /* Still the communicator's handler. */
    MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);
    fact("the freed handler still runs for the communicator", calls);
    CHECK(MPI_Comm_get_errhandler(comm, &got));
    fact("a later get gives a handle", got != MPI_ERRHANDLER_NULL);
    MPI_Comm other;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    fact_err("that handle can be set", MPI_Comm_set_errhandler(other, got));
    fact_err("and freed", MPI_Errhandler_free(&got));
    MPI_Comm_call_errhandler(other, MPI_ERR_OTHER);
    fact("and it runs on the other communicator", calls);

    /* Freed in the other order: create's first, then get's. */
    CHECK(MPI_Comm_create_errhandler(count, &eh));
    CHECK(MPI_Comm_set_errhandler(comm, eh));
    CHECK(MPI_Comm_get_errhandler(comm, &got));
    fact_err("free of create's handle first", MPI_Errhandler_free(&eh));
    fact_err("then get's", MPI_Errhandler_free(&got));

    /* A predefined handler's handle from get. */
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    fact("world's handler is MPI_ERRORS_RETURN", got == MPI_ERRORS_RETURN);
    fact_err("free of a predefined handler's handle from get", MPI_Errhandler_free(&got));

    CHECK(MPI_Comm_free(&other));
    CHECK(MPI_Comm_free(&comm));
    return diff_finish();
}
