// runtime_host/record.h: the host runtime's record of a host object that carries mpiattr
// attributes: the core's object (attr_object: the attribute store, the host handle in `native`,
// ...) and what only the record table (native_map.h) keeps on it. The core knows nothing of these
// fields; the host runtime alone creates records (host_runtime.cc: take_record), so every record
// in a table is one of these (docs/decisions.md D38).
#pragma once
#include <cstdint>

#include "mpiattr/object.h"

namespace mpiattr::host {

// A record is the object's hot part, 128 bytes aligned to a cache line, so that its store, 32
// bytes in (attr_object::attrs), shares the line with the first 32 bytes of the object: the
// store's first fields and its first slot, what a get or set reads (docs/decisions.md D95). Its
// cold part lies elsewhere: in a record block, after the block's hot parts (host_runtime.cc:
// record_memory), so that a program's records' hot parts take 128 bytes each, 32 to a page (D125),
// or over MPICH in the memory that goes with its home (native_map.h: homes, D126); a record made
// by itself (the default constructor: tests, AddressSanitizer builds) owns one.
// Over a host a record carries none of the standalone runtime's fields (comm_object, ...).
template <object_kind K>
struct alignas(attr_store::kLine) record final : attr_object {
  explicit record(attr_object_cold& c) : attr_object(K, c) {}
  record() : attr_object(K, *new attr_object_cold) { runtime_bytes[kOwnsCold] = 1; }
  ~record() override {
    if (runtime_bytes[kOwnsCold]) delete &cold();
  }
  // Whether the record holds one of the table's sleep tokens (written under the table's lock), and
  // whether a dup or free that takes no lock is filling or emptying it (the census waits for that
  // to end): native_map.h, "Dormant records". (In the bytes the core lends: attr_object.)
  bool& may_sleep() { return reinterpret_cast<bool&>(runtime_bytes[0]); }
  const bool& may_sleep() const { return reinterpret_cast<const bool&>(runtime_bytes[0]); }
  std::uint8_t& busy() { return runtime_bytes[1]; }
  const std::uint8_t& busy() const { return runtime_bytes[1]; }

 private:
  static constexpr int kOwnsCold = 2;
};

using comm_record = record<object_kind::comm>;
using type_record = record<object_kind::type>;
using win_record = record<object_kind::win>;
static_assert(sizeof(comm_record) == 128 && sizeof(type_record) == 128 && sizeof(win_record) == 128,
              "a record is its object's hot part (D125)");

}  // namespace mpiattr::host
