// tests/cxx/programs/compile_cxx98.cc: mpicxx.h compiles as C++98 (legacy codes), with -Wall
// -Wextra -pedantic and no warnings; compiled with -fsyntax-only by test cxx_compile_cxx98.
#include <mpi.h>

static int copy_fn(const MPI::Comm&, int, void*, void* in, void* out, bool& flag) {
  *static_cast<void**>(out) = in;
  flag = true;
  return MPI::SUCCESS;
}
static int type_copy_fn(const MPI::Datatype&, int, void*, const void*, void*, bool& flag) {
  flag = false;
  return MPI::SUCCESS;
}

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  int key = MPI::Comm::Create_keyval(copy_fn, MPI::Comm::NULL_DELETE_FN, 0);
  int tkey = MPI::Datatype::Create_keyval(type_copy_fn, MPI_TYPE_NULL_DELETE_FN, 0);
  MPI::COMM_WORLD.Set_attr(key, 0);
  MPI::Comm::Free_keyval(key);
  MPI::Datatype::Free_keyval(tkey);
  MPI::Finalize();
  return 0;
}
