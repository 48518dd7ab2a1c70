// cxx_bench.cc - the MPI:: figures of bench/run.py --lang (docs/decisions.md D68), and the C
// routines beside them measured the same way.
//
// One source, the MPI-2.2 C++ bindings (MPI::Comm, MPI::Datatype, MPI::Win Get_attr / Set_attr)
// and the C API, built unchanged with mpiattr's wrapper (mpiattr-cxx: libmpiattr_cxx), each
// host's own (mpicxx.mpich: libmpichcxx; mpicxx.openmpi: Open MPI 4.1's libmpi_cxx) and mpiattr's
// over each host (mpiattr-<host>-cxx: mpiattr's MPI:: over the host's C library, libmpiattr_<host>
// in front). No Google Benchmark: the same loop as lang_bench.F90's, `iters` calls per batch,
// `nbatch` batches timed by the thread's CPU time after one untimed, the median batch printed in
// ns per call as
//   RESULT <figure> <ns>
// Arguments: `quick` (tiny counts, a smoke test), `multiple` (MPI_THREAD_MULTIPLE).
#include <mpi.h>

#define BENCH_NAME "cxx_bench"
#include "mpi_check.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <time.h>

namespace {

int g_iters = 200000;
int g_batches = 11;
long g_bad = 0;

// The calling thread's CPU time in ns: time the process spent preempted by other work on the
// machine is not counted (docs/decisions.md D79).
double cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// One batch: body(i) for i in [0, iters). Each figure's loop is a function of its own, starting
// on a 64-byte boundary, so that every figure's loop sits in the same place relative to the
// fetch blocks: inlined into main, the loops of MPI::Comm, MPI::Datatype and MPI::Win (the same
// instructions) fell at different offsets, and the placement alone moved a 2-3 ns get by up to
// 0.6 ns, which read as a difference between the kinds (docs/decisions.md D84).
template <typename Body>
[[gnu::noinline, gnu::aligned(64)]] void batch(Body& body, int iters) {
  for (int i = 0; i < iters; ++i) body(i);
}

// Runs body(i) for i in [0, iters) per batch; prints the median batch in ns per call.
template <typename Body>
void figure(const char* name, Body&& body) {
  std::vector<double> ns;
  for (int b = 0; b <= g_batches; ++b) {
    const double t0 = cpu_ns();
    batch(body, g_iters);
    const double t1 = cpu_ns();
    if (b > 0) ns.push_back((t1 - t0) / g_iters);
  }
  std::sort(ns.begin(), ns.end());
  std::printf("RESULT %s %.3f\n", name, ns[ns.size() / 2]);
}

void* val_of(std::intptr_t i) { return reinterpret_cast<void*>(i); }

}  // namespace

int main(int argc, char** argv) {
  bool multiple = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "quick") == 0) {
      g_iters = 200;
      g_batches = 3;
    } else if (std::strcmp(argv[i], "multiple") == 0) {
      multiple = true;
    }
  }
  int provided = 0;
  const int level = multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
  CHECK(MPI_Init_thread(&argc, &argv, level, &provided));
  if (multiple && provided != MPI_THREAD_MULTIPLE) {
    std::printf("cxx_bench: MPI_THREAD_MULTIPLE asked, provided %d\n", provided);
    ++g_bad;
  }
  MPI_Comm comm;
  CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));
  MPI_Datatype type;
  CHECK(MPI_Type_dup(MPI_INT, &type));
  std::vector<int> buf(64);
  MPI_Win win;
  CHECK(MPI_Win_create(buf.data(), static_cast<MPI_Aint>(buf.size() * sizeof(int)), sizeof(int),
                       MPI_INFO_NULL, MPI_COMM_SELF, &win));
  int ckey, tkey, wkey;
  CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, nullptr));
  CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, nullptr));
  CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkey, nullptr));
  CHECK(MPI_Comm_set_attr(comm, ckey, val_of(7)));
  CHECK(MPI_Type_set_attr(type, tkey, val_of(7)));
  CHECK(MPI_Win_set_attr(win, wkey, val_of(7)));

  // The C routines, as a reference measured by the same loop.
  figure("c_comm_get_hit", [&](int) {
    void* v = nullptr;
    int flag = 0;
    if (MPI_Comm_get_attr(comm, ckey, &v, &flag) != MPI_SUCCESS || !flag) ++g_bad;
  });
  figure("c_comm_set_replace", [&](int i) {
    if (MPI_Comm_set_attr(comm, ckey, val_of(i)) != MPI_SUCCESS) ++g_bad;
  });

  // MPI:: (errors would throw or abort: the objects' handlers are the default, fatal).
  MPI::Intracomm cxx_comm(comm);  // (MPICH's Set_attr is not const)
  MPI::Datatype cxx_type(type);
  MPI::Win cxx_win(win);
  figure("cxx_comm_get_hit", [&](int) {
    void* v = nullptr;
    if (!cxx_comm.Get_attr(ckey, &v)) ++g_bad;
  });
  figure("cxx_comm_set_replace", [&](int i) { cxx_comm.Set_attr(ckey, val_of(i)); });
  figure("cxx_type_get_hit", [&](int) {
    void* v = nullptr;
    if (!cxx_type.Get_attr(tkey, &v)) ++g_bad;
  });
  figure("cxx_type_set_replace", [&](int i) { cxx_type.Set_attr(tkey, val_of(i)); });
  figure("cxx_win_get_hit", [&](int) {
    void* v = nullptr;
    if (!cxx_win.Get_attr(wkey, &v)) ++g_bad;
  });
  figure("cxx_win_set_replace", [&](int i) { cxx_win.Set_attr(wkey, val_of(i)); });

  CHECK(MPI_Win_free(&win));
  CHECK(MPI_Type_free(&type));
  CHECK(MPI_Comm_free(&comm));
  CHECK(MPI_Comm_free_keyval(&ckey));
  CHECK(MPI_Type_free_keyval(&tkey));
  CHECK(MPI_Win_free_keyval(&wkey));
  std::printf("BAD %ld\n", g_bad);
  std::fflush(stdout);
  CHECK(MPI_Finalize());
  return g_bad == 0 ? 0 : 1;
}
