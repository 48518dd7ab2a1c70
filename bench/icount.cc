// icount.cc - the instruction-count guard's program (bench/icount.py, docs/performance.md, D62).
//
// Runs each hot path of attribute caching twice, `lo` and then `hi` iterations, between callgrind
// client requests: the dumps "<path>@lo" and "<path>@hi" hold the instructions of each run, and
// icount.py computes (Ir(hi) - Ir(lo)) / (hi - lo), the instructions of one iteration, with the
// setup, the warm-up and the loop's entry excluded. Instructions are deterministic, so a loaded
// machine cannot move the figure (a wall-clock benchmark on a shared CI machine can).
//
//   valgrind --tool=callgrind --instr-atstart=no ./icount single|multiple
//
// Built by CMake three ways (bench/CMakeLists.txt): against the standalone libmpiattr, and over
// each host (libmpiattr_<host> linked in front of MPICH or Open MPI); the MPI:: figure uses
// mpiattr's own C++ bindings in all three. Outside valgrind the client requests do nothing and
// the program only checks that every path gives the right answers (icount.py --no-valgrind).
#include <mpi.h>

#define BENCH_NAME "icount"
#include "mpi_check.h"

#include <valgrind/callgrind.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef ICOUNT_FORTRAN
// The Fortran bindings as a Fortran program calls them: MPI_COMM_GET_ATTR, MPI_COMM_SET_ATTR and
// MPI_ATTR_GET of mpif.h and use mpi, and the mpi_f08 specifics (whose TYPE(MPI_Comm) is one
// INTEGER passed by reference, D1; the same link name, mpi_x_f08_, on both hosts).
extern "C" void mpi_comm_get_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Aint* value,
                                   MPI_Fint* flag, MPI_Fint* ierror);
extern "C" void mpi_comm_set_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Aint* value,
                                   MPI_Fint* ierror);
extern "C" void mpi_attr_get_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag,
                              MPI_Fint* ierror);
extern "C" void mpi_comm_get_attr_f08_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Aint* value,
                                       MPI_Fint* flag, MPI_Fint* ierror);
extern "C" void mpi_comm_set_attr_f08_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Aint* value,
                                       MPI_Fint* ierror);
#endif

