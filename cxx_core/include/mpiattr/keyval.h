// mpiattr/keyval.h: keyvals, their callbacks, their lifetime (R1, R2).
//
// A keyval record holds the object kind it was created for (R1.5), the creator's language and its
// callbacks (R1.6), extra_state, and a reference count: one for the user's handle, one per copy
// callback in flight, and one per attribute stored under it. MPI_XXX_FREE_KEYVAL drops only the
// handle's reference, so attributes keep their value and callbacks until they are gone (R2.2);
// the last release recycles the record's index, lowest free index first.
//
// Attribute references are counted lazily (docs/decisions.md D20), at every thread level: while
// the user holds the handle nothing needs the count, so set, dup and free touch no keyval record;
// when the user frees a keyval that has ever had an attribute, the registry takes a census (every
// object of the kind plus those being built by a dup): each attribute under it takes a reference
// and says so in its slot (attr_store::entry::counted), under its object's lock. From then on
// that keyval, and only it, is counted per attribute until the last one goes; an attribute
// counts exactly when its slot says so, so a census racing a set, a dup or a free at
// MPI_THREAD_MULTIPLE neither misses an attribute nor counts one twice.
//
// A keyval handle is 0x40000000 | generation << 20 | index; the index addresses the record and
// each object's attribute slot directly, so a lookup is two loads and a compare. Predefined keys
// (MPI_TAG_UB = 501, ..., MPI_WIN_MODEL = 605) map to fixed small indices.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "mpiattr/attr_store.h"
#include "mpiattr/attribute_value.h"
#include "mpiattr/handles.h"
#include "mpiattr/predefined.h"
#include "mpiattr/status.h"
#include "mpiattr/sync.h"

namespace mpiattr {

// The language whose calling conventions a keyval's callbacks use (R1.6, R7.6). fortran_f08 is
// mpi_f08's: the conventions of fortran_mpi2, its handles being TYPE(MPI_Comm) and friends.
enum class language : std::uint8_t { c, fortran_mpi1, fortran_mpi2, cxx, fortran_f08 };
constexpr int kLanguages = 5;

// Predefined callbacks are recognised when the keyval is created, so the core runs them without a
// call (and MPI_XXX_DUP_FN copies a Fortran value as a Fortran value, whatever the language).
// The null behaviours are 0, so that a record's initial state is all zero bytes (keyval_registry).
enum class copy_behaviour : std::uint8_t { null_copy, user, dup };
enum class delete_behaviour : std::uint8_t { null_delete, user };

struct callbacks {
  language lang = language::c;
  copy_behaviour copy_kind = copy_behaviour::null_copy;
  delete_behaviour delete_kind = delete_behaviour::null_delete;
  fnptr copy = nullptr;
  fnptr del = nullptr;
  aint extra_state = 0;
  void* lang_state = nullptr;  // owned by the language binding (e.g. MPI:: callback objects)
};

// A language's predefined callbacks (MPI_COMM_DUP_FN, ...) by address, so that create_keyval
// recognises them and the core runs them without a call (D16); NULL means NULL_COPY_FN or
// NULL_DELETE_FN (D15). The table is read on first use: its addresses are set by dynamic
// initialisation in another translation unit.
struct predefined_callback {
  fnptr fn;
  enum { null_copy, dup, null_delete } behaviour;
};
class predefined_set {
 public:
  constexpr predefined_set(const predefined_callback* table, const std::size_t* count)
      : table_(table), count_(count) {}
  copy_behaviour classify_copy(fnptr fn) const;
  delete_behaviour classify_delete(fnptr fn) const;

