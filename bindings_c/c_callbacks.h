// bindings_c/c_callbacks.h: how the core calls C copy and delete callbacks (R1.6, R5), for any
// mpi.h: the standalone C binding (c_glue.cc) includes it after mpiattr's mpi.h, the host runtime
// (runtime_host/) after the host's. `Handle(h)` turns the application's handle, as the core
// passes it (attr_object::app_handle), into the C handle type.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "mpiattr/alloc.h"
#include "mpiattr/status.h"

namespace mpiattr::ccallbacks {

template <typename H>
inline H as_handle(std::uintptr_t h) {
  if constexpr (std::is_pointer_v<H>)
    return reinterpret_cast<H>(h);
  else
    return static_cast<H>(h);
}

// A C copy callback gets the value as C sees it (R5.3, R7.3) and returns a void* by address.
inline int copy(const callbacks& cbs, object_kind kind, std::uintptr_t old, int keyval,
                attribute_value in, const aint* stored, attribute_value* out, bool* keep) {
  void* extra = reinterpret_cast<void*>(cbs.extra_state);
  void* val_in = in.as_c(stored);
  void* val_out = nullptr;
  int flag = 0;
  int rc = MPI_SUCCESS;
  switch (kind) {
    case object_kind::comm:
      rc = reinterpret_cast<MPI_Comm_copy_attr_function*>(cbs.copy)(as_handle<MPI_Comm>(old), keyval, extra, val_in, &val_out, &flag);
      break;
    case object_kind::type:
      rc = reinterpret_cast<MPI_Type_copy_attr_function*>(cbs.copy)(as_handle<MPI_Datatype>(old), keyval, extra, val_in, &val_out, &flag);
      break;
    case object_kind::win:
      rc = reinterpret_cast<MPI_Win_copy_attr_function*>(cbs.copy)(as_handle<MPI_Win>(old), keyval, extra, val_in, &val_out, &flag);
      break;
    default:
      return MPI_ERR_INTERN;
  }
  if (rc == MPI_SUCCESS) {
    *keep = flag != 0;
    *out = attribute_value::from_c(val_out);
  }
  return rc;
}

inline int del(const callbacks& cbs, object_kind kind, std::uintptr_t obj, int keyval,
               attribute_value v, const aint* stored) {
  void* extra = reinterpret_cast<void*>(cbs.extra_state);
  void* val = v.as_c(stored);
  switch (kind) {
    case object_kind::comm:
      return reinterpret_cast<MPI_Comm_delete_attr_function*>(cbs.del)(as_handle<MPI_Comm>(obj), keyval, val, extra);
    case object_kind::type:
      return reinterpret_cast<MPI_Type_delete_attr_function*>(cbs.del)(as_handle<MPI_Datatype>(obj), keyval, val, extra);
    case object_kind::win:
      return reinterpret_cast<MPI_Win_delete_attr_function*>(cbs.del)(as_handle<MPI_Win>(obj), keyval, val, extra);
    default:
      return MPI_ERR_INTERN;
  }
}

// A C keyval may carry state of a binding layered over the C API (the MPI:: glue keeps its C++
// callbacks in the keyval's extra_state): `lang_state` is then a function that frees it, called
// with extra_state when the record dies, after the last attribute under the keyval is gone
// whichever language stored it (R2.2; docs/cxx.md C2).
using state_release = void (*)(void* extra_state);

inline void release(callbacks& cbs) {
  if (cbs.lang_state == nullptr) return;
  auto fn = reinterpret_cast<state_release>(cbs.lang_state);
  cbs.lang_state = nullptr;
  fn(reinterpret_cast<void*>(cbs.extra_state));
}

// mpiattr_keyval_set_release: MPI_SUCCESS (0), or the error class why not (not a live keyval).
inline int set_release(int keyval, state_release fn) {
  const status s = keyvals().rebind(keyval, language::c, reinterpret_cast<void*>(fn));
  if (!s.is_ok()) return s.error_class();
  report::keyval_from_cxx(keyval);  // (only mpiattr's MPI:: glue calls this)
  return 0;
}

// mpiattr_keyval_state_alloc: `bytes` for the state a binding layered over the C API keeps behind
// a keyval (the MPI:: glue's C++ callbacks), from malloc, counted by mpiattr's allocation switch
// as every allocation of mpiattr's is (D61); the caller frees it with free(). On failure nullptr,
// with MPI_ERR_NO_MEM raised as the C routine `routine` (MPI_Comm_create_keyval, ...) raises its
// own errors, on the handler of errors with no object (D4; over a host the host's, D56), and the
// code in *code. `Call` is the binding's entry-point call: the standalone one (bindings_c/c_glue.h)
// or the host one (runtime_host/host_glue.h). Its usable() starts mpiattr over a host, so that
// the handler can run even when this is the program's first call of mpiattr's.
template <typename Call>
void* keyval_state_alloc(std::size_t bytes, const char* routine, int* code) {
  if (void* p = alloc::bytes(bytes)) return p;
  Call c(routine);
  const int rc = c.usable() ? c.fail(out_of_memory(bytes, "the keyval's C++ callbacks")) : c.fail();
  if (code != nullptr) *code = rc;
  return nullptr;
}

}  // namespace mpiattr::ccallbacks
