// tests/cxx/programs/keyval_lifetime.cc: the C++ callback state of a keyval lives exactly as long as
// the keyval record (R2.2): a keyval freed while in use still calls its C++ callbacks, and when the
// last attribute is gone its state is freed. Run under valgrind (test cxx_valgrind_keyval_lifetime)
// so that a leak or a use after free fails. Also: C++ callbacks on MPI_COMM_SELF at MPI::Finalize,
// newest first (R10.1); the library's C callbacks are not the program's functions of the same names
// (D137). Exit status 0 = pass.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" std::size_t mpiattr_cxx_live_keyval_states();

static std::string log_;
static int failures = 0;
#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                    \
    }                                                                \
  } while (0)

static int copy_heap(const MPI::Comm& old, int, void*, void* in, void* out, bool& flag) {
  CHECK(dynamic_cast<const MPI::Intracomm*>(&old) != 0);
  *static_cast<int**>(out) = new int(*static_cast<int*>(in) + 1);
  flag = true;
  log_ += "c";
  return MPI::SUCCESS;
}
static int delete_heap(MPI::Comm&, int, void* value, void*) {
  delete static_cast<int*>(value);
  log_ += "d";
  return MPI::SUCCESS;
}
static int self_delete(MPI::Comm& comm, int, void* value, void*) {
  CHECK(!MPI::Is_finalized());
  CHECK(comm == MPI::COMM_SELF);
  log_ += static_cast<char>('0' + reinterpret_cast<std::intptr_t>(value));
  return MPI::SUCCESS;
}
// D137: a program's own functions of these names are its own, and the library's C callbacks are
// its own: before D137, libmpiattr_cxx exported its callbacks under these plain names, so these
// definitions replaced them (the keyval states were never released, no copy callback ran, no
// exception was thrown).
static int interposed = 0;
extern "C" void release_state(void*) { ++interposed; }
extern "C" int comm_copy_trampoline(MPI_Comm, int, void*, void*, void*, int* flag) {
  ++interposed;
  *flag = 0;
  return MPI_SUCCESS;
}
extern "C" int comm_delete_trampoline(MPI_Comm, int, void*, void*) {
  ++interposed;
  return MPI_SUCCESS;
}
extern "C" int type_delete_trampoline(MPI_Datatype, int, void*, void*) {
  ++interposed;
  return MPI_SUCCESS;
}
extern "C" void throw_comm_handler(MPI_Comm*, int*, ...) { ++interposed; }

static int type_delete(MPI::Datatype&, int, void* value, void*) {
  delete static_cast<int*>(value);
  log_ += "t";
  return MPI::SUCCESS;
}

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  const std::size_t base = mpiattr_cxx_live_keyval_states();

  // Freed while in use: still copies and deletes; state released with the last attribute.
  int key = MPI::Comm::Create_keyval(copy_heap, delete_heap, 0);
  MPI::Intracomm a = MPI::COMM_WORLD.Dup();
  a.Set_attr(key, new int(1));
  a.Set_attr(key, new int(5));  // replace: the old value is deleted
  MPI::Comm::Free_keyval(key);
  CHECK(key == MPI::KEYVAL_INVALID);
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  MPI::Intracomm b = a.Dup();  // copy callback of the freed key still runs
  MPI::Comm& c = b.Clone();
  a.Free();
  b.Free();
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  c.Free();
  delete &c;
  CHECK(mpiattr_cxx_live_keyval_states() == base);

  // Datatypes: freed keyval, attribute deleted explicitly through the old key value.
  int tkey = MPI::Datatype::Create_keyval(MPI::Datatype::NULL_COPY_FN, type_delete, 0);
  MPI::Datatype t = MPI::INT.Dup();
  t.Set_attr(tkey, new int(3));
  MPI::Datatype u = t.Dup();  // NULL_COPY_FN: u gets nothing
  u.Set_attr(tkey, new int(4));
  const int old_tkey = tkey;
  MPI::Datatype::Free_keyval(tkey);
  t.Free();
  u.Delete_attr(old_tkey);  // D6: delete_attr accepts a freed key while attributes exist
  u.Free();
  CHECK(mpiattr_cxx_live_keyval_states() == base);

  // Keyvals never used, and a failed Create_keyval, leave nothing behind.
  int unused = MPI::Win::Create_keyval(MPI::Win::NULL_COPY_FN, MPI::Win::NULL_DELETE_FN, 0);
  MPI::Win::Free_keyval(unused);
  CHECK(mpiattr_cxx_live_keyval_states() == base);

  // D137: MPI::ERRORS_THROW_EXCEPTIONS throws with the library's handler, not the program's.
  MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  bool thrown = false;
  try {
    void* v = 0;
    MPI::COMM_SELF.Get_attr(MPI::KEYVAL_INVALID, &v);
  } catch (const MPI::Exception& e) {
    thrown = e.Get_error_class() == MPI::ERR_KEYVAL;
  }
  CHECK(thrown);
  MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_ARE_FATAL);

  // C++ callbacks at finalize on MPI_COMM_SELF, newest first (R10.1); keys freed before.
  int k1 = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, self_delete, 0);
  int k2 = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, self_delete, 0);
  MPI::COMM_SELF.Set_attr(k1, reinterpret_cast<void*>(1));
  MPI::COMM_SELF.Set_attr(k2, reinterpret_cast<void*>(2));
  MPI::Comm::Free_keyval(k1);
  MPI::Comm::Free_keyval(k2);
  log_ += "|";
  MPI::Finalize();
  CHECK(MPI::Is_finalized());
  CHECK(mpiattr_cxx_live_keyval_states() == base);
  std::printf("%s\n", log_.c_str());
  CHECK(log_ == "dccdddtt|21" || (std::fprintf(stderr, "log %s\n", log_.c_str()), false));
  CHECK(interposed == 0);
  return failures == 0 ? 0 : 1;
}
