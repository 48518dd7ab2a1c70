// mpiattr/attr_store.h: the attributes cached on one communicator, window or datatype.
//
// Slots are indexed by the keyval's index (keyval.h), 16 bytes each, in chunks of 32 that never
// move. The first chunk, and a directory for the first four, come with the store, so an object
// with attributes under its program's first 32 keyvals allocates nothing (a dup of such an object
// costs no malloc). The store is in two parts (docs/decisions.md D125): the hot part, in the
// object, holds what a get or a set reads and writes (the counters, the lock, the first chunk's
// first kNear slots) in 96 bytes, so that an object's hot part is 128; the cold part (the first
// chunk's other slots, the directory, ...) is the store's owner's to place, apart from the hot
// part or after it, and the hot part reaches it through one pointer. Beyond that, chunks are allocated as needed and the directory grows
// by replacement; old directories are kept until the store dies, so a reader never touches freed
// memory. A get therefore costs a few dependent loads whatever the number of attributes,
// allocates nothing and performs no read-modify-write: readers use the store's sequence counter
// (a seqlock) to see a value and its origin together, while writers serialise on the store's
// lock (a spinlock: critical sections are a few stores). User callbacks never run under it (R11.1). Predefined attributes are not kept
// here (predefined.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mpiattr/attribute_value.h"
#include "mpiattr/predefined.h"
#include "mpiattr/sync.h"

namespace mpiattr {

// The callback kinds an attribute carries in its slot (attr_store::flags_t), so that set, dup
// and free decide without looking the keyval record up (keyval.h: flags_of).
namespace attr_flags {
constexpr std::uint8_t copy_dup = 1, copy_user = 2, delete_user = 4;
}

// What a get found: the value, and where it lives (for the pointers C gets, R7.3).
struct attr_read {
  bool found = false;
  attribute_value value;
  const aint* home = nullptr;
  void* as_c() const { return value.as_c(home); }
};

class attr_store {
 public:
  static constexpr std::uint32_t kChunk = 32;
  // The first chunk's slots kept in the hot part; the other kChunk - kNear are the cold part's.
  static constexpr std::uint32_t kNear = 4;
  static constexpr std::uint32_t kInlineChunks = 4;
  // A cache line (D95: host mode's records are aligned to one).
  static constexpr std::size_t kLine = 64;

  struct cold;  // the cold part (below), which the store's owner constructs before the store
  // The store's cold part is `c`, which must outlive it; the store's destructor does not touch
  // it (the owner destroys it: an object's cold part may be a member destroyed first).
  explicit attr_store(cold& c) : cold_(&c) {}
  attr_store(const attr_store&) = delete;
  cold& cold_part() const { return *cold_; }
  // Back to a fresh store, as its constructor and a fresh cold part make it (requires that no
  // other thread can reach it).
  void reset();

