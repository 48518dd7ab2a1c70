// The per-object attribute slots (attr_store.h).
#include "mpiattr/attr_store.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace mpiattr {

attr_store::directory* attr_store::new_directory(std::uint32_t nchunks) {
  std::size_t extra = nchunks > kInlineChunks ? nchunks - kInlineChunks : 0;
  void* mem = std::malloc(sizeof(directory) + extra * sizeof(std::atomic<slot*>));
  if (mem == nullptr) throw std::bad_alloc();
  auto* d = static_cast<directory*>(mem);
  d->nchunks = nchunks;
  for (std::uint32_t i = 0; i < nchunks; ++i) new (&d->chunks[i]) std::atomic<slot*>(nullptr);
  return d;
}

attr_store::attr_store() : dir_(&inline_dir_) {
  inline_dir_.nchunks = kInlineChunks;
  inline_dir_.chunks[0].store(inline_chunk_, std::memory_order_relaxed);
  for (std::uint32_t i = 1; i < kInlineChunks; ++i) inline_dir_.chunks[i].store(nullptr, std::memory_order_relaxed);
}

attr_store::~attr_store() {
  directory* d = dir_.load(std::memory_order_relaxed);
  for (std::uint32_t i = 0; i < d->nchunks; ++i) {
    slot* c = d->chunks[i].load(std::memory_order_relaxed);
    if (c != inline_chunk_) delete[] c;
  }
  if (d != &inline_dir_) std::free(d);
  for (directory* r : retired_) std::free(r);
}

attr_store::slot* attr_store::existing(std::uint32_t index) const {
  std::uint32_t i = index - kPredefinedIndices;
  directory* d = dir_.load(std::memory_order_relaxed);
  if (i / kChunk >= d->nchunks) return nullptr;
  slot* c = d->chunks[i / kChunk].load(std::memory_order_relaxed);
  return c ? &c[i % kChunk] : nullptr;
}

attr_store::slot* attr_store::slot_for_write(std::uint32_t index) {
  std::uint32_t i = index - kPredefinedIndices;
  std::uint32_t need = i / kChunk + 1;
  directory* d = dir_.load(std::memory_order_relaxed);
  if (d->nchunks < need) {
    directory* nd = new_directory(std::max(need, d->nchunks * 2));
    for (std::uint32_t c = 0; c < d->nchunks; ++c)
      nd->chunks[c].store(d->chunks[c].load(std::memory_order_relaxed), std::memory_order_relaxed);
    dir_.store(nd, std::memory_order_release);
    if (d != &inline_dir_) retired_.push_back(d);  // a reader may still be looking at it
    d = nd;
  }
  slot* c = d->chunks[i / kChunk].load(std::memory_order_relaxed);
  if (c == nullptr) {
    c = new slot[kChunk];
    d->chunks[i / kChunk].store(c, std::memory_order_release);
  }
  return &c[i % kChunk];
}

bool attr_store::peek(std::uint32_t index, entry* e) const {
  slot* s = existing(index);
  if (s == nullptr) return false;
  std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  if (!(tag & kOriginMask)) return false;
  *e = entry{index, s->seq,
             attribute_value(s->word.load(std::memory_order_relaxed), static_cast<origin>(tag & kOriginMask)),
             (tag & kDeleting) != 0, static_cast<flags_t>(tag >> kFlagShift)};
  return true;
}

const aint* attr_store::home(std::uint32_t index) const {
  slot* s = existing(index);
  return s ? reinterpret_cast<const aint*>(&s->word) : nullptr;
}

void attr_store::put(std::uint32_t index, attribute_value v, flags_t flags) {
  slot* s = slot_for_write(index);
  bool was_empty = !(s->tag.load(std::memory_order_relaxed) & kOriginMask);
  begin_write();
  s->word.store(v.word(), std::memory_order_relaxed);
  s->tag.store(static_cast<std::uint32_t>(v.how_written()) | std::uint32_t{flags} << kFlagShift,
               std::memory_order_relaxed);
  s->seq = next_seq_++;
  end_write();
  if (was_empty) ++count_;
}

attr_store::put_result attr_store::try_put(std::uint32_t index, attribute_value v, flags_t flags,
                                           flags_t needs_callback) {
  slot* s = slot_for_write(index);
  std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  bool was_empty = !(tag & kOriginMask);
  if (!was_empty) {
    if (tag & kDeleting) return put_result::deleting;
    if ((tag >> kFlagShift) & needs_callback) return put_result::needs_callback;
  }
  begin_write();
  s->word.store(v.word(), std::memory_order_relaxed);
  s->tag.store(static_cast<std::uint32_t>(v.how_written()) | std::uint32_t{flags} << kFlagShift,
               std::memory_order_relaxed);
  s->seq = next_seq_++;
  end_write();
  if (was_empty) ++count_;
  return was_empty ? put_result::added : put_result::replaced;
}

void attr_store::put_private(std::uint32_t index, attribute_value v, std::uint32_t seq,
                             flags_t flags) {
  slot* s = slot_for_write(index);
  if (!(s->tag.load(std::memory_order_relaxed) & kOriginMask)) ++count_;
  s->word.store(v.word(), std::memory_order_relaxed);
  s->tag.store(static_cast<std::uint32_t>(v.how_written()) | std::uint32_t{flags} << kFlagShift,
               std::memory_order_relaxed);
  s->seq = seq;
  if (seq >= next_seq_) next_seq_ = seq + 1;
}

void attr_store::set_deleting(std::uint32_t index, bool on) {
  slot* s = existing(index);
  std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  s->tag.store(on ? (tag | kDeleting) : (tag & ~kDeleting), std::memory_order_relaxed);
}

void attr_store::erase(std::uint32_t index) {
  slot* s = existing(index);
  if (s == nullptr || !(s->tag.load(std::memory_order_relaxed) & kOriginMask)) return;
  begin_write();
  s->tag.store(0, std::memory_order_relaxed);
  s->word.store(0, std::memory_order_relaxed);
  end_write();
  --count_;
}

std::vector<attr_store::entry> attr_store::snapshot_newest_first() const {
  std::vector<entry> out;
  out.reserve(count_);
  for_each([&](const entry& e) { out.push_back(e); });
  std::sort(out.begin(), out.end(), [](const entry& a, const entry& b) { return a.seq > b.seq; });
  return out;
}

}  // namespace mpiattr
