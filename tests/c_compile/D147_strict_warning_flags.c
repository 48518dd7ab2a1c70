/* tests/c_compile/D147_strict_warning_flags.c: a C program written to be warning-free under strict
 * flags (-Wconversion, -Wcast-qual, -Wredundant-decls, -Wstrict-prototypes, ...; see
 * tests/CMakeLists.txt), built with them and -Werror through mpiattr-cc and mpiattr-<host>-cc:
 * mpi.h is a system header to it (D147). Standalone it is also run and prints "1 7". */
#include <mpi.h>
#include <stdio.h>

static int copy_fn(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)key;
    (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    static int value = 7;
    int key = MPI_KEYVAL_INVALID, flag = 0;
    void *got = NULL;
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, key, &got, &flag);
    MPI_Comm_free(&dup);
    MPI_Comm_free_keyval(&key);
    printf("%d %d\n", flag, flag ? *(int *)got : -1);
    MPI_Finalize();
    return 0;
}
