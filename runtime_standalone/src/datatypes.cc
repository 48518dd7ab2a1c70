// Datatypes on the standalone runtime: constructors, queries, packing and MPI_Get_address.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

// Builds a type map from pieces: `count` elements of `old` starting at byte displacement `disp`.
struct type_builder {
  std::vector<type_block> map;
  aint size = 0, lb = 0, ub = 0, align = 1;
  handle_t basic = 0;  // as type_object::basic
  bool any = false;
  void add(const type_object& old, aint disp, aint count) {
    if (count <= 0) return;
    if (old.basic != 0) basic = (basic == 0 || basic == old.basic) ? old.basic : basic_mixed;
    for (aint j = 0; j < count; ++j)
      for (const type_block& b : blocks(old.map)) {
        aint d = disp + j * old.extent + b.disp;
        if (!map.empty() && map.back().disp + map.back().len == d)
          map.back().len += b.len;
        else
          map.push_back({d, b.len});
      }
    size += count * old.size;
    aint lo = disp + old.lb + std::min<aint>(0, (count - 1) * old.extent);
    aint hi = disp + old.lb + old.extent + std::max<aint>(0, (count - 1) * old.extent);
    lb = any ? std::min(lb, lo) : lo;
    ub = any ? std::max(ub, hi) : hi;
    align = std::max(align, old.align);
    any = true;
  }
  status publish(handle_t& out, bool pad_to_alignment = false) {
    auto* t = new type_object;
    t->size = size;
    t->lb = any ? lb : 0;
    aint extent = any ? ub - lb : 0;
    if (pad_to_alignment && align > 1 && extent % align != 0) extent += align - extent % align;
    t->extent = extent;
    t->map = std::make_shared<const std::vector<type_block>>(std::move(map));
    t->align = align;
    t->basic = basic;
    return insert_new(rt().types, t, out, "datatypes");
  }
};

}  // namespace

namespace api {

// ---- datatypes ----

status type_contiguous(int count, type_object& old, handle_t& newtype) {
  if (status st = check_count(count); !st.is_ok()) return st;
  type_builder b;
  b.add(old, 0, count);
  return b.publish(newtype);
}

namespace {
status check_lengths(int count, const int* blocklengths) {
  if (count < 0) return fail(MPI_ERR_COUNT, "count %d is negative", count);
  if (count > 0 && blocklengths == nullptr) return fail(MPI_ERR_ARG, "array_of_blocklengths is a NULL pointer");
  for (int i = 0; i < count; ++i)
    if (blocklengths[i] < 0) return fail(MPI_ERR_ARG, "array_of_blocklengths[%d] = %d is negative", i, blocklengths[i]);
  return status::ok();
}
}  // namespace

status type_create_hvector(int count, int blocklength, aint stride, type_object& old, handle_t& newtype) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (blocklength < 0) return fail(MPI_ERR_ARG, "blocklength %d is negative", blocklength);
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, i * stride, blocklength);
  return b.publish(newtype);
}

status type_vector(int count, int blocklength, int stride, type_object& old, handle_t& newtype) {
  return type_create_hvector(count, blocklength, static_cast<aint>(stride) * old.extent, old, newtype);
}

status type_indexed(int count, const int* blocklengths, const int* displacements, type_object& old,
                    handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, static_cast<aint>(displacements[i]) * old.extent, blocklengths[i]);
  return b.publish(newtype);
}

status type_create_hindexed(int count, const int* blocklengths, const aint* displacements,
                            type_object& old, handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, displacements[i], blocklengths[i]);
  return b.publish(newtype);
}

status type_create_struct(int count, const int* blocklengths, const aint* displacements,
                          type_object* const* types, handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(*types[i], displacements[i], blocklengths[i]);
  return b.publish(newtype, /*pad_to_alignment=*/true);  // MPI-4.1 §6.1.6: the epsilon
}