 private:
  static constexpr std::size_t kBuckets = 128;  // open addressing, at most 25% full
  static std::size_t bucket(std::uintptr_t a) { return (a >> 4) % kBuckets; }
  [[gnu::cold, gnu::noinline]] void build() const;
  const predefined_callback* find(fnptr fn) const;
  const predefined_callback* table_;
  const std::size_t* count_;
  // Built on first use: the address range, and a small hash table of the entries.
  mutable std::atomic<bool> built_{false};
  mutable std::mutex build_mu_;
  mutable std::uintptr_t lo_ = 0, hi_ = 0;
  mutable const predefined_callback* buckets_[kBuckets] = {};
};

// What a language binding gives the core so that user callbacks are called in that language's
// conventions. `stored` is where the value lives while the callback runs (see attribute_value).
// The object is passed as the handle the application holds (attr_object::app_handle()).
struct language_binding {
  // Returns the callback's error code; on MPI_SUCCESS sets *keep and, when true, *out.
  int (*copy)(const callbacks& cbs, object_kind kind, std::uintptr_t old_object, int keyval,
              attribute_value in, const aint* stored, attribute_value* out, bool* keep);
  int (*del)(const callbacks& cbs, object_kind kind, std::uintptr_t object, int keyval,
             attribute_value value, const aint* stored);
  void (*release)(callbacks& cbs);  // frees lang_state (if set) when the record dies; may be null
  const predefined_set* predefined;
};
void register_language(language lang, const language_binding* binding);
const language_binding* binding_for(language lang);
// The callbacks of a new keyval, classified by `lang`'s predefined set; false when no binding is
// registered for `lang`.
bool make_callbacks(language lang, fnptr copy_fn, fnptr delete_fn, aint extra_state,
                    callbacks* out);

// The attr_flags (attr_store.h) of a keyval's attributes.
inline std::uint8_t flags_of(const callbacks& cbs) {
  std::uint8_t f = 0;
  if (cbs.copy_kind == copy_behaviour::dup) f |= attr_flags::copy_dup;
  if (cbs.copy_kind == copy_behaviour::user) f |= attr_flags::copy_user;
  if (cbs.delete_kind == delete_behaviour::user) f |= attr_flags::delete_user;
  return f;
}

struct keyval_record {
  std::atomic<int> live_handle{0};  // the handle while the user may use it; 0 after free
  // The handle it was created with (meaningful while refs > 0). A recycled record keeps it: the
  // next handle of the index takes the following generation (bits 20-29).
  int handle = 0;
  object_kind kind = object_kind::comm;
  bool predefined = false;
  std::atomic<bool> counted{false};  // freed by the user after an attribute was set (lazy counting)
  std::atomic<std::int32_t> refs{0};
  callbacks cbs;
  // Which remembered callbacks (keyval_registry::classified) `cbs` and `kind` are, as
  // stamp << 3 | kind; 0 when they are none's (set by the checked path or rebound). A create
  // on the fast path compares this one word instead of the callbacks themselves (D128).
  std::uint64_t tag = 0;
};
static_assert(sizeof(keyval_record) == 64, "a keyval record is one cache line");

// Free indices, smallest first: a three-level bitmap (a set bit is a free index; a set bit above
// says the word below has one) and a spare. Keeping indices low keeps attributes in the slots each
// object holds inline (attr_store.h) after many keyvals come and go.
//
// The spare is the index most recently taken, or the smallest free one. A create takes it and
// the free of that keyval gives it back by flipping one flag: the common pattern (a library
// creates a keyval, uses it, frees it, and does it again) then costs no bitmap walk, and the
// index a create takes does not depend on the value the previous free stored, so a create that
// follows a free need not wait for it (docs/performance.md).
class index_pool {
 public:
  static constexpr std::uint32_t kMax = 1u << 20;
  MPIATTR_HOT void put(std::uint32_t i) {
    if (i == spare_) [[likely]] {  // (then the spare is in use: i is)
      spare_free_ = true;
      return;
    }
    put_other(i);
  }
  // The smallest free index; 0 when none is free.
  MPIATTR_HOT std::uint32_t take() {
    const std::uint32_t i = take_spare();
    return i != 0 ? i : take_from_bitmap();
  }
  // The spare if it is free (then it is the smallest free index); 0 otherwise.
  MPIATTR_HOT std::uint32_t take_spare() {
    if (!spare_free_) return 0;
    spare_free_ = false;
    if (spare_ == kNone) __builtin_unreachable();  // a free spare is an index
    return spare_;
  }
  // put(i) when i is the spare (in use), for the fast path (keyval_registry::free_fast).
  MPIATTR_HOT bool is_spare(std::uint32_t i) const { return i == spare_; }
  MPIATTR_HOT void put_spare() { spare_free_ = true; }
  // A new index, never free before, was handed out because take() found none free: it becomes
  // the spare, so that its free is the quick one.
  void issued(std::uint32_t i) { spare_ = i; }

