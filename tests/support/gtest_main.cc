// One MPI_Init_thread(MPI_THREAD_MULTIPLE) per test executable: MPI cannot be initialised twice.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) return 2;
  // Failures are checked by the tests, not fatal.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
