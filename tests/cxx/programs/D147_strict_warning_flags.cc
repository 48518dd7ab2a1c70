// tests/cxx/programs/D147_strict_warning_flags.cc: a C++ program written to be warning-free under
// strict flags (-Wsign-conversion, -Wzero-as-null-pointer-constant, -Wold-style-cast, ...; see
// tests/cxx/CMakeLists.txt), built with them and -Werror through mpiattr-cxx and
// mpiattr-<host>-cxx: mpi.h and mpicxx.h are system headers to it, so their own code does not
// fail its build (D147). Standalone it is also run: it caches an attribute and prints "1 7".
#include <mpi.h>

#include <cstdio>

static int copy_fn(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, nullptr);
  static int value = 7;
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value);
  void* got = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
  MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
  dup.Free();
  MPI_Comm_free_keyval(&key);
  std::printf("%d %d\n", flag, flag != 0 ? *static_cast<int*>(got) : -1);
  MPI_Finalize();
  return 0;
}