 private:
  // Invariant: every index in the bitmap is greater than spare_ (kNone: no spare yet).
  static constexpr std::uint32_t kNone = 0;  // no user keyval has index 0 (kFirstUserIndex)
  static constexpr std::uint64_t bit(std::uint32_t i) { return std::uint64_t{1} << (i & 63); }
  [[gnu::noinline]] void put_other(std::uint32_t i) {
    if (spare_ == kNone || (!spare_free_ && i < spare_)) {
      // The spare in use (if any) is forgotten until its free, which puts it in the bitmap.
      spare_ = i;
      spare_free_ = true;
      return;
    }
    if (spare_free_ && i < spare_) std::swap(i, spare_);
    l0_[i >> 6] |= bit(i);
    l1_[i >> 12] |= bit(i >> 6);
    l2_[i >> 18] |= bit(i >> 12);
  }
  [[gnu::noinline]] std::uint32_t take_from_bitmap() {
    for (std::uint32_t a = 0; a < kMax >> 18; ++a) {
      if (l2_[a] == 0) continue;
      std::uint32_t b = a * 64 + static_cast<std::uint32_t>(__builtin_ctzll(l2_[a]));
      std::uint32_t c = b * 64 + static_cast<std::uint32_t>(__builtin_ctzll(l1_[b]));
      std::uint32_t i = c * 64 + static_cast<std::uint32_t>(__builtin_ctzll(l0_[c]));
      if ((l0_[c] &= l0_[c] - 1) == 0 && (l1_[b] &= ~bit(c)) == 0) l2_[a] &= ~bit(b);
      spare_ = i;  // the smallest index: the rest of the bitmap stays above it
      return i;
    }
    return 0;
  }
  std::uint32_t spare_ = kNone;
  bool spare_free_ = false;
  std::uint64_t l0_[kMax >> 6] = {};
  std::uint64_t l1_[kMax >> 12] = {};
  std::uint64_t l2_[kMax >> 18] = {};
};

// The census of lazy counting (runtime_standalone/src/lifecycle.cc): gives every attribute under
// keyval index `index` on objects of `kind`, and on those a dup is filling, its reference
// (census_one, attributes.h).
using attribute_census = void (*)(object_kind kind, std::uint32_t index);

class keyval_registry {
 public:
  static constexpr std::uint32_t kFirstUserIndex = kPredefinedIndices;
  static constexpr std::uint32_t kMaxIndex = 1u << 20;

  constexpr keyval_registry() = default;

  // The slot index a keyval handle addresses, or 0 when it cannot be a keyval at all.
  MPIATTR_HOT static std::uint32_t index_of(int keyval) {
    if ((keyval & 0xC0000000) == 0x40000000) return static_cast<std::uint32_t>(keyval) & 0xFFFFFu;
    if (keyval > 500 && keyval < 508) return static_cast<std::uint32_t>(keyval - 500);
    if (keyval > 600 && keyval < 606) return static_cast<std::uint32_t>(keyval - 600 + 7);
    return 0;
  }

  // The record of keyval index `index` (< kMaxIndex); one never issued has no handle.
  MPIATTR_HOT keyval_record* at(std::uint32_t index) const { return &records_[index]; }

  // The fast path's check (mpiattr/fast.h): whether `keyval` is a live keyval created by the
  // user for objects of kind `kind` (comm, type or win); if so, sets *index. The hot rows
  // (hot_row) hold, per kind and index, the live handle (0 for free, freed and predefined keyvals, and for keyvals of
  // the other kinds; entry 0 holds 1, so MPI_KEYVAL_INVALID matches nothing) and the attribute
  // flags, so this is one compare. Its fields are read and written with relaxed atomic
  // accesses (plain loads and stores on the machines we know), so that the fast paths of
  // MPI_THREAD_MULTIPLE use it too: a keyval reaches another thread through the program's own
  // synchronisation, which orders its creation before that thread's calls.
  // The index is computed once, as a 64-bit value: the table's address and the slot's both use
  // it, and a 32-bit index made GCC compute it twice and keep the slot offset's subtraction out
  // of the address (D71).
  template <typename Index>
  MPIATTR_HOT bool live_user(int keyval, object_kind kind, Index* index) const {
    std::size_t i = static_cast<std::uint32_t>(keyval) & (kMaxIndex - 1);
    asm("" : "+r"(i));  // (one register: GCC otherwise computes the AND twice)
    // The kind's row as one address (`lea hot_win_(%rip)`): each row is its own symbol, so no
    // kind's offset is added to the index (D76, D78; the window row was 16 MiB into one array,
    // past the offset x86-64's small model folds into a symbol's address: one `add` more, D82).
    // (No longer pinned to a register: the pin made the free copy the row's address, D82.)
    const hot_entry* row = hot_row(kind);
    if (__atomic_load_n(&row[i].handle, __ATOMIC_RELAXED) !=
        static_cast<std::uint32_t>(keyval))
      return false;
    // (A live user keyval's index is never below kFirstUserIndex: the hot entries of the
    // predefined indices hold 0, which no keyval with such an index equals, and entry 0 holds 1.)
    if (i < kFirstUserIndex) __builtin_unreachable();
    *index = static_cast<Index>(i);
    return true;
  }
  // The attr_flags of a keyval live_user() accepted.
  MPIATTR_HOT std::uint8_t hot_flags(object_kind kind, std::uint32_t index) const {
    return __atomic_load_n(&hot_row(kind)[index].flags, __ATOMIC_RELAXED);
  }

