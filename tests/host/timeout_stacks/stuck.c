/* stuck.c: a job that hangs on purpose, for timeout_stacks.py (D106). Rank 0 waits in
 * MPI_Barrier for a rank that never comes: rank 1 sleeps outside MPI. Each rank says where it
 * goes on stdout first. Not a caching test: it checks the harness's report of a hang. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) static void stuck_without_mpi(void)
{
    for (;;)
        sleep(1);
}

__attribute__((noinline)) static void wait_in_barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: %s\n", rank, rank == 0 ? "barrier" : "sleep");
    fflush(stdout);
    if (rank == 0)
        wait_in_barrier();
    else
        stuck_without_mpi();
    MPI_Finalize();
    return 0;
}
