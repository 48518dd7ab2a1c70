// cxx_cache.cc: the demo's library in C++, through the MPI-2.2 MPI:: bindings that <mpi.h> brings in.
//
// A "library" keeps a call counter on each communicator it is used with, under a keyval with C++
// callbacks: Dup() gives the duplicate its own copy (copy_state), Free() releases it
// (delete_state), and MPI::Finalize releases the one on MPI::COMM_SELF. Every state allocated is
// released exactly once; the program checks that and exits with 1 if it is not so.
#include <mpi.h>

#include <cstdio>

namespace {

struct lib_state {
  int calls = 0;
};
int live_states = 0;  // allocated and not yet released
int lib_key = MPI::KEYVAL_INVALID;

int copy_state(const MPI::Comm&, int, void*, void* in, void* out, bool& flag) {
  auto* copy = new lib_state(*static_cast<lib_state*>(in));  // each communicator owns its state
  ++live_states;
  *static_cast<lib_state**>(out) = copy;
  flag = true;
  return MPI::SUCCESS;
}

int delete_state(MPI::Comm&, int, void* value, void*) {
  delete static_cast<lib_state*>(value);
  --live_states;
  return MPI::SUCCESS;
}

// The library's entry point: finds (or creates) its state on the communicator, counts the call.
int lib_call(const MPI::Comm& comm) {
  if (lib_key == MPI::KEYVAL_INVALID) lib_key = MPI::Comm::Create_keyval(copy_state, delete_state, 0);
  lib_state* s = nullptr;
  if (!comm.Get_attr(lib_key, &s)) {
    s = new lib_state;
    ++live_states;
    comm.Set_attr(lib_key, s);
  }
  return ++s->calls;
}

int failures = 0;
void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);

  lib_call(MPI::COMM_WORLD);
  expect(lib_call(MPI::COMM_WORLD) == 2, "two calls counted on MPI::COMM_WORLD");

  MPI::Intracomm dup = MPI::COMM_WORLD.Dup();  // copy_state gives dup its own counter
  expect(live_states == 2, "Dup() copied the state");
  expect(lib_call(dup) == 3, "the duplicate continues from the original's count");
  expect(lib_call(MPI::COMM_WORLD) == 3, "the original's count is its own");

  dup.Free();  // delete_state releases the duplicate's state
  expect(live_states == 1, "Free() released the duplicate's state");

  lib_call(MPI::COMM_SELF);  // released by MPI::Finalize, which deletes COMM_SELF's attributes first
  MPI::COMM_WORLD.Delete_attr(lib_key);
  expect(live_states == 1, "Delete_attr released MPI::COMM_WORLD's state");

  // Errors are exceptions under MPI::ERRORS_THROW_EXCEPTIONS.
  bool threw = false;
  try {
    MPI::COMM_WORLD.Set_attr(MPI::KEYVAL_INVALID, nullptr);
  } catch (MPI::Exception& e) {
    threw = e.Get_error_class() == MPI::ERR_KEYVAL;
    std::printf("Set_attr(MPI::KEYVAL_INVALID) threw: %s\n", e.Get_error_string());
  }
  expect(threw, "an invalid keyval throws MPI::Exception with MPI::ERR_KEYVAL");

  MPI::Comm::Free_keyval(lib_key);  // COMM_SELF's attribute keeps its callbacks
  MPI::Finalize();
  expect(live_states == 0, "MPI::Finalize released MPI::COMM_SELF's state");
  return failures == 0 ? 0 : 1;
}
