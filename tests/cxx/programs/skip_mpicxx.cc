// tests/cxx/programs/skip_mpicxx.cc: with MPIATTR_SKIP_MPICXX (or MPICH_SKIP_MPICXX,
// OMPI_SKIP_MPICXX) mpi.h leaves the MPI:: bindings out, so namespace MPI must be undeclared.
#include <mpi.h>

#ifdef MPIATTR_MPICXX_H_INCLUDED
#error "mpicxx.h was included"
#endif
namespace MPI {
int own_symbol = 0;  // a program may use the namespace itself
}
int main() { return MPI::own_symbol; }
