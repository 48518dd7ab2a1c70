/* fatal_message.c: an error mpiattr raises meets a fatal handler (docs/decisions.md D4, D56).
 *
 *   fatal_message callback   a delete callback returns MPI_ERR_OTHER (the host's value) from
 *                            MPI_Comm_free under MPI_ERRORS_ARE_FATAL: the code is the callback's
 *                            own (MPI-4.1 §8.7.2, R4.5), a host code, so its message is the
 *                            host's MPI_Error_string of it, not mpiattr's reading of the number
 *   fatal_message keyval     MPI_Comm_free_keyval(MPI_KEYVAL_INVALID): an mpiattr code of class
 *                            MPI_ERR_KEYVAL, with no communicator (the host's handler for such
 *                            errors, D56)
 *   fatal_message comm       MPI_Comm_get_attr(MPI_COMM_NULL, ...): MPI_ERR_COMM, no communicator
 *   fatal_message sessions   with sessions alone (no MPI_Init; MPICH only), MPI_Type_set_attr with
 *                            MPI_KEYVAL_INVALID: an error with no communicator to take it goes to
 *                            the initial handler, fatal, as the host's own would (D57)
 *
 * The same program runs on the host alone, which raises these errors itself. Before the fatal
 * call it prints "EXPECT <text>", the host's own MPI_Error_string of MPI_ERR_OTHER, and
 * "STATUS <value>", the host's value of the error's class (the hosts exit with it: the runner,
 * fatal_message.py, compares), then makes the call; the handler ends the job.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failing_delete(MPI_Comm c, int k, void *v, void *e)
{
    (void)c, (void)k, (void)v, (void)e;
    return MPI_ERR_OTHER;
}

#if MPI_VERSION >= 4
static int sessions_only(void)
{
    MPI_Session s;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    printf("EXPECT sessions\nSTATUS %d\n", MPI_ERR_KEYVAL);
    fflush(stdout);
    MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, NULL);
    printf("NOT REACHED\n");
    MPI_Session_finalize(&s);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    int len = 0, key = MPI_KEYVAL_INVALID, flag = 0;
    char text[MPI_MAX_ERROR_STRING];
    const char *which = argc > 1 ? argv[1] : "";
    void *v = NULL;
#if MPI_VERSION >= 4
    if (strcmp(which, "sessions") == 0)
        return sessions_only();
#endif
    MPI_Init(&argc, &argv);
    if (MPI_Error_string(MPI_ERR_OTHER, text, &len) != MPI_SUCCESS)
        strcpy(text, "(MPI_Error_string failed)");
    printf("EXPECT %s\n", text);
    printf("STATUS %d\n", strcmp(which, "callback") == 0 ? MPI_ERR_OTHER
                          : strcmp(which, "keyval") == 0 ? MPI_ERR_KEYVAL : MPI_ERR_COMM);
    fflush(stdout);
    if (strcmp(which, "callback") == 0) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* inherits MPI_ERRORS_ARE_FATAL */
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &key, NULL);
        MPI_Comm_set_attr(dup, key, NULL);
        MPI_Comm_free(&dup);
    } else if (strcmp(which, "keyval") == 0) {
        MPI_Comm_free_keyval(&key);
    } else {
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
        MPI_Comm_get_attr(MPI_COMM_NULL, key, &v, &flag);
    }
    printf("NOT REACHED\n");
    MPI_Finalize();
    return 0;
}