namespace {


void* val_of(std::intptr_t i) { return reinterpret_cast<void*>(i); }

int g_errors = 0;  // wrong answers seen in the loops (a flag that should be set, and so on)

// One path: `body(k)` runs k iterations. A warm-up of `lo` first (caches, lazy setup), then the
// two measured runs, each dumped under its own name.
template <typename Body>
void measure(const char* path, long lo, long hi, Body&& body) {
  body(lo);
  const std::string a = std::string(path) + "@" + std::to_string(lo);
  const std::string b = std::string(path) + "@" + std::to_string(hi);
  CALLGRIND_START_INSTRUMENTATION;  // only the measured runs: setup runs at full speed
  CALLGRIND_ZERO_STATS;
  body(lo);
  CALLGRIND_DUMP_STATS_AT(a.c_str());
  body(hi);
  CALLGRIND_DUMP_STATS_AT(b.c_str());
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("PATH %s %ld %ld\n", path, lo, hi);
}

// The counts of the two runs: whole cycles through the n keys, so each run averages every key.
long lo_for(int n) { return n == 1 ? 2000 : 2L * n; }
long hi_for(int n) { return n == 1 ? 4000 : 4L * n; }

// The get, set and dup paths on one object kind, through its C routines.
struct kind_ops {
  const char* name;  // comm, type, win
  int (*create_keyval)(int*);
  int (*free_keyval)(int*);
  int (*set)(std::uintptr_t, int, void*);
  int (*get)(std::uintptr_t, int, void*, int*);
  int (*del)(std::uintptr_t, int);
};

template <typename H>
std::uintptr_t as_word(H h) {
  std::uintptr_t w = 0;
  static_assert(sizeof(H) <= sizeof w, "handle wider than a pointer");
  std::memcpy(&w, &h, sizeof h);
  return w;
}
template <typename H>
H from_word(std::uintptr_t w) {
  H h;
  std::memcpy(&h, &w, sizeof h);
  return h;
}

const kind_ops kComm{
    "comm",
    [](int* k) { return MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k, nullptr); },
    [](int* k) { return MPI_Comm_free_keyval(k); },
    [](std::uintptr_t o, int k, void* v) { return MPI_Comm_set_attr(from_word<MPI_Comm>(o), k, v); },
    [](std::uintptr_t o, int k, void* v, int* f) { return MPI_Comm_get_attr(from_word<MPI_Comm>(o), k, v, f); },
    [](std::uintptr_t o, int k) { return MPI_Comm_delete_attr(from_word<MPI_Comm>(o), k); },
};
const kind_ops kType{
    "type",
    [](int* k) { return MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, k, nullptr); },
    [](int* k) { return MPI_Type_free_keyval(k); },
    [](std::uintptr_t o, int k, void* v) { return MPI_Type_set_attr(from_word<MPI_Datatype>(o), k, v); },
    [](std::uintptr_t o, int k, void* v, int* f) {
      return MPI_Type_get_attr(from_word<MPI_Datatype>(o), k, v, f);
    },
    [](std::uintptr_t o, int k) { return MPI_Type_delete_attr(from_word<MPI_Datatype>(o), k); },
};
const kind_ops kWin{
    "win",
    [](int* k) { return MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, k, nullptr); },
    [](int* k) { return MPI_Win_free_keyval(k); },
    [](std::uintptr_t o, int k, void* v) { return MPI_Win_set_attr(from_word<MPI_Win>(o), k, v); },
    [](std::uintptr_t o, int k, void* v, int* f) { return MPI_Win_get_attr(from_word<MPI_Win>(o), k, v, f); },
    [](std::uintptr_t o, int k) { return MPI_Win_delete_attr(from_word<MPI_Win>(o), k); },
};

// The MPI:: Get_attr of `cxx` (an MPI::Comm, MPI::Datatype or MPI::Win) under `key`, a hit.
template <typename Obj>
void cxx_get_path(const char* path, const Obj& cxx, int key) {
  measure(path, 2000, 4000, [&](long iters) {
    for (long i = 0; i < iters; ++i) {
      void* v = nullptr;
      if (!cxx.Get_attr(key, &v)) ++g_errors;
    }
  });
}

// Gets (hit and miss) with n attributes on `obj`; for communicators also the replacing set and the
// set + delete (at n = 1), the Fortran (mpif.h / use mpi and mpi_f08) and the MPI:: gets and sets.
void get_paths(const kind_ops& ops, std::uintptr_t obj, int n) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (int& k : keys) CHECK(ops.create_keyval(&k));
  int miss = 0;
  CHECK(ops.create_keyval(&miss));
  for (int i = 0; i < n; ++i) CHECK(ops.set(obj, keys[static_cast<std::size_t>(i)], val_of(i + 1)));
  const unsigned mask = static_cast<unsigned>(n - 1);
  const int* k = keys.data();
  const std::string suffix = "_" + std::to_string(n);
  measure((std::string(ops.name) + "_get_hit" + suffix).c_str(), lo_for(n), hi_for(n), [&](long iters) {
    for (long i = 0; i < iters; ++i) {
      void* v = nullptr;
      int flag = 0;
      if (ops.get(obj, k[i & mask], &v, &flag) != MPI_SUCCESS || !flag) ++g_errors;
    }
  });
  measure((std::string(ops.name) + "_get_miss" + suffix).c_str(), lo_for(n), hi_for(n), [&](long iters) {
    for (long i = 0; i < iters; ++i) {
      void* v = nullptr;
      int flag = 1;
      if (ops.get(obj, miss, &v, &flag) != MPI_SUCCESS || flag) ++g_errors;
    }
  });
  if (&ops == &kComm && n == 1) {
    measure("comm_set_replace", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i)
        if (ops.set(obj, k[0], val_of(i + 2)) != MPI_SUCCESS) ++g_errors;
    });
    measure("comm_set_delete", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i)
        if (ops.set(obj, miss, val_of(42)) != MPI_SUCCESS || ops.del(obj, miss) != MPI_SUCCESS) ++g_errors;
    });
