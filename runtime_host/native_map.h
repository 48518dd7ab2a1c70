// runtime_host/native_map.h: the host runtime's table from a host handle (an int in MPICH, a
// pointer in Open MPI, as an integer) to mpiattr's record of that object. Only objects that carry
// an mpiattr attribute have a record: an object gets one when its first attribute is set or copied
// to it, and gives it up when it is freed (docs/host.md).
//
// Open addressing with linear probing. Lookups take no lock and make no read-modify-write; writers
// (insert, erase) hold a spinlock, which is a real one only at MPI_THREAD_MULTIPLE (sync.h). A table
// that grows, or is rebuilt to clear its tombstones, is replaced. Below MPI_THREAD_MULTIPLE no
// lookup can be running then, and the old array is freed. At MPI_THREAD_MULTIPLE a lookup may
// still be reading it, so it is never freed; instead the memory stays bounded: a rebuild at the
// same size refills the table that was current before the last one (each table has a sequence
// counter, odd while it is refilled, and a lookup that saw it change starts again), and a table
// outgrown is kept for good. What is held is at most two tables of each size up to the current
// one: fewer slots than four times the current table's.
//
// Dormant records: when an object is freed, its emptied record may stay in its slot, asleep: its
// handle (T::native) carries kDormant, and no lookup returns it (retire). When the host hands
// the same handle out again (MPICH and Open MPI reuse a freed handle for the next object) and a
// dup copies attributes to it, or its first attribute is set, the record wakes in place (revive):
// no allocation and no change to the table, so that an object's first attribute costs little
// more than a later one (docs/decisions.md D32). A record sleeps only if it holds one of the map's
// kMaxDormant sleep tokens, which it takes at its first sleep and gives back when it leaves the
// table: so at most kMaxDormant records sleep in a map, and a record that holds a token sleeps and
// wakes without changing any count (which at MPI_THREAD_MULTIPLE lets a dup and a free of it take
// no lock: revive_lock_free, retire_lock_free).
//
// T, the record, has `native` (the handle, std::uintptr_t), `may_sleep()` (a bool&: it holds a
// sleep token) and `busy()` (a std::uint8_t&: a lock-free revive or retire is changing it). The
// runtime's records are record.h's; the core's objects only lend them two bytes that the core never
// reads (attr_object::runtime_bytes; docs/decisions.md D38, D125).
#pragma once
#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <type_traits>

#include "asymmetric_fence.h"
#include "mpiattr/config.h"
#include "mpiattr/sync.h"

// Whether host handles are pointers (Open MPI) rather than integers (MPICH): hot_set. The tests'
// maps are of either kind (native_map's PointerHandles).
#ifndef MPIATTR_HOST_POINTER_HANDLES
#define MPIATTR_HOST_POINTER_HANDLES 1
#endif

namespace mpiattr::host {

// What native_map does at two points of its concurrent protocol: nothing, except in the test that
// stops a lookup and a rebuild there (tests/host/test_native_map.cc).
struct no_map_hooks {
  static void lookup_began(const void*) {}    // a lookup has read a table's sequence
  static void refill_cleared(const void*) {}  // a table being refilled has been emptied
};

// PointerHandles: the handles' layout: Open MPI's pointers, which hot_set spreads over the cache,
// or MPICH's ints, which give each record a home (D126); the runtime's maps take the build's
// (MPIATTR_HOST_POINTER_HANDLES), the tests both. HomeExtra: the bytes that go with each home (the
// runtime's records' cold parts).
template <typename T, typename Hooks = no_map_hooks, bool PointerHandles = MPIATTR_HOST_POINTER_HANDLES != 0,
          std::size_t HomeExtra = 0>
class native_map {
 public:
  constexpr native_map() = default;
  native_map(const native_map&) = delete;

  // The record of host handle `key`, or nullptr.
  MPIATTR_HOT T* find(std::uintptr_t key) const { return find_as(key, key); }

