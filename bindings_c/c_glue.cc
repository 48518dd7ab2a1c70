// The C language binding of the core: how C callbacks and C error handlers are called (R1.6, R5).
#include "c_glue.h"

namespace mpiattr::cbind {
namespace {

// The address range of the predefined callbacks: a user's function lies outside it (usually in
// another object file), so most keyvals are classified with two compares.
struct fn_range {
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  fn_range() {
    for (std::size_t i = 0; i < predefined_callback_count; ++i) {
      auto a = reinterpret_cast<std::uintptr_t>(predefined_callbacks[i].fn);
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
  }
  bool may_hold(fnptr fn) const {
    auto a = reinterpret_cast<std::uintptr_t>(fn);
    return a >= lo && a <= hi;
  }
};
const fn_range& predefined_range() {
  static const fn_range r;
  return r;
}

copy_behaviour classify_copy(fnptr fn) {
  if (fn == nullptr) return copy_behaviour::null_copy;  // the MPI-5.0 ABI's MPI_*_NULL_COPY_FN
  if (!predefined_range().may_hold(fn)) return copy_behaviour::user;
  for (std::size_t i = 0; i < predefined_callback_count; ++i) {
    if (predefined_callbacks[i].fn != fn) continue;
    if (predefined_callbacks[i].behaviour == predefined_callback::dup) return copy_behaviour::dup;
    if (predefined_callbacks[i].behaviour == predefined_callback::null_copy) return copy_behaviour::null_copy;
  }
  return copy_behaviour::user;
}

delete_behaviour classify_delete(fnptr fn) {
  if (fn == nullptr) return delete_behaviour::null_delete;
  if (!predefined_range().may_hold(fn)) return delete_behaviour::user;
  for (std::size_t i = 0; i < predefined_callback_count; ++i)
    if (predefined_callbacks[i].fn == fn && predefined_callbacks[i].behaviour == predefined_callback::null_delete)
      return delete_behaviour::null_delete;
  return delete_behaviour::user;
}

// A C copy callback gets the value as C sees it (R5.3, R7.3) and returns a void* by address.
int c_copy(const callbacks& cbs, object_kind kind, handle_t old, int keyval, attribute_value in,
           const aint* stored, attribute_value* out, bool* keep) {
  void* extra = reinterpret_cast<void*>(cbs.extra_state);
  void* val_in = attribute_value::as_c(in.how_written(), stored);
  void* val_out = nullptr;
  int flag = 0;
  int rc = MPI_SUCCESS;
  switch (kind) {
    case object_kind::comm:
      rc = reinterpret_cast<MPI_Comm_copy_attr_function*>(cbs.copy)(to_c<MPI_Comm>(old), keyval, extra, val_in, &val_out, &flag);
      break;
    case object_kind::type:
      rc = reinterpret_cast<MPI_Type_copy_attr_function*>(cbs.copy)(to_c<MPI_Datatype>(old), keyval, extra, val_in, &val_out, &flag);
      break;
    case object_kind::win:
      rc = reinterpret_cast<MPI_Win_copy_attr_function*>(cbs.copy)(to_c<MPI_Win>(old), keyval, extra, val_in, &val_out, &flag);
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

int c_delete(const callbacks& cbs, object_kind kind, handle_t obj, int keyval, attribute_value v,
             const aint* stored) {
  void* extra = reinterpret_cast<void*>(cbs.extra_state);
  void* val = attribute_value::as_c(v.how_written(), stored);
  switch (kind) {
    case object_kind::comm:
      return reinterpret_cast<MPI_Comm_delete_attr_function*>(cbs.del)(to_c<MPI_Comm>(obj), keyval, val, extra);
    case object_kind::type:
      return reinterpret_cast<MPI_Type_delete_attr_function*>(cbs.del)(to_c<MPI_Datatype>(obj), keyval, val, extra);
    case object_kind::win:
      return reinterpret_cast<MPI_Win_delete_attr_function*>(cbs.del)(to_c<MPI_Win>(obj), keyval, val, extra);
    default:
      return MPI_ERR_INTERN;
  }
}

void c_errhandler(const errhandler_object& eh, object_kind kind, handle_t obj, int code) {
  if (kind == object_kind::win) {
    MPI_Win w = to_c<MPI_Win>(obj);
    reinterpret_cast<MPI_Win_errhandler_function*>(eh.fn)(&w, &code);
  } else {
    MPI_Comm c = to_c<MPI_Comm>(obj);
    reinterpret_cast<MPI_Comm_errhandler_function*>(eh.fn)(&c, &code);
  }
}

const language_binding c_binding = {c_copy, c_delete, nullptr, classify_copy, classify_delete};

[[maybe_unused]] const bool registered = [] {
  register_language(language::c, &c_binding);
  register_errhandler_invoker(language::c, c_errhandler);
  return true;
}();

}  // namespace
}  // namespace mpiattr::cbind
