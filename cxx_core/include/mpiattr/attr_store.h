// mpiattr/attr_store.h: the attributes cached on one communicator, window or datatype.
//
// Slots are indexed by the keyval's index (keyval.h), 16 bytes each, in chunks of 32 that never
// move; a small directory of chunk pointers grows by replacement (old directories are kept until
// the store dies, so a reader never touches freed memory). A get therefore costs a few dependent
// loads whatever the number of attributes, allocates nothing and performs no read-modify-write:
// readers use the store's sequence counter (a seqlock) to see a value and its origin together,
// while writers serialise on the store's mutex. User callbacks never run under that mutex (R11.1).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "mpiattr/attribute_value.h"

namespace mpiattr {

// What a get found: the value, and where it lives (for the pointers C gets, R7.3).
struct attr_read {
  bool found = false;
  attribute_value value;
  const aint* home = nullptr;
  void* as_c() const {
    return value.how_written() == origin::c_address ? reinterpret_cast<void*>(value.word())
                                                    : attribute_value::as_c(value.how_written(), home);
  }
};

class attr_store {
 public:
  static constexpr std::uint32_t kChunk = 32;

  attr_store() = default;
  attr_store(const attr_store&) = delete;
  ~attr_store();

  // Lock-free read of slot `index`.
  MPIATTR_HOT bool read(std::uint32_t index, attr_read* out) const {
    for (;;) {
      std::uint32_t v1 = version_.load(std::memory_order_acquire);
      if (v1 & 1u) continue;  // a writer is mid-update
      const directory* d = dir_.load(std::memory_order_acquire);
      bool found = false;
      if (d != nullptr && (index / kChunk) < d->nchunks) {
        const slot* c = d->chunks[index / kChunk].load(std::memory_order_acquire);
        if (c != nullptr) {
          const slot& s = c[index % kChunk];
          std::uint32_t tag = s.tag.load(std::memory_order_relaxed);
          if (tag & kOriginMask) {
            out->value = attribute_value(s.word.load(std::memory_order_relaxed),
                                         static_cast<origin>(tag & kOriginMask));
            out->home = reinterpret_cast<const aint*>(&s.word);
            found = true;
          }
        }
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      if (version_.load(std::memory_order_relaxed) == v1) {
        out->found = found;
        return found;
      }
    }
  }

  // ---- everything below requires holding mutex() ----
  std::mutex& mutex() const { return mu_; }

  struct entry {
    std::uint32_t index;
    std::uint32_t seq;
    attribute_value value;
    bool deleting;
  };
  // The slot's state; false when empty.
  bool peek(std::uint32_t index, entry* e) const;
  // Stores a value (new or replacing), making it the most recently set (R10.1).
  void put(std::uint32_t index, attribute_value v);
  // Stores a value with a given sequence number (copies made by dup keep their order).
  void put_with_seq(std::uint32_t index, attribute_value v, std::uint32_t seq);
  void set_deleting(std::uint32_t index, bool on);
  void erase(std::uint32_t index);
  // Calls f(entry) for every attribute, in keyval-index order.
  template <typename F>
  void for_each(F&& f) const {
    const directory* d = dir_.load(std::memory_order_relaxed);
    if (d == nullptr) return;
    for (std::uint32_t c = 0; c < d->nchunks; ++c) {
      const slot* ch = d->chunks[c].load(std::memory_order_relaxed);
      if (ch == nullptr) continue;
      for (std::uint32_t i = 0; i < kChunk; ++i) {
        std::uint32_t tag = ch[i].tag.load(std::memory_order_relaxed);
        if (tag & kOriginMask)
          f(entry{c * kChunk + i, ch[i].seq,
                  attribute_value(ch[i].word.load(std::memory_order_relaxed), static_cast<origin>(tag & kOriginMask)),
                  (tag & kDeleting) != 0});
      }
    }
  }
  // Stores into an object no other thread can see yet (a dup in progress): no reader to fence.
  void put_private(std::uint32_t index, attribute_value v, std::uint32_t seq);
  // Removes every attribute at once (their delete callbacks are known to do nothing).
  void clear();
  // Every attribute, newest first (the order MPI_Finalize deletes MPI_COMM_SELF's in, R10.1).
  std::vector<entry> snapshot_newest_first() const;
  // The home of slot `index`'s word (valid while the slot holds a value).
  const aint* home(std::uint32_t index) const;
  std::uint32_t size() const { return count_; }
  std::uint32_t next_seq() const { return next_seq_; }
  bool freeing = false;  // the object is being freed: no new attributes (docs/decisions.md)

 private:
  static constexpr std::uint32_t kOriginMask = 3u;
  static constexpr std::uint32_t kDeleting = 4u;
  struct slot {
    std::atomic<aint> word{0};
    std::atomic<std::uint32_t> tag{0};  // origin in bits 0-1 (0: empty), kDeleting
    std::uint32_t seq = 0;
  };
  static_assert(sizeof(slot) == 16, "an attribute slot is 16 bytes");
  struct directory {
    std::uint32_t nchunks;
    std::atomic<slot*> chunks[1];  // really nchunks entries
  };
  static directory* new_directory(std::uint32_t nchunks);
  slot* slot_for_write(std::uint32_t index);  // creates the chunk
  slot* existing(std::uint32_t index) const;
  void begin_write() { version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); std::atomic_thread_fence(std::memory_order_release); }
  void end_write() { version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }

  std::atomic<directory*> dir_{nullptr};
  std::atomic<std::uint32_t> version_{0};
  mutable std::mutex mu_;
  std::uint32_t count_ = 0;
  std::uint32_t next_seq_ = 1;
  std::vector<directory*> retired_;
};

}  // namespace mpiattr
