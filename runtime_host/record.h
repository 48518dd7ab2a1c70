// runtime_host/record.h: the host runtime's record of a host object that carries mpiattr
// attributes: the core's object (comm_object, type_object, win_object: the attribute store, the
// host handle in `native`, ...) and what only the record table (native_map.h) keeps on it. The
// core knows nothing of these fields; the host runtime alone creates records (host_runtime.cc:
// take_record), so every record in a table is one of these (docs/decisions.md D38).
#pragma once
#include <cstdint>

#include "mpiattr/object.h"

namespace mpiattr::host {

// A record is aligned to a cache line, so that its store, 32 bytes in (attr_object::attrs), shares
// the line with the first 32 bytes of the object: the store's first fields and its first slot,
// what a get or set reads (docs/decisions.md D95).
template <typename Object>
struct alignas(attr_store::kLine) record final : Object {
  // Whether the record holds one of the table's sleep tokens (written under the table's lock), and
  // whether a dup or free that takes no lock is filling or emptying it (the census waits for that
  // to end): native_map.h, "Dormant records".
  bool may_sleep = false;
  std::uint8_t busy = 0;
};

using comm_record = record<comm_object>;
using type_record = record<type_object>;
using win_record = record<win_object>;

}  // namespace mpiattr::host