  // A keyval the user may set or get with: created and not yet freed.
  MPIATTR_HOT keyval_record* find_live(int keyval) const {
    std::uint32_t i = index_of(keyval);
    keyval_record* r = at(i);
    return (i != 0 && r->live_handle.load(std::memory_order_acquire) == keyval) ? r : nullptr;
  }
  // Also a keyval freed by the user whose attributes still exist (R2.2), for messages.
  keyval_record* find_referenced(int keyval) const;
  // A keyval freed by the user while attributes under it still exist (R2.2): get_attr and
  // delete_attr may still name it (docs/decisions.md D6). Returns its record with one more
  // reference, which the caller gives back with release(); nullptr when `keyval` is live,
  // predefined, never issued, or really gone (its last attribute deleted). While the reference is
  // held the record cannot be recycled, so its index is not reused by a new keyval and each
  // object's slot under that index is still this key's. Takes the registry lock: stale handles
  // are the cold path.
  keyval_record* acquire_freed(int keyval);
  // Whether a handle has the form of one this registry issued (to say "freed" rather than
  // "not a keyval" in messages).
  bool was_issued(int keyval) const;

  status create(object_kind kind, const callbacks& cbs, int* keyval);
  // Hands a live keyval's callbacks to another language's binding, which from now on calls them
  // (with `lang_state`, which it owns): host mode, where MPICH's C++ bindings create a keyval
  // with C++ functions through the C routine and then say how to call them (docs/host.md).
  status rebind(int keyval, language lang, void* lang_state);
  status free(object_kind kind, int* keyval, const char* kind_label);
  void define_predefined(int keyval, object_kind kind);
  // The fast paths of create and free (mpiattr/fast.h), below MPI_THREAD_MULTIPLE only: no lock,
  // no atomic read-modify-write, everything inline. True when done; false, with nothing changed,
  // when the checked path must take the call (it reports the errors, and classifies callbacks
  // unlike the last ones its language created a keyval with: create() remembers those).
  MPIATTR_HOT bool create_fast(object_kind kind, language lang, fnptr copy_fn, fnptr delete_fn,
                               aint extra_state, int* keyval) {
    const classified& c = last_[static_cast<int>(lang)];
    // (An entry never filled holds unclassified_copy, which no caller passes: no test of its own.)
    if (c.cbs.copy != copy_fn || c.cbs.del != delete_fn) [[unlikely]] return false;
    const std::uint32_t i = free_.take_spare();  // else the checked path walks the bitmap
    if (i == 0) [[unlikely]] return false;
    *keyval = init_record(i, kind, c, extra_state);
    return true;
  }
  MPIATTR_HOT bool free_fast(object_kind kind, int* keyval) {
    std::uint32_t i;
    if (!live_user(*keyval, kind, &i)) return false;
    keyval_record* r = at(i);
    asm("" : "+r"(r));  // (as init_record's: GCC otherwise makes refs' address again, D128)
    r->live_handle.store(0, std::memory_order_relaxed);
    *keyval = 0;  // MPI_KEYVAL_INVALID (R2.1)
    if (used_[i] == 0 && free_.is_spare(i)) [[likely]] {
      // No attribute ever (so it is not counted, and no callback of it is in flight: refs is 1)
      // and no language state: recycle at once, as the pool's spare.
      clear_hot(i, kind);
      // Not recycle(): a keyval that never had an attribute is not counted, and that check
      // costs a create + free pair 0.2 ns.
      r->refs.store(0, std::memory_order_relaxed);
      free_.put_spare();
    } else {
      free_rest(r, i, kind);  // (one call, out of line: the likely case needs no stack frame, D71)
    }
    return true;
  }