#ifdef ICOUNT_FORTRAN
    const MPI_Fint fcomm = MPI_Comm_c2f(from_word<MPI_Comm>(obj));
    const MPI_Fint fkey = k[0];
    measure("fortran_comm_get_hit", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i) {
        MPI_Aint v = 0;
        MPI_Fint flag = 0, ierr = -1;
        mpi_comm_get_attr_(&fcomm, &fkey, &v, &flag, &ierr);
        if (ierr != MPI_SUCCESS || !flag) ++g_errors;
      }
    });
    measure("fortran_comm_set_replace", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i) {
        const MPI_Aint v = i + 2;
        MPI_Fint ierr = -1;
        mpi_comm_set_attr_(&fcomm, &fkey, &v, &ierr);
        if (ierr != MPI_SUCCESS) ++g_errors;
      }
    });
    measure("fortran_attr_get_hit", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i) {
        MPI_Fint v = 0, flag = 0, ierr = -1;
        mpi_attr_get_(&fcomm, &fkey, &v, &flag, &ierr);
        if (ierr != MPI_SUCCESS || !flag) ++g_errors;
      }
    });
    measure("f08_comm_get_hit", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i) {
        MPI_Aint v = 0;
        MPI_Fint flag = 0, ierr = -1;
        mpi_comm_get_attr_f08_(&fcomm, &fkey, &v, &flag, &ierr);
        if (ierr != MPI_SUCCESS || !flag) ++g_errors;
      }
    });
    measure("f08_comm_set_replace", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i) {
        const MPI_Aint v = i + 2;
        MPI_Fint ierr = -1;
        mpi_comm_set_attr_f08_(&fcomm, &fkey, &v, &ierr);
        if (ierr != MPI_SUCCESS) ++g_errors;
      }
    });
    CHECK(ops.set(obj, k[0], val_of(1)));  // a value set from C again, for the MPI:: paths
#endif
    MPI::Intracomm cxx(from_word<MPI_Comm>(obj));
    const int ckey = k[0];
    cxx_get_path("cxx_comm_get_hit", cxx, ckey);
    measure("cxx_comm_set_replace", 2000, 4000, [&](long iters) {
      for (long i = 0; i < iters; ++i) cxx.Set_attr(ckey, val_of(i + 2));
    });
  }
  // The MPI:: gets of datatypes and windows: the same member as MPI::Comm's over each kind's C
  // routine (D84: a datatype or window get costs what a communicator get does).
  if (&ops == &kType && n == 1) cxx_get_path("cxx_type_get_hit", MPI::Datatype(from_word<MPI_Datatype>(obj)), k[0]);
  if (&ops == &kWin && n == 1) cxx_get_path("cxx_win_get_hit", MPI::Win(from_word<MPI_Win>(obj)), k[0]);
  for (int& key : keys) CHECK(ops.del(obj, key));
  for (int& key : keys) CHECK(ops.free_keyval(&key));
  CHECK(ops.free_keyval(&miss));
}

// The dup + free of an object carrying n attributes (MPI_XXX_DUP_FN copies each): n = 1 is what
// the first attribute costs a dup (D73). `obj` is the caller's; its attributes go at the end.
template <typename H>
void dup_path(const kind_ops& ops, H obj, int n, long lo, long hi, int (*dup)(H, H*), int (*release)(H*)) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    CHECK(ops.create_keyval(&keys[static_cast<std::size_t>(i)]));
    CHECK(ops.set(as_word(obj), keys[static_cast<std::size_t>(i)], val_of(i + 1)));
  }
  measure((std::string(ops.name) + "_dup_free_" + std::to_string(n)).c_str(), lo, hi, [&](long iters) {
    for (long i = 0; i < iters; ++i) {
      H d;
      if (dup(obj, &d) != MPI_SUCCESS || release(&d) != MPI_SUCCESS) ++g_errors;
    }
  });
  for (int& k : keys) {
    CHECK(ops.del(as_word(obj), k));
    CHECK(ops.free_keyval(&k));
  }
}

