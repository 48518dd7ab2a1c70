// bench/mpi_check.h: what the benchmarks do with a failed MPI call (attr_bench.cc, scale_bench.cc).
// BENCH_NAME, the program's name, is defined before this header is included.
#pragma once
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace bench {

[[noreturn]] inline void die(const char* what, int rc) {
  std::fprintf(stderr, "%s: %s failed (rc=%d)\n", BENCH_NAME, what, rc);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

}  // namespace bench

#define CHECK(call)                                      \
  do {                                                   \
    int rc_ = (call);                                    \
    if (rc_ != MPI_SUCCESS) bench::die(#call, rc_);      \
  } while (0)
