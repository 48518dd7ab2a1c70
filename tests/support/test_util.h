// Helpers shared by the C API tests.
#pragma once
#include <mpi.h>

#include <string>

// The error class of a return code (MPI_SUCCESS stays MPI_SUCCESS).
inline int error_class(int rc) {
  int cls = -1;
  if (MPI_Error_class(rc, &cls) != MPI_SUCCESS) return -1;
  return cls;
}

inline std::string error_string(int rc) {
  char buf[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, buf, &len) != MPI_SUCCESS) return "<no string>";
  return std::string(buf, static_cast<std::size_t>(len));
}

// Skips a test that needs threads when the executable runs below MPI_THREAD_MULTIPLE
// (tests/support/gtest_main.cc).
#define REQUIRE_THREAD_MULTIPLE()                                              \
  do {                                                                         \
    int provided_ = 0;                                                         \
    MPI_Query_thread(&provided_);                                              \
    if (provided_ < MPI_THREAD_MULTIPLE) GTEST_SKIP() << "needs MPI_THREAD_MULTIPLE"; \
  } while (0)