 private:
  // The record in key's slot whose handle reads `as` (key awake, key | kDormant asleep), or nullptr.
  MPIATTR_HOT T* find_as(std::uintptr_t key, std::uintptr_t as) const {
    while (true) {
      const table* t = cur_.load(std::memory_order_acquire);
      if (t == nullptr) return nullptr;
      const std::uint32_t seq = t->seq.load(std::memory_order_acquire);
      Hooks::lookup_began(t);
      const std::size_t mask = t->mask;
      const std::size_t start = hash(key, mask);
      std::size_t i = start;
      T* found = nullptr;
      while (true) {
        const std::uintptr_t k = t->slots[i].key.load(std::memory_order_acquire);
        if (k == key) {
          found = t->slots[i].obj.load(std::memory_order_acquire);
          // (A record asleep in its slot is no record of the handle: retire.)
          if (found != nullptr && __atomic_load_n(&found->native, __ATOMIC_ACQUIRE) != as) found = nullptr;
          break;
        }
        if (k == kEmpty) break;
        i = (i + 1) & mask;
        if (i == start) [[unlikely]] break;  // (a table being refilled may have no empty slot)
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      // A table that was being refilled under this lookup (it had been replaced before the lookup
      // read it) has an odd or a changed sequence: start again.
      if (t->seq.load(std::memory_order_relaxed) == seq && (seq & 1) == 0) [[likely]]
        return found;
    }
  }

 public:

  // Over Open MPI, a set-associative cache of recent lookups in front of the table, two ways a
  // set, below MPI_THREAD_MULTIPLE only, where no two MPI calls overlap (it is plain memory). An
  // entry says of a handle: {key, record}, its record; {key | kNone, nullptr}, it has none; {key |
  // kDormant, record}, it has none, and `record` sleeps in its slot (retire). So an entry whose
  // key is the handle itself always holds a record, and a hit needs no test of it (D84: two
  // instructions of every fast get and set). The one entry that could match a handle and hold none
  // is an empty one ({0, nullptr}) for handle 0, which no host issues but a program may pass:
  // handle 0's set is set 0, which seal() keeps free of empty entries once the fast paths may run.
  // A handle has at most one entry, in one of the ways of its set (hot_set); every change of the
  // table for a handle rewrites that entry (hot_slot), so none is ever stale. A handle the set
  // does not hold goes into way 0, the entry there moving to way 1 (and the one in way 1 leaving
  // the cache): the handle used last is found by the first compare. About a third of the handles
  // in use share their set with another from 1,000 objects on (36 % of Open MPI's datatypes at
  // 1,000 and 2,000, a model), and a program's random order then mispredicts the branch between
  // the ways: the way is chosen without one (the entry of way 1 if it holds key, else of way 0:
  // four instructions more, D97).
  // Over MPICH there is no cache: a record lies in its handle's home (below, D126), or the table
  // alone finds it.
  // find_hot: the record of key if the cache holds it (over MPICH: if its home does), else nullptr
  // (the fast paths, which then leave the call to the checked path); find_and_cache: find, and
  // keep what was found, record or none, in the cache.
  MPIATTR_HOT T* find_hot(std::uintptr_t key) const {
    if constexpr (PointerHandles) {
      const hot_entry* set = hot_set(key);
      const hot_entry* e = set + (set[1].key == key);
      return e->key == key ? recorded(e->obj) : nullptr;
    } else {
      T* o = home_of(key);  // (the map is sealed: seal)
      return o->native == key ? o : nullptr;
    }
  }
  // find_hot, and on a miss the table (find_and_cache), below MPI_THREAD_MULTIPLE: what the fast
  // paths read, so that their cost does not depend on how many objects have records (a program
  // with more objects than the cache has entries took the checked path for most calls; D63). An
  // entry that says key's record sleeps (retire) is left for revive_unsynchronised: nullptr.
  MPIATTR_HOT T* find_unsynchronised(std::uintptr_t key) {
    if constexpr (PointerHandles) {
      const hot_entry* set = hot_set(key);
      if (set[0].key == key) [[likely]] return recorded(set[0].obj);
      if (set[1].key == key) return recorded(set[1].obj);
    } else {
      if (T* o = home_at(key); o != nullptr && o->native == key) [[likely]] return o;
    }
    return find_missed(key);
  }
  // Makes set 0 (handle 0's) hold no empty entry: each empty one says that handle 0 has no record
  // ({kNone, nullptr}). The runtime calls it before the fast paths may run (host_runtime.cc:
  // start); the map keeps it so (grow_cache, drop_dormant, release). A map whose set 0 is not
  // sealed must not be asked for handle 0 by find_hot or find_unsynchronised.
  // Over MPICH it reserves the homes (home_of): kMaxPlaces of them, or, if the system refuses that
  // much address space, the most it grants down to kMinPlaces, or else the few of few_homes_,
  // which hold no record (D61: not an error; every record then lies outside its home). The
  // reservation is read-only, so that under strict overcommit it is not charged as memory; each
  // granule of it (kGranuleBytes) is made writable when a home in it is first handed out. The
  // first home, handle 0's, holds the handle 1, no host's.
  void seal() {
    if constexpr (PointerHandles) {
      for (std::size_t w = 0; w < kWays; ++w)
        if (hot_[w].key == kEmpty) hot_[w] = hot_entry{kNone, nullptr};
    } else {
      std::lock_guard lock(homes_mu_);
      if (homes_ != nullptr) return;
      T* h = reinterpret_cast<T*>(few_homes_);
      std::size_t places = sizeof few_homes_ / sizeof(T);
      for (std::size_t n = kMaxPlaces; n >= kMinPlaces; n /= 2) {
        void* raw = ::mmap(nullptr, n * sizeof(T), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (raw == MAP_FAILED) continue;
        if (::mprotect(raw, kGranuleBytes, PROT_READ | PROT_WRITE) != 0) {  // (granule 0: handle 0's home)
          ::munmap(raw, n * sizeof(T));
          continue;
        }
        writable_[0] = 1;
        h = static_cast<T*>(raw);
        places = n;
        break;
      }
      __atomic_store_n(&h->native, std::uintptr_t{1}, __ATOMIC_RELAXED);  // (handle 0's home)
      home_mask_ = places - 1;
      __atomic_store_n(&homes_, h, __ATOMIC_RELEASE);
    }
  }
  // What the cache knows of key: true, with *out its record or nullptr (it has none), or false
  // when the cache does not say.
  // Over MPICH (homes, D126): the record in key's home says (key's, or key's asleep), or, when
  // every record is in its home, that key has none.
  MPIATTR_HOT bool cached(std::uintptr_t key, T** out) const {
    if constexpr (!PointerHandles) return homed(key, out);
    const hot_entry* set = hot_set(key);
    const hot_entry* h = &set[0];
    std::uintptr_t k = entry_key(*h);
    if ((k & ~kTags) != key) {
      h = &set[1];
      k = entry_key(*h);
      if ((k & ~kTags) != key) return false;
    }
    *out = k == key ? entry_obj(*h) : nullptr;
    return true;
  }
  // cached, for a caller that then retires key's record: the entry that holds key (which
  // retire_at rewrites), or nullptr when the cache does not say.
  MPIATTR_HOT void* cached_at(std::uintptr_t key, T** out) {
    if constexpr (!PointerHandles) return homed(key, out) ? this : nullptr;  // (retire_at needs no entry)
    hot_entry* set = hot_set(key);
    hot_entry* h = &set[0];
    std::uintptr_t k = entry_key(*h);
    if ((k & ~kTags) != key) {
      h = &set[1];
      k = entry_key(*h);
      if ((k & ~kTags) != key) return nullptr;
    }
    *out = k == key ? entry_obj(*h) : nullptr;
    return h;
  }
  T* find_and_cache(std::uintptr_t key) {
    T* o = find(key);
    if constexpr (PointerHandles) hot_slot(key) = make_entry(o != nullptr ? key : key | kNone, o);
    return o;
  }

  // At MPI_THREAD_MULTIPLE: find, through a cache of recent lookups that all threads share. Its
  // entries are record pointers alone, each checked against the record's own handle (T::native,
  // read atomically): at that level the host runtime never frees a record, it keeps it for the
  // next object (host_runtime.cc: recycle), so an entry may name a record that now belongs to
  // another object, or to none (native 0), but never freed memory.
  MPIATTR_HOT T* find_shared(std::uintptr_t key) {
    std::atomic<T*>& e = shared_[shared_index(key)];
    T* o = e.load(std::memory_order_acquire);
    if (o != nullptr && __atomic_load_n(&o->native, __ATOMIC_ACQUIRE) == key) [[likely]] return o;
    return find_and_share(key);
  }

  // For the runtime's dup and free: the record of key, through the cache of the thread level
  // (below MPI_THREAD_MULTIPLE the plain one, which insert fills; at it the shared one).
  T* lookup(std::uintptr_t key) {
    if (sync::concurrent()) return find_shared(key);
    if (T* o; cached(key, &o)) [[likely]] return o;
    return find_and_cache(key);
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
    if constexpr (PointerHandles) {
      if (!sync::concurrent()) hot_slot(key) = make_entry(key, obj);  // (the next lookup's)
    } else {
      displaced_ += obj != home_at(key);
    }
  }

  // Wakes the dormant record of key (its object was freed, and the host has given the handle to a
  // new object): it is key's record again. Returns it, or nullptr when there is none. Every
  // insert of a key is preceded by a revive of it (no key is in the table twice).
  MPIATTR_HOT T* revive(std::uintptr_t key) {
    if (!sync::concurrent()) return revive_unsynchronised(key);
    return revive_found(key);
  }
  // Puts o, the record of key (whose object is being freed; its store is empty and fresh), to
  // sleep in its slot, unless it holds no sleep token and none is left. Returns whether it did; if
  // not, the caller erases the record.
  MPIATTR_HOT bool retire(std::uintptr_t key, T* o) {
    if (!sync::concurrent()) return retire_unsynchronised(key, o);
    std::lock_guard lock(mu_);
    if (!take_token(o)) [[unlikely]] return false;
    put_to_sleep(o, key);
    return true;
  }

  // revive and retire below MPI_THREAD_MULTIPLE, where no two MPI calls overlap: through the
  // cache in front of the table, with no lock. The fast paths (host_glue.h: fast_dup, fast_free),
  // which have checked that already, call them directly, so that they read no line of memory
  // beyond the cache entry, the record and the counts (not the thread level).
  MPIATTR_HOT T* revive_unsynchronised(std::uintptr_t key) {
    if constexpr (PointerHandles) {
      hot_entry* set = hot_set(key);
      hot_entry* h = &set[0];
      if (h->key != (key | kDormant)) {
        h = &set[1];
        if (h->key != (key | kDormant)) [[unlikely]] return revive_found(key);
      }
      T* obj = h->obj;
      wake(obj, key);
      h->key = key;  // (the entry names obj already)
      return obj;
    } else {
      T* obj = home_at(key);
      if (obj == nullptr || obj->native != (key | kDormant)) [[unlikely]] return revive_found(key);
      wake(obj, key);
      return obj;
    }
  }
  MPIATTR_HOT bool retire_unsynchronised(std::uintptr_t key, T* o) {
    if (!take_token(o)) [[unlikely]] return false;
    put_to_sleep(o, key);
    if constexpr (PointerHandles) hot_slot(key) = make_entry(key | kDormant, o);  // (written whole)
    return true;
  }
  // retire_unsynchronised where the caller has key's entry from cached_at, with no change of the
  // map since: the set is not hashed and searched a second time (fast_free, D78).
  MPIATTR_HOT bool retire_at(void* entry, std::uintptr_t key, T* o) {
    if (!take_token(o)) [[unlikely]] return false;
    put_to_sleep(o, key);
    if constexpr (PointerHandles)
      static_cast<hot_entry*>(entry)->key = key | kDormant;  // (the entry names o already)
    else
      (void)entry;  // (o, whose handle says it sleeps now, is in its home or in the table alone)
    return true;
  }

  // At MPI_THREAD_MULTIPLE, the dup and free of plain attributes (host_glue.h: fast_dup_concurrent,
  // fast_free_concurrent) each in one hold of the map's lock, which the census of lazy counting
  // (host_runtime.cc) holds while it visits the records: so it sees a record before or after,
  // never during. revive_with: finds the record asleep in key's slot and calls fill(record),
  // which copies attributes into its store (and may take other stores' locks, as the census
  // does: the map's lock first). If fill returns true the record wakes; if there is none, or
  // fill returns false having changed nothing, nothing changes. retire_with: for o, the record of
  // key, calls empty(o), which clears its store; if it returns true o goes to sleep (retire).
  // false, with nothing changed, when o is not key's record any more, when it has no sleep token
  // and none is left, or when empty() declined. (The lock-free forms below come first where they may run.)
  template <typename F>
  bool revive_with(std::uintptr_t key, F&& fill) {
    std::lock_guard lock(mu_);
    T* obj = sleeping(key);
    if (obj == nullptr || !fill(obj)) return false;
    wake(obj, key);
    return true;
  }
  template <typename F>
  bool retire_with(std::uintptr_t key, T* o, F&& empty) {
    std::lock_guard lock(mu_);
    if (__atomic_load_n(&o->native, __ATOMIC_RELAXED) != key || !token_free(o)) return false;
    if (!empty(o)) return false;
    take_token(o);
    put_to_sleep(o, key);
    return true;
  }

  // revive_with and retire_with with no lock, at MPI_THREAD_MULTIPLE, where the process makes
  // asymmetric fences (asymmetric_fence.h), for a record that holds a sleep token: its sleep and
  // wake then change no count, only its handle. What they guard against is the census of lazy
  // counting, the one writer of a record that is not a call on its object: the record is marked
  // busy first, and fill and empty, called after a light fence, must read the census's flag
  // (keyvals().counting()) and decline when it is set. The census sets its flag, makes a heavy
  // fence and, in for_each, waits for each record to be idle before it visits it: so it sees a
  // record before the change or after it, or the change sees its flag and declines. Other
  // threads cannot reach the record meanwhile: its handle is the fresh object's, which the dup has
  // not returned yet, or the object being freed, which no other call may use (R11). false, with
  // nothing changed, as the locked forms, and also when the record has no token (the locked form
  // gives it one).
  template <typename F>
  MPIATTR_HOT bool revive_lock_free(std::uintptr_t key, F&& fill) {
    T* obj = sleeping_lock_free(key);
    if (obj == nullptr) return false;
    __atomic_store_n(&obj->busy(), std::uint8_t{1}, __ATOMIC_RELAXED);
    asymmetric::light();
    const bool done = fill(obj);
    if (done) {
      __atomic_store_n(&obj->native, key, __ATOMIC_RELEASE);
      shared_[shared_index(key)].store(obj, std::memory_order_release);
    }
    __atomic_store_n(&obj->busy(), std::uint8_t{0}, __ATOMIC_RELEASE);
    return done;
  }
  template <typename F>
  MPIATTR_HOT bool retire_lock_free(std::uintptr_t key, T* o, F&& empty) {
    if (!__atomic_load_n(&o->may_sleep(), __ATOMIC_RELAXED)) return false;
    __atomic_store_n(&o->busy(), std::uint8_t{1}, __ATOMIC_RELAXED);
    asymmetric::light();
    const bool done = __atomic_load_n(&o->native, __ATOMIC_RELAXED) == key && empty(o);
    if (done) __atomic_store_n(&o->native, key | kDormant, __ATOMIC_RELEASE);
    __atomic_store_n(&o->busy(), std::uint8_t{0}, __ATOMIC_RELEASE);
    return done;
  }

  // Removes key; returns its record (the caller owns it), or nullptr.
  T* erase(std::uintptr_t key) {
    std::lock_guard lock(mu_);
    if constexpr (PointerHandles) {
      if (!sync::concurrent()) hot_slot(key) = make_entry(key | kNone, nullptr);
    }
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
        if constexpr (!PointerHandles) displaced_ -= obj != home_at(key);
        give_token(obj);
        return obj;
      }
    }
  }

