/* tests/c_compile/header_warnings.c: mpi.h and mpio.h compile with -Wall -Wextra -pedantic
 * -Werror as C89 and C17, with GCC and Clang, their own code checked (MPIATTR_HEADER_WARNINGS,
 * D147; a program that does not define it has them as system headers). Compiled only. */
#include <mpi.h>
#include <mpio.h>

int header_uses(MPI_Comm comm);
int header_uses(MPI_Comm comm)
{
    MPI_Status st;
    MPI_Aint a = MPI_Aint_add(0, 8);
    int n = 0;
    if (comm == MPI_COMM_NULL || MPI_BOTTOM != 0)
        return MPI_ERR_COMM;
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT, MPI_SUM, comm);
    MPI_Recv(&n, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, MPI_STATUS_IGNORE);
    MPI_Get_count(&st, MPI_INT, &n);
    return n + (int)a + (MPI_F_STATUS_IGNORE != 0);
}
