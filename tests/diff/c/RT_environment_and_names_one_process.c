/* Routines a one-process run calls at start-up and for diagnostics: MPI_Is_thread_main (the
 * thread that initialized MPI), MPI_Comm_get_parent (no parent: the process was not spawned),
 * and window names (MPI-4.1 §8.8 naming: empty until set, set and read back, truncated copies
 * not involved), as programs written for MPICH and Open MPI call them.
 */
#include <string.h>

#include "diff_util.h"

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    int flag = -1;
    fact_err("is_thread_main", MPI_Is_thread_main(&flag));
    fact("is_thread_main flag", flag);
    MPI_Comm parent = MPI_COMM_WORLD;
    fact_err("comm_get_parent", MPI_Comm_get_parent(&parent));
    fact("comm_get_parent is MPI_COMM_NULL", parent == MPI_COMM_NULL);

    int *mem = NULL;
    MPI_Win win;
    CHECK(MPI_Alloc_mem(64, MPI_INFO_NULL, &mem));
    CHECK(MPI_Win_create(mem, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    fact_err("win_get_name of a new window", MPI_Win_get_name(win, name, &len));
    printf("new window's name: [%s] %d\n", name, len);
    fact_err("win_set_name", MPI_Win_set_name(win, "halo exchange"));
    len = -1;
    MPI_Win_get_name(win, name, &len);
    printf("window's name: [%s] %d\n", name, len);
    MPI_Win_set_name(win, "");
    MPI_Win_get_name(win, name, &len);
    printf("renamed empty: [%s] %d\n", name, len);
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Free_mem(mem));
    return diff_finish();
}