  // Calls f(record) for each record awake, holding the lock. A record that a lock-free revive or
  // retire is changing is waited for (the census's side of their protocol; the census has made
  // its heavy fence before).
  template <typename F>
  void for_each(F&& f) {
    std::lock_guard lock(mu_);
    visit_slots([&](slot& sl, T* o, bool) {
      wait_idle(o);
      if (__atomic_load_n(&o->native, __ATOMIC_ACQUIRE) == sl.key.load(std::memory_order_relaxed))
        f(o);  // (not one asleep)
    });
  }

  // How many records there are, awake or asleep (a relaxed read: a quick "none" for the callers
  // that may skip).
  std::size_t size() const { return live_.load(std::memory_order_relaxed); }
  // How many records sleep now (a count under the lock, for the tests), and how many hold a sleep
  // token (at most kMaxDormant).
  std::size_t dormant() {
    std::lock_guard lock(mu_);
    std::size_t n = 0;
    visit_slots([&](slot&, T*, bool awake) { n += !awake; });
    return n;
  }
  std::size_t sleepers() const { return tokens_; }
  // Calls f(record) for each dormant record and forgets them all (the tests' maps, and
  // release()'s callers, free the records).
  template <typename F>
  void drop_dormant(F&& f) {
    std::lock_guard lock(mu_);
    if constexpr (PointerHandles) {
      for (std::size_t i = 0; i < hot_size(); ++i)
        if (const std::uintptr_t k = hot_[i].key; k & kDormant) hot_[i] = make_entry((k & ~kTags) | kNone, nullptr);
    }
    visit_slots([&](slot& sl, T* o, bool awake) {
      if (awake) return;
      if constexpr (!PointerHandles) displaced_ -= o != home_at(sl.key.load(std::memory_order_relaxed) & ~kTags);
      give_token(o);
      f(o);
      sl.obj.store(nullptr, std::memory_order_release);
      sl.key.store(kTombstone, std::memory_order_release);
      live_.store(live_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
    });
    for (std::atomic<T*>& e : shared_) e.store(nullptr, std::memory_order_relaxed);  // (sleeping)
  }

  // How many tables this map holds (the current one included), and their slots together: what
  // the tests check stays bounded.
  std::size_t tables_held() const { return held_tables_; }
  std::size_t slots_held() const { return held_slots_; }
  // Frees every table and empties the map, when no other thread can use it (the tests' maps). The
  // runtime's maps are never released: they live, as plain memory, until the process ends.
  void release() {
    while (held_ != nullptr) free_table(held_);
    cur_.store(nullptr, std::memory_order_relaxed);
    spare_ = nullptr;
    used_ = 0;
    tokens_ = 0;
    live_.store(0, std::memory_order_relaxed);
    if (hot_ != hot_initial_) ::operator delete[](hot_, std::align_val_t{kSetAlign});
    hot_ = hot_initial_;
    hot_mask_ = mask_of(kInitialSets);
    for (hot_entry& h : hot_initial_) h = hot_entry{};
    seal();
    if constexpr (!PointerHandles) {
      if (homes_ != nullptr && homes_ != reinterpret_cast<T*>(few_homes_)) ::munmap(homes_, (home_mask_ + 1) * sizeof(T));
      homes_ = nullptr;
      home_mask_ = 0;
      for (std::uint64_t& w : writable_) w = 0;
      for (char*& c : extras_) {
        if (c != nullptr) ::munmap(c, kExtraBytes);
        c = nullptr;
      }
      displaced_ = 0;
    }
    for (std::atomic<T*>& e : shared_) e.store(nullptr, std::memory_order_relaxed);
  }
  std::size_t capacity() const {
    const table* t = cur_.load(std::memory_order_acquire);
    return t == nullptr ? 0 : t->mask + 1;
  }

 private:
  // No host handle is 0 or 1: MPICH's carry kind bits, Open MPI's are pointers. Nor has one the
  // top bit set (kDormant): MPICH's are 32-bit integers, Open MPI's user-space pointers.
  static constexpr std::uintptr_t kEmpty = 0, kTombstone = 1;
 public:
  static constexpr std::uintptr_t kDormant = std::uintptr_t{1} << 63;
  // A cache entry's mark of a handle that has no record (nor bit 62 has a host handle).
  static constexpr std::uintptr_t kNone = std::uintptr_t{1} << 62;
  static constexpr std::uintptr_t kTags = kDormant | kNone;
  static constexpr std::size_t kMaxDormant = 64;

 private:
  struct slot {
    std::atomic<std::uintptr_t> key{kEmpty};
    std::atomic<T*> obj{nullptr};
  };
  struct table {
    std::atomic<std::uint32_t> seq{0};  // odd while the table is refilled (at MPI_THREAD_MULTIPLE)
    std::size_t mask = 0;
    slot* slots = nullptr;
    table* held_next = nullptr;  // the map's list of the tables it holds (release)
  };
  // An entry of the plain cache (over Open MPI): {key, record} (16 bytes), the key carrying the
  // tags (kNone: no record; kDormant: `record` sleeps).
  struct hot_entry {
    std::uintptr_t key = kEmpty;
    T* obj = nullptr;
  };
  // What an entry says of a handle: the handle with its tags (key: its record; key | kDormant: its
  // record sleeps; key | kNone: it has none), and the record (nullptr for none).
  static std::uintptr_t entry_key(const hot_entry& e) { return e.key; }
  static T* entry_obj(const hot_entry& e) { return e.obj; }
  static hot_entry make_entry(std::uintptr_t key, T* obj) { return hot_entry{key, obj}; }
  // The record of an entry whose key is the handle itself: never null (the cache's comment).
  MPIATTR_HOT static T* recorded(T* obj) {
    if (obj == nullptr) __builtin_unreachable();
    return obj;
  }
  // The plain cache (over Open MPI) starts with 4,096 entries, 2,048 sets of two, in the map
  // itself (docs/decisions.md D63) and, below MPI_THREAD_MULTIPLE, grows with the table: whenever
  // the table grows past half the cache's entries, the cache is replaced by one with twice the
  // table's slots as entries, filled from the table (grow_cache), so that the objects a program
  // holds keep hitting it however many there are (D69). Two ways per set (D74): at most half a set
  // per record on average, and a record leaves the cache only when three of the handles in use
  // share a set (about 3 % of calls at 2,000 records spread as random keys, against 11 %
  // direct-mapped). The shared cache of MPI_THREAD_MULTIPLE keeps its 4,096 entries (over both
  // hosts).
  static constexpr int kHotBits = 12;
  // Ways per set: two (D74). (Over MPICH there is no cache: homes, below.)
  static constexpr std::size_t kWays = 2;
  static constexpr std::size_t kInitialSets = PointerHandles ? (std::size_t{1} << kHotBits) / kWays : 1;
  static constexpr std::size_t kSetAlign = 64;  // (a line: a set, or four, in one line)
  // key's set: its entries (kWays), at a byte offset into the cache masked by hot_mask_ (the sets
  // less one, times a set's bytes: a mask read from memory, no shift by a count, D74).
  // Over Open MPI (PointerHandles, MPIATTR_HOST_POINTER_HANDLES, the default) a handle is a
  // pointer: the set is the bits from the 32nd up of a Fibonacci product (shifted 5 bits less, so
  // that the offset needs no scaling), after the bits above the 12th are folded in (the product
  // alone spread some strides badly: objects of 0x540 bytes, 1,000 of them on 6 % of a
  // 4,096-entry cache; folded, every stride tried spreads as random keys would).
  MPIATTR_HOT hot_entry* hot_set(std::uintptr_t key) const {
    key ^= key >> 12;
    const std::size_t offset =
        static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (32 - kSetShift)) & hot_mask_;
    return reinterpret_cast<hot_entry*>(reinterpret_cast<char*>(hot_) + offset);
  }

