// runtime_host/native_map.h: the host runtime's table from a host handle (an int in MPICH, a
// pointer in Open MPI, as an integer) to mpiattr's record of that object. Only objects that carry
// an mpiattr attribute are in it: an object enters when its first attribute is set or copied to
// it, and leaves when it is freed (docs/host.md).
//
// Open addressing with linear probing. Lookups take no lock and make no read-modify-write; writers
// (insert, erase) hold a spinlock, which is a real one only at MPI_THREAD_MULTIPLE (sync.h). A table
// that grows, or is rebuilt to clear its tombstones, is replaced. Below MPI_THREAD_MULTIPLE no
// lookup can be running then, and the old array is freed; at MPI_THREAD_MULTIPLE it is kept (never
// freed), so that a lookup that started on it still reads valid memory.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>

#include "mpiattr/config.h"
#include "mpiattr/sync.h"

namespace mpiattr::host {

template <typename T>
class native_map {
 public:
  constexpr native_map() = default;
  native_map(const native_map&) = delete;

  // The record of host handle `key`, or nullptr.
  MPIATTR_HOT T* find(std::uintptr_t key) const {
    const table* t = cur_.load(std::memory_order_acquire);
    if (t == nullptr) return nullptr;
    for (std::size_t i = hash(key, t->mask);; i = (i + 1) & t->mask) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_acquire);
      if (k == key) return t->slots[i].obj.load(std::memory_order_acquire);
      if (k == kEmpty) return nullptr;
    }
  }

  // A direct-mapped cache of recent lookups in front of the table, below MPI_THREAD_MULTIPLE only,
  // where no two MPI calls overlap (it is plain memory). find_hot: the record of key if the cache
  // holds it, else nullptr (the fast paths, which then leave the call to the checked path);
  // find_and_cache: find, and keep a record found in the cache. erase clears its entry.
  MPIATTR_HOT T* find_hot(std::uintptr_t key) const {
    const hot_entry& h = hot_[hot_index(key)];
    return h.key == key ? h.obj : nullptr;
  }
  T* find_and_cache(std::uintptr_t key) {
    T* o = find(key);
    if (o != nullptr) hot_[hot_index(key)] = hot_entry{key, o};
    return o;
  }

  // Adds obj under key (which must not be in the table).
  void insert(std::uintptr_t key, T* obj) {
    std::lock_guard lock(mu_);
    table* t = cur_.load(std::memory_order_relaxed);
    if (t == nullptr || (used_ + 1) * 4 > (t->mask + 1) * 3) t = grow(t);
    std::size_t i = hash(key, t->mask);
    while (true) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
      if (k == kEmpty || k == kTombstone) break;
      i = (i + 1) & t->mask;
    }
    if (t->slots[i].key.load(std::memory_order_relaxed) == kEmpty) ++used_;
    live_.store(live_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    t->slots[i].obj.store(obj, std::memory_order_relaxed);
    t->slots[i].key.store(key, std::memory_order_release);
  }

  // Removes key; returns its record (the caller owns it), or nullptr.
  T* erase(std::uintptr_t key) {
    std::lock_guard lock(mu_);
    if (hot_entry& h = hot_[hot_index(key)]; h.key == key) h = hot_entry{};
    table* t = cur_.load(std::memory_order_relaxed);
    if (t == nullptr) return nullptr;
    for (std::size_t i = hash(key, t->mask);; i = (i + 1) & t->mask) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
      if (k == kEmpty) return nullptr;
      if (k == key) {
        T* obj = t->slots[i].obj.load(std::memory_order_relaxed);
        t->slots[i].obj.store(nullptr, std::memory_order_release);
        t->slots[i].key.store(kTombstone, std::memory_order_release);
        live_.store(live_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
        return obj;
      }
    }
  }

  template <typename F>
  void for_each(F&& f) {
    std::lock_guard lock(mu_);
    table* t = cur_.load(std::memory_order_relaxed);
    if (t == nullptr) return;
    for (std::size_t i = 0; i <= t->mask; ++i) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
      if (k != kEmpty && k != kTombstone) f(t->slots[i].obj.load(std::memory_order_relaxed));
    }
  }

  // How many records there are (a relaxed read: a quick "none" for the callers that may skip).
  std::size_t size() const { return live_.load(std::memory_order_relaxed); }

 private:
  // No host handle is 0 or 1: MPICH's carry kind bits, Open MPI's are pointers.
  static constexpr std::uintptr_t kEmpty = 0, kTombstone = 1;
  struct slot {
    std::atomic<std::uintptr_t> key{kEmpty};
    std::atomic<T*> obj{nullptr};
  };
  struct table {
    std::size_t mask;
    slot* slots;
  };
  struct hot_entry {
    std::uintptr_t key = kEmpty;
    T* obj = nullptr;
  };
  static constexpr int kHotBits = 8;
  static std::size_t hot_index(std::uintptr_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kHotBits));
  }
  static std::size_t hash(std::uintptr_t key, std::size_t mask) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
  }
  // A table twice as large (or as large, when tombstones fill it), with the live entries; the
  // old one stays allocated for lookups that may still read it.
  table* grow(table* old) {
    const std::size_t live = live_.load(std::memory_order_relaxed);
    std::size_t cap = old == nullptr ? 64 : (live + 1) * 4 > (old->mask + 1) ? (old->mask + 1) * 2
                                                                              : old->mask + 1;
    auto* t = new table{cap - 1, new slot[cap]};
    used_ = 0;
    if (old != nullptr) {
      for (std::size_t i = 0; i <= old->mask; ++i) {
        const std::uintptr_t k = old->slots[i].key.load(std::memory_order_relaxed);
        if (k == kEmpty || k == kTombstone) continue;
        std::size_t j = hash(k, t->mask);
        while (t->slots[j].key.load(std::memory_order_relaxed) != kEmpty) j = (j + 1) & t->mask;
        t->slots[j].obj.store(old->slots[i].obj.load(std::memory_order_relaxed), std::memory_order_relaxed);
        t->slots[j].key.store(k, std::memory_order_relaxed);
        ++used_;
      }
    }
    cur_.store(t, std::memory_order_release);
    if (old != nullptr && !sync::concurrent()) {  // no MPI call, so no lookup, overlaps this one
      delete[] old->slots;
      delete old;
    }
    return t;
  }

  hot_entry hot_[std::size_t{1} << kHotBits] = {};
  std::atomic<table*> cur_{nullptr};
  sync::spinlock mu_;  // writers hold it for a probe sequence (and a rebuild, now and then)
  std::size_t used_ = 0;  // live entries and tombstones in the current table
  std::atomic<std::size_t> live_{0};
};

}  // namespace mpiattr::host
