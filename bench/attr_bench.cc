// attr_bench.cc - attribute-caching benchmark.
//
// One source, standard MPI C API only.  Compiles unchanged against MPICH
// (mpicxx.mpich), Open MPI (mpicxx.openmpi) and mpiattr (g++ -I<build>/include
// -L<build>/lib -lmpiattr).  bench/run.py builds and runs all three.
//
// Modes (parsed and removed from argv before Google Benchmark sees it):
//   (default)            Google Benchmark timing figures (see register_all()).
//   --gbench             run the Google Benchmark figures in addition to the
//                        modes below (they are otherwise skipped).
//   --mem                RSS growth per attribute, 1000 comms x 1000 keys.
//   --threads            get throughput: 1 thread, 2 threads on distinct
//                        communicators, 2 threads on the same communicator.
//   --callgrind-get N    N gets (--attrs n attributes on the communicator)
//   --callgrind-set N    N replacing sets, between callgrind client requests;
//                        run under valgrind --tool=callgrind --instr-atstart=no.
//   --attrs n            attribute count for the callgrind modes (default 1).
//   --quick              tiny counts for a CI smoke test (no timing claims).
//   --thread-single      MPI_Init_thread(MPI_THREAD_SINGLE) instead of
//                        MPI_THREAD_MULTIPLE (for the record only).
//   --front              also register comm_dup_free_front/0 and
//                        type_dup_free_front/0 (host mode, bench/run.py --host):
//                        a dup + free of an object with no attribute through
//                        the MPI_ names against the same through the host
//                        library's own PMPI_ routines, in one process; and
//                        the same for the error routines (error_class_front,
//                        error_string_front, errhandler_front,
//                        errhandler_create_free_front).
//   --finalize K         time MPI_Finalize itself (RESULT finalize_ns) with K
//                        dups of MPI_COMM_WORLD alive, each with an attribute,
//                        and one on MPI_COMM_WORLD and MPI_COMM_SELF (K = 0:
//                        no caching call at all); nothing else runs.
//
// Machine-readable results of the extra modes are printed as lines
//   RESULT <name> <value>
// Google Benchmark results go wherever --benchmark_out / --benchmark_format say.

#define MPICH_SKIP_MPICXX 1
#define OMPI_SKIP_MPICXX 1
#define MPIATTR_SKIP_MPICXX 1
#include <mpi.h>

#define BENCH_NAME "attr_bench"
#include "mpi_check.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// The timed loops' code placement (D86).  A loop's place relative to the 64-byte lines of the
// instruction cache moves a 2 ns get by up to 50 % on this machine (one build read 1.9 ns, the
// same source placed 16 bytes further 2.9 ns), whatever the library.  bench/run.py builds every
// implementation's benchmark with -falign-functions=64 -fno-align-loops, several times with
// ATTR_BENCH_PAD = 0, 16, 32, 48: the padding, executed once before each timed loop, shifts the
// loop by that many bytes, so every implementation is measured at the same set of placements.
#ifndef ATTR_BENCH_PAD
#define ATTR_BENCH_PAD 0
#endif
#define ATTR_BENCH_STR2(x) #x
#define ATTR_BENCH_STR(x) ATTR_BENCH_STR2(x)
#if ATTR_BENCH_PAD > 0
#define TIMED_LOOP_PLACEMENT() __asm__ volatile(".skip " ATTR_BENCH_STR(ATTR_BENCH_PAD) ", 0x90")
#else
#define TIMED_LOOP_PLACEMENT() static_cast<void>(0)
#endif

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define ATTR_BENCH_HAVE_CALLGRIND 1
#endif
#endif

namespace {

#if defined(MPICH_VERSION)
const char* const kImpl = "MPICH " MPICH_VERSION;
#elif defined(OMPI_MAJOR_VERSION)
const char* const kImpl = "Open MPI";
#else
const char* const kImpl = "mpiattr";
#endif

bool g_quick = false;

using bench::die;

inline void* val_of(std::intptr_t i) { return reinterpret_cast<void*>(i); }

// The n values of the issue; all are powers of two so the loops can cycle
// through the keys with a mask instead of a compare.
const int kNs[] = {1, 16, 256, 4096, 65536};
const int kNsSmall[] = {1, 4096};

// ---------------------------------------------------------------------------
// Fixtures.  An object of the given kind carrying n attributes (keys[0..n)),
// plus one keyval that is never set on it (miss) and one spare (extra).
// Setup is kept out of the timed loops: Google Benchmark calls a benchmark
// function several times while it sizes the iteration count, so the fixture
// is cached per (object kind, n) -- shared by consecutive benchmarks with the
// same kind and n (none of them changes its shape) -- and torn down, keyvals
// included, as soon as a benchmark asks for a different one.

enum class Kind { Comm, Type, Win };

struct Fixture {
  Kind kind;
  int n;
  std::vector<int> keys;
  int miss = 0;
  int extra = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Win win = MPI_WIN_NULL;
  std::vector<int> winbuf;

  Fixture(Kind k, int nattrs) : kind(k), n(nattrs) {
    keys.resize(n);
    switch (kind) {
      case Kind::Comm:
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
        for (int i = 0; i < n; ++i)
          CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keys[i], nullptr));
        CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &miss, nullptr));
        CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &extra, nullptr));
        for (int i = 0; i < n; ++i) CHECK(MPI_Comm_set_attr(comm, keys[i], val_of(i + 1)));
        break;
      case Kind::Type:
        CHECK(MPI_Type_dup(MPI_INT, &type));
        for (int i = 0; i < n; ++i)
          CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &keys[i], nullptr));
        CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &miss, nullptr));
        CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &extra, nullptr));
        for (int i = 0; i < n; ++i) CHECK(MPI_Type_set_attr(type, keys[i], val_of(i + 1)));
        break;
      case Kind::Win:
        winbuf.assign(64, 0);
        CHECK(MPI_Win_create(winbuf.data(), static_cast<MPI_Aint>(winbuf.size() * sizeof(int)),
                             static_cast<int>(sizeof(int)), MPI_INFO_NULL, MPI_COMM_SELF, &win));
        CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
        for (int i = 0; i < n; ++i)
          CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &keys[i], nullptr));
        CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &miss, nullptr));
        CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &extra, nullptr));
        for (int i = 0; i < n; ++i) CHECK(MPI_Win_set_attr(win, keys[i], val_of(i + 1)));
        break;
    }
  }

  ~Fixture() {
    switch (kind) {
      case Kind::Comm:
        CHECK(MPI_Comm_free(&comm));
        for (int& k : keys) CHECK(MPI_Comm_free_keyval(&k));
        CHECK(MPI_Comm_free_keyval(&miss));
        CHECK(MPI_Comm_free_keyval(&extra));
        break;
      case Kind::Type:
        CHECK(MPI_Type_free(&type));
        for (int& k : keys) CHECK(MPI_Type_free_keyval(&k));
        CHECK(MPI_Type_free_keyval(&miss));
        CHECK(MPI_Type_free_keyval(&extra));
        break;
      case Kind::Win:
        CHECK(MPI_Win_free(&win));
        for (int& k : keys) CHECK(MPI_Win_free_keyval(&k));
        CHECK(MPI_Win_free_keyval(&miss));
        CHECK(MPI_Win_free_keyval(&extra));
        break;
    }
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
};

