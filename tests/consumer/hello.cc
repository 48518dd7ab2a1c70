// tests/consumer/hello.cc: a C++ program (MPI:: bindings) built against an installed mpiattr
// (tests/consumer/run.sh). A value cached on a communicator is copied to its duplicate.
#include <mpi.h>
#include <cstdio>

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  static int value = 42;
  int key = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, 0);
  MPI::COMM_WORLD.Set_attr(key, &value);
  MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
  void* got = 0;
  if (!dup.Get_attr(key, &got) || got != &value) {
    std::fprintf(stderr, "hello.cc: the attribute was not copied\n");
    return 1;
  }
  dup.Free();
  MPI::Comm::Free_keyval(key);
  MPI::Finalize();
  std::printf("c++: ok\n");
  return 0;
}
