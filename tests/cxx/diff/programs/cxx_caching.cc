// tests/cxx/diff/programs/cxx_caching.cc: the MPI-2.2 C++ caching members, printed one fact per
// line, built against mpiattr, MPICH and Open MPI (cxxdiffrun.py).
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>

// MPICH declares Datatype::Copy_attr_function with a non-const attribute_val_in (MPI-2.2 says
// const void*; divergences.toml), so its programs need the other spelling to compile; not with
// mpiattr's MPI:: classes over MPICH (mpiattr-mpich-cxx defines MPIATTR_OVER_HOST).
#if defined(MPICH_VERSION) && !defined(MPIATTR_OVER_HOST)
#define TYPE_COPY_IN void*
#else
#define TYPE_COPY_IN const void*
#endif

static int events = 0;

static void* val(std::intptr_t v) { return reinterpret_cast<void*>(v); }
static long num(void* p) { return static_cast<long>(reinterpret_cast<std::intptr_t>(p)); }

static int comm_copy(const MPI::Comm& old, int, void* extra, void* in, void* out, bool& flag) {
  std::printf("event %d comm copy: in %ld extra %ld intracomm %d\n", ++events, num(in), num(extra),
              dynamic_cast<const MPI::Intracomm*>(&old) != 0);
  *static_cast<void**>(out) = static_cast<char*>(in) + 1;
  flag = true;
  return MPI::SUCCESS;
}
static int comm_delete(MPI::Comm& comm, int, void* value, void* extra) {
  std::printf("event %d comm delete: value %ld extra %ld intracomm %d size %d\n", ++events, num(value), num(extra),
              dynamic_cast<MPI::Intracomm*>(&comm) != 0, comm.Get_size());
  return MPI::SUCCESS;
}
static int type_copy(const MPI::Datatype& old, int, void*, TYPE_COPY_IN in, void* out, bool& flag) {
  std::printf("event %d type copy: in %ld size %d\n", ++events, num(const_cast<void*>(in)), old.Get_size());
  *static_cast<void**>(out) = const_cast<void*>(in);
  flag = true;
  return MPI::SUCCESS;
}
static int type_delete(MPI::Datatype&, int, void* value, void*) {
  std::printf("event %d type delete: value %ld\n", ++events, num(value));
  return MPI::SUCCESS;
}
static int win_copy(const MPI::Win&, int, void*, void*, void*, bool& flag) {
  flag = false;
  return MPI::SUCCESS;
}
static int win_delete(MPI::Win&, int, void* value, void*) {
  std::printf("event %d win delete: value %ld\n", ++events, num(value));
  return MPI::SUCCESS;
}

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  std::printf("initialized: %d\n", MPI::Is_initialized());
  std::printf("world rank size: %d %d\n", MPI::COMM_WORLD.Get_rank(), MPI::COMM_WORLD.Get_size());

  // Communicators: C++ callbacks on Dup, Clone and Free; the derived class is visible.
  int key = MPI::Comm::Create_keyval(comm_copy, comm_delete, val(9));
  std::printf("keyval valid: %d\n", key != MPI::KEYVAL_INVALID);
  MPI::Intracomm a = MPI::COMM_WORLD.Dup();
  void* got = 0;
  std::printf("get before set: %d\n", a.Get_attr(key, &got));
  a.Set_attr(key, val(100));
  bool found = a.Get_attr(key, &got);
  std::printf("get after set: %d %ld\n", found, num(got));
  MPI::Intracomm b = a.Dup();
  found = b.Get_attr(key, &got);
  std::printf("dup has: %d %ld\n", found, num(got));
  MPI::Comm& c = b.Clone();
  found = c.Get_attr(key, &got);
  std::printf("clone has: %d %ld\n", found, num(got));
  std::printf("compare dup clone: %d\n", MPI::Comm::Compare(b, c) == MPI::CONGRUENT);
  MPI::Comm::Free_keyval(key);
  std::printf("freed keyval invalid: %d\n", key == MPI::KEYVAL_INVALID);
  MPI::Intracomm d = dynamic_cast<MPI::Intracomm&>(c).Dup();  // the freed key's copy callback still runs (R2.2)
  a.Free();
  b.Free();
  c.Free();
  d.Free();
  delete &c;
  std::printf("freed is null: %d\n", a == MPI::COMM_NULL);

  // Split does not copy attributes; the static predefined callbacks. (The Create_keyval overloads
  // for C functions, MPI-2.2 node151 advice, are not in MPICH: tests/cxx/cxx_members_test.cc.)
  int dupkey = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, 0);
  int mixed = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, comm_delete, val(3));
  MPI::Intracomm e = MPI::COMM_WORLD.Dup();
  e.Set_attr(dupkey, val(5));
  e.Set_attr(mixed, val(6));
  MPI::Intracomm s = e.Split(0, 0);
  std::printf("split has: %d\n", s.Get_attr(dupkey, &got));
  MPI::Intracomm f = e.Dup();
  found = f.Get_attr(dupkey, &got);
  std::printf("Comm::DUP_FN copied: %d %ld\n", found, num(got));
  found = f.Get_attr(mixed, &got);
  std::printf("mixed copied: %d %ld\n", found, num(got));
  f.Delete_attr(mixed);
  std::printf("deleted: %d\n", f.Get_attr(mixed, &got));
  e.Free();
  f.Free();
  s.Free();
  MPI::Comm::Free_keyval(dupkey);
  MPI::Comm::Free_keyval(mixed);

  // Datatypes: const input to the copy callback, Dup, Free.
  int tkey = MPI::Datatype::Create_keyval(type_copy, type_delete, 0);
  MPI::Datatype t = MPI::INT.Create_contiguous(2);
  t.Commit();
  t.Set_attr(tkey, val(7));
  MPI::Datatype u = t.Dup();
  found = u.Get_attr(tkey, &got);
  std::printf("type dup has: %d %ld\n", found, num(got));
  bool flag = true;
  void* out = 0;
  MPI::Comm::NULL_COPY_FN(MPI::COMM_WORLD, tkey, 0, val(7), &out, flag);
  std::printf("Comm NULL_COPY_FN flag: %d\n", flag);
  MPI::Comm::DUP_FN(MPI::COMM_WORLD, tkey, 0, val(8), &out, flag);
  std::printf("Comm DUP_FN: %d %ld\n", flag, num(out));
  u.Free();
  t.Free();
  MPI::Datatype::Free_keyval(tkey);

  // Windows.
  int buffer[2];
  MPI::Win w = MPI::Win::Create(buffer, sizeof buffer, sizeof(int), MPI::INFO_NULL, MPI::COMM_WORLD);
  int wkey = MPI::Win::Create_keyval(win_copy, win_delete, 0);
  w.Set_attr(wkey, val(11));
  w.Set_attr(wkey, val(12));
  found = w.Get_attr(wkey, &got);
  std::printf("win has: %d %ld\n", found, num(got));
  found = w.Get_attr(MPI::WIN_BASE, &got);
  std::printf("win base: %d %d\n", found, got == buffer);
  MPI::Win::Free_keyval(wkey);
  w.Free();
  std::printf("win freed: %d\n", w == MPI::WIN_NULL);

  // C++ callbacks on MPI_COMM_SELF at Finalize, newest first.
  int k1 = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, comm_delete, val(1));
  int k2 = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, comm_delete, val(2));
  MPI::COMM_SELF.Set_attr(k1, val(21));
  MPI::COMM_SELF.Set_attr(k2, val(22));
  std::printf("finalizing: 1\n");
  std::fflush(stdout);
  MPI::Finalize();
  std::printf("finalized: %d\n", MPI::Is_finalized());
  return 0;
}
