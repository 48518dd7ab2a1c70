// mpiattr/handles.h: object kinds, the handle encoding, and the tables that map handles to objects.
//
// A handle is a 32-bit integer in every language (C casts it to its pointer-typed handle, Fortran
// uses it as INTEGER), so c2f/f2c are identities. Predefined and null handles have the small
// values of the MPI-5.0 ABI (MPI_COMM_WORLD = 0x101, ...). Handles of created objects are
//   0x40000000 | kind << 27 | generation << 20 | index
// so a freed handle, or one of the wrong kind, is recognised (until 128 reuses of its slot).
// Lookups take no lock and perform no read-modify-write: the table is one array that never moves.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "mpiattr/config.h"
#include "mpiattr/sync.h"

namespace mpiattr {

// Holds a T that is constant-initialised and never destroyed, so MPI calls made during static
// initialisation or teardown of other libraries still find it.
template <typename T>
union never_destroyed {
  constexpr never_destroyed() : value() {}
  ~never_destroyed() {}
  T value;
};

enum class object_kind : std::uint8_t { comm, type, win, group, request, errhandler, info, op };
constexpr int kObjectKinds = 8;

const char* kind_name(object_kind k);  // "communicator", "datatype", "window", ...

namespace handles {
constexpr handle_t kDynamicBit = 0x40000000u;
constexpr int kIndexBits = 20;
constexpr int kGenBits = 7;
constexpr std::uint32_t kIndexMask = (1u << kIndexBits) - 1;
constexpr handle_t kPredefinedLimit = 0x400;  // predefined and null handles are below this

constexpr bool is_dynamic(handle_t h) { return (h & 0xC0000000u) == kDynamicBit; }
constexpr object_kind kind_of(handle_t h) { return static_cast<object_kind>((h >> 27) & 7u); }
constexpr std::uint32_t index_of(handle_t h) { return h & ((1u << kIndexBits) - 1); }
constexpr std::uint32_t gen_of(handle_t h) { return (h >> kIndexBits) & ((1u << kGenBits) - 1); }
constexpr handle_t make(object_kind k, std::uint32_t gen, std::uint32_t index) {
  return kDynamicBit | static_cast<handle_t>(k) << 27 |
         (gen & ((1u << kGenBits) - 1)) << kIndexBits | index;
}
}  // namespace handles

// One table per object kind, and one kind per T (the arrays are static members, so that they are
// zero-initialised static storage outside any object with other initial values: untouched, they
// cost neither memory nor file size). T must have a member `handle_t handle`.
//
// The table is one flat array of 2^20 object pointers indexed by the low 20 bits of the handle:
// predefined handles (below 0x400) index it directly and created objects get indices from 0x400
// up, so a lookup is one load and one compare whatever the handle, with no separate path for
// predefined objects. The array is zero-initialised static storage: the pages of indices never
// used are never touched, so it costs address space, not memory.
template <typename T>
class object_table {
 public:
  explicit constexpr object_table(object_kind kind) : kind_(kind) {}
  object_table(const object_table&) = delete;

  // The live object named by h, or nullptr (null, freed, or another kind's handle). Any value
  // indexes some entry; the full-handle compare rejects other kinds' handles, stale generations
  // and garbage alike.
  MPIATTR_HOT T* lookup(handle_t h) const {
    T* obj = slots_[handles::index_of(h)].load(std::memory_order_acquire);
    return (obj != nullptr && obj->handle == h) ? obj : nullptr;
  }

  // lookup(h & mask) for the fast paths, which pass the runtime's fast_mask: entry 0 is never
  // used (no handle has index 0), so a zero mask rejects every handle.
  // At MPI_THREAD_MULTIPLE (Order acquire: the object may have been published by another thread)
  // the same, with the concurrent gate's mask.
  template <std::memory_order Order = std::memory_order_relaxed>
  MPIATTR_HOT T* fast_lookup(handle_t h, std::uint32_t mask) const {
    T* obj = slots_[h & mask].load(Order);
    return (obj != nullptr && obj->handle == h) ? obj : nullptr;
  }

  // Registers a predefined object under its fixed handle value. Allocates nothing, so that the
  // runtime's setup cannot fail half-way through its installs (docs/decisions.md D85).
  void install_predefined(handle_t h, T* obj) {
    if (h == 0 || h >= handles::kPredefinedLimit) std::abort();  // entry 0 stays empty
    obj->handle = h;
    slots_[h].store(obj, std::memory_order_release);
    std::lock_guard lock(mu_);
    for (std::uint32_t i = 0; i < npredefined_; ++i)
      if (predefined_[i] == h) return;  // (installed again: listed once)
    predefined_[npredefined_++] = h;
  }
  void remove_predefined(handle_t h) { slots_[h].store(nullptr, std::memory_order_release); }

  // Gives obj a fresh handle; returns 0 when the table is full.
  handle_t insert(T* obj) {
    std::lock_guard lock(mu_);
    std::uint32_t i;
    if (!free_.empty()) {
      i = free_.back();
      free_.pop_back();
    } else {
      if (next_ >= (1u << handles::kIndexBits)) return 0;
      i = next_++;
    }
    std::uint32_t gen = (gens_[i] + 1u) & ((1u << handles::kGenBits) - 1);
    gens_[i] = static_cast<std::uint8_t>(gen);
    obj->handle = handles::make(kind_, gen, i);
    slots_[i].store(obj, std::memory_order_release);
    return obj->handle;
  }

  // Forgets obj's handle: later lookups of it fail. The caller owns obj.
  void erase(T* obj) {
    std::lock_guard lock(mu_);
    std::uint32_t i = handles::index_of(obj->handle);
    slots_[i].store(nullptr, std::memory_order_release);
    try {
      free_.push_back(i);
    } catch (...) {  // out of memory (D61): the index is not reused, and the free still succeeds
    }
  }

  // Every live created object (for finalize-time reports and tests), and with
  // for_each_predefined every installed predefined one.
  template <typename F>
  void for_each(F&& f) {
    std::lock_guard lock(mu_);
    for (std::uint32_t i = handles::kPredefinedLimit; i < next_; ++i)
      if (T* o = slots_[i].load(std::memory_order_acquire)) f(o);
  }
  template <typename F>
  void for_each_predefined(F&& f) {
    std::lock_guard lock(mu_);
    for (std::uint32_t i = 0; i < npredefined_; ++i)
      if (T* o = slots_[predefined_[i]].load(std::memory_order_acquire)) f(o);
  }

 private:
  object_kind kind_;
  static inline std::atomic<T*> slots_[1u << handles::kIndexBits] = {};
  static inline std::uint8_t gens_[1u << handles::kIndexBits] = {};
  // A spinlock (D67): its holds are a few loads and stores (and rarely a vector's growth), and a
  // dup + free at MPI_THREAD_MULTIPLE takes it twice.
  sync::spinlock mu_;
  std::vector<std::uint32_t> free_;
  // The installed predefined handles, in the order installed (a fixed array: installing one
  // never allocates, D85).
  handle_t predefined_[handles::kPredefinedLimit] = {};
  std::uint32_t npredefined_ = 0;
  std::uint32_t next_ = handles::kPredefinedLimit;  // created objects' indices start here
};

}  // namespace mpiattr
