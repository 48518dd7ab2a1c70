// MPIATTR_REPORT names the routine that created each keyval: the MPI:: bindings (report_check.py).
#include <mpi.h>
static int copy_fn(const MPI::Comm&, int, void*, void*, void*, bool& flag) {
  flag = false;
  return MPI::SUCCESS;
}
static int delete_fn(MPI::Comm&, int, void*, void*) { return MPI::SUCCESS; }
int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  static int value;
  int key = MPI::Comm::Create_keyval(copy_fn, delete_fn, 0);  // D60: keyval
  MPI::Intracomm comm = MPI::COMM_WORLD.Dup();  // D60: dup
  comm.Set_attr(key, &value);  // D60: set
  MPI::Finalize();
}
