// Datatypes on the standalone runtime: constructors, queries, packing and MPI_Get_address.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "datatypes_internal.h"

namespace mpiattr {

// ---- the pool of freed datatype objects (D72) ----

namespace {
// Up to kTypePoolMax freed datatype objects wait for the next datatype, reset to what a new one
// is (with no reference left on an envelope or a type map), so that a dup + free or a
// constructor + free in a loop neither allocates nor zeroes the object (its attribute store's
// inline chunk is 512 bytes), and its cache lines are warm. Only an object whose attribute store
// never grew beyond its inline chunk is kept (attr_store::reusable): the others are deleted.
// Plain memory, constant-initialised: usable during static teardown; what it holds at the end
// is reachable, not leaked. Its lock is a spinlock, taken only at MPI_THREAD_MULTIPLE (sync.h).
constexpr std::uint32_t kTypePoolMax = 64;
struct type_pool {
  sync::spinlock mu;
  std::uint32_t count = 0;
  type_object* kept[kTypePoolMax] = {};
};
constinit type_pool g_type_pool{};

// Back to what `new type_object` makes; the attribute store is empty already (reusable). A new
// member of type_object (object.h) must be reset here: the assertion below counts the bytes.
void reset(type_object& t) noexcept {
  static_assert(sizeof(void*) != 8 || sizeof(type_object) == 824,
                "type_object changed: reset() must reset every member (then update the size)");
  t.handle = 0;
  t.native = 0;
  t.predefined = false;
  t.attrs.freeing = false;  // (delete_all set it)
  t.cold().errhandler.store(nullptr, std::memory_order_relaxed);
  t.cold().name.clear();
  t.cold().building_next = nullptr;
  t.building = attr_object::building_none;
  t.sessions_model = false;
  t.size = t.lb = t.extent = 0;
  t.committed = false;
  t.map.reset();
  t.align = 1;
  t.basic = 0;
  t.marks = 0;
  t.env.reset();
  t.dup_named = 0;
  t.dups = 0;
  t.dup_committed = false;
}
}  // namespace

template <>
type_object* make_object<type_object>() {
  {
    std::lock_guard lock(g_type_pool.mu);
    if (g_type_pool.count != 0) return g_type_pool.kept[--g_type_pool.count];
  }
  return new type_object;
}

template <>
void discard<type_object>(type_object* t) noexcept {
  if (t->attrs.reusable() && !t->predefined) {
    reset(*t);
    std::lock_guard lock(g_type_pool.mu);
    if (g_type_pool.count < kTypePoolMax) {
      g_type_pool.kept[g_type_pool.count++] = t;
      return;
    }
  }
  delete t;
}

namespace {

// Builds a type map from pieces: `count` elements of `old` starting at byte displacement `disp`.
// The bounds (MPI-2.2 §4.1.6, MPI-4.1 §6.1.7): a marked bound (an MPI_LB or MPI_UB marker, or a
// resized type's) wins over every unmarked one and stays marked in the result; the pure markers
// MPI_LB and MPI_UB have no other bound (D58).
struct type_builder {
  std::vector<type_block> map;
  aint size = 0, lb = 0, ub = 0, align = 1;  // lb, ub: the unmarked bounds
  aint mlb = 0, mub = 0;                     // the marked bounds
  bool lb_any = false, ub_any = false, mlb_any = false, mub_any = false;
  handle_t basic = 0;  // as type_object::basic
  bool overflow = false;  // a size, bound or displacement beyond MPI_Aint: publish refuses it (D113)
  void add(const type_object& old, aint disp, aint count) {
    if (count <= 0 || overflow) return;
    // The items' bytes, and their bounds: `reach` is (count - 1) extents from the first item.
    aint bytes = 0, grown = 0, reach = 0, base = 0, lo = 0, top = 0, hi = 0;
    if (__builtin_mul_overflow(count, old.size, &bytes) || __builtin_add_overflow(size, bytes, &grown) ||
        __builtin_mul_overflow(count - 1, old.extent, &reach) || __builtin_add_overflow(disp, old.lb, &base) ||
        __builtin_add_overflow(base, std::min<aint>(0, reach), &lo) ||
        __builtin_add_overflow(base, old.extent, &top) || __builtin_add_overflow(top, std::max<aint>(0, reach), &hi))
        [[unlikely]] {
      overflow = true;
      return;
    }
    const auto& ob = blocks(old.map);
    if (old.basic != 0) basic = (basic == 0 || basic == old.basic) ? old.basic : basic_mixed;
    if (map.capacity() == 0)  // one allocation for the usual small maps (D62, D67), never a huge one
      map.reserve(static_cast<std::size_t>(
          std::clamp<aint>(std::min<aint>(count, 16) * static_cast<aint>(ob.size()), 4, 16)));
    if (ob.size() == 1 && ob[0].len == old.extent) {  // items without gaps: one run (D72)
      aint d = 0;
      if (__builtin_add_overflow(disp, ob[0].disp, &d)) [[unlikely]] {
        overflow = true;
        return;
      }
      const aint len = bytes;
      if (!map.empty() && map.back().disp + map.back().len == d)
        map.back().len += len;
      else
        map.push_back({d, len});
    } else if (!ob.empty()) {  // (an empty type adds no block, however many items: D113)
      for (aint j = 0; j < count; ++j)
        for (const type_block& b : ob) {
          aint d = disp + j * old.extent + b.disp;
          if (!map.empty() && map.back().disp + map.back().len == d)
            map.back().len += b.len;
          else
            map.push_back({d, b.len});
        }
    }
    size = grown;
    if (old.marks & type_object::lb_marked) {
      mlb = mlb_any ? std::min(mlb, lo) : lo;
      mlb_any = true;
    } else if (!(old.marks & type_object::lb_absent)) {
      lb = lb_any ? std::min(lb, lo) : lo;
      lb_any = true;
    }
    if (old.marks & type_object::ub_marked) {
      mub = mub_any ? std::max(mub, hi) : hi;
      mub_any = true;
    } else if (!(old.marks & type_object::ub_absent)) {
      ub = ub_any ? std::max(ub, hi) : hi;
      ub_any = true;
    }
    align = std::max(align, old.align);
  }
  // MPI_Type_create_resized: both bounds marked.
  void resize(aint new_lb, aint new_ub) {
    mlb = new_lb;
    mub = new_ub;
    mlb_any = mub_any = true;
  }
  status publish(handle_t& out, std::shared_ptr<const type_envelope> env, bool pad_to_alignment = false) {
    if (overflow) [[unlikely]]
      return fail(MPI_ERR_ARG, "the datatype's size, bounds or displacements do not fit in MPI_Aint: its counts, "
                               "displacements or strides are too large");
    unpublished<type_object> t;  // (out of memory below: it goes back, D65)
    t.obj->size = size;
    // Each bound: its marker's where marked, else the pieces' (0 with none); a bound that only
    // a pure marker of the other kind left unset follows the other bound (an extent of 0).
    const bool has_l = mlb_any || lb_any, has_u = mub_any || ub_any;
    aint l = mlb_any ? mlb : lb, u = mub_any ? mub : ub;
    if (!has_l && !has_u) l = u = 0;
    else if (!has_l) l = u;
    else if (!has_u) u = l;
    t.obj->lb = l;
    aint extent = u - l;
    if (pad_to_alignment && !mub_any && align > 1 && extent % align != 0)
      extent += align - extent % align;  // the epsilon: not where a marker sets the upper bound
    t.obj->extent = extent;
    t.obj->marks = static_cast<std::uint8_t>((mlb_any ? type_object::lb_marked : 0) |
                                         (mub_any ? type_object::ub_marked : 0));
    if (env != nullptr && env.use_count() == 1) {  // (a new envelope, which only this call holds)
      // The map lives in the envelope, and the datatype points at it without a count (D67).
      auto& kept = const_cast<type_envelope&>(*env).map;
      kept = std::move(map);
      t.obj->map = std::shared_ptr<const std::vector<type_block>>(std::shared_ptr<void>(), &kept);
    } else {
      t.obj->map = std::make_shared<const std::vector<type_block>>(std::move(map));
    }
    t.obj->align = align;
    t.obj->basic = basic;
    t.obj->env = std::move(env);
    return insert_new(rt().types, t.release(), out, "datatypes");
  }
};

using runs_t = std::vector<std::pair<aint, std::size_t>>;
using count_t = std::int64_t;  // MPI_Count: the counts of the large-count forms (D113)

// The envelope of a constructor of one datatype, `items` items of it in the type map (with a
// few integers and addresses, one allocation: D72); a large-count constructor's values in `large`.
std::shared_ptr<const type_envelope> one_type(int combiner, std::span<const int> ints, std::span<const aint> addrs,
                                              const type_object& old, aint items,
                                              std::span<const count_t> large = {}) {
  return make_one_envelope(combiner, ints, addrs, part_of(old), items, large);
}

// The sum of the lengths (-1 past MPI_Aint, where the builder refuses the datatype anyway).
template <typename L>
aint sum(count_t count, const L* values) {
  aint s = 0;
  for (count_t i = 0; i < count; ++i)
    if (__builtin_add_overflow(s, static_cast<aint>(values[i]), &s)) return -1;
  return s;
}

template <typename L>
status check_lengths(count_t count, const L* blocklengths) {
  if (count < 0) return fail(MPI_ERR_COUNT, "count %lld is negative", static_cast<long long>(count));
  if (count > 0 && blocklengths == nullptr) return fail(MPI_ERR_ARG, "array_of_blocklengths is a NULL pointer");
  for (count_t i = 0; i < count; ++i)
    if (blocklengths[i] < 0)
      return fail(MPI_ERR_ARG, "array_of_blocklengths[%lld] = %lld is negative", static_cast<long long>(i),
                  static_cast<long long>(blocklengths[i]));
  return status::ok();
}

// ---- the large-count constructors' values (MPI-4.1 §19.2, docs/decisions.md D113) ----
// A _c constructor whose values its int routine could take builds what that routine builds (D47);
// one whose values it could not builds the same type map, described with large counts.

bool fits_int(count_t v) { return v >= INT_MIN && v <= INT_MAX; }

// Whether the n values (none: a NULL array, or n <= 0) all fit in int.
bool all_fit(const count_t* a, count_t n) {
  if (a == nullptr) return true;
  for (count_t i = 0; i < n; ++i)
    if (!fits_int(a[i])) return false;
  return true;
}

// The values, which all_fit said fit, as ints (n of them; none for a NULL array).
std::vector<int> as_ints(const count_t* a, count_t n) {
  std::vector<int> v;
  if (a == nullptr || n <= 0) return v;
  v.resize(static_cast<std::size_t>(n));
  for (count_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<int>(a[i]);
  return v;
}
const int* data_of(const count_t* a, const std::vector<int>& v) { return a == nullptr ? nullptr : v.data(); }

// head, then n values of each array (which all_fit or the checks made sure are there).
template <typename T>
std::vector<T> concat(std::initializer_list<T> head, count_t n, std::initializer_list<const T*> arrays,
                      std::initializer_list<T> tail = {}) {
  std::vector<T> v(head);
  v.reserve(head.size() + static_cast<std::size_t>(n) * arrays.size() + tail.size());
  for (const T* a : arrays) v.insert(v.end(), a, a + n);
  v.insert(v.end(), tail);
  return v;
}

// A byte displacement of `d` extents of t, or the builder's overflow.
aint in_extents(count_t d, const type_object& t, type_builder& b) {
  aint r = 0;
  if (__builtin_mul_overflow(d, t.extent, &r)) b.overflow = true;
  return r;
}

// The large form of a constructor of blocks (MPI_Type_indexed_c, _create_hindexed_c,
// _create_indexed_block_c, _create_hindexed_block_c, _create_struct_c): block i holds lengths[i]
// (or, with lengths null, `length`) items of types[i] (or old) at displacements[i] bytes (extents
// of old where `extents`), with the checks of the int routines, described with large counts in
// §6.1.13's layout: count, the block lengths (or the one), the displacements.
status large_blocks(int combiner, count_t count, const count_t* lengths, count_t length, const count_t* displacements,
                    bool extents, type_object* const* types, type_object* old, handle_t& newtype) {
  const bool per_block = combiner != MPI_COMBINER_INDEXED_BLOCK && combiner != MPI_COMBINER_HINDEXED_BLOCK;
  if (per_block) {
    if (status st = check_lengths(count, lengths); !st.is_ok()) return st;
  } else {
    if (status st = check_count(count); !st.is_ok()) return st;
    if (length < 0) return fail(MPI_ERR_ARG, "blocklength %lld is negative", static_cast<long long>(length));
  }
  if (count > 0 && displacements == nullptr) return fail(MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
  std::vector<count_t> large = per_block ? concat<count_t>({count}, count, {lengths, displacements})
                                         : concat<count_t>({count, length}, count, {displacements});
  type_builder b;
  std::vector<type_part> parts;
  runs_t runs;
  aint items = 0;
  for (count_t i = 0; i < count && !b.overflow; ++i) {
    const type_object& t = types != nullptr ? *types[i] : *old;
    const count_t n = lengths != nullptr ? lengths[i] : length;
    b.add(t, extents ? in_extents(displacements[i], t, b) : displacements[i], n);
    if (types != nullptr) {
      parts.push_back(part_of(t));
      runs.emplace_back(n, static_cast<std::size_t>(i));
    } else if (__builtin_add_overflow(items, n, &items)) {
      b.overflow = true;
    }
  }
  if (types != nullptr)
    return b.publish(newtype, make_envelope(combiner, {}, {}, std::move(parts), std::move(runs), std::move(large)),
                     /*pad_to_alignment=*/true);
  return b.publish(newtype, one_type(combiner, {}, {}, *old, items, large));
}

}  // namespace

namespace api {

// ---- datatypes ----

namespace {
status contiguous(count_t count, type_object& old, handle_t& newtype, std::span<const int> ints,
                  std::span<const count_t> large) {
  if (status st = check_count(count); !st.is_ok()) return st;
  type_builder b;
  b.add(old, 0, count);
  return b.publish(newtype, one_type(MPI_COMBINER_CONTIGUOUS, ints, {}, old, count, large));
}
}  // namespace

status type_contiguous(int count, type_object& old, handle_t& newtype) {
  const int ints[] = {count};
  return contiguous(count, old, newtype, ints, {});
}

status type_contiguous_c(count_t count, type_object& old, handle_t& newtype) {
  if (fits_int(count)) return type_contiguous(static_cast<int>(count), old, newtype);
  const count_t large[] = {count};
  return contiguous(count, old, newtype, {}, large);
}

namespace {
// The type map of MPI_Type_(h)vector(_c): count blocks of blocklength items of old, stride bytes
// apart, into b; `items` the items in it. The callers describe it (D113: int or large counts).
[[gnu::always_inline]] inline status hvector(type_builder& b, count_t count, count_t blocklength, aint stride,
                                             const type_object& old, aint& items) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (blocklength < 0) return fail(MPI_ERR_ARG, "blocklength %lld is negative", static_cast<long long>(blocklength));
  aint reach = 0;  // (every i * stride below is within (count - 1) * stride)
  if (__builtin_mul_overflow(count, blocklength, &items) || __builtin_mul_overflow(count - 1, stride, &reach))
    b.overflow = true;
  for (count_t i = 0; i < count && !b.overflow; ++i) b.add(old, i * stride, blocklength);
  return status::ok();
}

}  // namespace

status type_create_hvector(int count, int blocklength, aint stride, type_object& old, handle_t& newtype) {
  type_builder b;
  aint items = 0;
  if (status st = hvector(b, count, blocklength, stride, old, items); !st.is_ok()) return st;
  const int ints[] = {count, blocklength};
  const aint addrs[] = {stride};
  return b.publish(newtype, one_type(MPI_COMBINER_HVECTOR, ints, addrs, old, items));
}

status type_create_hvector_c(count_t count, count_t blocklength, count_t stride, type_object& old,
                             handle_t& newtype) {
  if (fits_int(count) && fits_int(blocklength))
    return type_create_hvector(static_cast<int>(count), static_cast<int>(blocklength), stride, old, newtype);
  type_builder b;
  aint items = 0;
  if (status st = hvector(b, count, blocklength, stride, old, items); !st.is_ok()) return st;
  const count_t large[] = {count, blocklength, stride};
  return b.publish(newtype, one_type(MPI_COMBINER_HVECTOR, {}, {}, old, items, large));
}

status type_vector(int count, int blocklength, int stride, type_object& old, handle_t& newtype) {
  type_builder b;
  aint items = 0;
  if (status st = hvector(b, count, blocklength, in_extents(stride, old, b), old, items); !st.is_ok()) return st;
  const int ints[] = {count, blocklength, stride};
  return b.publish(newtype, one_type(MPI_COMBINER_VECTOR, ints, {}, old, items));
}

status type_vector_c(count_t count, count_t blocklength, count_t stride, type_object& old, handle_t& newtype) {
  if (fits_int(count) && fits_int(blocklength) && fits_int(stride))
    return type_vector(static_cast<int>(count), static_cast<int>(blocklength), static_cast<int>(stride), old,
                       newtype);
  type_builder b;
  aint items = 0;
  if (status st = hvector(b, count, blocklength, in_extents(stride, old, b), old, items); !st.is_ok()) return st;
  const count_t large[] = {count, blocklength, stride};
  return b.publish(newtype, one_type(MPI_COMBINER_VECTOR, {}, {}, old, items, large));
}

status type_indexed(int count, const int* blocklengths, const int* displacements, type_object& old,
                    handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  if (count > 0 && displacements == nullptr) return fail(MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, in_extents(displacements[i], old, b), blocklengths[i]);
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  ints.insert(ints.end(), displacements, displacements + count);
  return b.publish(newtype, one_type(MPI_COMBINER_INDEXED, ints, {}, old, sum(count, blocklengths)));
}

status type_indexed_c(count_t count, const count_t* blocklengths, const count_t* displacements, type_object& old,
                      handle_t& newtype) {
  if (fits_int(count) && all_fit(blocklengths, count) && all_fit(displacements, count)) {
    const auto l = as_ints(blocklengths, count), d = as_ints(displacements, count);
    return type_indexed(static_cast<int>(count), data_of(blocklengths, l), data_of(displacements, d), old, newtype);
  }
  return large_blocks(MPI_COMBINER_INDEXED, count, blocklengths, 0, displacements, true, nullptr, &old, newtype);
}

status type_create_hindexed(int count, const int* blocklengths, const aint* displacements,
                            type_object& old, handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  if (count > 0 && displacements == nullptr) return fail(MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, displacements[i], blocklengths[i]);
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  return b.publish(newtype, one_type(MPI_COMBINER_HINDEXED, ints,
                                     std::span<const aint>(displacements, static_cast<std::size_t>(count)),
                                     old, sum(count, blocklengths)));
}

status type_create_hindexed_c(count_t count, const count_t* blocklengths, const count_t* displacements,
                              type_object& old, handle_t& newtype) {
  if (fits_int(count) && all_fit(blocklengths, count)) {  // (MPI_Count and MPI_Aint are both 64 bits)
    const auto l = as_ints(blocklengths, count);
    return type_create_hindexed(static_cast<int>(count), data_of(blocklengths, l), displacements, old, newtype);
  }
  return large_blocks(MPI_COMBINER_HINDEXED, count, blocklengths, 0, displacements, false, nullptr, &old, newtype);
}

status type_create_struct(int count, const int* blocklengths, const aint* displacements,
                          type_object* const* types, handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  if (count > 0 && displacements == nullptr) return fail(MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
  type_builder b;
  std::vector<int> ints;
  std::vector<type_part> parts;
  runs_t runs;
  // One allocation each (D67): pushed one by one they grew 1, 2, 4, ...
  ints.reserve(static_cast<std::size_t>(count) + 1);
  parts.reserve(static_cast<std::size_t>(count));
  runs.reserve(static_cast<std::size_t>(count));
  ints.push_back(count);
  for (int i = 0; i < count; ++i) {
    b.add(*types[i], displacements[i], blocklengths[i]);
    ints.push_back(blocklengths[i]);
    parts.push_back(part_of(*types[i]));
    runs.emplace_back(blocklengths[i], static_cast<std::size_t>(i));
  }
  auto env = make_envelope(MPI_COMBINER_STRUCT, std::move(ints),
                           std::vector<aint>(displacements, displacements + count), std::move(parts),
                           std::move(runs));
  return b.publish(newtype, std::move(env), /*pad_to_alignment=*/true);  // MPI-4.1 §6.1.6: the epsilon
}

status type_create_struct_c(count_t count, const count_t* blocklengths, const count_t* displacements,
                            type_object* const* types, handle_t& newtype) {
  if (fits_int(count) && all_fit(blocklengths, count)) {
    const auto l = as_ints(blocklengths, count);
    return type_create_struct(static_cast<int>(count), data_of(blocklengths, l), displacements, types, newtype);
  }
  return large_blocks(MPI_COMBINER_STRUCT, count, blocklengths, 0, displacements, false, types, nullptr, newtype);
}

status type_create_resized(type_object& old, aint lb, aint extent, handle_t& newtype) {
  type_builder b;
  b.add(old, 0, 1);
  b.resize(lb, lb + extent);  // markers: the constructors that use it keep these bounds
  const aint addrs[] = {lb, extent};
  return b.publish(newtype, one_type(MPI_COMBINER_RESIZED, {}, addrs, old, 1));
}

// ---- the block, subarray and darray constructors (MPI-4.1 §6.1.2-§6.1.4, D43) ----

status type_create_indexed_block(int count, int blocklength, const int* displacements, type_object& old,
                                 handle_t& newtype) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (blocklength < 0) return fail(MPI_ERR_ARG, "blocklength %d is negative", blocklength);
  if (count > 0 && displacements == nullptr) return fail(MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, in_extents(displacements[i], old, b), blocklength);
  std::vector<int> ints{count, blocklength};
  ints.insert(ints.end(), displacements, displacements + count);
  return b.publish(newtype, one_type(MPI_COMBINER_INDEXED_BLOCK, ints, {}, old,
                                     static_cast<aint>(count) * blocklength));
}

status type_create_indexed_block_c(count_t count, count_t blocklength, const count_t* displacements,
                                   type_object& old, handle_t& newtype) {
  if (fits_int(count) && fits_int(blocklength) && all_fit(displacements, count)) {
    const auto d = as_ints(displacements, count);
    return type_create_indexed_block(static_cast<int>(count), static_cast<int>(blocklength),
                                     data_of(displacements, d), old, newtype);
  }
  return large_blocks(MPI_COMBINER_INDEXED_BLOCK, count, nullptr, blocklength, displacements, true, nullptr, &old,
                      newtype);
}

status type_create_hindexed_block(int count, int blocklength, const aint* displacements,
                                  type_object& old, handle_t& newtype) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (blocklength < 0) return fail(MPI_ERR_ARG, "blocklength %d is negative", blocklength);
  if (count > 0 && displacements == nullptr) return fail(MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, displacements[i], blocklength);
  const int ints[] = {count, blocklength};
  return b.publish(newtype, one_type(MPI_COMBINER_HINDEXED_BLOCK, ints,
                                     std::span<const aint>(displacements, static_cast<std::size_t>(count)),
                                     old, static_cast<aint>(count) * blocklength));
}

status type_create_hindexed_block_c(count_t count, count_t blocklength, const count_t* displacements,
                                    type_object& old, handle_t& newtype) {
  if (fits_int(count) && fits_int(blocklength))
    return type_create_hindexed_block(static_cast<int>(count), static_cast<int>(blocklength), displacements, old,
                                      newtype);
  return large_blocks(MPI_COMBINER_HINDEXED_BLOCK, count, nullptr, blocklength, displacements, false, nullptr, &old,
                      newtype);
}

namespace {
// The indices a subarray or darray takes in one dimension: runs of consecutive indices, increasing.
struct index_run {
  count_t first, length;
};
using picks = std::vector<index_run>;

void pick_run(picks& p, count_t first, count_t length) {
  if (length <= 0) return;
  if (!p.empty() && p.back().first + p.back().length == first)
    p.back().length += length;
  else
    p.push_back({first, length});
}

// The items of an ndims-dimensional array of `old` (extents `g`) whose index in dimension d is
// in `pick[d]`, in array order: the type map of a subarray or a darray. Its lower bound is 0 and
// its extent the whole array's (MPI-4.1 §6.1.3, §6.1.4). `envelope(items)` describes it. The
// innermost dimension's runs are added whole, so that the work is the type map's, not the items'.
template <typename Envelope>
status grid(int ndims, const count_t* g, const std::vector<picks>& pick, int order, type_object& old,
            Envelope&& envelope, handle_t& newtype) {
  std::vector<int> dims(static_cast<std::size_t>(ndims));  // slowest first
  for (int i = 0; i < ndims; ++i) dims[static_cast<std::size_t>(i)] = order == MPI_ORDER_C ? i : ndims - 1 - i;
  type_builder b;
  aint total = 1, items = 1;
  for (int i = 0; i < ndims; ++i) {
    aint n = 0;
    for (const index_run& r : pick[static_cast<std::size_t>(i)]) n += r.length;  // (at most g[i])
    if (__builtin_mul_overflow(total, g[i], &total) || __builtin_mul_overflow(items, n, &items)) b.overflow = true;
  }
  if (items > 0 && !b.overflow) {
    // An odometer over the outer dimensions' picked indices: run at[d], index off[d] in it.
    std::vector<std::size_t> at(static_cast<std::size_t>(ndims), 0);
    std::vector<count_t> off(static_cast<std::size_t>(ndims), 0);
    const int inner = dims.back();
    const picks& in = pick[static_cast<std::size_t>(inner)];
    for (;;) {
      aint base = 0;  // the linear index of the item with index 0 in the innermost dimension
      for (int k = 0; k + 1 < ndims; ++k) {
        const auto d = static_cast<std::size_t>(dims[static_cast<std::size_t>(k)]);
        base = base * g[d] + pick[d][at[d]].first + off[d];
      }
      base *= g[inner];
      for (const index_run& r : in) b.add(old, in_extents(base + r.first, old, b), r.length);
      int k = ndims - 2;
      for (; k >= 0 && !b.overflow; --k) {
        const auto d = static_cast<std::size_t>(dims[static_cast<std::size_t>(k)]);
        if (++off[d] < pick[d][at[d]].length) break;
        off[d] = 0;
        if (++at[d] < pick[d].size()) break;
        at[d] = 0;
      }
      if (k < 0 || b.overflow) break;
    }
  }
  aint whole = 0;
  if (__builtin_mul_overflow(total, old.extent, &whole)) b.overflow = true;
  b.resize(0, whole);  // as MPI_Type_create_resized: the bounds are markers
  return b.publish(newtype, envelope(items));
}

status check_order(int order) {
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return fail(MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
  return status::ok();
}

status check_dims(int ndims, const void* a, const void* b, const void* c) {
  if (ndims <= 0) return fail(MPI_ERR_ARG, "ndims %d is not positive", ndims);
  if (a == nullptr || b == nullptr || c == nullptr) return fail(MPI_ERR_ARG, "an array argument is a NULL pointer");
  return status::ok();
}

// The n values as MPI_Counts.
template <typename T>
std::vector<count_t> widened(const T* a, int n) {
  return std::vector<count_t>(a, a + n);
}

// MPI_Type_create_subarray(_c), checked (check_dims, check_order) and described by envelope(items).
template <typename Envelope>
status subarray(int ndims, const count_t* sizes, const count_t* subsizes, const count_t* starts, int order,
                type_object& old, handle_t& newtype, Envelope&& envelope) {
  std::vector<picks> pick(static_cast<std::size_t>(ndims));
  for (int i = 0; i < ndims; ++i) {
    if (sizes[i] <= 0)
      return fail(MPI_ERR_ARG, "array_of_sizes[%d] = %lld is not positive", i, static_cast<long long>(sizes[i]));
    if (subsizes[i] <= 0 || subsizes[i] > sizes[i])
      return fail(MPI_ERR_ARG, "array_of_subsizes[%d] = %lld is not in [1, %lld]", i,
                  static_cast<long long>(subsizes[i]), static_cast<long long>(sizes[i]));
    if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
      return fail(MPI_ERR_ARG, "array_of_starts[%d] = %lld is not in [0, %lld]", i, static_cast<long long>(starts[i]),
                  static_cast<long long>(sizes[i] - subsizes[i]));
    pick_run(pick[static_cast<std::size_t>(i)], starts[i], subsizes[i]);
  }
  return grid(ndims, sizes, pick, order, old, envelope, newtype);
}
}  // namespace

status type_create_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts, int order,
                            type_object& old, handle_t& newtype) {
  if (status st = check_dims(ndims, sizes, subsizes, starts); !st.is_ok()) return st;
  if (status st = check_order(order); !st.is_ok()) return st;
  const auto s = widened(sizes, ndims), sub = widened(subsizes, ndims), at = widened(starts, ndims);
  return subarray(ndims, s.data(), sub.data(), at.data(), order, old, newtype, [&](aint items) {
    return one_type(MPI_COMBINER_SUBARRAY, concat<int>({ndims}, ndims, {sizes, subsizes, starts}, {order}), {}, old,
                    items);
  });
}

status type_create_subarray_c(int ndims, const count_t* sizes, const count_t* subsizes, const count_t* starts,
                              int order, type_object& old, handle_t& newtype) {
  if (status st = check_dims(ndims, sizes, subsizes, starts); !st.is_ok()) return st;
  if (status st = check_order(order); !st.is_ok()) return st;
  if (all_fit(sizes, ndims) && all_fit(subsizes, ndims) && all_fit(starts, ndims)) {
    const auto s = as_ints(sizes, ndims), sub = as_ints(subsizes, ndims), at = as_ints(starts, ndims);
    return type_create_subarray(ndims, s.data(), sub.data(), at.data(), order, old, newtype);
  }
  return subarray(ndims, sizes, subsizes, starts, order, old, newtype, [&](aint items) {
    const int ints[] = {ndims, order};
    const auto large = concat<count_t>({}, ndims, {sizes, subsizes, starts});
    return one_type(MPI_COMBINER_SUBARRAY, ints, {}, old, items, large);
  });
}

namespace {
// MPI_Type_create_darray(_c), described by envelope(items). The process grid is in row-major
// order whatever the array's order (MPI-4.1 §6.1.4); on one process size is usually 1 and the
// datatype covers the whole array, but any size is carried out.
template <typename Envelope>
status darray(int size, int rank, int ndims, const count_t* gsizes, const int* distribs, const int* dargs,
              const int* psizes, int order, type_object& old, handle_t& newtype, Envelope&& envelope) {
  long long procs = 1;
  for (int i = 0; i < ndims; ++i) {
    if (psizes[i] <= 0) return fail(MPI_ERR_ARG, "array_of_psizes[%d] = %d is not positive", i, psizes[i]);
    procs *= psizes[i];
  }
  if (procs != size)
    return fail(MPI_ERR_ARG, "the process grid has %lld processes, size is %d", procs, size);
  std::vector<int> coords(static_cast<std::size_t>(ndims));
  for (int i = ndims - 1, r = rank; i >= 0; --i) {
    coords[static_cast<std::size_t>(i)] = r % psizes[i];
    r /= psizes[i];
  }
  std::vector<picks> pick(static_cast<std::size_t>(ndims));
  for (int i = 0; i < ndims; ++i) {
    const count_t g = gsizes[i];
    const int p = psizes[i], c = coords[static_cast<std::size_t>(i)], d = dargs[i];
    auto& out = pick[static_cast<std::size_t>(i)];
    if (g <= 0) return fail(MPI_ERR_ARG, "array_of_gsizes[%d] = %lld is not positive", i, static_cast<long long>(g));
    if (d != MPI_DISTRIBUTE_DFLT_DARG && d <= 0)
      return fail(MPI_ERR_ARG, "array_of_dargs[%d] = %d is neither positive nor MPI_DISTRIBUTE_DFLT_DARG", i, d);
    if (distribs[i] == MPI_DISTRIBUTE_NONE) {
      if (p != 1) return fail(MPI_ERR_ARG, "dimension %d is not distributed but array_of_psizes[%d] = %d", i, i, p);
      pick_run(out, 0, g);
    } else if (distribs[i] == MPI_DISTRIBUTE_BLOCK) {
      const count_t b = d == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : d;
      if (b * p < g)
        return fail(MPI_ERR_ARG, "array_of_dargs[%d] = %d: %d blocks of it do not cover %lld items", i, d, p,
                    static_cast<long long>(g));
      pick_run(out, c * b, std::min(g, (c + 1) * b) - c * b);
    } else if (distribs[i] == MPI_DISTRIBUTE_CYCLIC) {
      const count_t b = d == MPI_DISTRIBUTE_DFLT_DARG ? 1 : d;  // blocks c, c + p, c + 2p, ... of b
      for (count_t j = c * b; j < g; j += b * p) pick_run(out, j, std::min(b, g - j));
    } else {
      return fail(MPI_ERR_ARG, "array_of_distribs[%d] = %d is not an MPI_DISTRIBUTE_* value", i, distribs[i]);
    }
  }
  return grid(ndims, gsizes, pick, order, old, envelope, newtype);
}

status check_darray(int size, int rank, int ndims, const void* gsizes, const int* distribs, const int* dargs,
                    const int* psizes, int order) {
  if (size <= 0) return fail(MPI_ERR_ARG, "size %d is not positive", size);
  if (rank < 0 || rank >= size) return fail(MPI_ERR_ARG, "rank %d is not in [0, %d]", rank, size - 1);
  if (status st = check_dims(ndims, gsizes, distribs, psizes); !st.is_ok()) return st;
  if (dargs == nullptr) return fail(MPI_ERR_ARG, "array_of_dargs is a NULL pointer");
  return check_order(order);
}
}  // namespace

status type_create_darray(int size, int rank, int ndims, const int* gsizes, const int* distribs,
                          const int* dargs, const int* psizes, int order, type_object& old,
                          handle_t& newtype) {
  if (status st = check_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order); !st.is_ok()) return st;
  const auto g = widened(gsizes, ndims);
  return darray(size, rank, ndims, g.data(), distribs, dargs, psizes, order, old, newtype, [&](aint items) {
    return one_type(MPI_COMBINER_DARRAY,
                    concat<int>({size, rank, ndims}, ndims, {gsizes, distribs, dargs, psizes}, {order}), {}, old,
                    items);
  });
}

status type_create_darray_c(int size, int rank, int ndims, const count_t* gsizes, const int* distribs,
                            const int* dargs, const int* psizes, int order, type_object& old, handle_t& newtype) {
  if (status st = check_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order); !st.is_ok()) return st;
  if (all_fit(gsizes, ndims)) {
    const auto g = as_ints(gsizes, ndims);
    return type_create_darray(size, rank, ndims, g.data(), distribs, dargs, psizes, order, old, newtype);
  }
  return darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, newtype, [&](aint items) {
    return one_type(MPI_COMBINER_DARRAY, concat<int>({size, rank, ndims}, ndims, {distribs, dargs, psizes}, {order}),
                    {}, old, items, concat<count_t>({}, ndims, {gsizes}));
  });
}