  // Lock-free read of the attribute under keyval index `index` (>= kPredefinedIndices).
  MPIATTR_HOT bool read(std::uint32_t index, attr_read* out) const {
    const std::uint32_t i = index - kPredefinedIndices;
    for (;;) {
      std::uint32_t v1 = version_.load(std::memory_order_acquire);
      if (v1 & 1u) continue;  // a writer is mid-update
      bool found = false;
      if (const slot* s = slot_at(i, std::memory_order_acquire)) {
        std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
        if (tag & kOriginMask) {
          out->value = attribute_value(s->word.load(std::memory_order_relaxed),
                                       static_cast<origin>(tag & kOriginMask));
          out->home = reinterpret_cast<const aint*>(&s->word);
          found = true;
        }
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      if (version_.load(std::memory_order_relaxed) == v1) {
        out->found = found;
        return found;
      }
    }
  }

  // The same read without the sequence counter, for the fast path (mpiattr/fast.h) below
  // MPI_THREAD_MULTIPLE, where no writer can run during a get. An attribute under one of the
  // program's first kNear keyvals lives in the store's hot part.
  // The hot part's slots are tested on the index itself (index >= kPredefinedIndices, a user
  // keyval's), so that the offset folds into the slot's address (D71).
  MPIATTR_HOT bool read_unsynchronised(std::size_t index, attr_read* out) const {
    const slot* s;
    if (index < kPredefinedIndices + kNear) [[likely]]  // (else GCC may lay the chunks out first)
      s = &near_[index - kPredefinedIndices];
    else
      s = slot_at(static_cast<std::uint32_t>(index - kPredefinedIndices), std::memory_order_relaxed);
    std::uint32_t tag = s ? s->tag.load(std::memory_order_relaxed) : 0;
    out->found = (tag & kOriginMask) != 0;
    if (out->found) [[likely]] {  // (else GCC lays the Fortran gets' hit out of line, D76)
      out->value = attribute_value(s->word.load(std::memory_order_relaxed),
                                   static_cast<origin>(tag & kOriginMask));
      out->home = reinterpret_cast<const aint*>(&s->word);
    }
    return out->found;
  }
  // read_unsynchronised for the fast gets' hits (D82), on the tag's low byte (origin, kDeleting,
  // kCounted), loaded plainly so that GCC folds it into one compare with the slot's offset (an
  // atomic load it does not fold): no writer runs beside these reads, and a char-typed access may
  // alias the tag. For C (c_glue.h: fast_get): whether an attribute is there, and if so *value
  // set to what C's get_attr returns (attribute_value::as_c); the hit on a value C wrote is one
  // compare, the low byte being exactly origin::c_address, and the word is the result. Every
  // other state (empty; written from Fortran, whose home C reads, R7.3; being deleted or counted)
  // is decided after it, as read_unsynchronised decides.
  MPIATTR_HOT bool read_c_unsynchronised(std::size_t index, void** value) const {
    const slot* s;
    if (index < kPredefinedIndices + kNear) [[likely]] {
      s = &near_[index - kPredefinedIndices];
    } else {
      s = far_slot_unsynchronised(index);
      if (s == nullptr) return false;
    }
    if (low_tag(s) == static_cast<std::uint8_t>(origin::c_address)) [[likely]] {
      *value = reinterpret_cast<void*>(s->word.load(std::memory_order_relaxed));
      return true;
    }
    asm("" : "+r"(s));  // (so that the hit's compare takes the byte from memory and the address
                        // is made here: GCC otherwise loads the byte and makes it before, D82)
    if (!(low_tag(s) & kOriginMask)) return false;
    *value = attribute_value(s->word.load(std::memory_order_relaxed), static_cast<origin>(low_tag(s) & kOriginMask))
                 .as_c(reinterpret_cast<const aint*>(&s->word));
    return true;
  }
  // For Fortran (f_glue.h: fast_get), which reads the word whoever wrote it (R7.3): whether an
  // attribute is there, and if so its word in *word; the hit is one test of the origin's bits.
  MPIATTR_HOT bool read_word_unsynchronised(std::size_t index, aint* word) const {
    const slot* s;
    if (index < kPredefinedIndices + kNear) [[likely]] {
      s = &near_[index - kPredefinedIndices];
    } else {
      s = far_slot_unsynchronised(index);
      if (s == nullptr) return false;
    }
    if (!(low_tag(s) & kOriginMask)) [[unlikely]] return false;
    *word = s->word.load(std::memory_order_relaxed);
    return true;
  }
  // The set fast paths: store the value if the slot exists and is empty, or holds a value with no
  // delete callback to run (`flags` are the keyval's); otherwise not_done, changing nothing, and
  // the checked path must do it. Below MPI_THREAD_MULTIPLE (Locked false) no reader or writer can
  // overlap; at it (Locked true) the work is done under the store's lock and fenced for readers.
  // For a new attribute, added() is called (under the lock): it returns whether the attribute
  // holds a reference on its keyval (keyval_registry::attach).
  // When Locked and the lock is held by another thread, not_done too: the fast path then makes no
  // call before its work (its caller keeps no registers for one) and the checked path waits (D77).
  enum class fast_put { not_done, added, replaced };
  template <bool Locked, typename Added>
  MPIATTR_HOT fast_put put_fast(std::uint32_t index, attribute_value v, std::uint8_t flags, Added&& added) {
    if constexpr (Locked) {
      if (!mu_.try_lock()) return fast_put::not_done;
    }
    struct unlock_if_locked {  // mu_, held for the whole put when Locked
      sync::spinlock& mu;
      ~unlock_if_locked() {
        if constexpr (Locked) mu.unlock();
      }
    } lock{mu_};
    const std::uint32_t i = index - kPredefinedIndices;
    slot* s = const_cast<slot*>(slot_at(i, std::memory_order_relaxed));
    if (s == nullptr || freeing) return fast_put::not_done;
    const std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
    const bool empty = !(tag & kOriginMask);
    if (!empty && (tag & (kDeleting | std::uint32_t{attr_flags::delete_user} << kFlagShift)))
      return fast_put::not_done;
    if constexpr (Locked) begin_write();
    store(s, i, tag, v, flags, next_seq_++);
    if constexpr (Locked) end_write();
    if (!empty) return fast_put::replaced;
    if (added()) mark(s);
    return fast_put::added;
  }

  // ---- everything below requires holding mutex() ----
  sync::spinlock& mutex() const { return mu_; }

  // Each attribute carries a few bits for its owner (the keyval's callback kinds, so that dup
  // and free need not look the keyval up), kept in the slot's tag.
  using flags_t = std::uint8_t;
  struct entry {
    std::uint32_t index;  // the keyval index
    std::uint32_t seq;
    attribute_value value;
    bool deleting;
    flags_t flags;
    bool counted;  // the attribute holds a reference on its keyval (keyval.h, lazy counting)
  };
  // The slot's state; false when empty.
  bool peek(std::uint32_t index, entry* e) const;
  // Stores a value (new or replacing), making it the most recently set (R10.1).
  void put(std::uint32_t index, attribute_value v, flags_t flags);
  // The set_attr fast path, with one slot lookup: stores unless the slot holds a value that is
  // being deleted, or whose flags intersect `needs_callback` (its delete callback must run first).
  enum class put_result { added, replaced, deleting, needs_callback };
  put_result try_put(std::uint32_t index, attribute_value v, flags_t flags, flags_t needs_callback);
  // Stores into an object no reader can see yet (a dup in progress): no reader to fence.
  void put_private(std::uint32_t index, attribute_value v, std::uint32_t seq, flags_t flags,
                   bool counted);
  // Lazy keyval counting (keyval.h): the attribute under `index` holds a reference on its keyval
  // from now on. False, changing nothing, when there is no attribute or it holds one already.
  bool mark_counted(std::uint32_t index) {
    slot* s = existing(index);
    if (s == nullptr) return false;
    const std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
    if (!(tag & kOriginMask) || (tag & kCounted)) return false;
    mark(s);
    return true;
  }
  // Allocates in this store (empty, not yet visible to readers) every chunk `from` has, so that
  // copy_into and put_private from it allocate nothing; std::bad_alloc leaves this store empty.
  void reserve_like(const attr_store& from);
  // What copy_into does with an attribute.
  enum class pick { skip, copy, copy_counted };
  // Copies slot by slot, into `to` (empty, and not yet visible to readers), every attribute for
  // which pick(entry) does not return skip: the dup fast path.
  template <typename Pick>
  void copy_into(attr_store& to, Pick&& pick) const {
    std::uint32_t left = count_;
    const directory* d = cold_->dir.load(std::memory_order_relaxed);
    for (std::uint32_t c = 0; left != 0 && c < d->nchunks; ++c) {
      const slot* ch = c == 0 ? nullptr : d->chunks[c].load(std::memory_order_relaxed);
      if (c != 0 && ch == nullptr) continue;
      slot* dst = nullptr;
      for (std::uint32_t i = 0; left != 0 && i < kChunk; ++i) {
        const slot& from = c == 0 ? *first_chunk(i) : ch[i];
        std::uint32_t tag = from.tag.load(std::memory_order_relaxed);
        if (!(tag & kOriginMask)) continue;
        --left;
        aint word = from.word.load(std::memory_order_relaxed);
        const attr_store::pick p = pick(entry_of(c * kChunk + i + kPredefinedIndices, from));
        if (p == attr_store::pick::skip) continue;
        if (c != 0 && dst == nullptr) dst = to.slot_for_write(c * kChunk + kPredefinedIndices);
        slot& into = c == 0 ? *to.first_chunk(i) : dst[i];
        const std::uint32_t copied =
            (tag & ~(kDeleting | kCounted)) | (p == attr_store::pick::copy_counted ? kCounted : 0u);
        into.word.store(word, std::memory_order_relaxed);
        into.tag.store(copied, std::memory_order_relaxed);
        into.seq = from.seq;
        ++to.count_;
        to.occupy(c * kChunk + i, true);
        to.account(0, copied);
      }
    }
    if (next_seq_ > to.next_seq_) to.next_seq_ = next_seq_;
  }
  void set_deleting(std::uint32_t index, bool on);
  // Removes the attribute; returns whether it held a reference on its keyval (entry::counted),
  // which the caller gives back (keyval_registry::detach) once it has let go of the lock.
  bool erase(std::uint32_t index);
  // Calls f(entry) for every attribute, in keyval-index order.
  template <typename F>
  void for_each(F&& f) const {
    visit([&](const entry& e, slot&) { f(e); });
  }
  // Calls f(entry) for every attribute and then removes them all at once (their delete
  // callbacks are known to do nothing).
  template <typename F>
  void clear(F&& f) {
    begin_write();
    visit([&](const entry& e, slot& s) {
      f(e);
      s.tag.store(0, std::memory_order_relaxed);
      s.word.store(0, std::memory_order_relaxed);
    });
    end_write();
    count_ = 0;
    inline_mask_ = 0;
    cold_->far = 0;
    has_far_ = false;
    unusual_ = 0;
  }
  // Whether every attribute is copied by MPI_XXX_DUP_FN, has no delete callback and holds no
  // reference on its keyval (and none is being deleted): then a dup may copy the slots wholesale
  // and a free may drop them at once.
  bool all_plain() const { return unusual_ == 0; }
  // Copies every slot into `to` (empty, not yet visible to other threads); all_plain() must hold.
  // A few attributes in the inline chunk (the common case) are copied here, slot by slot.
  MPIATTR_HOT void copy_plain_into(attr_store& to) const {
    if (!all_inline() || count_ > kWholeInlineChunk) [[unlikely]] return copy_plain_into_rest(to);
    // (Whole slots, as copy_plain_into_rest copies whole chunks: no other thread reads either.)
    // (A 64-bit mask and index, so that the slot's offset needs no sign extension: D90.)
    for (std::uint64_t m = inline_mask_; m != 0; m &= m - 1) {
      const std::size_t i = static_cast<std::size_t>(__builtin_ctzll(m));
      std::memcpy(static_cast<void*>(to.first_chunk(i)), static_cast<const void*>(first_chunk(i)), sizeof(slot));
    }
    to.inline_mask_ = inline_mask_;
    to.count_ = count_;
    to.unusual_ = 0;
    // (Every attribute `to` holds is one copied here, older than next_seq_: taking it whatever
    // `to` counted before keeps R10.1's order, and needs no compare.)
    to.next_seq_ = next_seq_;
  }
  // copy_plain_into for a destination that may still hold the plain attributes of its record's
  // last object: a record asleep that host mode's fast free did not clear (D90). `to` is not yet
  // visible to other threads, and is fresh or holds plain attributes in its inline chunk alone.
  // all_inline() must hold, so that the copy allocates nothing (its caller could not undo a
  // failure, D93). What the copy overwrites is not cleared first: the one-slot dup of a handle
  // whose last object had the same attribute (a program's dup + free in a loop) writes its slot
  // and nothing else.
  MPIATTR_HOT void copy_plain_over(attr_store& to) const {
    if (count_ > kWholeInlineChunk || (to.inline_mask_ & ~inline_mask_) != 0) [[unlikely]]
      return copy_plain_over_rest(to);
    copy_plain_into(to);
  }
  // Removes every attribute at once; all_plain() must hold. No callback, no keyval count. Readers
  // that may overlap are fenced (the sequence counter), unless Fenced is false: below
  // MPI_THREAD_MULTIPLE, where none can.
  template <bool Fenced = true>
  MPIATTR_HOT void drop_plain() {
    if (!all_inline() || count_ > kWholeInlineChunk) [[unlikely]] return drop_plain_rest();
    if constexpr (Fenced) begin_write();
    for (std::uint64_t m = inline_mask_; m != 0; m &= m - 1) {
      const std::size_t i = static_cast<std::size_t>(__builtin_ctzll(m));
      std::memset(static_cast<void*>(first_chunk(i)), 0, sizeof(slot));
    }
    if constexpr (Fenced) end_write();
    inline_mask_ = 0;
    count_ = 0;
  }
  // Every attribute, newest first (the order MPI_Finalize deletes MPI_COMM_SELF's in, R10.1).
  std::vector<entry> snapshot_newest_first() const;
  // Whether an attribute is stored under keyval index `index` (requires mutex()).
  bool has(std::uint32_t index) const {
    const slot* s = existing(index);
    return s != nullptr && (s->tag.load(std::memory_order_relaxed) & kOriginMask) != 0;
  }
  // The home of the slot's word (valid while the slot holds a value).
  const aint* home(std::uint32_t index) const;
  std::uint32_t size() const { return count_; }
  // (freeing, the object is being freed: no new attributes (docs/decisions.md D9), is declared
  // with the other fields of the store's first line, below.)
  // Whether the store is empty and has never had storage beyond its inline chunk, so that it can
  // serve a new object as a fresh one would (copy_plain_into expects a fresh destination).
  bool reusable() const { return count_ == 0 && !cold_->beyond_inline; }
  // Whether the store has never had storage beyond its inline chunk (reusable() once emptied).
  bool inline_only() const { return !cold_->beyond_inline; }
  // Whether every attribute is in the inline chunk, whose occupied slots inline_mask_ lists (then
  // copy_plain_into allocates nothing).
  bool all_inline() const { return !has_far_; }

 private:
  static constexpr std::uint32_t kFewSlots = 8;  // up to this many, dup and free go slot by slot
  // Up to this many attributes in the inline chunk, dup and free visit its occupied slots; beyond,
  // they copy or clear the whole chunk (512 bytes: a few wide moves, against about ten
  // instructions per slot visited).
  static constexpr std::uint32_t kWholeInlineChunk = 6;
  void copy_plain_into_rest(attr_store& to) const;  // (copy_plain_into's other cases)
  void copy_first_chunk(attr_store& to) const;       // (its whole first chunk, hot and cold slots)
  void zero_first_chunk();                           // (the same, emptied; readers fenced by the caller)
  void copy_plain_over_rest(attr_store& to) const;   // (copy_plain_over's)
  void drop_plain_rest();
  static constexpr std::uint32_t kOriginMask = 3u;
  static constexpr std::uint32_t kDeleting = 4u;
  static constexpr std::uint32_t kCounted = 8u;  // entry::counted
  static constexpr std::uint32_t kFlagShift = 8;
  struct slot {
    std::atomic<aint> word{0};
    std::atomic<std::uint32_t> tag{0};  // origin in bits 0-1 (0: empty), kDeleting, flags << 8
    std::uint32_t seq = 0;
  };
  static_assert(sizeof(slot) == 16, "an attribute slot is 16 bytes");
  // The tag's low byte, plainly: for the fast gets below MPI_THREAD_MULTIPLE.
  static std::uint8_t low_tag(const slot* s) {
    static_assert((kOriginMask | kDeleting | kCounted) < 256 && kFlagShift >= 8);
    return reinterpret_cast<const std::uint8_t*>(&s->tag)[MPIATTR_BIG_ENDIAN ? sizeof(s->tag) - 1 : 0];
  }
  static entry entry_of(std::uint32_t index, const slot& s) {
    const std::uint32_t tag = s.tag.load(std::memory_order_relaxed);
    return entry{index, s.seq,
                 attribute_value(s.word.load(std::memory_order_relaxed), static_cast<origin>(tag & kOriginMask)),
                 (tag & kDeleting) != 0, static_cast<flags_t>(tag >> kFlagShift), (tag & kCounted) != 0};
  }
  void mark(slot* s) {
    const std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
    account(tag, tag | kCounted);
    s->tag.store(tag | kCounted, std::memory_order_relaxed);
  }
  struct directory {
    std::uint32_t nchunks;
    std::atomic<slot*> chunks[kInlineChunks];  // a heap directory has nchunks entries
  };
  static directory* new_directory(std::uint32_t nchunks);
  // Calls f(entry, slot&) for each attribute; stops once all count_ have been seen.
  template <typename F>
  void visit(F&& f) const {
    std::uint32_t left = count_;
    const directory* d = cold_->dir.load(std::memory_order_relaxed);
    for (std::uint32_t c = 0; left != 0 && c < d->nchunks; ++c) {
      slot* ch = c == 0 ? nullptr : d->chunks[c].load(std::memory_order_relaxed);
      if (c != 0 && ch == nullptr) continue;
      for (std::uint32_t i = 0; left != 0 && i < kChunk; ++i) {
        slot& s = c == 0 ? *first_chunk(i) : ch[i];
        std::uint32_t tag = s.tag.load(std::memory_order_relaxed);
        if (!(tag & kOriginMask)) continue;
        --left;
        f(entry_of(c * kChunk + i + kPredefinedIndices, s), s);
      }
    }
  }
  // Slot i (< kChunk) of the first chunk: in the hot part, or the cold part's.
  slot* first_chunk(std::uint32_t i) const {
    return i < kNear ? const_cast<slot*>(&near_[i]) : &cold_->rest[i - kNear];
  }
  // The slot for slot index i (keyval index - kPredefinedIndices) if its chunk exists (chunk 0 is
  // the store's own). A reader that may overlap a writer (inside read()'s sequence check) passes
  // memory_order_acquire: a chunk beyond the inline one is reached through the directory a writer
  // may replace. The fast paths below MPI_THREAD_MULTIPLE, and writers, pass relaxed.
  MPIATTR_HOT const slot* slot_at(std::uint32_t i, std::memory_order order) const {
    if (i < kNear) [[likely]] return &near_[i];
    const directory* d = cold_->dir.load(order);  // (chunks[0]: the cold part's slots, as chunk 0)
    if (i / kChunk >= d->nchunks) return nullptr;
    const slot* c = d->chunks[i / kChunk].load(order);
    return c ? c + i % kChunk : nullptr;
  }
  // slot_at for the unsynchronised reads of a keyval index beyond the hot part's slots (index >=
  // kPredefinedIndices + kNear: the cold part's slots are the directory's chunk 0, D125), without
  // slot_at's test of the hot part: the bound test takes the chunk count from memory, and the
  // directory's offset is the chunk load's displacement (through a plain pointer: indexing the
  // member array, GCC added 1 to the index).
  MPIATTR_HOT const slot* far_slot_unsynchronised(std::size_t index) const {
    const std::uint32_t i = static_cast<std::uint32_t>(index - kPredefinedIndices);
    const directory* d = cold_->dir.load(std::memory_order_relaxed);
    if (i / kChunk >= d->nchunks) return nullptr;
    const std::atomic<slot*>* chunks = d->chunks;
    const slot* c = chunks[i / kChunk].load(std::memory_order_relaxed);
    asm("" : : "r"(this));  // (the store's address kept past the directory's load: without it
                            // GCC gave the object `%rdx` in the C gets, moving attribute_val out
                            // of it with a `mov` at every entry, n = 1 included, D88)
    return c ? c + i % kChunk : nullptr;
  }
  slot* slot_for_write(std::uint32_t index);  // creates the chunk
  slot* existing(std::uint32_t index) const;
  void begin_write() {
    version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  void end_write() {
    version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  // Keeps inline_mask_ and the far count in step when slot index i becomes occupied (on) or empty.
  // (MPIATTR_HOT as account() below: left to GCC it stopped being inlined into the set paths once
  // the generated bindings grew, D107's file routines: 14 instructions a set + delete at
  // MPI_THREAD_MULTIPLE.)
  MPIATTR_HOT void occupy(std::uint32_t i, bool on) {
    if (i >= kChunk) [[unlikely]]
      occupy_far(on);
    else if (on)
      inline_mask_ |= 1u << i;
    else
      inline_mask_ &= ~(1u << i);
  }
  void occupy_far(bool on) {
    cold_->far += on ? 1u : ~0u;
    has_far_ = cold_->far != 0;
  }
  // Keeps unusual_ (occupied slots that are not plain, all_plain()) in step with a tag change.
  // (MPIATTR_HOT: on every store; left to GCC, they stopped being inlined into the set paths of
  // the generated bindings once that translation unit grew, D111: 17 instructions a set + delete.)
  MPIATTR_HOT static bool unusual(std::uint32_t tag) {
    return (tag & kOriginMask) != 0 &&
           ((tag & (kDeleting | kCounted)) != 0 || (tag >> kFlagShift) != attr_flags::copy_dup);
  }
  MPIATTR_HOT void account(std::uint32_t old_tag, std::uint32_t new_tag) {
    unusual_ += static_cast<std::uint32_t>(unusual(new_tag)) - static_cast<std::uint32_t>(unusual(old_tag));
  }
  // Writes a value into slot s (slot index i), whose tag was old_tag, keeping count_, inline_mask_
  // and unusual_ in step; a replaced value's reference on its keyval (kCounted) passes to the new
  // one. Every store of a value goes through here; readers are fenced (or not) by the caller.
  MPIATTR_HOT void store(slot* s, std::uint32_t i, std::uint32_t old_tag, attribute_value v, std::uint8_t flags,
                         std::uint32_t seq) {
    const std::uint32_t tag = static_cast<std::uint32_t>(v.how_written()) |
                              std::uint32_t{flags} << kFlagShift |
                              ((old_tag & kOriginMask) ? (old_tag & kCounted) : 0u);
    s->word.store(v.word(), std::memory_order_relaxed);
    s->tag.store(tag, std::memory_order_relaxed);
    s->seq = seq;
    if (old_tag & kOriginMask) [[likely]] {
      // A replacement: unusual_ changes only with the callback kinds or the marks, not with how
      // the value was written.
      if ((old_tag ^ tag) & ~kOriginMask) account(old_tag, tag);
      return;
    }
    ++count_;
    occupy(i, true);
    account(old_tag, tag);
  }

  // The store's first 16 bytes (docs/decisions.md D95): what a get or a set reads and writes, at any
  // thread level, besides its slot: the fields a set writes (next_seq_, and count_ for a new
  // attribute), the sequence counter and the lock (MPI_THREAD_MULTIPLE), freeing (which a set
  // reads); then the first kNear slots. In an object whose store begins 32 bytes past a line (host
  // mode's records, which are aligned to one: record.h), a get or set of an attribute under the
  // program's first keyval touches one line of the object, under its next four, two. (The class's
  // members are laid out in declaration order, whatever their access.)
  std::uint32_t count_ = 0;
  std::uint32_t next_seq_ = 1;
  std::atomic<std::uint32_t> version_{0};
  mutable sync::spinlock mu_;

 public:
  bool freeing = false;  // the object is being freed: no new attributes (docs/decisions.md D9)

 private:
  bool has_far_ = false;  // cold_->far != 0: an attribute lies beyond the first chunk
  slot near_[kNear];
  // The rest of the hot part: what a dup, a free or a new attribute reads besides the above.
  cold* cold_;
  std::uint32_t inline_mask_ = 0;  // bit i: the first chunk's slot i holds a value
  std::uint32_t unusual_ = 0;

 public:
  // The cold part (D125): the first chunk's other slots and what only an attribute beyond the
  // first chunk, a new chunk or the store's end reads. It owns the chunks and directories.
  struct cold {
    slot rest[kChunk - kNear];
    std::uint32_t far = 0;        // attributes outside the first chunk
    bool beyond_inline = false;   // a chunk or directory beyond the store's own was ever allocated
    // chunks[0] is rest - kNear (chunk0()): slot i of it, kNear <= i < kChunk, is rest[i - kNear];
    // slots below kNear are the hot part's, never reached through it.
    std::atomic<directory*> dir;
    void* block = nullptr;        // chunks a wholesale copy allocated together (copy_plain_into)
    std::size_t block_bytes = 0;
    std::vector<directory*> retired;
    directory inline_dir;
    cold();
    cold(const cold&) = delete;
    ~cold() {
      if (beyond_inline) free_beyond();
    }
    void release();  // frees what it owns, leaving it as constructed
    slot* chunk0() { return reinterpret_cast<slot*>(reinterpret_cast<std::uintptr_t>(rest) - kNear * sizeof(slot)); }
   private:
    void free_beyond();  // frees the chunks and directories beyond the store's own
    void use_inline_dir();  // the directory: inline_dir, naming the cold slots as chunk 0
  };
  // The hot part: this store and whatever of its object precedes it in one run of memory.
  static constexpr std::size_t kHotBytes = 96;
  // Whether the fields above and the first slot lie in one cache line of this store, and the rest of
  // the hot part in the next (tests: record_layout).
  bool hot_line_holds() const {
    const auto line = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) / kLine; };
    const auto last = [](const void* end) { return (reinterpret_cast<std::uintptr_t>(end) - 1) / kLine; };
    return line(&count_) == last(&near_[1]) && static_cast<const void*>(&count_) == this &&
           line(&next_seq_) == line(&count_) && line(&version_) == line(&count_) && line(&mu_) == line(&count_) &&
           line(&freeing) == line(&count_) && last(&unusual_ + 1) <= line(&count_) + 1;
  }
};
static_assert(sizeof(attr_store) == attr_store::kHotBytes, "the store's hot part is 96 bytes (D125)");

}  // namespace mpiattr
