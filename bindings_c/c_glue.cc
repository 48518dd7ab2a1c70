// The C language binding of the core: how C callbacks and C error handlers are called (R1.6, R5).
#include "c_glue.h"

namespace mpiattr::cbind {
namespace {

// A C copy callback gets the value as C sees it (R5.3, R7.3) and returns a void* by address.
int c_copy(const callbacks& cbs, object_kind kind, std::uintptr_t old, int keyval, attribute_value in,
           const aint* stored, attribute_value* out, bool* keep) {
  void* extra = reinterpret_cast<void*>(cbs.extra_state);
  void* val_in = in.as_c(stored);
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

int c_delete(const callbacks& cbs, object_kind kind, std::uintptr_t obj, int keyval, attribute_value v,
             const aint* stored) {
  void* extra = reinterpret_cast<void*>(cbs.extra_state);
  void* val = v.as_c(stored);
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

const predefined_set c_predefined(predefined_callbacks, &predefined_callback_count);
const language_binding c_binding = {c_copy, c_delete, nullptr, &c_predefined};

[[maybe_unused]] const bool registered = [] {
  register_language(language::c, &c_binding);
  register_errhandler_invoker(language::c, c_errhandler);
  return true;
}();

}  // namespace
}  // namespace mpiattr::cbind