status check_buffer(const void* buf, std::int64_t count, const type_object& t, const char* name) {
  if ((buf != nullptr && buf != gen::in_place) || count <= 0 || t.size <= 0) return status::ok();
  if (buf == gen::in_place)
    return fail(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which stands for a collective's send buffer only", name);
  aint true_lb = 0, true_extent = 0;
  (void)type_get_true_extent(const_cast<type_object&>(t), true_lb, true_extent);  // (reads only)
  if (true_lb != 0) return status::ok();  // (absolute addresses from MPI_BOTTOM, or data past NULL)
  return fail(MPI_ERR_BUFFER, "%s is NULL, with a count of %lld and data to carry (MPI_BOTTOM is NULL too: it "
              "needs a datatype of absolute addresses)", name, static_cast<long long>(count));
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

namespace {
// MPI_Pack and MPI_Unpack, and their large-count forms (whose sizes and positions are MPI_Counts, D113).
template <typename N>
status pack_into(const void* inbuf, std::int64_t incount, type_object& t, void* outbuf, N outsize, N& position) {
  if (status st = check_count(incount); !st.is_ok()) return st;
  if (status st = check_committed(t); !st.is_ok()) return st;
  aint need = 0;  // (past MPI_Aint it does not fit either)
  if (__builtin_mul_overflow(incount, t.size, &need)) need = std::numeric_limits<aint>::max();
  if (status st = check_pack_room(need, position, outsize, true); !st.is_ok()) return st;
  if (status st = check_packed(outbuf, need, "outbuf"); !st.is_ok()) return st;
  pack_elements(inbuf, incount, t, static_cast<char*>(outbuf) + position);
  position += static_cast<N>(need);
  return status::ok();
}

template <typename N>
status unpack_from(const void* inbuf, N insize, N& position, void* outbuf, std::int64_t outcount, type_object& t) {
  if (status st = check_count(outcount); !st.is_ok()) return st;
  if (status st = check_committed(t); !st.is_ok()) return st;
  aint need = 0;
  if (__builtin_mul_overflow(outcount, t.size, &need)) need = std::numeric_limits<aint>::max();
  if (status st = check_pack_room(need, position, insize, false); !st.is_ok()) return st;
  if (status st = check_packed(inbuf, need, "inbuf"); !st.is_ok()) return st;
  unpack_elements(static_cast<const char*>(inbuf) + position, outbuf, outcount, t);
  position += static_cast<N>(need);
  return status::ok();
}
}  // namespace

status pack(const void* inbuf, int incount, type_object& t, void* outbuf, int outsize, int& position,
            comm_object&) {
  return pack_into(inbuf, incount, t, outbuf, outsize, position);
}

status pack_c(const void* inbuf, std::int64_t incount, type_object& t, void* outbuf, std::int64_t outsize,
              std::int64_t& position, comm_object&) {
  return pack_into(inbuf, incount, t, outbuf, outsize, position);
}

status unpack(const void* inbuf, int insize, int& position, void* outbuf, int outcount,
              type_object& t, comm_object&) {
  return unpack_from(inbuf, insize, position, outbuf, outcount, t);
}

status unpack_c(const void* inbuf, std::int64_t insize, std::int64_t& position, void* outbuf, std::int64_t outcount,
                type_object& t, comm_object&) {
  return unpack_from(inbuf, insize, position, outbuf, outcount, t);
}

status pack_size(int incount, type_object& t, comm_object& comm, int& size) {
  std::int64_t large = 0;
  if (status st = pack_size_c(incount, t, comm, large); !st.is_ok()) return st;
  if (large > INT_MAX)  // MPI_Pack_size_c answers it (docs/decisions.md D47)
    return fail(MPI_ERR_VALUE_TOO_LARGE, "the packed size, %lld bytes, does not fit in an int: use MPI_Pack_size_c",
                static_cast<long long>(large));
  size = static_cast<int>(large);
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
  if (rt().types.insert(fresh.obj) == 0) {  // the copies go, their delete callbacks run (D10, D61)
    (void)delete_all(*fresh.obj);
    rt().life->type_release(*fresh.obj);
    newtype = h::datatype_null;
    return fail(MPI_ERR_INTERN, "too many datatypes");
  }
  report::object_made(object_kind::type, fresh.obj->handle);  // (MPIATTR_REPORT names where, D60)
  newtype = fresh.release()->handle;  // its envelope: old's, shared (D62)
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
  // MPI_UNDEFINED where the size does not fit in an int (MPI-4.1 MPI_TYPE_SIZE; MPI_Type_size_c
  // answers it, docs/decisions.md D47).
  size = t.size > INT_MAX ? MPI_UNDEFINED : static_cast<int>(t.size);
  return status::ok();
}

status type_get_extent(type_object& t, aint& lb, aint& extent) {
  lb = t.lb;
  extent = t.extent;
  return status::ok();
}

status type_extent(type_object& t, aint& extent) {
  extent = t.extent;
  return status::ok();
}

status type_lb(type_object& t, aint& displacement) {
  displacement = t.lb;
  return status::ok();
}

status type_ub(type_object& t, aint& displacement) {
  displacement = t.lb + t.extent;
  return status::ok();
}

status get_address(const void* location, aint& address) {
  address = static_cast<aint>(reinterpret_cast<std::uintptr_t>(location));
  return status::ok();
}

// MPI_Type_get_value_index (MPI-4.1 §7.9.4, D55): the predefined pair type of MPI_MINLOC and
// MPI_MAXLOC whose value has value_type and whose index has index_type, or MPI_DATATYPE_NULL when
// no predefined type is that pair (a derived or duplicated type never is).
status type_get_value_index(type_object& value_type, type_object& index_type, handle_t& pair_type) {
  static const char* const pairs[][3] = {
      {"MPI_FLOAT", "MPI_INT", "MPI_FLOAT_INT"},         {"MPI_DOUBLE", "MPI_INT", "MPI_DOUBLE_INT"},
      {"MPI_LONG", "MPI_INT", "MPI_LONG_INT"},           {"MPI_INT", "MPI_INT", "MPI_2INT"},
      {"MPI_SHORT", "MPI_INT", "MPI_SHORT_INT"},         {"MPI_LONG_DOUBLE", "MPI_INT", "MPI_LONG_DOUBLE_INT"},
      {"MPI_REAL", "MPI_REAL", "MPI_2REAL"},             {"MPI_INTEGER", "MPI_INTEGER", "MPI_2INTEGER"},
      {"MPI_DOUBLE_PRECISION", "MPI_DOUBLE_PRECISION", "MPI_2DOUBLE_PRECISION"},
  };
  auto value_of = [](const char* name) -> handle_t {
    for (const auto& d : gen::datatypes)
      if (std::strcmp(d.name, name) == 0) return d.value;
    return h::datatype_null;
  };
  handle_t found = h::datatype_null;
  if (value_type.predefined && index_type.predefined)
    for (const auto& p : pairs)
      if (value_of(p[0]) == value_type.handle && value_of(p[1]) == index_type.handle) found = value_of(p[2]);
  pair_type = found;
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