  // The fast paths of create and free at MPI_THREAD_MULTIPLE (D67; mpiattr/fast.h), without the
  // registry's lock: each thread keeps the index of the last keyval it freed that never had an
  // attribute (its spare, thread_spare) and the last callbacks it created a keyval with, so that
  // a create + free pair in a loop does one atomic read-modify-write, the free's compare-exchange
  // of the live handle (which a second free of the same handle, racing it, fails). A spare index
  // is no other thread's: its record has no reference and is not `counted`, so acquire_freed()
  // never takes one on it, and init_record() may rewrite it without the lock.
  MPIATTR_HOT bool create_fast_concurrent(object_kind kind, language lang, fnptr copy_fn,
                                          fnptr delete_fn, aint extra_state, int* keyval) {
    thread_spare* tp = spares_.own();
    if (tp == nullptr) [[unlikely]] return false;
    thread_spare& t = *tp;
    const classified& c = t.last[static_cast<int>(lang)];
    if (t.index == 0 || c.cbs.copy != copy_fn || c.cbs.del != delete_fn) [[unlikely]]
      return false;
    const std::uint32_t i = t.index;
    if (i >= low_free_.load(std::memory_order_relaxed)) [[unlikely]] {  // a smaller index may be free: the pool's turn
      t.index = 0;
      give_back(i);
      return false;
    }
    t.index = 0;
    *keyval = init_record(i, kind, c, extra_state);
    return true;
  }
  MPIATTR_HOT bool free_fast_concurrent(object_kind kind, int* keyval) {
    std::uint32_t i;
    const int k = *keyval;
    if (!live_user(k, kind, &i) || __atomic_load_n(&used_[i], __ATOMIC_RELAXED) != 0) return false;
    keyval_record* r = at(i);
    int expected = k;
    if (!r->live_handle.compare_exchange_strong(expected, 0, std::memory_order_acq_rel)) return false;
    clear_hot(i, kind);
    r->refs.store(0, std::memory_order_relaxed);  // (the handle's: no other, it never had an attribute)
    *keyval = 0;  // MPI_KEYVAL_INVALID (R2.1)
    thread_spare* t = spares_.own();
    if (t != nullptr && t->index == 0 && i < low_free_.load(std::memory_order_relaxed)) [[likely]]  // (smaller than every free one)
      t->index = i;
    else
      give_back(i);
    return true;
  }

  // A reference for a callback in flight. Predefined keys are never counted: they live as long
  // as MPI.
  static void acquire(keyval_record* r) {
    if (!r->predefined) sync::fetch_add(r->refs, 1, std::memory_order_relaxed);
  }
  void release(keyval_record* r);

  // An attribute was stored under keyval index `index`, with its object's lock held (or in an
  // object no census can see yet). Returns whether it holds a reference on the keyval: then the
  // caller marks its slot (attr_store::mark_counted). `fresh` is false for copies of attributes
  // that already exist (a dup).
  MPIATTR_HOT bool attach(std::uint32_t index, bool fresh = true) {
    if (fresh) note_used(index);
    if (counted_.load(std::memory_order_relaxed) == 0) [[likely]] return false;
    return attach_counted(index);
  }
  // attach() for a new attribute under a live keyval below MPI_THREAD_MULTIPLE (the fast paths
  // of set): such a keyval is never counted (only a keyval the user has freed is), so this only
  // notes that it has had an attribute.
  MPIATTR_HOT void note_used(std::uint32_t index) {
    if (!(__atomic_load_n(&used_[index], __ATOMIC_RELAXED) & kUsedAttribute)) [[unlikely]]
      __atomic_fetch_or(&used_[index], kUsedAttribute, __ATOMIC_RELAXED);  // (no call: no frame)
  }
  // An attribute that held a reference (its entry was `counted`) is gone.
  void detach(std::uint32_t index) { release(at(index)); }
  // Whether some keyval is counted: otherwise attach(i, false) does nothing (dup hoists this).
  bool counting() const { return counted_.load(std::memory_order_relaxed) != 0; }
  void set_attribute_census(attribute_census f) { census_ = f; }
  // The runtime takes create_fast_concurrent's way (the standalone one): create() then remembers
  // each thread's last callbacks at MPI_THREAD_MULTIPLE too (D67).
  void use_thread_spares() { thread_spares_ = true; }

