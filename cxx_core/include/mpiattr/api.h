// mpiattr/api.h: the caching operations every language binding calls. The generated bindings check
// and look up their arguments (null pointers, handles) and then call exactly one of these, named by
// the routine's `core` key in spec/ (the other routines' operations belong to a runtime: the
// standalone one declares them in runtime_api.h). Parameters follow the spec's order: IN handles arrive as
// looked-up objects, OUT and INOUT handles as handle_t&, scalars as values or references.
// Nothing here knows a language's types; attribute values arrive as attribute_value.
#pragma once
#include "mpiattr/attr_store.h"
#include "mpiattr/keyval.h"
#include "mpiattr/object.h"
#include "mpiattr/report.h"
#include "mpiattr/status.h"

namespace mpiattr::api {

// ---- caching (R1-R6) ----
status create_keyval(object_kind kind, language lang, fnptr copy_fn, fnptr delete_fn, int& keyval,
                     aint extra_state);
// The same, with the creating language's state for the record set atomically with it (the
// MPICH extensions MPIX_*_create_keyval_x, docs/decisions.md D35): for C, `release_fn` is a
// function `void (*)(void* extra_state)` that the binding runs once when the record dies, after the
// keyval was freed and its last attribute deleted (bindings_c/c_callbacks.h release). A null
// `release_fn` makes it exactly the routine above.
status create_keyval(object_kind kind, language lang, fnptr copy_fn, fnptr delete_fn, fnptr release_fn,
                     int& keyval, aint extra_state);
status free_keyval(object_kind kind, int& keyval);
status set_attr(attr_object& obj, int keyval, attribute_value value);
namespace detail {
bool read_predefined(const attr_object& obj, std::uint32_t index, attr_read* out);
// get_attr when `keyval` is not a live keyval of the object's kind: a freed keyval still in use
// is read (R2.2, docs/decisions.md D6); anything else is an error.
[[gnu::cold, gnu::noinline]] status get_attr_slow(const attr_object& obj, int keyval, attr_read& value,
                                                  bool& flag);
}
// The hot path, inline so every binding's get compiles to a handful of loads (R4.2; D13).
MPIATTR_HOT status get_attr(const attr_object& obj, int keyval, attr_read& value, bool& flag) {
  keyval_record* r = keyvals().find_live(keyval);
  if (r == nullptr || r->kind != obj.kind) [[unlikely]]
    return detail::get_attr_slow(obj, keyval, value, flag);
  std::uint32_t index = keyval_registry::index_of(keyval);
  flag = index >= kPredefinedIndices ? obj.attrs.read(index, &value)
                                     : detail::read_predefined(obj, index, &value);
  report::add(report::attrs_read, obj.kind, index >= kPredefinedIndices);  // (not the predefined keys)
  return status::ok();
}
status delete_attr(attr_object& obj, int keyval);

}  // namespace mpiattr::api
