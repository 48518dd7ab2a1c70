// mpiattr/attributes.h: the object-level caching operations the runtime uses on dup and free.
#pragma once
#include "mpiattr/keyval.h"
#include "mpiattr/object.h"
#include "mpiattr/status.h"

namespace mpiattr {

// Copies `from`'s attributes to the new object `to` through their copy callbacks (R6). On a
// callback failure, `to` is left with no attributes and the failure is returned (R4.5).
status copy_all(const attr_object& from, attr_object& to);
// Deletes every attribute, newest first, running delete callbacks (R4.4, R10.1). On a callback
// failure the object keeps the attributes not yet deleted and stays usable.
status delete_all(attr_object& obj);
// Deletes one attribute (no-op when none is stored).
status delete_one(attr_object& obj, keyval_record& r, std::uint32_t idx);
// How many objects of `kind` being built by copy_all hold an attribute under keyval index
// `index` (for the lazy keyval counts, keyval.h; the runtime counts the published objects).
std::size_t count_in_construction(object_kind kind, std::uint32_t index);

}  // namespace mpiattr