  std::size_t live_count() const;  // records with refs > 0, for tests

  // live_user through a gate of the caller's (host mode, D89: runtime_host/host_glue.h, fast_gate):
  // `row` and `mask` are the kind's hot row (hot_row_of) and kMaxIndex - 1 while the caller's fast
  // paths may run, and otherwise closed_row() and kClosedMask, under which no keyval matches (an
  // even keyval reads the closed row's entry 0, which holds 1; an odd one entry 1, which holds 0).
  // So the gate costs a fast path no test of its own: the row's address is loaded where live_user
  // makes it with a `lea`, and the mask (64 bits wide, so that the index it makes is one register
  // with no copy) is read where live_user has it as an immediate. The closed
  // row is constant data, so the gate is closed before any initialiser has run.
  static constexpr std::size_t kClosedMask = 1;
  static const void* hot_row_of(object_kind kind) { return hot_row(kind); }
  static constexpr const void* closed_row() { return kClosedRow; }
  template <typename Index>
  MPIATTR_HOT static bool live_user_gated(const void* row, std::size_t mask, int keyval, Index* index) {
    const std::size_t i = static_cast<std::uint32_t>(keyval) & mask;
    if (__atomic_load_n(&static_cast<const hot_entry*>(row)[i].handle, __ATOMIC_RELAXED) !=
        static_cast<std::uint32_t>(keyval))
      return false;
    if (i < kFirstUserIndex) __builtin_unreachable();  // (as live_user's: the closed row matches none)
    *index = static_cast<Index>(i);
    return true;
  }
  // hot_flags, from the row live_user_gated accepted the keyval in.
  MPIATTR_HOT static std::uint8_t hot_flags_gated(const void* row, std::uint32_t index) {
    return __atomic_load_n(&static_cast<const hot_entry*>(row)[index].flags, __ATOMIC_RELAXED);
  }