std::unique_ptr<Fixture> g_fix;
std::string g_fix_owner;

Fixture& fixture(Kind kind, int n) {
  std::string tag = std::to_string(static_cast<int>(kind)) + "/" + std::to_string(n);
  if (!g_fix || g_fix_owner != tag) {
    g_fix.reset();  // free the previous benchmark's objects and keyvals first
    g_fix.reset(new Fixture(kind, n));
    g_fix_owner = tag;
  }
  return *g_fix;
}

void drop_fixture() { g_fix.reset(); g_fix_owner.clear(); }

void finish(benchmark::State& state, int rc, bool ok) {
  if (rc != MPI_SUCCESS) state.SkipWithError("MPI call returned an error");
  else if (!ok) state.SkipWithError("unexpected attribute flag");
}

// ---------------------------------------------------------------------------
// Timed figures.  Each iteration is one operation (or one pair for
// set+delete, create+free, dup+free).  Gets/sets cycle through all n keys in
// creation order, so the time is the average over the keys present.

// A get that finds its attribute, on the fixture's object of kind K through routine Get.
template <Kind K, typename H, H Fixture::*Object, int (*Get)(H, int, void*, int*)>
void get_hit(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Fixture& f = fixture(K, n);
  const H obj = f.*Object;
  const int* keys = f.keys.data();
  const unsigned mask = static_cast<unsigned>(n - 1);
  unsigned i = 0;
  int rc = 0, ok = 1;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    void* v;
    int flag;
    rc |= Get(obj, keys[i], &v, &flag);
    benchmark::DoNotOptimize(v);
    ok &= flag;
    i = (i + 1) & mask;
  }
  finish(state, rc, ok);
}

void comm_get_hit(benchmark::State& state) {
  get_hit<Kind::Comm, MPI_Comm, &Fixture::comm, MPI_Comm_get_attr>(state);
}

void comm_get_miss(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Fixture& f = fixture(Kind::Comm, n);
  const MPI_Comm c = f.comm;
  const int key = f.miss;
  int rc = 0, any = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    void* v;
    int flag;
    rc |= MPI_Comm_get_attr(c, key, &v, &flag);
    any |= flag;
  }
  finish(state, rc, !any);
}

void comm_set_replace(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Fixture& f = fixture(Kind::Comm, n);
  const MPI_Comm c = f.comm;
  const int* keys = f.keys.data();
  const unsigned mask = static_cast<unsigned>(n - 1);
  unsigned i = 0;
  std::intptr_t v = 1;
  int rc = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    rc |= MPI_Comm_set_attr(c, keys[i], val_of(v));
    ++v;
    i = (i + 1) & mask;
  }
  finish(state, rc, true);
}

void comm_set_delete(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Fixture& f = fixture(Kind::Comm, n);
  const MPI_Comm c = f.comm;
  const int key = f.extra;
  int rc = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    rc |= MPI_Comm_set_attr(c, key, val_of(42));
    rc |= MPI_Comm_delete_attr(c, key);
  }
  finish(state, rc, true);
}

void type_get_hit(benchmark::State& state) {
  get_hit<Kind::Type, MPI_Datatype, &Fixture::type, MPI_Type_get_attr>(state);
}

void win_get_hit(benchmark::State& state) {
  get_hit<Kind::Win, MPI_Win, &Fixture::win, MPI_Win_get_attr>(state);
}

void keyval_create_free(benchmark::State& state) {
  drop_fixture();
  int rc = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    int k;
    rc |= MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr);
    rc |= MPI_Comm_free_keyval(&k);
  }
  finish(state, rc, true);
}

// n = 0 is the bare dup + free; run.py reports (t_n - t_0) / n per attribute.
void comm_dup_free(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Fixture& f = fixture(Kind::Comm, n);
  const MPI_Comm c = f.comm;
  int rc = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    MPI_Comm d;
    rc |= MPI_Comm_dup(c, &d);
    rc |= MPI_Comm_free(&d);
  }
  finish(state, rc, true);
}

// The timed dup + free of datatype t.
void type_dup_free_loop(benchmark::State& state, MPI_Datatype t) {
  int rc = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    MPI_Datatype d;
    rc |= MPI_Type_dup(t, &d);
    rc |= MPI_Type_free(&d);
  }
  finish(state, rc, true);
}
void type_dup_free(benchmark::State& state) {
  type_dup_free_loop(state, fixture(Kind::Type, static_cast<int>(state.range(0))).type);
}

// The dup + free of a datatype without attributes that no fixture made: MPI_INT itself (a
// predefined datatype) or a contiguous datatype of four MPI_INT (a derived one).
void type_dup_free_of(benchmark::State& state, MPI_Datatype t) {
  drop_fixture();
  type_dup_free_loop(state, t);
}
void type_dup_free_named(benchmark::State& state) { type_dup_free_of(state, MPI_INT); }
void type_dup_free_derived(benchmark::State& state) {
  MPI_Datatype c;
  CHECK(MPI_Type_contiguous(4, MPI_INT, &c));
  type_dup_free_of(state, c);
  CHECK(MPI_Type_free(&c));
}

