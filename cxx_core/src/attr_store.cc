// The per-object attribute slots (attr_store.h).
#include "mpiattr/attr_store.h"

#include "mpiattr/alloc.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace mpiattr {

attr_store::directory* attr_store::new_directory(std::uint32_t nchunks) {
  std::size_t extra = nchunks > kInlineChunks ? nchunks - kInlineChunks : 0;
  void* mem = alloc::bytes(sizeof(directory) + extra * sizeof(std::atomic<slot*>));
  if (mem == nullptr) throw std::bad_alloc();
  auto* d = static_cast<directory*>(mem);
  d->nchunks = nchunks;
  for (std::uint32_t i = 0; i < nchunks; ++i) new (&d->chunks[i]) std::atomic<slot*>(nullptr);
  return d;
}

attr_store::cold::cold() : dir(&inline_dir) { use_inline_dir(); }

void attr_store::cold::use_inline_dir() {
  inline_dir.nchunks = kInlineChunks;
  inline_dir.chunks[0].store(chunk0(), std::memory_order_relaxed);
  for (std::uint32_t i = 1; i < kInlineChunks; ++i) inline_dir.chunks[i].store(nullptr, std::memory_order_relaxed);
  dir.store(&inline_dir, std::memory_order_relaxed);
}

void attr_store::cold::free_beyond() {
  directory* d = dir.load(std::memory_order_relaxed);
  const char* b = static_cast<const char*>(block);
  for (std::uint32_t i = 1; i < d->nchunks; ++i) {
    slot* c = d->chunks[i].load(std::memory_order_relaxed);
    const char* a = reinterpret_cast<const char*>(c);
    if (!(b && a >= b && a < b + block_bytes)) delete[] c;
  }
  std::free(block);
  if (d != &inline_dir) std::free(d);
  for (directory* r : retired) std::free(r);
}

void attr_store::cold::release() {
  if (beyond_inline) free_beyond();
  std::vector<directory*>().swap(retired);
  for (slot& s : rest) {
    s.word.store(0, std::memory_order_relaxed);
    s.tag.store(0, std::memory_order_relaxed);
    s.seq = 0;
  }
  far = 0;
  beyond_inline = false;
  block = nullptr;
  block_bytes = 0;
  use_inline_dir();
}

void attr_store::reset() {
  cold_->release();
  count_ = 0;
  next_seq_ = 1;
  version_.store(0, std::memory_order_relaxed);
  freeing = false;
  has_far_ = false;
  std::memset(static_cast<void*>(near_), 0, sizeof near_);
  inline_mask_ = 0;
  unusual_ = 0;
}

attr_store::slot* attr_store::existing(std::uint32_t index) const {
  return const_cast<slot*>(slot_at(index - kPredefinedIndices, std::memory_order_relaxed));
}

attr_store::slot* attr_store::slot_for_write(std::uint32_t index) {
  std::uint32_t i = index - kPredefinedIndices;
  if (i < kChunk) return first_chunk(i);
  std::uint32_t need = i / kChunk + 1;
  cold& k = *cold_;
  directory* d = k.dir.load(std::memory_order_relaxed);
  if (d->nchunks < need) {
    // Every allocation comes before the first change, so that one that fails changes nothing (D61).
    if (d != &k.inline_dir) k.retired.reserve(k.retired.size() + 1);
    directory* nd = new_directory(std::max(need, d->nchunks * 2));
    k.beyond_inline = true;
    for (std::uint32_t c = 0; c < d->nchunks; ++c)
      nd->chunks[c].store(d->chunks[c].load(std::memory_order_relaxed), std::memory_order_relaxed);
    k.dir.store(nd, std::memory_order_release);
    if (d != &k.inline_dir) k.retired.push_back(d);  // a reader may still be looking at it
    d = nd;
  }
  slot* c = d->chunks[i / kChunk].load(std::memory_order_relaxed);
  if (c == nullptr) {
    c = new slot[kChunk];
    k.beyond_inline = true;
    d->chunks[i / kChunk].store(c, std::memory_order_release);
  }
  return &c[i % kChunk];
}