 private:
  struct hot_entry {
    std::uint32_t handle;  // 0: no live keyval (entry 0 holds 1: reserve_hot_entry_zero)
    std::uint8_t flags;    // valid while handle is not 0
  };
  static_assert(sizeof(hot_entry) == 8);
  static constexpr hot_entry kClosedRow[2] = {{1, 0}, {0, 0}};  // (live_user_gated)
  void set_hot(std::uint32_t i, std::uint32_t handle, object_kind kind, std::uint8_t flags) {
    hot_entry& e = hot_row(kind)[i];
    // (Unconditional: the handle's store writes the same line, and a load, compare and branch
    // cost a create more than the store, D71.)
    __atomic_store_n(&e.flags, flags, __ATOMIC_RELAXED);
    __atomic_store_n(&e.handle, handle, __ATOMIC_RELAXED);
  }
  void clear_hot(std::uint32_t i, object_kind kind) {
    __atomic_store_n(&hot_row(kind)[i].handle, 0u, __ATOMIC_RELAXED);
  }
  // attach() when some keyval is counted: whether this one is (then a reference is taken).
  [[gnu::noinline]] bool attach_counted(std::uint32_t index) {
    keyval_record* r = at(index);
    if (!r->counted.load(std::memory_order_relaxed)) return false;
    acquire(r);
    return true;
  }
  std::uint32_t take_index();  // 0 when all are in use; requires mu_
  struct classified;  // (below)
  // Makes record i (issued) a live keyval with the remembered callbacks `c` (the fast paths of
  // create); returns its handle.
  MPIATTR_HOT int init_record(std::uint32_t i, object_kind kind, const classified& c, aint extra_state) {
    keyval_record* r = at(i);
    // Keeps r in a register: GCC otherwise recomputes it for each field it writes, which costs
    // a create + free pair about 0.25 ns (measured with attr_bench's keyval_create_free).
    asm("" : "+r"(r));
    // A recycled record keeps its callbacks and kind (recycle): a program that creates and frees
    // keyvals in a loop usually finds the same ones there, and not writing them again halves the
    // stores a create makes. Whether they are the same is one compare of the record's tag with
    // the one `c` and `kind` make (D128; it was four compares of the callbacks' fields and one
    // of the kind, D71). (Loaded before the first store, which could alias `c` for GCC.)
    const std::uint64_t tag = c.tag | static_cast<std::uint64_t>(kind);
    const bool same = __builtin_expect(r->tag == tag, 1);
    // The next generation: the last handle + 2^20 (a record the fast path takes has been a
    // keyval, so its handle has bit 30 and its index), unless that carried out of bits 20-29.
    // One add between the load of the last handle and the store of the next, which the next
    // create loads: a create + free pair in a loop waits for that chain, which the whole
    // computation (next_handle: add, and, two ors) made 3 cycles longer (D128). The carry is a
    // branch, taken once in 1,024 creates of an index, not a cmov on the chain.
    std::uint32_t h = static_cast<std::uint32_t>(r->handle) + (1u << 20);
    if (h >= 0x80000000u) [[unlikely]] {
      asm("");  // (keeps the branch)
      h = 0x40000000u | i;
    }
    // (Atomic: at MPI_THREAD_MULTIPLE a spare index is rewritten without the lock under which
    // find_referenced() and acquire_freed() read a stale handle's record.)
    __atomic_store_n(&r->handle, static_cast<int>(h), __ATOMIC_RELAXED);
    if (!same) [[unlikely]] {
      r->kind = kind;  // (predefined is never set for user indices; counted was reset by recycle)
      r->cbs = c.cbs;
      r->tag = tag;
    }
    r->cbs.extra_state = extra_state;
    r->refs.store(1, std::memory_order_relaxed);
    r->live_handle.store(static_cast<int>(h), std::memory_order_release);
    set_hot(i, h, kind, c.flags);
    return static_cast<int>(h);
  }
  // The same for create() (the checked path, under mu_): `cbs` and `flags` as classified, `tag`
  // the one of the classified entry create() remembers them in, or 0.
  int init_record_checked(std::uint32_t i, object_kind kind, const callbacks& cbs, std::uint8_t flags,
                          std::uint64_t tag) {
    keyval_record* r = at(i);
    asm("" : "+r"(r));
    // (The callbacks compared, not written, when they are the record's already: a host's
    // MPI_THREAD_MULTIPLE creates keyvals here only, D71.)
    const bool same_callbacks = __builtin_expect(r->cbs.copy == cbs.copy && r->cbs.del == cbs.del &&
                                                     r->cbs.lang == cbs.lang && r->cbs.lang_state == cbs.lang_state,
                                                 1);
    const std::uint32_t h = next_handle(r, i);
    __atomic_store_n(&r->handle, static_cast<int>(h), __ATOMIC_RELAXED);
    if (r->kind != kind) r->kind = kind;
    if (!same_callbacks) [[unlikely]] r->cbs = cbs;
    r->cbs.extra_state = cbs.extra_state;
    r->tag = tag;
    r->refs.store(1, std::memory_order_relaxed);
    r->live_handle.store(static_cast<int>(h), std::memory_order_release);
    set_hot(i, h, kind, flags);
    return static_cast<int>(h);
  }
  // The handle record i takes next: the next generation (bits 20-29) of its last one.
  MPIATTR_HOT static std::uint32_t next_handle(const keyval_record* r, std::uint32_t i) {
    return 0x40000000u | ((static_cast<std::uint32_t>(r->handle) + (1u << 20)) & (0x3FFu << 20)) | i;
  }
  // The user's handle is gone (live_handle 0): counts the keyval's attributes if it had any
  // (`counted_already`: free() marked it under mu_ with the handle's removal), else recycles it.
  void drop_handle(keyval_record* r, std::uint32_t i, bool counted_already = false);
  // The record is counted from now on (requires mu_, with recycle(), which resets it).
  void mark_counted(keyval_record* r) {
    r->counted.store(true, std::memory_order_seq_cst);
    counted_.fetch_add(1, std::memory_order_seq_cst);
  }
  // free_fast's other cases: an index that is not the spare, or a keyval that had an attribute.
  [[gnu::noinline]] void free_rest(keyval_record* r, std::uint32_t i, object_kind kind) {
    if (used_[i] == 0) {
      clear_hot(i, kind);
      r->refs.store(0, std::memory_order_relaxed);
      free_.put(i);
    } else {
      drop_handle(r, i);
    }
  }
  // The record has no reference left; its index may be reused (requires mu_, or no concurrency).
  MPIATTR_HOT void recycle(keyval_record* r, std::uint32_t i) {
    if (r->counted.load(std::memory_order_relaxed)) [[unlikely]] {
      r->counted.store(false, std::memory_order_relaxed);
      counted_.fetch_sub(1, std::memory_order_relaxed);
    }
    // The handle and callbacks stay until the index is reused (init_record).
    put_free(i);
  }
  // The pool's changes under mu_, keeping low_free_ a lower bound of the free indices.
  void put_free(std::uint32_t i) {
    free_.put(i);
    if (i < low_free_.load(std::memory_order_relaxed)) low_free_.store(i, std::memory_order_relaxed);
  }