// A derived-datatype constructor and MPI_Type_free, each iteration one pair.
template <typename Make>
void type_make_free(benchmark::State& state, Make make) {
  drop_fixture();
  int rc = 0;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    MPI_Datatype d;
    rc |= make(&d);
    rc |= MPI_Type_free(&d);
  }
  finish(state, rc, true);
}
void type_contiguous_free(benchmark::State& state) {
  type_make_free(state, [](MPI_Datatype* d) { return MPI_Type_contiguous(4, MPI_INT, d); });
}
void type_vector_free(benchmark::State& state) {
  type_make_free(state, [](MPI_Datatype* d) { return MPI_Type_vector(4, 2, 3, MPI_INT, d); });
}
void type_struct_free(benchmark::State& state) {
  type_make_free(state, [](MPI_Datatype* d) {
    const int lens[2] = {1, 2};
    const MPI_Aint disps[2] = {0, 8};
    const MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    return MPI_Type_create_struct(2, lens, disps, types, d);
  });
}

// The benchmark loop of two alternating timed batches, run(true) and run(false), each order half
// the time: the nanoseconds each side took in all, the rounds, the median over groups of 64
// rounds of each group's ratio on / off (D74: a group that a preemption or another process's burst
// hit moves the sums, not the median; the front figures report it), and the mean of the middle
// half of the rounds' differences on - off (D79: the dup + free deltas; a round that a preemption
// hit is an outlier among thousands, where in the sums it outweighed the difference measured; a
// median alone moved in the clock's steps, 0.5 ns per attribute at n = 1).
struct alternated {
  double on_ns = 0, off_ns = 0;
  long rounds = 0;
  double median_ratio = 0;
  double middle_diff_ns = 0;
};
template <typename Run>
alternated alternate(benchmark::State& state, Run&& run) {
  using clock = std::chrono::steady_clock;
  std::chrono::duration<double, std::nano> on{0}, off{0}, group_on{0}, group_off{0};
  std::vector<double> ratios, diffs;
  alternated a;
  TIMED_LOOP_PLACEMENT();
  for (auto _ : state) {
    const bool on_first = (a.rounds & 1) != 0;
    const auto t0 = clock::now();
    run(on_first);
    const auto t1 = clock::now();
    run(!on_first);
    const auto t2 = clock::now();
    (on_first ? group_on : group_off) += t1 - t0;
    (on_first ? group_off : group_on) += t2 - t1;
    const std::chrono::duration<double, std::nano> first = t1 - t0, second = t2 - t1;
    diffs.push_back(on_first ? first.count() - second.count() : second.count() - first.count());
    if ((++a.rounds & 63) == 0) {
      if (group_off.count() > 0) ratios.push_back(group_on / group_off);
      on += group_on;
      off += group_off;
      group_on = group_off = {};
    }
  }
  on += group_on;
  off += group_off;
  a.on_ns = on.count();
  a.off_ns = off.count();
  if (!ratios.empty()) {
    std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
    a.median_ratio = ratios[ratios.size() / 2];
  } else if (a.off_ns > 0) {
    a.median_ratio = a.on_ns / a.off_ns;
  }
  if (!diffs.empty()) {  // the mean of the middle half (the clock's steps make a median coarse)
    std::sort(diffs.begin(), diffs.end());
    const std::size_t lo = diffs.size() / 4, hi = diffs.size() - diffs.size() / 4;
    double sum = 0;
    for (std::size_t i = lo; i < hi; ++i) sum += diffs[i];
    a.middle_diff_ns = sum / static_cast<double>(hi - lo);
  }
  return a;
}

// The cost per attribute of a dup + free: the fixture's object (n attributes) and a bare object
// of the same kind, dup'ed and freed in alternating batches inside one loop, each batch timed,
// so that both sides see the same machine state (separate figures for t_n and t_0, a second
// apart, moved by more than the difference at small n). Reported as the counter per_attr_ns: the
// mean of the middle half of the rounds' differences, per attribute (D79).
template <Kind K>
void dup_free_delta(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Fixture& f = fixture(K, n);
  const int batch = n >= 4096 ? 2 : 16;
  MPI_Comm bare_comm = MPI_COMM_NULL;
  MPI_Datatype bare_type = MPI_DATATYPE_NULL;
  if (K == Kind::Comm) CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &bare_comm));
  else CHECK(MPI_Type_dup(MPI_INT, &bare_type));
  int rc = 0;
  auto run = [&](bool with_attrs) {
    for (int i = 0; i < batch; ++i) {
      if (K == Kind::Comm) {
        MPI_Comm d;
        rc |= MPI_Comm_dup(with_attrs ? f.comm : bare_comm, &d);
        rc |= MPI_Comm_free(&d);
      } else {
        MPI_Datatype d;
        rc |= MPI_Type_dup(with_attrs ? f.type : bare_type, &d);
        rc |= MPI_Type_free(&d);
      }
    }
  };
  const alternated a = alternate(state, run);  // on: with the attributes
  if (K == Kind::Comm) CHECK(MPI_Comm_free(&bare_comm));
  else CHECK(MPI_Type_free(&bare_type));
  if (a.rounds > 0) state.counters["per_attr_ns"] = a.middle_diff_ns / (double(batch) * n);
  finish(state, rc, true);
}

