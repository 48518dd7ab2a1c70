// D112: a C++ program may define VERSION and SUBVERSION itself (every autoconf config.h defines
// VERSION, PACKAGE_VERSION, ...) and then include <mpi.h>, as it does with MPICH and Open MPI,
// whose headers declare no MPI::VERSION; mpiattr's MPI:: header did, and the program did not
// compile. Compiled only (a test of the header): -fsyntax-only -Werror.
#define VERSION "1.2.3"
#define SUBVERSION 4
#define PACKAGE "d112"
#include <mpi.h>

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  static_assert(MPI_VERSION >= 3, "MPI_VERSION is the C preprocessor's, as in C++ it is");
  const char* v = VERSION;  // the program's own
  (void)v;
  MPI::Finalize();
  return SUBVERSION == 4 ? 0 : 1;
}