void type_dup_path(const char* path, MPI_Datatype t) {
  measure(path, 500, 1000, [&](long iters) {
    for (long i = 0; i < iters; ++i) {
      MPI_Datatype d;
      if (MPI_Type_dup(t, &d) != MPI_SUCCESS || MPI_Type_free(&d) != MPI_SUCCESS) ++g_errors;
    }
  });
}

// A derived datatype's constructor and MPI_Type_free.
template <typename Make>
void type_make_path(const char* path, Make&& make) {
  measure(path, 500, 1000, [&](long iters) {
    for (long i = 0; i < iters; ++i) {
      MPI_Datatype d;
      if (make(&d) != MPI_SUCCESS || MPI_Type_free(&d) != MPI_SUCCESS) ++g_errors;
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  const bool multiple = argc > 1 && std::strcmp(argv[1], "multiple") == 0;
  int provided = 0;
  CHECK(MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided));
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  std::printf("LEVEL %s\n", provided == MPI_THREAD_MULTIPLE ? "multiple" : provided == MPI_THREAD_SINGLE ? "single" : "other");

  MPI_Comm comm;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  MPI_Datatype type;
  CHECK(MPI_Type_dup(MPI_INT, &type));
  std::vector<int> winbuf(64);
  MPI_Win win;
  CHECK(MPI_Win_create(winbuf.data(), static_cast<MPI_Aint>(winbuf.size() * sizeof(int)), sizeof(int),
                       MPI_INFO_NULL, MPI_COMM_SELF, &win));
  for (int n : {1, 4096}) {
    get_paths(kComm, as_word(comm), n);
    get_paths(kType, as_word(type), n);
    get_paths(kWin, as_word(win), n);
  }
  measure("keyval_create_free", 2000, 4000, [](long iters) {
    for (long i = 0; i < iters; ++i) {
      int k;
      if (kComm.create_keyval(&k) != MPI_SUCCESS || MPI_Comm_free_keyval(&k) != MPI_SUCCESS) ++g_errors;
    }
  });
  MPI_Comm dupped;  // (comm is the get paths', with keyvals freed behind it: a fresh one)
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dupped));
  for (int n : {0, 1, 64}) dup_path(kComm, dupped, n, 200, 400, MPI_Comm_dup, MPI_Comm_free);
  CHECK(MPI_Comm_free(&dupped));
  MPI_Datatype carrier;
  CHECK(MPI_Type_contiguous(4, MPI_INT, &carrier));
  dup_path(kType, carrier, 1, 500, 1000, MPI_Type_dup, MPI_Type_free);
  CHECK(MPI_Type_free(&carrier));
  type_dup_path("type_dup_free_predefined", MPI_INT);
  MPI_Datatype contig;
  CHECK(MPI_Type_contiguous(4, MPI_INT, &contig));
  type_dup_path("type_dup_free_derived", contig);
  type_make_path("type_contiguous_free", [](MPI_Datatype* d) { return MPI_Type_contiguous(4, MPI_INT, d); });
  type_make_path("type_vector_free", [](MPI_Datatype* d) { return MPI_Type_vector(4, 2, 3, MPI_INT, d); });
  type_make_path("type_struct_free", [](MPI_Datatype* d) {
    const int lens[2] = {1, 2};
    const MPI_Aint disps[2] = {0, 8};
    const MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    return MPI_Type_create_struct(2, lens, disps, types, d);
  });

  CHECK(MPI_Type_free(&contig));
  CHECK(MPI_Win_free(&win));
  CHECK(MPI_Type_free(&type));
  CHECK(MPI_Comm_free(&comm));
  std::printf("ERRORS %d\n", g_errors);
  std::fflush(stdout);
  CHECK(MPI_Finalize());
  return g_errors == 0 ? 0 : 1;
}