// Host mode (--front): the dup + free of an object with no attribute, through the MPI_ names
// (mpiattr's library in front of the host, or the host itself in the host-alone build) against
// the same through the host library's own PMPI_ routines, found in the library that defines
// PMPI_Send (which mpiattr does not define), in alternating timed batches in one process, as
// dup_free_delta. Across processes the hosts' own dup + free times are bimodal (MPICH's datatype
// dup + free at MPI_THREAD_MULTIPLE takes about 175 or about 300 ns depending on the process),
// which hides a 5 % difference; in one process both sides share the mode. Reported as the
// counter front_ratio: time through the MPI_ names / time through the host's routines.
template <typename F>
F host_routine(const char* name) {
  Dl_info info{};
  void* lib = nullptr;
  if (dladdr(reinterpret_cast<void*>(&PMPI_Send), &info) != 0 && info.dli_fname != nullptr)
    lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  return lib == nullptr ? nullptr : reinterpret_cast<F>(dlsym(lib, name));
}
template <Kind K>
void dup_free_front(benchmark::State& state) {
  using comm_dup_t = int (*)(MPI_Comm, MPI_Comm*);
  using comm_free_t = int (*)(MPI_Comm*);
  using type_dup_t = int (*)(MPI_Datatype, MPI_Datatype*);
  using type_free_t = int (*)(MPI_Datatype*);
  static const auto host_comm_dup = host_routine<comm_dup_t>("PMPI_Comm_dup");
  static const auto host_comm_free = host_routine<comm_free_t>("PMPI_Comm_free");
  static const auto host_type_dup = host_routine<type_dup_t>("PMPI_Type_dup");
  static const auto host_type_free = host_routine<type_free_t>("PMPI_Type_free");
  if (!host_comm_dup || !host_comm_free || !host_type_dup || !host_type_free) {
    state.SkipWithError("the host library's PMPI_ routines were not found");
    return;
  }
  constexpr int batch = 16;
  MPI_Comm bare_comm = MPI_COMM_NULL;
  MPI_Datatype bare_type = MPI_DATATYPE_NULL;
  if (K == Kind::Comm) CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &bare_comm));
  else CHECK(MPI_Type_dup(MPI_INT, &bare_type));
  int rc = 0;
  auto run = [&](bool through_mpi) {
    for (int i = 0; i < batch; ++i) {
      if (K == Kind::Comm) {
        MPI_Comm d;
        rc |= through_mpi ? MPI_Comm_dup(bare_comm, &d) : host_comm_dup(bare_comm, &d);
        rc |= through_mpi ? MPI_Comm_free(&d) : host_comm_free(&d);
      } else {
        MPI_Datatype d;
        rc |= through_mpi ? MPI_Type_dup(bare_type, &d) : host_type_dup(bare_type, &d);
        rc |= through_mpi ? MPI_Type_free(&d) : host_type_free(&d);
      }
    }
  };
  const alternated a = alternate(state, run);  // on: through the MPI_ names
  if (K == Kind::Comm) CHECK(MPI_Comm_free(&bare_comm));
  else CHECK(MPI_Type_free(&bare_type));
  if (a.rounds > 0 && a.off_ns > 0) state.counters["front_ratio"] = a.on_ns / a.off_ns;
  finish(state, rc, true);
}

// Host mode (--front): the routines mpiattr's host library defines in front of the host but has
// nothing of its own to do in (an error code it did not make, an object without its attributes),
// and error-handler routines it does not define at all (a control: both sides are the host's),
// each through the MPI_ names against the host library's PMPI_ routine, as dup_free_front.
// MPI_ERRORS_RETURN is on MPI_COMM_WORLD (main).
bool found(benchmark::State& state, std::initializer_list<const void*> routines) {
  for (const void* r : routines)
    if (r == nullptr) {
      state.SkipWithError("the host library's PMPI_ routines were not found");
      return false;
    }
  return true;
}
// (run(through_mpi) picks the routines' addresses, then calls them from the same instructions: a
// figure whose two sides had their own call sites measured their code's placement as well, which
// read 1.16x over MPICH with the host's routine on both sides. D74.)
template <typename Run>
void front_figure(benchmark::State& state, int& rc, Run&& run) {
  const alternated a = alternate(state, run);  // on: through the MPI_ names
  if (a.rounds > 0 && a.off_ns > 0) state.counters["front_ratio"] = a.median_ratio;
  finish(state, rc, true);
}
// The routine R through the MPI_ name or the host library's PMPI_ one, as a pointer the benchmark
// calls (the compiler cannot tell the two apart, so both sides run the same instructions).
template <typename F>
F either(bool through_mpi, F mpi, F host) {
  F f = through_mpi ? mpi : host;
  benchmark::DoNotOptimize(f);
  return f;
}
// A code the host made for an error of its own (MPICH's carries a message of its own), and an
// error class: the codes MPI_Error_class and MPI_Error_string are asked about.
int host_error_code() {
  int rank = 0;
  const int code = MPI_Comm_rank(MPI_COMM_NULL, &rank);  // (not a routine mpiattr defines)
  return code != MPI_SUCCESS ? code : MPI_ERR_COMM;
}
// MPI_Error_class: since D87 the host library does not define it (the codes mpiattr returns are the
// host's), so MPI_Error_class here is the host's own routine on both sides: the ratio is 1 by
// construction, and a library that defined it again would show its cost here.
void error_class_front(benchmark::State& state) {
  using fn_t = int (*)(int, int*);
  static const auto host = host_routine<fn_t>("PMPI_Error_class");
  if (!found(state, {reinterpret_cast<const void*>(host)})) return;
  const int codes[2] = {host_error_code(), MPI_ERR_ARG};
  int rc = 0, sum = 0;
  auto run = [&](bool through_mpi) {
    const fn_t f = either<fn_t>(through_mpi, MPI_Error_class, host);
    for (int i = 0; i < 16; ++i) {
      int cls = 0;
      rc |= f(codes[i & 1], &cls);
      sum += cls;
    }
  };
  front_figure(state, rc, run);
  benchmark::DoNotOptimize(sum);
}
void error_string_front(benchmark::State& state) {
  using fn_t = int (*)(int, char*, int*);
  static const auto host = host_routine<fn_t>("PMPI_Error_string");
  if (!found(state, {reinterpret_cast<const void*>(host)})) return;
  const int codes[2] = {host_error_code(), MPI_ERR_ARG};
  int rc = 0;
  char text[MPI_MAX_ERROR_STRING];
  auto run = [&](bool through_mpi) {
    const fn_t f = either<fn_t>(through_mpi, MPI_Error_string, host);
    for (int i = 0; i < 16; ++i) {
      int len = 0;
      rc |= f(codes[i & 1], text, &len);
      benchmark::DoNotOptimize(text[0]);
    }
  };
  front_figure(state, rc, run);
}
// MPI_Comm_set_errhandler + MPI_Comm_get_errhandler + MPI_Errhandler_free of what it gave, and
// MPI_Comm_call_errhandler under MPI_ERRORS_RETURN, on a dup of
// MPI_COMM_WORLD.
void errhandler_front(benchmark::State& state) {
  using set_t = int (*)(MPI_Comm, MPI_Errhandler);
  using get_t = int (*)(MPI_Comm, MPI_Errhandler*);
  using free_t = int (*)(MPI_Errhandler*);
  using call_t = int (*)(MPI_Comm, int);
  static const auto host_set = host_routine<set_t>("PMPI_Comm_set_errhandler");
  static const auto host_get = host_routine<get_t>("PMPI_Comm_get_errhandler");
  static const auto host_free = host_routine<free_t>("PMPI_Errhandler_free");
  static const auto host_call = host_routine<call_t>("PMPI_Comm_call_errhandler");
  if (!found(state, {reinterpret_cast<const void*>(host_set), reinterpret_cast<const void*>(host_get),
                     reinterpret_cast<const void*>(host_free), reinterpret_cast<const void*>(host_call)}))
    return;
  MPI_Comm c;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  int rc = 0, called = 0;
  auto run = [&](bool through_mpi) {
    const set_t set = either<set_t>(through_mpi, MPI_Comm_set_errhandler, host_set);
    const get_t get = either<get_t>(through_mpi, MPI_Comm_get_errhandler, host_get);
    const free_t release = either<free_t>(through_mpi, MPI_Errhandler_free, host_free);
    const call_t call = either<call_t>(through_mpi, MPI_Comm_call_errhandler, host_call);
    for (int i = 0; i < 16; ++i) {
      MPI_Errhandler eh;
      rc |= set(c, MPI_ERRORS_RETURN);
      rc |= get(c, &eh);
      rc |= release(&eh);
      called |= call(c, MPI_ERR_OTHER);
    }
  };
  front_figure(state, rc, run);
  CHECK(MPI_Comm_free(&c));
  benchmark::DoNotOptimize(called);  // (MPI_SUCCESS, or the code: not judged here)
}
void errhandler_noop(MPI_Comm*, int*, ...) {}
// MPI_Comm_create_errhandler + MPI_Errhandler_free.
void errhandler_create_free_front(benchmark::State& state) {
  using create_t = int (*)(MPI_Comm_errhandler_function*, MPI_Errhandler*);
  using free_t = int (*)(MPI_Errhandler*);
  static const auto host_create = host_routine<create_t>("PMPI_Comm_create_errhandler");
  static const auto host_free = host_routine<free_t>("PMPI_Errhandler_free");
  if (!found(state, {reinterpret_cast<const void*>(host_create), reinterpret_cast<const void*>(host_free)})) return;
  int rc = 0;
  auto run = [&](bool through_mpi) {
    const create_t create = either<create_t>(through_mpi, MPI_Comm_create_errhandler, host_create);
    const free_t release = either<free_t>(through_mpi, MPI_Errhandler_free, host_free);
    for (int i = 0; i < 16; ++i) {
      MPI_Errhandler eh;
      rc |= create(errhandler_noop, &eh);
      rc |= release(&eh);
    }
  };
  front_figure(state, rc, run);
}

