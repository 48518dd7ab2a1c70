// bench/scale_bench.cc: the cost of a get and a set against the number of objects (docs/decisions.md
// D63). One keyval, an attribute on each of n objects of one kind (dups of MPI_COMM_SELF, dups of
// MPI_INT, windows on MPI_COMM_SELF), and gets (then sets) on those objects in a random order fixed
// in advance, so that each call finds its object somewhere else than the last one. Only the
// standard MPI C API: compiled unchanged against mpiattr, MPICH and Open MPI, alone or with
// mpiattr's host library in front (bench/scale.py builds and runs them).
//
//   scale_bench KIND N1 N2 ... [--ms M]
//
// KIND is comm, type or win; the objects are made once, growing from one n to the next. For each
// n it prints `RESULT <kind>_get/<n> <ns>` and `RESULT <kind>_set/<n> <ns>`: the median of five
// timed batches of about M ms each (default 20). `--passes P` instead makes exactly P passes of
// 65536 calls for each figure, untimed (twice under callgrind with different P: the difference
// over the calls is the instructions per call, whatever the load of the machine); `--only get`
// or `--only set` takes one of the two figures.
#define OMPI_SKIP_MPICXX 1  // (the C API only: no host C++ bindings)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#define BENCH_NAME "scale_bench"
#include "mpi_check.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using bench::die;

enum class Kind { comm, type, win };
long g_passes = -1;  // --passes
const char* g_only = nullptr;  // --only get|set

struct Objects {
  Kind kind;
  int key = MPI_KEYVAL_INVALID;
  std::vector<MPI_Comm> comms;
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Win> wins;
  std::vector<int> buf = std::vector<int>(16);

  explicit Objects(Kind k) : kind(k) {
    if (kind == Kind::comm) CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, nullptr));
    if (kind == Kind::type) CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, nullptr));
    if (kind == Kind::win) CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key, nullptr));
  }
  std::size_t size() const { return kind == Kind::comm ? comms.size() : kind == Kind::type ? types.size() : wins.size(); }
  void grow(std::size_t n) {
    while (size() < n) {
      void* v = reinterpret_cast<void*>(static_cast<std::intptr_t>(size() + 1));
      if (kind == Kind::comm) {
        MPI_Comm c;
        CHECK(MPI_Comm_dup(MPI_COMM_SELF, &c));
        CHECK(MPI_Comm_set_attr(c, key, v));
        comms.push_back(c);
      } else if (kind == Kind::type) {
        MPI_Datatype t;
        CHECK(MPI_Type_dup(MPI_INT, &t));
        CHECK(MPI_Type_set_attr(t, key, v));
        types.push_back(t);
      } else {
        MPI_Win w;
        CHECK(MPI_Win_create(buf.data(), static_cast<MPI_Aint>(buf.size() * sizeof(int)), sizeof(int),
                             MPI_INFO_NULL, MPI_COMM_SELF, &w));
        CHECK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
        CHECK(MPI_Win_set_attr(w, key, v));
        wins.push_back(w);
      }
    }
  }
  ~Objects() {
    for (MPI_Comm& c : comms) CHECK(MPI_Comm_free(&c));
    for (MPI_Datatype& t : types) CHECK(MPI_Type_free(&t));
    for (MPI_Win& w : wins) CHECK(MPI_Win_free(&w));
    if (kind == Kind::comm) CHECK(MPI_Comm_free_keyval(&key));
    if (kind == Kind::type) CHECK(MPI_Type_free_keyval(&key));
    if (kind == Kind::win) CHECK(MPI_Win_free_keyval(&key));
  }
};

// The order of the calls: 1<<16 indices below n, drawn at random (xorshift, fixed seed).
std::vector<std::uint32_t> order(std::size_t n) {
  std::vector<std::uint32_t> v(std::size_t{1} << 16);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& i : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    i = static_cast<std::uint32_t>(x % n);
  }
  return v;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One pass over `ord` of get (set false) or set: returns false if a call failed or a value was wrong.
template <typename H>
bool pass(const std::vector<H>& objs, const std::vector<std::uint32_t>& ord, int key, bool set,
          int (*get_fn)(H, int, void*, int*), int (*set_fn)(H, int, void*)) {
  long bad = 0;
  if (set) {
    for (std::uint32_t i : ord)
      bad += set_fn(objs[i], key, reinterpret_cast<void*>(static_cast<std::intptr_t>(i + 1))) != MPI_SUCCESS;
  } else {
    for (std::uint32_t i : ord) {
      void* v = nullptr;
      int flag = 0;
      bad += get_fn(objs[i], key, &v, &flag) != MPI_SUCCESS;
      bad += !flag || v != reinterpret_cast<void*>(static_cast<std::intptr_t>(i + 1));
    }
  }
  return bad == 0;
}

template <typename H>
double measure(const std::vector<H>& objs, int key, bool set, double ms, int (*get_fn)(H, int, void*, int*),
               int (*set_fn)(H, int, void*)) {
  const std::vector<std::uint32_t> ord = order(objs.size());
  if (g_passes >= 0) {
    for (long p = 0; p < g_passes; ++p)
      if (!pass(objs, ord, key, set, get_fn, set_fn)) die(set ? "a set" : "a get", -1);
    return 0;
  }
  // Passes per batch: from a first timed pass (which also warms the caches).
  double t0 = now();
  if (!pass(objs, ord, key, set, get_fn, set_fn)) die(set ? "a set" : "a get", -1);
  const double one = std::max(now() - t0, 1e-7);
  const long passes = std::max(1L, static_cast<long>(ms / 1e3 / one));
  std::vector<double> ns;
  for (int b = 0; b < 5; ++b) {
    t0 = now();
    for (long p = 0; p < passes; ++p)
      if (!pass(objs, ord, key, set, get_fn, set_fn)) die(set ? "a set" : "a get", -1);
    ns.push_back((now() - t0) * 1e9 / (static_cast<double>(passes) * static_cast<double>(ord.size())));
  }
  std::sort(ns.begin(), ns.end());
  return ns[2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: scale_bench comm|type|win N... [--ms M]\n");
    return 2;
  }
  const std::string k = argv[1];
  const Kind kind = k == "comm" ? Kind::comm : k == "type" ? Kind::type : Kind::win;
  if (k != "comm" && k != "type" && k != "win") return 2;
  std::vector<std::size_t> ns;
  double ms = 20;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ms") == 0 && i + 1 < argc) ms = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--passes") == 0 && i + 1 < argc) g_passes = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) g_only = argv[++i];
    else ns.push_back(static_cast<std::size_t>(std::atol(argv[i])));
  }
  int provided;
  CHECK(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided));
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  {
    Objects o(kind);
    for (std::size_t n : ns) {
      o.grow(n);
      for (bool set : {false, true}) {
        if (g_only != nullptr && std::strcmp(g_only, set ? "set" : "get") != 0) continue;
        double t = kind == Kind::comm ? measure(o.comms, o.key, set, ms, MPI_Comm_get_attr, MPI_Comm_set_attr)
                   : kind == Kind::type ? measure(o.types, o.key, set, ms, MPI_Type_get_attr, MPI_Type_set_attr)
                                        : measure(o.wins, o.key, set, ms, MPI_Win_get_attr, MPI_Win_set_attr);
        std::printf("RESULT %s_%s/%zu %.3f\n", k.c_str(), set ? "set" : "get", n, t);
        std::fflush(stdout);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
