// tests/cxx/programs/c2_state_any_language.cc: docs/cxx.md C2 (R2.2, R1.6). The C++ callback state
// of a keyval lives as long as the keyval record, whichever language stores or copies the
// attributes: here C (MPI_Comm_set_attr, MPI_Type_set_attr, MPI_Win_set_attr, MPI_Comm_dup,
// MPI_Comm_free) and, when built with fortran_set_attr (c2_state_any_language.f90), Fortran
// (MPI_COMM_SET_ATTR). Every callback must run; values are heap objects the delete callbacks free,
// so under valgrind (cxx_valgrind_c2_*) a skipped callback is a leak and a state freed early is
// a use after free. Exit status 0 = pass.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" std::size_t mpiattr_cxx_live_keyval_states();
#ifdef WITH_FORTRAN
extern "C" void fortran_set_attr(MPI_Fint comm, int key, MPI_Aint value);
#endif

static std::string log_;
static int failures = 0;
#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static int copy_heap(const MPI::Comm& old, int, void* extra, void* in, void* out, bool& flag) {
  CHECK(dynamic_cast<const MPI::Intracomm*>(&old) != 0);
  CHECK(extra == &log_);
  *static_cast<int**>(out) = new int(*static_cast<int*>(in) + 1);
  flag = true;
  log_ += "c";
  return MPI::SUCCESS;
}
static int delete_heap(MPI::Comm&, int, void* value, void* extra) {
  CHECK(extra == &log_);
  log_ += static_cast<char>('0' + *static_cast<int*>(value));
  delete static_cast<int*>(value);
  return MPI::SUCCESS;
}
static int type_delete(MPI::Datatype&, int, void* value, void*) {
  delete static_cast<int*>(value);
  log_ += "t";
  return MPI::SUCCESS;
}
static int win_delete(MPI::Win&, int, void* value, void*) {
  delete static_cast<int*>(value);
  log_ += "w";
  return MPI::SUCCESS;
}
static int self_delete(MPI::Comm& comm, int, void* value, void*) {
  CHECK(comm == MPI::COMM_SELF);
  delete static_cast<int*>(value);
  log_ += "s";
  return MPI::SUCCESS;
}
#ifdef WITH_FORTRAN
// A value set from Fortran reaches a C (and C++) callback as a pointer to the stored integer
// (R7.3): nothing to free.
static int fortran_delete(MPI::Comm&, int, void* value, void*) {
  log_ += *static_cast<MPI_Aint*>(value) == 77 ? "f" : "?";
  return MPI::SUCCESS;
}
#endif

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  const std::size_t base = mpiattr_cxx_live_keyval_states();

  // Set through C, keyval freed through C++ while in use, dup and free through C.
  int key = MPI::Comm::Create_keyval(copy_heap, delete_heap, &log_);
  MPI_Comm a;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  CHECK(MPI_Comm_set_attr(a, key, new int(1)) == MPI_SUCCESS);
  CHECK(MPI_Comm_set_attr(a, key, new int(3)) == MPI_SUCCESS);  // replaces: deletes 1
  MPI::Comm::Free_keyval(key);
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  MPI_Comm b;
  CHECK(MPI_Comm_dup(a, &b) == MPI_SUCCESS);  // copies 3 -> 4
  CHECK(MPI_Comm_free(&a) == MPI_SUCCESS);    // deletes 3
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  CHECK(MPI_Comm_free(&b) == MPI_SUCCESS);    // deletes 4: the last attribute
  CHECK(mpiattr_cxx_live_keyval_states() == base);

  // Keyval freed through C (MPI_Comm_free_keyval), attribute set through C++: the state is the
  // C library's to release, so nothing is left behind either way.
  key = MPI::Comm::Create_keyval(copy_heap, delete_heap, &log_);
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  c.Set_attr(key, new int(5));
  CHECK(MPI_Comm_free_keyval(&key) == MPI_SUCCESS);
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  c.Free();
  CHECK(mpiattr_cxx_live_keyval_states() == base);

  // Datatypes and windows through the C functions.
  int tkey = MPI::Datatype::Create_keyval(MPI::Datatype::NULL_COPY_FN, type_delete, 0);
  MPI_Datatype t;
  MPI_Type_dup(MPI_INT, &t);
  CHECK(MPI_Type_set_attr(t, tkey, new int(6)) == MPI_SUCCESS);
  MPI::Datatype::Free_keyval(tkey);
  CHECK(MPI_Type_free(&t) == MPI_SUCCESS);
  int wkey = MPI::Win::Create_keyval(MPI::Win::NULL_COPY_FN, win_delete, 0);
  int buffer[4];
  MPI_Win w;
  MPI_Win_create(buffer, sizeof buffer, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  CHECK(MPI_Win_set_attr(w, wkey, new int(7)) == MPI_SUCCESS);
  MPI::Win::Free_keyval(wkey);
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  CHECK(MPI_Win_free(&w) == MPI_SUCCESS);
  CHECK(mpiattr_cxx_live_keyval_states() == base);

#ifdef WITH_FORTRAN
  // Set through Fortran's MPI_COMM_SET_ATTR, freed and deleted through C++.
  int fkey = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, fortran_delete, 0);
  MPI::Intracomm f = MPI::COMM_WORLD.Dup();
  fortran_set_attr(MPI_Comm_c2f(f), fkey, 77);
  MPI::Comm::Free_keyval(fkey);
  CHECK(mpiattr_cxx_live_keyval_states() == base + 1);
  f.Free();
  CHECK(mpiattr_cxx_live_keyval_states() == base);
#else
  log_ += "f";
#endif

  // Set through C on MPI_COMM_SELF, keyval freed: deleted at finalize (R10.1), then released.
  int skey = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, self_delete, 0);
  CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, skey, new int(8)) == MPI_SUCCESS);
  MPI::Comm::Free_keyval(skey);
  log_ += "|";
  MPI::Finalize();
  CHECK(mpiattr_cxx_live_keyval_states() == base);
  std::printf("%s\n", log_.c_str());
  CHECK(log_ == "1c345twf|s" || (std::fprintf(stderr, "log %s\n", log_.c_str()), false));
  return failures == 0 ? 0 : 1;
}