// Registration order is n-major: all communicator figures for one n run
// back to back and share one fixture, so the (for some peers quadratic)
// setup of 65536 attributes happens once per process, never in a timed loop.
// comm_dup_free/0 and type_dup_free/0 (bare dup + free) come first, so a
// filter such as ^(comm_dup_free/0|comm_[a-z_]+/256)$ yields t_0 and t_n
// from the same process.
void register_all(bool front) {
  using Fn = void (*)(benchmark::State&);
  auto reg = [](const char* name, Fn fn, int n) {
    benchmark::RegisterBenchmark(name, fn)->Arg(n)->Unit(benchmark::kNanosecond);
  };
  reg("comm_dup_free", comm_dup_free, 0);
  reg("type_dup_free", type_dup_free, 0);
  for (int n : kNs) {
    reg("comm_get_hit", comm_get_hit, n);
    reg("comm_get_miss", comm_get_miss, n);
    reg("comm_set_replace", comm_set_replace, n);
    reg("comm_set_delete", comm_set_delete, n);
    reg("comm_dup_free", comm_dup_free, n);
    reg("comm_dup_free_delta", dup_free_delta<Kind::Comm>, n);
  }
  for (int n : kNs) {
    if (std::find(std::begin(kNsSmall), std::end(kNsSmall), n) != std::end(kNsSmall))
      reg("type_get_hit", type_get_hit, n);
    reg("type_dup_free", type_dup_free, n);
    reg("type_dup_free_delta", dup_free_delta<Kind::Type>, n);
  }
  for (int n : kNsSmall) reg("win_get_hit", win_get_hit, n);
  for (auto [name, fn] : {std::pair<const char*, Fn>{"type_named_dup_free", type_dup_free_named},
                          {"type_derived_dup_free", type_dup_free_derived},
                          {"type_contiguous_free", type_contiguous_free},
                          {"type_vector_free", type_vector_free},
                          {"type_struct_free", type_struct_free}})
    benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("keyval_create_free", keyval_create_free)->Unit(benchmark::kNanosecond);
  if (front) {
    reg("comm_dup_free_front", dup_free_front<Kind::Comm>, 0);
    reg("type_dup_free_front", dup_free_front<Kind::Type>, 0);
    reg("error_class_front", error_class_front, 0);
    reg("error_string_front", error_string_front, 0);
    reg("errhandler_front", errhandler_front, 0);
    reg("errhandler_create_free_front", errhandler_create_free_front, 0);
  }
}

// ---------------------------------------------------------------------------
// --mem: resident memory growth for ncomms x nkeys attributes.

long rss_bytes() {
  // /proc/self/statm: size resident shared text lib data dt (pages)
  FILE* fp = std::fopen("/proc/self/statm", "r");
  if (!fp) return -1;
  long size = 0, resident = 0;
  int got = std::fscanf(fp, "%ld %ld", &size, &resident);
  std::fclose(fp);
  if (got != 2) return -1;
  return resident * sysconf(_SC_PAGESIZE);
}

