// mpiattr/keyval.h: keyvals, their callbacks, their lifetime (R1, R2).
//
// A keyval record holds the object kind it was created for (R1.5), the creator's language and its
// callbacks (R1.6), extra_state, and a reference count: one for the user's handle plus one per
// attribute set under it, plus one per copy or delete in flight. MPI_XXX_FREE_KEYVAL drops only the
// handle's reference, so attributes keep their value and callbacks until they are gone (R2.2);
// the last release recycles the record's index.
//
// A keyval handle is 0x40000000 | generation << 20 | index; the index addresses the record and
// each object's attribute slot directly, so a lookup is two loads and a compare. Predefined keys
// (MPI_TAG_UB = 501, ..., MPI_WIN_MODEL = 605) map to fixed small indices.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "mpiattr/attr_store.h"
#include "mpiattr/attribute_value.h"
#include "mpiattr/handles.h"
#include "mpiattr/predefined.h"
#include "mpiattr/status.h"
#include "mpiattr/sync.h"

namespace mpiattr {

// The language whose calling conventions a keyval's callbacks use (R1.6, R7.6).
enum class language : std::uint8_t { c, fortran_mpi1, fortran_mpi2, cxx };
constexpr int kLanguages = 4;

// Predefined callbacks are recognised when the keyval is created, so the core runs them without a
// call (and MPI_XXX_DUP_FN copies a Fortran value as a Fortran value, whatever the language).
enum class copy_behaviour : std::uint8_t { user, null_copy, dup };
enum class delete_behaviour : std::uint8_t { user, null_delete };

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
  static constexpr std::size_t kBuckets = 64;  // open addressing, at most 25% full
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
struct language_binding {
  // Returns the callback's error code; on MPI_SUCCESS sets *keep and, when true, *out.
  int (*copy)(const callbacks& cbs, object_kind kind, handle_t old_object, int keyval,
              attribute_value in, const aint* stored, attribute_value* out, bool* keep);
  int (*del)(const callbacks& cbs, object_kind kind, handle_t object, int keyval,
             attribute_value value, const aint* stored);
  void (*release)(callbacks& cbs);  // frees lang_state when the record dies; may be null
  const predefined_set* predefined;
};
void register_language(language lang, const language_binding* binding);
const language_binding* binding_for(language lang);

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
  int handle = 0;                   // the handle it was created with, while refs > 0
  object_kind kind = object_kind::comm;
  bool predefined = false;
  callbacks cbs;
  std::atomic<std::int32_t> refs{0};
  std::uint32_t gen = 0;
};

class keyval_registry {
 public:
  static constexpr std::uint32_t kFirstUserIndex = kPredefinedIndices;
  static constexpr int kChunkBits = 10;
  static constexpr std::uint32_t kChunkSize = 1u << kChunkBits;
  static constexpr std::uint32_t kMaxIndex = 1u << 20;

  constexpr keyval_registry() = default;
  ~keyval_registry();

  // The slot index a keyval handle addresses, or 0 when it cannot be a keyval at all.
  MPIATTR_HOT static std::uint32_t index_of(int keyval) {
    if ((keyval & 0xC0000000) == 0x40000000) return static_cast<std::uint32_t>(keyval) & 0xFFFFFu;
    if (keyval > 500 && keyval < 508) return static_cast<std::uint32_t>(keyval - 500);
    if (keyval > 600 && keyval < 606) return static_cast<std::uint32_t>(keyval - 600 + 7);
    return 0;
  }

  MPIATTR_HOT keyval_record* at(std::uint32_t index) const {
    keyval_record* c = chunks_[index >> kChunkBits].load(std::memory_order_acquire);
    return c ? &c[index & (kChunkSize - 1)] : nullptr;
  }

  // The fast path's check (mpiattr/fast.h): whether `keyval` is a live keyval created by the
  // user for objects of kind `kind`; if so, sets *index. hot_ holds, per index, the live handle,
  // kind + 1 and the attribute flags in eight bytes (handle 0 for free, freed and predefined
  // keyvals), so this is two compares on one word. Its fields are plain, not atomic: only the
  // fast paths read them, and those run only where no two MPI calls overlap.
  MPIATTR_HOT bool live_user(int keyval, object_kind kind, std::uint32_t* index) const {
    std::uint32_t i = static_cast<std::uint32_t>(keyval) & (kMaxIndex - 1);
    const hot_entry& e = hot_[i];
    if (e.handle != static_cast<std::uint32_t>(keyval) ||
        e.kind != static_cast<std::uint8_t>(static_cast<std::uint8_t>(kind) + 1u))
      return false;
    *index = i;
    return true;
  }
  // The attr_flags of a keyval live_user() accepted.
  MPIATTR_HOT std::uint8_t hot_flags(std::uint32_t index) const { return hot_[index].flags; }

  // A keyval the user may set or get with: created and not yet freed.
  MPIATTR_HOT keyval_record* find_live(int keyval) const {
    std::uint32_t i = index_of(keyval);
    keyval_record* r = i ? at(i) : nullptr;
    return (r && r->live_handle.load(std::memory_order_acquire) == keyval) ? r : nullptr;
  }
  // Also a keyval freed by the user whose attributes still exist (delete_attr may name it, R2.2).
  keyval_record* find_referenced(int keyval) const;
  // Whether a handle has the form of one this registry issued (to say "freed" rather than
  // "not a keyval" in messages).
  bool was_issued(int keyval) const;

  status create(object_kind kind, const callbacks& cbs, int* keyval);
  status free(object_kind kind, int* keyval, const char* kind_label);
  void define_predefined(int keyval, object_kind kind);

  // Predefined keys are never counted: they live as long as MPI.
  static void acquire(keyval_record* r) {
    if (!r->predefined) sync::fetch_add(r->refs, 1, std::memory_order_relaxed);
  }
  void release(keyval_record* r);

  std::size_t live_count() const;  // records with refs > 0, for tests

 private:
  struct hot_entry {
    std::uint32_t handle = 0;
    std::uint8_t kind = 0;  // object_kind + 1
    std::uint8_t flags = 0;
  };
  static_assert(sizeof(hot_entry) == 8);
  void set_hot(std::uint32_t i, std::uint32_t handle, object_kind kind, std::uint8_t flags) {
    hot_[i] = hot_entry{handle, static_cast<std::uint8_t>(static_cast<std::uint8_t>(kind) + 1u), flags};
  }
  hot_entry hot_[kMaxIndex];  // see live_user(); static zero pages until used
  std::atomic<keyval_record*> chunks_[kMaxIndex >> kChunkBits] = {};
  mutable sync::mutex mu_;
  std::vector<std::uint32_t> free_;
  std::uint32_t next_ = kFirstUserIndex;
};

extern never_destroyed<keyval_registry> g_keyvals;
inline keyval_registry& keyvals() { return g_keyvals.value; }

}  // namespace mpiattr
