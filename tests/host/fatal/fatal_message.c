/* fatal_message.c: the message mpiattr prints when an error it raises meets a fatal handler.
 *
 *   fatal_message callback   a delete callback returns MPI_ERR_OTHER (the host's value) from
 *                            MPI_Comm_free under MPI_ERRORS_ARE_FATAL: the code is the callback's
 *                            own (MPI-4.1 §8.7.2, R4.5), a host code, so its message is the
 *                            host's MPI_Error_string of it, not mpiattr's reading of the number
 *   fatal_message keyval     MPI_Comm_set_attr with a freed mpiattr keyval under
 *                            MPI_ERRORS_ARE_FATAL: an mpiattr code, MPI_ERR_KEYVAL
 *
 * Before the fatal call rank 0 prints "EXPECT <text>", the host's own MPI_Error_string of
 * MPI_ERR_OTHER (the runner, fatal_message.py, looks for it in stderr after "mpiattr: fatal error
 * in MPI_Comm_free: "), then every rank makes the call; the handler ends the job.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failing_delete(MPI_Comm c, int k, void *v, void *e) { return MPI_ERR_OTHER; }

int main(int argc, char **argv)
{
    int rank, len = 0, key;
    char text[MPI_MAX_ERROR_STRING];
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