void run_mem() {
  const int ncomms = g_quick ? 100 : 1000;
  const int nkeys = g_quick ? 100 : 1000;
  std::vector<MPI_Comm> comms(ncomms);
  std::vector<int> keys(nkeys);
  // Baseline: the bare communicators and keyvals exist already.
  for (int& k : keys) CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
  for (MPI_Comm& c : comms) CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  const long before = rss_bytes();
  for (int c = 0; c < ncomms; ++c)
    for (int k = 0; k < nkeys; ++k)
      CHECK(MPI_Comm_set_attr(comms[c], keys[k], val_of(static_cast<std::intptr_t>(c) * nkeys + k + 1)));
  const long after = rss_bytes();
  // Check a sample so nothing can be elided or lost.
  void* v;
  int flag;
  CHECK(MPI_Comm_get_attr(comms[ncomms - 1], keys[nkeys - 1], &v, &flag));
  if (!flag || v != val_of(static_cast<std::intptr_t>(ncomms) * nkeys)) die("mem: attribute readback", -1);
  const double attrs = static_cast<double>(ncomms) * nkeys;
  std::printf("RESULT mem_attrs %.0f\n", attrs);
  std::printf("RESULT mem_rss_before_bytes %ld\n", before);
  std::printf("RESULT mem_rss_after_bytes %ld\n", after);
  std::printf("RESULT mem_bytes_per_attr %.2f\n", (after - before) / attrs);
  for (MPI_Comm& c : comms) CHECK(MPI_Comm_free(&c));
  for (int& k : keys) CHECK(MPI_Comm_free_keyval(&k));
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------
// --threads: get throughput with 1 thread, 2 threads on distinct comms and
// 2 threads on the same comm.  Many short trials of a fixed count per thread
// (about 1 ms for one thread), the configurations interleaved; a trial's time
// runs from a common start signal to the last thread's end.  The figures are
// the ratios of the fastest trials (D79): on this VM a trial in which the two
// threads did not both have a CPU for their whole run (another process, or the
// hypervisor's other work on one vCPU) reads far below the code's scaling; the
// fastest of many short trials is one in which both ran.  The median trial's
// ratio is printed too, so a machine that is in the slow mode most of the time
// is seen as such.
//
// D91: each thread is pinned to a vCPU of the process's affinity set (thread t
// to the t-th of the first two), the 1-thread trials run on each of the two,
// and a ratio is two threads' throughput over one thread's on the slower of
// the two vCPUs: it measures whether the code scales, not where the scheduler
// started the threads (unpinned, at load 7-9, both on one vCPU in 60 % of the
// trials, which then read at most 1.00x) nor whether one vCPU was in the VM's
// slow mode (1.5-1.9x slower for seconds to minutes: 2 / 1.9 = 1.05x for any
// code).  The same trials run a trivial call (a function of this
// program with the shape of a get hit, no MPI): its ratio is the machine's
// ceiling in that run, and a figure below the target is the code's only when
// the ceiling is not.  With fewer than two vCPUs, nothing is pinned.

constexpr int kThreadKeys = 16;

#if defined(__GNUC__) && !defined(__clang__)
#define ATTR_BENCH_NOIPA __attribute__((noipa))
#else
#define ATTR_BENCH_NOIPA __attribute__((noinline))
#endif

// The trivial call of the ceiling: a table read and the two stores of a get hit, never inlined.
struct TrivialSlot {
  void* value;
  int flag;
};
TrivialSlot g_trivial_slots[kThreadKeys];

ATTR_BENCH_NOIPA int trivial_get(MPI_Comm, int key, void* value, int* flag) {
  const TrivialSlot& s = g_trivial_slots[static_cast<unsigned>(key) & (kThreadKeys - 1)];
  *static_cast<void**>(value) = s.value;
  *flag = s.flag;
  return MPI_SUCCESS;
}

struct MpiGet {
  int operator()(MPI_Comm c, int k, void* v, int* f) const { return MPI_Comm_get_attr(c, k, v, f); }
};
struct TrivialGet {
  int operator()(MPI_Comm c, int k, void* v, int* f) const { return trivial_get(c, k, v, f); }
};

// The vCPUs the process may run on, the first two of them (fewer: not pinned).
std::vector<int> thread_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  if (cpus.size() < 2) cpus.clear();
  return cpus;
}

bool pin_thread(int cpu) {
  if (cpu < 0) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

// One trial: thread t reads comms[t] on vCPU cpus[t] (-1: not pinned).
template <class Get>
double timed_threads(const std::vector<MPI_Comm>& comms, const std::vector<int>& cpus,
                     const std::vector<int>& keys, long iters, std::atomic<int>& errors) {
  using clock = std::chrono::steady_clock;
  const int nthreads = static_cast<int>(comms.size());
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<clock::time_point> ends(static_cast<std::size_t>(nthreads));
  std::vector<std::thread> ts;
  for (int t = 0; t < nthreads; ++t) {
    ts.emplace_back([&, t] {
      const MPI_Comm c = comms[static_cast<std::size_t>(t)];
      const int* k = keys.data();
      const Get get{};
      int rc = pin_thread(cpus[static_cast<std::size_t>(t)]) ? MPI_SUCCESS : -1, ok = 1;
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      unsigned i = 0;
      for (long it = 0; it < iters; ++it) {
        void* v;
        int flag;
        rc |= get(c, k[i], &v, &flag);
        benchmark::DoNotOptimize(v);
        ok &= flag;
        i = (i + 1) & (kThreadKeys - 1);
      }
      ends[static_cast<std::size_t>(t)] = clock::now();
      if (rc != MPI_SUCCESS || !ok) errors.fetch_add(1);
    });
  }
  while (ready.load() != nthreads)  // a thread pinned to this thread's vCPU needs it to say ready
    std::this_thread::yield();
  const auto t0 = clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : ts) th.join();
  const auto t1 = *std::max_element(ends.begin(), ends.end());
  return std::chrono::duration<double>(t1 - t0).count();
}