bool attr_store::peek(std::uint32_t index, entry* e) const {
  slot* s = existing(index);
  if (s == nullptr) return false;
  if (!(s->tag.load(std::memory_order_relaxed) & kOriginMask)) return false;
  *e = entry_of(index, *s);
  return true;
}

const aint* attr_store::home(std::uint32_t index) const {
  slot* s = existing(index);
  return s ? reinterpret_cast<const aint*>(&s->word) : nullptr;
}

void attr_store::put(std::uint32_t index, attribute_value v, flags_t flags) {
  slot* s = slot_for_write(index);
  const std::uint32_t old_tag = s->tag.load(std::memory_order_relaxed);
  begin_write();
  store(s, index - kPredefinedIndices, old_tag, v, flags, next_seq_++);
  end_write();
}

attr_store::put_result attr_store::try_put(std::uint32_t index, attribute_value v, flags_t flags,
                                           flags_t needs_callback) {
  slot* s = slot_for_write(index);
  const std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  const bool was_empty = !(tag & kOriginMask);
  if (!was_empty) {
    if (tag & kDeleting) return put_result::deleting;
    if ((tag >> kFlagShift) & needs_callback) return put_result::needs_callback;
  }
  begin_write();
  store(s, index - kPredefinedIndices, tag, v, flags, next_seq_++);
  end_write();
  return was_empty ? put_result::added : put_result::replaced;
}

void attr_store::put_private(std::uint32_t index, attribute_value v, std::uint32_t seq,
                             flags_t flags, bool counted) {
  slot* s = slot_for_write(index);
  store(s, index - kPredefinedIndices, s->tag.load(std::memory_order_relaxed), v, flags, seq);
  if (counted) mark(s);
  if (seq >= next_seq_) next_seq_ = seq + 1;
}

void attr_store::set_deleting(std::uint32_t index, bool on) {
  slot* s = existing(index);
  std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  const std::uint32_t new_tag = on ? (tag | kDeleting) : (tag & ~kDeleting);
  account(tag, new_tag);
  s->tag.store(new_tag, std::memory_order_relaxed);
}

bool attr_store::erase(std::uint32_t index) {
  slot* s = existing(index);
  if (s == nullptr || !(s->tag.load(std::memory_order_relaxed) & kOriginMask)) return false;
  const std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  account(tag, 0);
  begin_write();
  s->tag.store(0, std::memory_order_relaxed);
  s->word.store(0, std::memory_order_relaxed);
  end_write();
  --count_;
  occupy(index - kPredefinedIndices, false);
  return (tag & kCounted) != 0;
}

