// Helpers shared by the tests in tests/c_api (not a test itself: only *.cc files are built).
#pragma once
// These tests cover the C API only: keep the C++ bindings (mpicxx.h) out.
#ifndef MPIATTR_SKIP_MPICXX
#define MPIATTR_SKIP_MPICXX 1
#endif
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <string>
#include <vector>

#include "test_util.h"

// Asserts that `rc` is an error code of class `cls`.
#define EXPECT_CLASS(rc, cls) EXPECT_EQ(error_class(rc), (cls)) << error_string(rc)
#define ASSERT_OK(expr)                                                   \
  do {                                                                    \
    int rc_ok_ = (expr);                                                  \
    ASSERT_EQ(rc_ok_, MPI_SUCCESS) << #expr << ": " << error_string(rc_ok_); \
  } while (0)
#define EXPECT_OK(expr)                                                   \
  do {                                                                    \
    int rc_ok_ = (expr);                                                  \
    EXPECT_EQ(rc_ok_, MPI_SUCCESS) << #expr << ": " << error_string(rc_ok_); \
  } while (0)

// Every invocation of the counting error handlers below.
struct handler_call {
  bool is_win;
  void* object;  // the MPI_Comm or MPI_Win the handler was called for
  int code;
};
inline std::vector<handler_call>& handler_calls() {
  static std::vector<handler_call> v;
  return v;
}
inline void counting_comm_handler(MPI_Comm* comm, int* code, ...) {
  handler_calls().push_back({false, static_cast<void*>(*comm), *code});
}
inline void counting_win_handler(MPI_Win* win, int* code, ...) {
  handler_calls().push_back({true, static_cast<void*>(*win), *code});
}
inline MPI_Errhandler counting_comm_errhandler() {
  static MPI_Errhandler eh = [] {
    MPI_Errhandler e = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(counting_comm_handler, &e);
    return e;
  }();
  return eh;
}
inline MPI_Errhandler counting_win_errhandler() {
  static MPI_Errhandler eh = [] {
    MPI_Errhandler e = MPI_ERRHANDLER_NULL;
    MPI_Win_create_errhandler(counting_win_handler, &e);
    return e;
  }();
  return eh;
}

// Reads a C attribute; returns flag (and the value in *out when set).
inline int comm_get(MPI_Comm c, int k, void** out) {
  int flag = 0;
  void* v = nullptr;
  int rc = MPI_Comm_get_attr(c, k, &v, &flag);
  if (rc != MPI_SUCCESS) return -1;
  if (out) *out = v;
  return flag;
}
inline int type_get(MPI_Datatype t, int k, void** out) {
  int flag = 0;
  void* v = nullptr;
  int rc = MPI_Type_get_attr(t, k, &v, &flag);
  if (rc != MPI_SUCCESS) return -1;
  if (out) *out = v;
  return flag;
}
inline int win_get(MPI_Win w, int k, void** out) {
  int flag = 0;
  void* v = nullptr;
  int rc = MPI_Win_get_attr(w, k, &v, &flag);
  if (rc != MPI_SUCCESS) return -1;
  if (out) *out = v;
  return flag;
}

// A log of callback invocations, in order: ("copy"|"delete", keyval, value).
struct cb_event {
  std::string what;
  int keyval;
  void* value;
};
inline std::vector<cb_event>& cb_log() {
  static std::vector<cb_event> v;
  return v;
}

// Logging callbacks: copy keeps the value (flag 1), delete succeeds.
inline int log_copy(MPI_Comm, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
inline int log_delete(MPI_Comm, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  return MPI_SUCCESS;
}
inline int log_type_copy(MPI_Datatype, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
inline int log_type_delete(MPI_Datatype, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  return MPI_SUCCESS;
}
inline int log_win_copy(MPI_Win, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
inline int log_win_delete(MPI_Win, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  return MPI_SUCCESS;
}

inline int count_events(const std::string& what, int keyval = 0) {
  int n = 0;
  for (const auto& e : cb_log())
    if (e.what == what && (keyval == 0 || e.keyval == keyval)) ++n;
  return n;
}

// A fresh duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN.
inline MPI_Comm fresh_comm() {
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  return c;
}
inline MPI_Datatype fresh_type() {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &t);
  return t;
}