void run_threads(int provided) {
  std::printf("RESULT threads_provided %d\n", provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    std::printf("RESULT threads_skipped 1\n");
    std::fflush(stdout);
    return;
  }
  // At least 21 rounds, then more until 0.8 s have passed (a loaded machine gives fewer trials in
  // which both threads ran, so it gets more of them), at most 201.
  const int min_trials = g_quick ? 3 : 21, max_trials = g_quick ? 3 : 201;
  MPI_Comm a, b;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &a));
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &b));
  std::vector<int> keys(kThreadKeys);
  for (int i = 0; i < kThreadKeys; ++i) {
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keys[i], nullptr));
    CHECK(MPI_Comm_set_attr(a, keys[i], val_of(i + 1)));
    CHECK(MPI_Comm_set_attr(b, keys[i], val_of(i + 1)));
    g_trivial_slots[static_cast<unsigned>(keys[i]) & (kThreadKeys - 1)] = {val_of(i + 1), 1};
  }
  std::atomic<int> errors{0};
  const std::vector<int> pinned = thread_cpus();
  // One-thread trials on each vCPU (or unpinned); two threads on vCPUs 0 and 1 (or unpinned).
  const std::vector<int> solo = pinned.empty() ? std::vector<int>{-1} : pinned;
  const std::vector<int> pair = pinned.empty() ? std::vector<int>{-1, -1} : pinned;
  const std::vector<MPI_Comm> one{a}, distinct{a, b}, same{a, a};
  // The count per thread: about 1 ms for one thread (the fastest of three warm-up trials).
  long iters = g_quick ? 20000 : 200000;
  if (!g_quick) {
    double w = 1e9;
    for (int r = 0; r < 3; ++r)
      w = std::min(w, timed_threads<MpiGet>(one, {solo[0]}, keys, iters, errors));
    iters = std::max(10000L, static_cast<long>(static_cast<double>(iters) * 1e-3 / std::max(w, 1e-6)));
  }
  // t1[v], q1[v]: one thread on vCPU solo[v] (get, trivial call); t2d, t2s, q2: two threads.
  std::vector<std::vector<double>> t1(solo.size()), q1(solo.size());
  std::vector<double> t2d, t2s, q2;
  const auto start = std::chrono::steady_clock::now();
  int trials = 0;
  for (; trials < max_trials; ++trials) {  // interleave the configurations
    if (trials >= min_trials && std::chrono::steady_clock::now() - start > std::chrono::milliseconds(800))
      break;
    for (std::size_t v = 0; v < solo.size(); ++v)
      t1[v].push_back(timed_threads<MpiGet>(one, {solo[v]}, keys, iters, errors));
    t2d.push_back(timed_threads<MpiGet>(distinct, pair, keys, iters, errors));
    t2s.push_back(timed_threads<MpiGet>(same, pair, keys, iters, errors));
    for (std::size_t v = 0; v < solo.size(); ++v)
      q1[v].push_back(timed_threads<TrivialGet>(one, {solo[v]}, keys, iters, errors));
    q2.push_back(timed_threads<TrivialGet>(distinct, pair, keys, iters, errors));
  }
  if (errors.load() != 0) die("threads: MPI_Comm_get_attr (or pthread_setaffinity_np)", -1);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  auto fastest = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
  // One thread's time: the fastest trial on each vCPU, the slower vCPU's (a round's: its slower).
  auto solo_time = [&](const std::vector<std::vector<double>>& per_cpu, bool slower) {
    double x = slower ? 0.0 : 1e30;
    for (const auto& v : per_cpu) x = slower ? std::max(x, fastest(v)) : std::min(x, fastest(v));
    return x;
  };
  auto round_solo = [](const std::vector<std::vector<double>>& per_cpu, std::size_t r) {
    double x = 0.0;
    for (const auto& v : per_cpu) x = std::max(x, v[r]);
    return x;
  };
  // throughput ratio = (2*iters/t2) / (iters/t1)
  auto ratio_median = [&](const std::vector<std::vector<double>>& per_cpu, const std::vector<double>& two) {
    std::vector<double> r;
    for (std::size_t i = 0; i < two.size(); ++i) r.push_back(2.0 * round_solo(per_cpu, i) / two[i]);
    return median(r);
  };
  const double m1 = solo_time(t1, true), mq = solo_time(q1, true);
  std::printf("RESULT threads_pinned %d\n", pinned.empty() ? 0 : 1);
  std::printf("RESULT threads_iters_per_thread %ld\n", iters);
  std::printf("RESULT threads_trials %d\n", trials);
  std::printf("RESULT threads_1_ns_per_get %.3f\n", solo_time(t1, false) * 1e9 / static_cast<double>(iters));
  std::printf("RESULT threads_1_vcpu_ratio %.3f\n", m1 / solo_time(t1, false));
  std::printf("RESULT threads_1_vcpu_ratio_trivial %.3f\n", mq / solo_time(q1, false));
  if (t1.size() == 2)  // which vCPU read the get slower (when they differ, the VM's slow mode)
    std::printf("RESULT threads_1_slower_vcpu %d\n", solo[fastest(t1[0]) < fastest(t1[1]) ? 1 : 0]);
  std::printf("RESULT threads_2_distinct_ratio %.3f\n", 2.0 * m1 / fastest(t2d));
  std::printf("RESULT threads_2_same_ratio %.3f\n", 2.0 * m1 / fastest(t2s));
  std::printf("RESULT threads_2_trivial_ratio %.3f\n", 2.0 * mq / fastest(q2));
  std::printf("RESULT threads_2_distinct_ratio_median_trial %.3f\n", ratio_median(t1, t2d));
  std::printf("RESULT threads_2_same_ratio_median_trial %.3f\n", ratio_median(t1, t2s));
  std::printf("RESULT threads_2_trivial_ratio_median_trial %.3f\n", ratio_median(q1, q2));
  for (int& k : keys) {
    CHECK(MPI_Comm_delete_attr(a, k));
    CHECK(MPI_Comm_delete_attr(b, k));
    CHECK(MPI_Comm_free_keyval(&k));
  }
  CHECK(MPI_Comm_free(&a));
  CHECK(MPI_Comm_free(&b));
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------
// --callgrind-get / --callgrind-set: N operations between callgrind client
// requests.  Two dumps: "base" (the same loop without the MPI call) and "op".
// Instructions per op = (Ir(op) - Ir(base)) / N, computed by run.py.

#ifdef ATTR_BENCH_HAVE_CALLGRIND
__attribute__((noinline)) void cg_base_loop(const int* keys, unsigned mask, long iters) {
  unsigned i = 0;
  for (long it = 0; it < iters; ++it) {
    int k = keys[i];
    benchmark::DoNotOptimize(k);
    i = (i + 1) & mask;
  }
}

