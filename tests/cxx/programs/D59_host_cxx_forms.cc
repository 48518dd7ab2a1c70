// D59: where a host's own C++ bindings accept a signature MPI-2.2 Annex A.4 does not, mpiattr's
// MPI:: classes accept it too, beside the annex's form. The forms (spec `host_forms`):
//   - MPICH's MPI::Datatype::Copy_attr_function takes `void* attribute_val_in` (the annex:
//     `const void*`): Datatype::Create_keyval takes such a function, with a C++ or a C delete
//     function, and its copies run on Dup as the annex's do.
// Built standalone (cxx_D59_host_cxx_forms) and with mpiattr-<host>-cxx, run on 2 ranks
// (cxx_D59_host_cxx_forms_over_<host>). Prints "rank r of n: ok" when every check passed.
#include <mpi.h>

#include <cstdio>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

struct counter {
  int copies;
  int deletes;
};

// MPICH's form: attribute_val_in is void*, so the copy may write through it (it counts here).
int void_in_copy(const MPI::Datatype&, int, void* extra, void* in, void* out, bool& flag) {
  static_cast<counter*>(in)->copies++;
  static_cast<counter*>(extra)->copies++;
  *static_cast<void**>(out) = in;
  flag = true;
  return MPI::SUCCESS;
}

// The same form, declining to copy.
int void_in_no_copy(const MPI::Datatype&, int, void* extra, void*, void*, bool& flag) {
  static_cast<counter*>(extra)->copies++;
  flag = false;
  return MPI::SUCCESS;
}

// The annex's form, for the overload next to it.
int const_in_copy(const MPI::Datatype&, int, void* extra, const void* in, void* out, bool& flag) {
  static_cast<counter*>(extra)->copies += 100;
  *static_cast<void**>(out) = const_cast<void*>(in);
  flag = true;
  return MPI::SUCCESS;
}

int cxx_delete(MPI::Datatype&, int, void*, void* extra) {
  static_cast<counter*>(extra)->deletes++;
  return MPI::SUCCESS;
}

int c_delete(MPI_Datatype, int, void*, void* extra) {
  static_cast<counter*>(extra)->deletes++;
  return MPI_SUCCESS;
}

// Stores `value` on a new datatype under `key`, dups it, reads the copy, frees both: `copied` says
// whether the dup must carry the attribute.
void roundtrip(int key, counter* value, bool copied, const char* what) {
  MPI::Datatype t = MPI::INT.Dup();
  t.Set_attr(key, value);
  MPI::Datatype d = t.Dup();
  counter* got = 0;
  bool flag = d.Get_attr(key, &got);
  check(flag == copied && (!copied || got == value), what);
  d.Free();
  t.Free();
}

}  // namespace

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);

  // MPICH's void* form with a C++ and with a C delete function: each picks its own overload.
  for (int c = 0; c < 2; ++c) {
    counter state = {0, 0}, value = {0, 0};
    int key = c ? MPI::Datatype::Create_keyval(void_in_copy, c_delete, &state)
                : MPI::Datatype::Create_keyval(void_in_copy, cxx_delete, &state);
    roundtrip(key, &value, true, c ? "void* copy + C delete: the dup has the attribute"
                                   : "void* copy + C++ delete: the dup has the attribute");
    check(state.copies == 1 && value.copies == 1, "void* copy: the copy ran once");
    check(state.deletes == 2, "void* copy: both attributes deleted");
    MPI::Datatype::Free_keyval(key);
    check(key == MPI::KEYVAL_INVALID, "void* copy: Free_keyval resets the key");
  }
  {  // flag = false: nothing copied
    counter state = {0, 0}, value = {0, 0};
    int key = MPI::Datatype::Create_keyval(void_in_no_copy, cxx_delete, &state);
    roundtrip(key, &value, false, "void* copy, flag false: the dup has no attribute");
    check(state.copies == 1 && state.deletes == 1, "void* copy, flag false: ran once, one delete");
    MPI::Datatype::Free_keyval(key);
  }
  {  // the annex's const void* form and the predefined functions keep their overloads
    counter state = {0, 0}, value = {0, 0};
    int key = MPI::Datatype::Create_keyval(const_in_copy, cxx_delete, &state);
    roundtrip(key, &value, true, "const void* copy: the dup has the attribute");
    check(state.copies == 100 && state.deletes == 2, "const void* copy: the annex's function ran");
    MPI::Datatype::Free_keyval(key);
    key = MPI::Datatype::Create_keyval(MPI::Datatype::NULL_COPY_FN, MPI::Datatype::NULL_DELETE_FN,
                                       0);
    roundtrip(key, &value, false, "NULL_COPY_FN: the dup has no attribute");
    MPI::Datatype::Free_keyval(key);
  }

  std::printf("rank %d of %d: %s\n", MPI::COMM_WORLD.Get_rank(), MPI::COMM_WORLD.Get_size(),
              failures ? "FAIL" : "ok");
  MPI::Finalize();
  return failures ? 1 : 0;
}
