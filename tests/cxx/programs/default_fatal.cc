// tests/cxx/programs/default_fatal.cc: with no handler set, a failing C++ call is fatal (the
// default handler is MPI::ERRORS_ARE_FATAL, MPI-2.2 §8.3): the process must end with a non-zero
// status before reaching the end of main (the test has WILL_FAIL).
#include <mpi.h>

#include <cstdio>

int main() {
  MPI::Init();
  void* v = 0;
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  c.Get_attr(MPI::KEYVAL_INVALID, &v);  // erroneous (R2.3): ERRORS_ARE_FATAL ends the process
  std::puts("not reached");
  MPI::Finalize();
  return 0;
}