void attr_store::copy_plain_into_rest(attr_store& to) const {
  if (all_inline() && count_ > kWholeInlineChunk) {
    // (`to` is fresh: its empty slots are zero, as the ones copied here.)
    copy_first_chunk(to);
    to.inline_mask_ = inline_mask_;
    to.count_ = count_;
    to.unusual_ = 0;
    if (next_seq_ > to.next_seq_) to.next_seq_ = next_seq_;
    return;
  }
  if (count_ <= kFewSlots) {  // a few attributes: slot by slot beats copying whole chunks
    copy_into(to, [](const entry&) { return pick::copy; });
    return;
  }
  const directory* d = cold_->dir.load(std::memory_order_relaxed);
  std::uint32_t last = 0;  // chunks beyond the inline one that hold something
  for (std::uint32_t c = 1; c < d->nchunks; ++c)
    if (d->chunks[c].load(std::memory_order_relaxed) != nullptr) last = c;
  if (last != 0) {
    // One allocation for all of them (freed by the destructor as one block). Both allocations come
    // before `to` changes, so that one that fails leaves it empty (D61).
    std::uint32_t n = 0;
    for (std::uint32_t c = 1; c <= last; ++c) n += d->chunks[c].load(std::memory_order_relaxed) != nullptr;
    const std::size_t bytes = std::size_t{n} * sizeof(slot) * kChunk;
    void* block = alloc::bytes(bytes);
    if (block == nullptr) throw std::bad_alloc();
    cold& tk = *to.cold_;
    directory* nd = &tk.inline_dir;
    if (last >= kInlineChunks) {
      try {
        nd = new_directory(last + 1);
      } catch (...) {
        std::free(block);
        throw;
      }
    }
    tk.block = block;
    tk.block_bytes = bytes;
    tk.beyond_inline = true;
    copy_first_chunk(to);
    if (nd != &tk.inline_dir) {
      nd->chunks[0].store(tk.chunk0(), std::memory_order_relaxed);
      tk.dir.store(nd, std::memory_order_relaxed);
    }
    slot* next = static_cast<slot*>(tk.block);
    for (std::uint32_t c = 1; c <= last; ++c) {
      const slot* src = d->chunks[c].load(std::memory_order_relaxed);
      if (src == nullptr) continue;
      std::memcpy(static_cast<void*>(next), src, sizeof(slot) * kChunk);
      nd->chunks[c].store(next, std::memory_order_relaxed);
      next += kChunk;
    }
  } else {
    copy_first_chunk(to);
  }
  to.count_ = count_;
  to.inline_mask_ = inline_mask_;
  to.cold_->far = cold_->far;
  to.has_far_ = has_far_;
  to.unusual_ = 0;
  if (next_seq_ > to.next_seq_) to.next_seq_ = next_seq_;
}

void attr_store::copy_first_chunk(attr_store& to) const {
  std::memcpy(static_cast<void*>(to.near_), near_, sizeof near_);
  std::memcpy(static_cast<void*>(to.cold_->rest), cold_->rest, sizeof cold_->rest);
}

void attr_store::zero_first_chunk() {
  std::memset(static_cast<void*>(near_), 0, sizeof near_);
  std::memset(static_cast<void*>(cold_->rest), 0, sizeof cold_->rest);
}

void attr_store::copy_plain_over_rest(attr_store& to) const {
  // A whole inline chunk copied overwrites every slot `to` can hold (its attributes are all in
  // its inline chunk, as this store's are); a copy slot by slot expects a fresh destination.
  if (to.count_ != 0 && count_ <= kWholeInlineChunk) to.drop_plain<false>();
  copy_plain_into(to);
}

void attr_store::drop_plain_rest() {
  if (all_inline() && count_ > kWholeInlineChunk) {
    begin_write();
    zero_first_chunk();
    end_write();
    inline_mask_ = 0;
    count_ = 0;
    return;
  }
  if (count_ <= kFewSlots) {
    clear([](const entry&) {});
    return;
  }
  begin_write();
  zero_first_chunk();
  const directory* d = cold_->dir.load(std::memory_order_relaxed);
  for (std::uint32_t c = 1; c < d->nchunks; ++c)
    if (slot* ch = d->chunks[c].load(std::memory_order_relaxed))
      std::memset(static_cast<void*>(ch), 0, sizeof(slot) * kChunk);
  end_write();
  count_ = 0;
  inline_mask_ = 0;
  cold_->far = 0;
  has_far_ = false;
}

void attr_store::reserve_like(const attr_store& from) {
  const directory* d = from.cold_->dir.load(std::memory_order_relaxed);
  for (std::uint32_t c = d->nchunks; c-- > 1;)  // the largest first: the directory grows once
    if (d->chunks[c].load(std::memory_order_relaxed) != nullptr) slot_for_write(c * kChunk + kPredefinedIndices);
}

std::vector<attr_store::entry> attr_store::snapshot_newest_first() const {
  std::vector<entry> out;
  out.reserve(count_);
  for_each([&](const entry& e) { out.push_back(e); });
  std::sort(out.begin(), out.end(), [](const entry& a, const entry& b) { return a.seq > b.seq; });
  return out;
}

}  // namespace mpiattr