  // Static members (the registry is a singleton), so that they are zero-initialised static
  // storage: pages never used cost neither memory nor file size.
  static inline keyval_record records_[kMaxIndex] = {};           // by keyval index
  // See live_user(). One array per kind, each its own symbol, so that a get addresses its row
  // with one RIP-relative `lea` (D82).
  static inline hot_entry hot_comm_[kMaxIndex] = {};
  static inline hot_entry hot_type_[kMaxIndex] = {};
  static inline hot_entry hot_win_[kMaxIndex] = {};
  // The row of `kind` (comm, type or win): a constant address when `kind` is one.
  MPIATTR_HOT static hot_entry* hot_row(object_kind kind) {
    return kind == object_kind::comm ? hot_comm_ : kind == object_kind::type ? hot_type_ : hot_win_;
  }
  // Why the free of a keyval cannot simply recycle its index (free_fast): an attribute was ever
  // stored under it (drop_handle then counts them, lazy counting), or its language binding holds
  // state for it (release() gives it back).
  static constexpr std::uint8_t kUsedAttribute = 1, kUsedLangState = 2;
  static inline std::uint8_t used_[kMaxIndex] = {};
  // Makes hot entry 0 of each kind unmatchable (keyval.cc), at load time.
  static bool reserve_hot_entry_zero();
  static const bool hot_entry_zero_reserved_;
  // Its critical sections are a few loads and stores (the index pool, a record's handle and
  // references) and never run a user callback: a spinlock, one exchange per hold where a mutex
  // takes two read-modify-writes and two calls (keyval create + free at MPI_THREAD_MULTIPLE).
  mutable sync::spinlock mu_;
  index_pool free_;
  // A lower bound of the free indices (every free index is at least this), kept by the registry's
  // changes of the pool under mu_ (not by the fast paths below MPI_THREAD_MULTIPLE, which never
  // run beside the concurrent ones) and read without it: a thread keeps an index for itself only
  // below it, so that indices stay smallest first (D67).
  std::atomic<std::uint32_t> low_free_{kMaxIndex};
  std::atomic<std::uint32_t> counted_{0};  // records with `counted` set
  attribute_census census_ = nullptr;
  // The last callbacks each language created a keyval with below MPI_THREAD_MULTIPLE (create()
  // remembers them, create_fast() reuses them): programs create many keyvals with the same pair.
  // An entry not filled (or forgotten) holds unclassified_copy as its copy callback: an address
  // no caller passes, so the fast paths need no test of their own for it.
  static void unclassified_copy();
  struct classified {
    constexpr classified() { cbs.copy = &unclassified_copy; }
    void forget() { *this = classified(); }
    callbacks cbs;  // extra_state aside
    std::uint8_t flags = 0;  // flags_of(cbs)
    // stamp << 3, the stamp unique to this filling of the entry (stamp_, D128): the record
    // of a keyval created from it holds this tag, with the kind in its low bits.
    std::uint64_t tag = 0;
  } last_[kLanguages];
  std::uint64_t stamps_ = 0;  // the last stamp given (under mu_)
  std::uint32_t next_ = kFirstUserIndex;
  bool thread_spares_ = false;  // use_thread_spares()
  // A thread's spare index and last callbacks at MPI_THREAD_MULTIPLE (create_fast_concurrent), in
  // a place of its own (sync::thread_places, D119) from create()'s first store of its last
  // callbacks (under mu_) until it ends, when spare_ended gives its spare index back. A thread
  // whose place another live thread owns keeps no spare: its creates and frees take the pool's way.
  struct alignas(64) thread_spare {
    std::atomic<std::uintptr_t> owner{0};  // (sync::thread_places)
    std::uint32_t index = 0;
    classified last[kLanguages];
  };
  static void spare_ended(void* p);
  sync::thread_places<thread_spare, 6> spares_;  // 64 places
  void give_back(std::uint32_t i);  // to the pool, under the lock
};

extern never_destroyed<keyval_registry> g_keyvals;
inline keyval_registry& keyvals() { return g_keyvals.value; }

}  // namespace mpiattr
