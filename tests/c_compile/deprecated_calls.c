/* tests/c_compile/deprecated_calls.c: a call of a routine MPI-2.0 deprecated (MPI_Attr_get) is
 * diagnosed at the program's call when it defines MPIATTR_WARN_DEPRECATED, although mpi.h is a
 * system header to it (D147: its uses are still checked), and not otherwise. Compiled twice with
 * -Werror by ctest (c_compile_deprecated_calls_{silent,warned}; the second must name it), never
 * run. */
#include <mpi.h>

int read_attribute(int keyval);
int read_attribute(int keyval)
{
    void *value = NULL;
    int flag = 0;
    return MPI_Attr_get(MPI_COMM_WORLD, keyval, &value, &flag);
}
