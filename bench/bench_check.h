// bench_check.h - what attr_bench.cc and icount.cc share: the end of a program whose MPI call
// failed. Include after <mpi.h>; the includer names itself in kBenchProgram.
#pragma once
#include <cstdio>
#include <cstdlib>

namespace {
extern const char* const kBenchProgram;

[[noreturn]] void die(const char* what, int rc) {
  std::fprintf(stderr, "%s: %s failed (rc=%d)\n", kBenchProgram, what, rc);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}
}  // namespace

#define CHECK(call)                          \
  do {                                       \
    int rc_ = (call);                        \
    if (rc_ != MPI_SUCCESS) die(#call, rc_); \
  } while (0)
