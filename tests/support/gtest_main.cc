// One MPI_Init_thread per test executable (MPI cannot be initialised twice). ctest runs every
// executable twice: at MPI_THREAD_MULTIPLE, where every call takes the checked path, and with
// --mpi-thread-level=single, where gets and sets take the fast paths (mpiattr/fast.h). The same
// assertions must hold at both levels.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>

#include "test_util.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int required = MPI_THREAD_MULTIPLE;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--mpi-thread-level=single") == 0) required = MPI_THREAD_SINGLE;
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, required, &provided) != MPI_SUCCESS) return 2;
  // Failures are checked by the tests, not fatal.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
