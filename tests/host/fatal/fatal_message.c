/* fatal_message.c: the message mpiattr prints when an error it raises meets a fatal handler.
 *
 *   fatal_message callback   a delete callback returns MPI_ERR_OTHER (the host's value) from
 *                            MPI_Comm_free under MPI_ERRORS_ARE_FATAL: the code is the callback's
 *                            own (MPI-4.1 §8.7.2, R4.5), a host code, so its message is the
 *                            host's MPI_Error_string of it, not mpiattr's reading of the number
 *   fatal_message keyval     MPI_Comm_set_attr with a freed mpiattr keyval under
 *                            MPI_ERRORS_ARE_FATAL: an mpiattr code, MPI_ERR_KEYVAL
 *   fatal_message sessions   with sessions alone (no MPI_Init; MPICH only), MPI_Type_set_attr with
 *                            a freed keyval: an error with no communicator to take it goes to the
 *                            initial handler, fatal, as the host's own would (docs/decisions.md D57)
 *
 * Before the fatal call rank 0 prints "EXPECT <text>", the host's own MPI_Error_string of
 * MPI_ERR_OTHER (the runner, fatal_message.py, looks for it in stderr after "mpiattr: fatal error
 * in MPI_Comm_free: "), then every rank makes the call; the handler ends the job.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failing_delete(MPI_Comm c, int k, void *v, void *e) { return MPI_ERR_OTHER; }

#if MPI_VERSION >= 4
static int sessions_only(void)
{
    MPI_Session s;
    MPI_Group g;
    int rank = -1, key, stale;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Group_rank(g, &rank);
    if (rank == 0)
        printf("EXPECT sessions\n");
    fflush(stdout);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL);
    stale = key;
    MPI_Type_free_keyval(&key);
    MPI_Type_set_attr(MPI_INT, stale, NULL);
    printf("NOT REACHED rank %d\n", rank);
    MPI_Session_finalize(&s);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    int rank, len = 0, key;
    char text[MPI_MAX_ERROR_STRING];
#if MPI_VERSION >= 4
    if (argc > 1 && strcmp(argv[1], "sessions") == 0)
        return sessions_only();
#endif
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Error_string(MPI_ERR_OTHER, text, &len);
    if (rank == 0)
        printf("EXPECT %s\n", text);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "callback") == 0) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* inherits MPI_ERRORS_ARE_FATAL */
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &key, NULL);
        MPI_Comm_set_attr(dup, key, NULL);
        MPI_Comm_free(&dup);
    } else {
        int stale;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
        stale = key;
        MPI_Comm_free_keyval(&key);
        MPI_Comm_set_attr(MPI_COMM_WORLD, stale, NULL);
    }
    printf("NOT REACHED rank %d\n", rank);
    MPI_Finalize();
    return 0;
}