status type_create_resized(type_object& old, aint lb, aint extent, handle_t& newtype) {
  type_builder b;
  b.add(old, 0, 1);
  b.lb = lb;
  b.ub = lb + extent;
  b.any = true;
  return b.publish(newtype);
}

status type_get_true_extent(type_object& t, aint& true_lb, aint& true_extent) {
  const auto& m = blocks(t.map);
  if (m.empty()) {
    true_lb = 0;
    true_extent = 0;
    return status::ok();
  }
  aint lo = m[0].disp, hi = m[0].disp + m[0].len;
  for (const type_block& b : m) {
    lo = std::min(lo, b.disp);
    hi = std::max(hi, b.disp + b.len);
  }
  true_lb = lo;
  true_extent = hi - lo;
  return status::ok();
}

// ---- packing (MPI-4.1 §6.2) ----

namespace {
status check_committed(const type_object& t) {
  if (!t.committed) return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return status::ok();
}
}  // namespace

status pack(const void* inbuf, int incount, type_object& t, void* outbuf, int outsize, int& position,
            comm_object&) {
  if (status st = check_count(incount); !st.is_ok()) return st;
  if (status st = check_committed(t); !st.is_ok()) return st;
  aint need = static_cast<aint>(incount) * t.size;
  if (position < 0 || position + need > outsize)
    return fail(MPI_ERR_TRUNCATE, "packing %ld bytes at position %d does not fit in outsize %d",
                static_cast<long>(need), position, outsize);
  pack_elements(inbuf, incount, t, static_cast<char*>(outbuf) + position);
  position += static_cast<int>(need);
  return status::ok();
}

status unpack(const void* inbuf, int insize, int& position, void* outbuf, int outcount,
              type_object& t, comm_object&) {
  if (status st = check_count(outcount); !st.is_ok()) return st;
  if (status st = check_committed(t); !st.is_ok()) return st;
  aint need = static_cast<aint>(outcount) * t.size;
  if (position < 0 || position + need > insize)
    return fail(MPI_ERR_TRUNCATE, "unpacking %ld bytes at position %d reads past insize %d",
                static_cast<long>(need), position, insize);
  unpack_elements(static_cast<const char*>(inbuf) + position, outbuf, outcount, t);
  position += static_cast<int>(need);
  return status::ok();
}

status pack_size(int incount, type_object& t, comm_object&, int& size) {
  if (status st = check_count(incount); !st.is_ok()) return st;
  size = static_cast<int>(static_cast<aint>(incount) * t.size);
  return status::ok();
}

status type_dup(type_object& old, handle_t& newtype) {
  unpublished<type_object> fresh;
  if (status st = rt().life->type_dup(old, *fresh.obj); !st.is_ok()) return st;
  dup_in_progress building(old, *fresh.obj);
  if (status st = copy_all(old, *fresh.obj); !st.is_ok()) {
    rt().life->type_release(*fresh.obj);
    newtype = h::datatype_null;  // no half-built datatype (R4.5)
    return st;
  }
  if (rt().types.insert(fresh.obj) == 0) return fail(MPI_ERR_INTERN, "too many datatypes");
  newtype = fresh.release()->handle;
  return status::ok();
}

status type_commit(handle_t& datatype) {
  type_object* t = rt().types.lookup(datatype);
  if (t == nullptr) return fail(MPI_ERR_TYPE, "datatype handle 0x%x is null or not valid", datatype);
  t->committed = true;
  return status::ok();
}

status type_free(handle_t& datatype) {
  return free_attr_object(rt().types, datatype, [](type_object& t) { rt().life->type_release(t); },
                          MPI_ERR_TYPE, "datatype");
}

status type_size(type_object& t, int& size) {
  size = static_cast<int>(t.size);
  return status::ok();
}

status type_get_extent(type_object& t, aint& lb, aint& extent) {
  lb = t.lb;
  extent = t.extent;
  return status::ok();
}

status get_address(const void* location, aint& address) {
  address = static_cast<aint>(reinterpret_cast<std::uintptr_t>(location));
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
