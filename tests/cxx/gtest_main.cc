// One MPI::Init_thread per test executable. Failures throw (MPI::ERRORS_THROW_EXCEPTIONS), so a
// failing call shows as a test failure, not an exit.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  MPI::Init_thread(argc, argv, MPI::THREAD_MULTIPLE);
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  int rc = RUN_ALL_TESTS();
  MPI::Finalize();
  return rc;
}