 public:
  // Homes (over MPICH: PointerHandles false; docs/decisions.md D126). A handle is an int laid out
  // by MPICH 4.0.2's mpir_objects.h (D94, D98): the handle kind in bits 30-31 (builtin 1, direct
  // 2, indirect 3), the object kind in bits 26-29, and for an indirect object a block number in
  // bits 12-25 and an index in the block (0-1,023) in bits 0-9; MPICH hands out its few direct
  // handles first, then block 0, 1, ..., and reuses a freed handle first. So a record can lie at
  // a place computed from its handle, its home, and a get find it with one load, of the record,
  // where a cache of record pointers cost a dependent load of the entry first: at 10,000 objects
  // and more that entry was a second line from L2 or beyond on every call.
  // The place is key ^ key >> 20 (D117's set): key >> 20 brings the handle kind and the object
  // kind down to bits 6-11, so that a kind's builtin, direct and indirect handles, which share
  // their low bits (MPI_COMM_WORLD 0x44000000, the first direct 0x84000000 and indirect
  // 0xC4000000, D89), fall in different quarters of each 4,096 places: block b's indirect
  // handles on places 4,096 b + 3,072 + (index ^ a constant below 1,024), one to a place,
  // consecutive ones 128 bytes apart. The homes are one run of address space, reserved when the
  // runtime starts (seal), kMaxPlaces of them; places beyond wrap around. Only a home handed out
  // (home_memory), or a page that a lookup reads (the kernel's zero page), takes memory. A home is
  // memory for a T and HomeExtra bytes that go with it (the record's cold part, in chunks made
  // when a home of theirs is first handed out); the map never constructs, destroys or frees what
  // is in them: the runtime does (host_runtime.cc: take_home), and the memory is given back only
  // by release (the tests' maps).
  // A record need not be in its home: when the home is another handle's (two handles of one
  // place: one MPICH never issued, or beyond kMaxPlaces; or a record taken from the runtime's
  // pool), or its memory could not be had, or homes are off (AddressSanitizer builds: each record
  // is allocated by itself), it lies elsewhere, displaced, and the table alone finds it (find,
  // find_missed); find_hot returns only a record in its home. displaced_ counts those in the
  // table, so that while it is 0 a home that is not key's record says that key has none (cached).
  // Handle 0's place is 0: the home there is never handed out, and holds the handle 1 (no host's)
  // so that no lookup of handle 0 matches the zeros of an unused home.
  // home_of: key's home, in a sealed map (seal); home_at: the same in any map, or nullptr before
  // seal.
  MPIATTR_HOT T* home_of(std::uintptr_t key) const {
    return homes_ + (static_cast<std::size_t>(key ^ (key >> 20)) & home_mask_);
  }
  MPIATTR_HOT T* home_at(std::uintptr_t key) const {
    T* h = __atomic_load_n(&homes_, __ATOMIC_ACQUIRE);
    return h == nullptr ? nullptr : h + (static_cast<std::size_t>(key ^ (key >> 20)) & home_mask_);
  }
  // key's home, for a record the caller will construct or reuse there: its memory (nullptr when
  // key has no home: place 0, the map is not sealed or has no homes, or the memory that goes with
  // the home cannot be made, D61: not an error), *extra the HomeExtra bytes that go with it, and
  // *built whether it was handed out before (its memory then holds what the caller left there;
  // else zeros). Over Open MPI none.
  T* home_memory(std::uintptr_t key, void** extra, bool* built) {
    if constexpr (PointerHandles) {
      (void)key, (void)extra, (void)built;
      return nullptr;
    } else {
      std::lock_guard lock(homes_mu_);
      if (homes_ == nullptr || homes_ == reinterpret_cast<T*>(few_homes_)) return nullptr;
      const std::size_t p = static_cast<std::size_t>(key ^ (key >> 20)) & home_mask_;
      if (p == 0) return nullptr;
      const std::size_t g = p / kHomesPerGranule;
      if (!((writable_[g / 64] >> (g % 64)) & 1)) {
        if (::mprotect(homes_ + g * kHomesPerGranule, kGranuleBytes, PROT_READ | PROT_WRITE) != 0) return nullptr;
        writable_[g / 64] |= std::uint64_t{1} << (g % 64);
      }
      char*& chunk = extras_[p >> kExtraBits];
      if (chunk == nullptr) {
        void* raw = ::mmap(nullptr, kExtraBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return nullptr;
        chunk = static_cast<char*>(raw);
      }
      const std::size_t i = p & (kExtrasPerChunk - 1);
      *extra = chunk + i * HomeExtra;
      std::uint64_t* bits = reinterpret_cast<std::uint64_t*>(chunk + kExtrasPerChunk * HomeExtra);
      *built = (bits[i / 64] >> (i % 64)) & 1;
      bits[i / 64] |= std::uint64_t{1} << (i % 64);
      return homes_ + p;
    }
  }
  // Whether o lies in key's home.
  bool at_home(std::uintptr_t key, const T* o) const {
    if constexpr (PointerHandles) return false;
    else return o == home_at(key);
  }
  // How many records in the table are not in their homes (over MPICH; a read for the tests).
  std::size_t displaced() const { return displaced_; }

 private:
  // Over MPICH: what key's home says of it, as cached says it.
  MPIATTR_HOT bool homed(std::uintptr_t key, T** out) const {
    if (T* o = home_at(key)) {
      const std::uintptr_t n = o->native;
      if (n == key) {
        *out = o;
        return true;
      }
      if (n == (key | kDormant)) {
        *out = nullptr;
        return true;
      }
    }
    if (displaced_ != 0) return false;
    *out = nullptr;
    return true;
  }
  // The places homes cover: 1,048,576 (128 MiB of address space for records of 128 bytes, which
  // only the homes handed out, and the pages a lookup reads, make memory), which cover MPICH's
  // first 256 blocks (262,144 objects of the kind, which hold about 80 MB of MPICH's memory
  // themselves); handles beyond wrap around.
  static constexpr std::size_t kMaxPlaces = std::size_t{1} << 20, kMinPlaces = std::size_t{1} << 13;
  // The homes are made writable 64 KiB at a time (seal): 512 of the runtime's records, a few
  // thousand mappings at most for the whole reservation, which merge where they are adjacent.
  static constexpr std::size_t kGranuleBytes = std::size_t{1} << 16;
  static constexpr std::size_t kHomesPerGranule = kGranuleBytes / sizeof(T);
  static_assert(PointerHandles || (kGranuleBytes % sizeof(T) == 0 && kMinPlaces * sizeof(T) >= kGranuleBytes));
  // The homes' extra bytes come in chunks of 1,024, made when a home of theirs is first handed
  // out, each with a bit a home saying whether it was.
  static constexpr int kExtraBits = 10;
  static constexpr std::size_t kExtrasPerChunk = std::size_t{1} << kExtraBits;
  static constexpr std::size_t kExtraChunks = PointerHandles ? 1 : kMaxPlaces >> kExtraBits;
  static constexpr std::size_t kExtraBytes = kExtrasPerChunk * HomeExtra + kExtrasPerChunk / 8;
  static_assert(HomeExtra % 8 == 0, "a home's extra bytes are aligned as a pointer");
  static constexpr int kSetShift = 5;  // a set's bytes: 1 << kSetShift
  static_assert(kWays * sizeof(hot_entry) == std::size_t{1} << kSetShift);
  // hot_mask_ for a cache of `sets` sets, and back.
  static std::size_t mask_of(std::size_t sets) { return (sets - 1) << kSetShift; }
  std::size_t hot_sets() const { return (hot_mask_ >> kSetShift) + 1; }
  // The entry of key (awake or asleep) in its set, or, when the set holds none, way 0 made free
  // for it: what was there moves to way 1 (whose entry leaves the cache). The caller writes it.
  hot_entry& hot_slot(std::uintptr_t key) {
    hot_entry* set = hot_set(key);
    if ((set[0].key & ~kTags) == key) return set[0];
    if ((set[1].key & ~kTags) == key) return set[1];
    set[1] = set[0];
    return set[0];
  }
  static std::size_t shared_index(std::uintptr_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kHotBits));
  }
  std::size_t hot_size() const { return kWays * hot_sets(); }  // (entries)
  static std::size_t hash(std::uintptr_t key, std::size_t mask) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
  }

  // Calls f(slot, record, awake) for each slot of the current table that holds a record, awake or
  // asleep (requires mu_).
  template <typename F>
  void visit_slots(F&& f) {
    table* t = cur_.load(std::memory_order_relaxed);
    if (t == nullptr) return;
    for (std::size_t i = 0; i <= t->mask; ++i) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
      if (k == kEmpty || k == kTombstone) continue;
      T* o = t->slots[i].obj.load(std::memory_order_relaxed);
      f(t->slots[i], o, __atomic_load_n(&o->native, __ATOMIC_ACQUIRE) == k);
    }
  }
  // Sleep tokens (requires mu_, or no concurrency): whether o holds one or one is left for it;
  // take_token gives o one if it has none (false: none left); give_token takes o's back.
  bool token_free(const T* o) const { return o->may_sleep() || tokens_ < kMaxDormant; }
  bool take_token(T* o) {
    if (o->may_sleep()) return true;
    if (tokens_ >= kMaxDormant) return false;
    ++tokens_;
    __atomic_store_n(&o->may_sleep(), true, __ATOMIC_RELAXED);  // (read by retire_lock_free)
    return true;
  }
  void give_token(T* o) {
    if (!o->may_sleep()) return;
    --tokens_;
    __atomic_store_n(&o->may_sleep(), false, __ATOMIC_RELAXED);
  }
  // o, key's record (holding a token), asleep in its slot; wake undoes it. Neither changes a count.
  static void put_to_sleep(T* o, std::uintptr_t key) {
    __atomic_store_n(&o->native, key | kDormant, __ATOMIC_RELEASE);  // (what lookups check)
  }
  static void wake(T* obj, std::uintptr_t key) { __atomic_store_n(&obj->native, key, __ATOMIC_RELEASE); }
  // Waits until no lock-free revive or retire is changing o (for_each).
  static void wait_idle(const T* o) {
    for (unsigned spins = 0; __atomic_load_n(&o->busy(), __ATOMIC_ACQUIRE) != 0;) sync::backoff(spins);
  }
  // The record asleep in key's slot, or nullptr (requires mu_). At MPI_THREAD_MULTIPLE the shared
  // cache usually still names it (find_shared filled it while its last object was alive).
  T* sleeping(std::uintptr_t key) {
    if (tokens_ == 0) return nullptr;
    if (sync::concurrent()) {
      T* o = shared_[shared_index(key)].load(std::memory_order_relaxed);
      if (o != nullptr && __atomic_load_n(&o->native, __ATOMIC_RELAXED) == (key | kDormant)) [[likely]]
        return o;
    }
    table* t = cur_.load(std::memory_order_relaxed);
    if (t == nullptr) return nullptr;
    for (std::size_t i = hash(key, t->mask);; i = (i + 1) & t->mask) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
      if (k == kEmpty) return nullptr;
      if (k != key) continue;
      T* obj = t->slots[i].obj.load(std::memory_order_relaxed);
      if (__atomic_load_n(&obj->native, __ATOMIC_RELAXED) != (key | kDormant)) return nullptr;  // awake
      return obj;
    }
  }
  // The record asleep for key, without the lock (revive_lock_free): through the shared cache, or
  // the table as find reads it.
  MPIATTR_HOT T* sleeping_lock_free(std::uintptr_t key) {
    T* o = shared_[shared_index(key)].load(std::memory_order_acquire);
    if (o != nullptr && __atomic_load_n(&o->native, __ATOMIC_ACQUIRE) == (key | kDormant)) [[likely]] return o;
    return find_as(key, key | kDormant);
  }

  // revive's search of the table, when the cache does not name the record.
  [[gnu::noinline]] T* revive_found(std::uintptr_t key) {
    std::lock_guard lock(mu_);
    T* obj = sleeping(key);
    if (obj == nullptr) return nullptr;
    wake(obj, key);
    if constexpr (PointerHandles) {
      if (!sync::concurrent()) hot_slot(key) = make_entry(key, obj);
    }
    return obj;
  }

  // find_unsynchronised's miss: out of line, so that its hit needs no stack frame.
  // No lookup overlaps a change of the table here, so the probe needs no sequence check.
  [[gnu::noinline]] T* find_missed(std::uintptr_t key) {
    if constexpr (!PointerHandles) {
      // Over MPICH (D126) key's home is not its record: key has none awake, unless its record
      // lies outside its home (displaced).
      if (displaced_ == 0) return nullptr;
      T* o = find(key);
      return o;
    }
    hot_entry& h = hot_slot(key);
    if ((entry_key(h) & ~kTags) == key) return nullptr;  // (none, or asleep: see above)
    const table* t = cur_.load(std::memory_order_relaxed);
    T* found = nullptr;
    // (0 and 1 are the table's marks of an empty and a deleted slot, and no host's handle; a
    // program may still pass them, and a slot so marked holds no record: D84.)
    if (t != nullptr && key > kTombstone) {
      for (std::size_t i = hash(key, t->mask);; i = (i + 1) & t->mask) {
        const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
        if (k == key) {
          T* o = t->slots[i].obj.load(std::memory_order_relaxed);
          if (o->native != key) {  // asleep: no record, as the cache says (retire)
            h = make_entry(key | kDormant, o);
            return nullptr;
          }
          found = o;
          break;
        }
        if (k == kEmpty) break;
      }
    }
    h = make_entry(found != nullptr ? key : key | kNone, found);
    return found;
  }

  // find_shared's miss: out of line, so that its hit needs no stack frame.
  [[gnu::noinline]] T* find_and_share(std::uintptr_t key) {
    T* o = find(key);
    if (o != nullptr) shared_[shared_index(key)].store(o, std::memory_order_release);
    return o;
  }

  table* allocate(std::size_t cap) {
    slot* slots = new slot[cap];
    table* t;
    try {
      t = new table;
    } catch (...) {  // (out of memory: nothing changed, D61)
      delete[] slots;
      throw;
    }
    t->mask = cap - 1;
    t->slots = slots;
    t->held_next = held_;
    held_ = t;
    ++held_tables_;
    held_slots_ += cap;
    return t;
  }
  void free_table(table* t) {
    table** p = &held_;
    while (*p != t) p = &(*p)->held_next;
    *p = t->held_next;
    --held_tables_;
    held_slots_ -= t->mask + 1;
    delete[] t->slots;
    delete t;
  }
  // Copies the live entries of `from` into `to` (of any size; its slots are empty, or cleared here).
  // A lookup reading `to` meanwhile sees an odd sequence, or a changed one when it ends, and
  // starts again; its probe is bounded by the table's size, since a table being refilled may
  // briefly have no empty slot left.
  void refill(table* to, const table* from) {
    const std::uint32_t seq = to->seq.load(std::memory_order_relaxed);
    to->seq.store(seq + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    for (std::size_t j = 0; j <= to->mask; ++j) {
      to->slots[j].key.store(kEmpty, std::memory_order_relaxed);
      to->slots[j].obj.store(nullptr, std::memory_order_relaxed);
    }
    Hooks::refill_cleared(to);
    used_ = 0;
    if (from != nullptr) {
      for (std::size_t i = 0; i <= from->mask; ++i) {
        const std::uintptr_t k = from->slots[i].key.load(std::memory_order_relaxed);
        if (k == kEmpty || k == kTombstone) continue;
        std::size_t j = hash(k, to->mask);
        while (to->slots[j].key.load(std::memory_order_relaxed) != kEmpty) j = (j + 1) & to->mask;
        to->slots[j].obj.store(from->slots[i].obj.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to->slots[j].key.store(k, std::memory_order_relaxed);
        ++used_;
      }
    }
    to->seq.store(seq + 2, std::memory_order_release);
  }
  // The table that replaces `old`: twice as large, or as large when tombstones fill it, with the
  // live entries.
  table* grow(table* old) {
    const std::size_t live = live_.load(std::memory_order_relaxed);
    const std::size_t cap = old == nullptr                          ? 64
                            : (live + 1) * 4 > (old->mask + 1)      ? (old->mask + 1) * 2
                                                                    : old->mask + 1;
    table* t;
    if (old != nullptr && spare_ != nullptr && spare_->mask + 1 == cap) {
      t = spare_;  // the table `old` replaced: lookups still reading it see its sequence change
      spare_ = nullptr;
    } else {
      t = allocate(cap);
    }
    refill(t, old);
    cur_.store(t, std::memory_order_release);
    if constexpr (PointerHandles) {
      if (!sync::concurrent() && (t->mask + 1) * 2 > hot_size()) grow_cache(t);
    }
    if (old == nullptr) return t;
    if (!sync::concurrent()) {  // no MPI call, so no lookup, overlaps this one
      free_table(old);
    } else if (old->mask + 1 == cap) {
      spare_ = old;  // refilled by the next rebuild at this size
    } else {
      // Outgrown: kept for good (a lookup may still read it). So is a spare of the old size.
      spare_ = nullptr;
    }
    return t;
  }

  // The plain cache below MPI_THREAD_MULTIPLE, where no lookup overlaps this (it is called from
  // grow and, over MPICH, insert, under the lock): one with twice t's slots and at least min_sets
  // sets, holding what t holds. Out of memory leaves the cache as it was: it is only a cache (D61:
  // not an error).
  void grow_cache(const table* t) {
    std::size_t sets = hot_sets();
    while (kWays * sets < (t->mask + 1) * 2) sets *= 2;
    // (Aligned to its sets, so that a set is in one line of the memory system.)
    hot_entry* fresh = new (std::align_val_t{kSetAlign}, std::nothrow) hot_entry[kWays * sets]();
    if (fresh == nullptr) return;
    if (hot_ != hot_initial_) ::operator delete[](hot_, std::align_val_t{kSetAlign});
    hot_ = fresh;
    hot_mask_ = mask_of(sets);
    for (std::size_t i = 0; i <= t->mask; ++i) {
      const std::uintptr_t k = t->slots[i].key.load(std::memory_order_relaxed);
      if (k == kEmpty || k == kTombstone) continue;
      T* o = t->slots[i].obj.load(std::memory_order_relaxed);
      hot_slot(k) = make_entry(o->native == k ? k : k | kDormant, o);  // (awake, or asleep)
    }
    seal();
  }

  T* homes_ = nullptr;  // over MPICH: the homes (seal), home_mask_ + 1 of them
  std::size_t home_mask_ = 0;
  alignas(64) hot_entry hot_initial_[kWays * kInitialSets] = {};  // (a set in a line)
  hot_entry* hot_ = hot_initial_;  // the plain cache: hot_initial_, or one grow_cache made
  std::size_t hot_mask_ = mask_of(kInitialSets);  // (hot_set)
  char* extras_[kExtraChunks] = {};  // over MPICH: the chunks of the homes' extra bytes
  // Over MPICH, a bit a granule of the homes: made writable (home_memory).
  std::uint64_t writable_[PointerHandles ? 1 : (kMaxPlaces * sizeof(T) / kGranuleBytes + 63) / 64] = {};
  // Over MPICH, the homes of a map that could not reserve kMinPlaces (seal): never handed out.
  alignas(64) unsigned char few_homes_[PointerHandles ? 1 : 64 * sizeof(T)] = {};
  std::size_t displaced_ = 0;  // over MPICH: records in the table outside their homes (under mu_)
  sync::spinlock homes_mu_;  // held while a home is handed out (home_memory)
  std::atomic<T*> shared_[std::size_t{1} << kHotBits] = {};
  std::atomic<table*> cur_{nullptr};
  sync::spinlock mu_;  // writers hold it for a probe sequence (and a rebuild, now and then)
  std::size_t used_ = 0;  // live entries and tombstones in the current table
  std::atomic<std::size_t> live_{0};  // records, awake or asleep (written under mu_)
  std::size_t tokens_ = 0;  // records that hold a sleep token (written under mu_)
  table* spare_ = nullptr;  // at MPI_THREAD_MULTIPLE: the table the current one replaced, same size
  table* held_ = nullptr;  // every table held, newest first
  std::size_t held_tables_ = 0, held_slots_ = 0;  // (written under mu_)
};

}  // namespace mpiattr::host