__attribute__((noinline)) int cg_get_loop(MPI_Comm c, const int* keys, unsigned mask, long iters) {
  unsigned i = 0;
  int rc = 0, ok = 1;
  for (long it = 0; it < iters; ++it) {
    void* v;
    int flag;
    rc |= MPI_Comm_get_attr(c, keys[i], &v, &flag);
    benchmark::DoNotOptimize(v);
    ok &= flag;
    i = (i + 1) & mask;
  }
  return rc != MPI_SUCCESS || !ok;
}

__attribute__((noinline)) int cg_set_loop(MPI_Comm c, const int* keys, unsigned mask, long iters) {
  unsigned i = 0;
  int rc = 0;
  for (long it = 0; it < iters; ++it) {
    rc |= MPI_Comm_set_attr(c, keys[i], val_of(it + 2));
    i = (i + 1) & mask;
  }
  return rc != MPI_SUCCESS;
}
#endif

void run_callgrind(bool set, long iters, int nattrs) {
#ifdef ATTR_BENCH_HAVE_CALLGRIND
  Fixture f(Kind::Comm, nattrs);
  const unsigned mask = static_cast<unsigned>(nattrs - 1);
  const int* keys = f.keys.data();
  // Warm up outside the instrumented region.
  int bad = set ? cg_set_loop(f.comm, keys, mask, nattrs) : cg_get_loop(f.comm, keys, mask, nattrs);
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_ZERO_STATS;
  cg_base_loop(keys, mask, iters);
  CALLGRIND_DUMP_STATS_AT("base");
  bad |= set ? cg_set_loop(f.comm, keys, mask, iters) : cg_get_loop(f.comm, keys, mask, iters);
  CALLGRIND_DUMP_STATS_AT("op");
  CALLGRIND_STOP_INSTRUMENTATION;
  if (bad) die(set ? "callgrind: MPI_Comm_set_attr" : "callgrind: MPI_Comm_get_attr", -1);
  std::printf("RESULT callgrind_op %s\n", set ? "set" : "get");
  std::printf("RESULT callgrind_iters %ld\n", iters);
  std::printf("RESULT callgrind_attrs %d\n", nattrs);
  std::printf("RESULT callgrind_running_on_valgrind %d\n", static_cast<int>(RUNNING_ON_VALGRIND));
#else
  (void)set;
  (void)iters;
  (void)nattrs;
  std::printf("RESULT callgrind_unavailable 1\n");
#endif
  std::fflush(stdout);
}

// --finalize K: K communicators with an attribute each left alive, and an attribute on
// MPI_COMM_WORLD and on MPI_COMM_SELF (which MPI_Finalize deletes), then MPI_Finalize timed from
// inside. One figure per process: bench/run.py --host runs many processes of each build.
int run_finalize(long k) {
  std::vector<MPI_Comm> comms(static_cast<std::size_t>(k), MPI_COMM_NULL);
  if (k > 0) {
    int key = MPI_KEYVAL_INVALID;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, nullptr));
    for (auto& c : comms) {
      CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
      CHECK(MPI_Comm_set_attr(c, key, val_of(1)));
    }
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, val_of(2)));
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, key, val_of(3)));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = MPI_Finalize();
  const auto t1 = std::chrono::steady_clock::now();
  if (rc != MPI_SUCCESS) {
    std::fprintf(stderr, "attr_bench: MPI_Finalize failed (rc=%d)\n", rc);
    return 1;
  }
  std::printf("RESULT finalize_ns/%ld %.0f\n", k, std::chrono::duration<double, std::nano>(t1 - t0).count());
  return 0;
}

bool is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

int main(int argc, char** argv) {
  bool want_gbench = false, want_mem = false, want_threads = false, thread_single = false;
  bool want_front = false;
  long cg_get = 0, cg_set = 0, finalize_k = -1;
  int cg_attrs = 1;
  std::vector<char*> rest;
  rest.push_back(argv[0]);
  std::string min_time_arg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](const char* opt) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attr_bench: %s needs a value\n", opt);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--quick") g_quick = true;
    else if (a == "--gbench") want_gbench = true;
    else if (a == "--mem") want_mem = true;
    else if (a == "--threads") want_threads = true;
    else if (a == "--thread-single") thread_single = true;
    else if (a == "--front") want_front = true;
    else if (a == "--callgrind-get") cg_get = std::atol(next("--callgrind-get"));
    else if (a == "--callgrind-set") cg_set = std::atol(next("--callgrind-set"));
    else if (a == "--finalize") finalize_k = std::atol(next("--finalize"));
    else if (a == "--attrs") cg_attrs = std::atoi(next("--attrs"));
    else rest.push_back(argv[i]);
  }
  if (!is_pow2(cg_attrs)) {
    std::fprintf(stderr, "attr_bench: --attrs must be a power of two\n");
    return 2;
  }
  const bool extra_modes = want_mem || want_threads || cg_get > 0 || cg_set > 0;
  if (!extra_modes) want_gbench = true;
  if (g_quick) {
    bool has_min_time = false;
    for (char* r : rest)
      if (std::strncmp(r, "--benchmark_min_time", 20) == 0) has_min_time = true;
    if (!has_min_time) {
      min_time_arg = "--benchmark_min_time=0.002";
      rest.push_back(&min_time_arg[0]);
    }
  }
  rest.push_back(nullptr);
  int bargc = static_cast<int>(rest.size()) - 1;

  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, thread_single ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE,
                      &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "attr_bench: MPI_Init_thread failed\n");
    return 1;
  }
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  std::printf("RESULT impl %s\n", kImpl);
  std::printf("RESULT thread_level_provided %d\n", provided);
  std::fflush(stdout);
  if (finalize_k >= 0) return run_finalize(finalize_k);

  benchmark::Initialize(&bargc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(bargc, rest.data())) {
    MPI_Finalize();
    return 2;
  }

  if (want_mem) run_mem();
  if (want_threads) run_threads(provided);
  if (cg_get > 0) run_callgrind(false, cg_get, cg_attrs);
  if (cg_set > 0) run_callgrind(true, cg_set, cg_attrs);
  if (want_gbench) {
    benchmark::AddCustomContext("mpi_impl", kImpl);
    benchmark::AddCustomContext("mpi_thread_level", std::to_string(provided));
    register_all(want_front);
    benchmark::RunSpecifiedBenchmarks();
    drop_fixture();
    benchmark::Shutdown();
  }
  MPI_Finalize();
  return 0;
}
