// consumer.cc: the C++ program of the CMake-consumer example (target mpiattr::cxx, the MPI::
// bindings). It caches a value on MPI::COMM_WORLD, checks that a duplicate has it too, and exits
// with 1 if that does not work.
#include <mpi.h>
#include <cstdio>

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  static int answer = 42;
  int key = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, 0);
  MPI::COMM_WORLD.Set_attr(key, &answer);
  MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
  void* value = 0;
  bool found = dup.Get_attr(key, &value);
  std::printf("consumer_cxx: found=%d value=%d\n", found, found ? *static_cast<int*>(value) : -1);
  dup.Free();
  MPI::Comm::Free_keyval(key);
  MPI::Finalize();
  return found && value == &answer ? 0 : 1;
}
