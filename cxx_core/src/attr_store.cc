// The per-object attribute slots (attr_store.h).
#include "mpiattr/attr_store.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace mpiattr {

attr_store::directory* attr_store::new_directory(std::uint32_t nchunks) {
  std::size_t bytes = sizeof(directory) + (nchunks - 1) * sizeof(std::atomic<slot*>);
  void* mem = std::malloc(bytes);
  if (mem == nullptr) throw std::bad_alloc();
  auto* d = static_cast<directory*>(mem);
  d->nchunks = nchunks;
  for (std::uint32_t i = 0; i < nchunks; ++i) new (&d->chunks[i]) std::atomic<slot*>(nullptr);
  return d;
}

attr_store::~attr_store() {
  directory* d = dir_.load(std::memory_order_relaxed);
  if (d) {
    for (std::uint32_t i = 0; i < d->nchunks; ++i) delete[] d->chunks[i].load(std::memory_order_relaxed);
    std::free(d);
  }
  for (directory* r : retired_) std::free(r);
}

attr_store::slot* attr_store::existing(std::uint32_t index) const {
  directory* d = dir_.load(std::memory_order_relaxed);
  if (d == nullptr || index / kChunk >= d->nchunks) return nullptr;
  slot* c = d->chunks[index / kChunk].load(std::memory_order_relaxed);
  return c ? &c[index % kChunk] : nullptr;
}

attr_store::slot* attr_store::slot_for_write(std::uint32_t index) {
  std::uint32_t need = index / kChunk + 1;
  directory* d = dir_.load(std::memory_order_relaxed);
  if (d == nullptr || d->nchunks < need) {
    std::uint32_t n = d ? d->nchunks : 0;
    std::uint32_t grown = std::max({need, n * 2, 2u});
    directory* nd = new_directory(grown);
    for (std::uint32_t i = 0; i < n; ++i)
      nd->chunks[i].store(d->chunks[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
    dir_.store(nd, std::memory_order_release);
    if (d) retired_.push_back(d);  // a reader may still be looking at it
    d = nd;
  }
  slot* c = d->chunks[index / kChunk].load(std::memory_order_relaxed);
  if (c == nullptr) {
    c = new slot[kChunk];
    d->chunks[index / kChunk].store(c, std::memory_order_release);
  }
  return &c[index % kChunk];
}

bool attr_store::peek(std::uint32_t index, entry* e) const {
  slot* s = existing(index);
  if (s == nullptr) return false;
  std::uint32_t tag = s->tag.load(std::memory_order_relaxed);
  if (!(tag & kOriginMask)) return false;
  *e = entry{index, s->seq,
             attribute_value(s->word.load(std::memory_order_relaxed), static_cast<origin>(tag & kOriginMask)),
             (tag & kDeleting) != 0};
  return true;
}

const aint* attr_store::home(std::uint32_t index) const {
  slot* s = existing(index);
  return s ? reinterpret_cast<const aint*>(&s->word) : nullptr;
}

void attr_store::put(std::uint32_t index, attribute_value v) { put_with_seq(index, v, next_seq_++); }

void attr_store::put_with_seq(std::uint32_t index, attribute_value v, std::uint32_t seq) {
  slot* s = slot_for_write(index);
  bool was_empty = !(s->tag.load(std::memory_order_relaxed) & kOriginMask);
  begin_write();
  s->word.store(v.word(), std::memory_order_relaxed);
  s->tag.store(static_cast<std::uint32_t>(v.how_written()), std::memory_order_relaxed);
  s->seq = seq;
  end_write();
  if (was_empty) ++count_;
  if (seq >= next_seq_) next_seq_ = seq + 1;
}

void attr_store::put_private(std::uint32_t index, attribute_value v, std::uint32_t seq) {
  slot* s = slot_for_write(index);
  if (!(s->tag.load(std::memory_order_relaxed) & kOriginMask)) ++count_;
  s->word.store(v.word(), std::memory_order_relaxed);
  s->tag.store(static_cast<std::uint32_t>(v.how_written()), std::memory_order_relaxed);
  s->seq = seq;
  if (seq >= next_seq_) next_seq_ = seq + 1;
}

void attr_store::clear() {
  directory* d = dir_.load(std::memory_order_relaxed);
  if (d == nullptr) return;
  begin_write();
  for (std::uint32_t c = 0; c < d->nchunks; ++c) {
    slot* ch = d->chunks[c].load(std::memory_order_relaxed);
    if (ch == nullptr) continue;
    for (std::uint32_t i = 0; i < kChunk; ++i) {
      ch[i].tag.store(0, std::memory_order_relaxed);
      ch[i].word.store(0, std::memory_order_relaxed);
    }
  }
  end_write();
  count_ = 0;
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
  directory* d = dir_.load(std::memory_order_relaxed);
  if (d == nullptr) return out;
  for (std::uint32_t c = 0; c < d->nchunks; ++c) {
    slot* ch = d->chunks[c].load(std::memory_order_relaxed);
    if (ch == nullptr) continue;
    for (std::uint32_t i = 0; i < kChunk; ++i) {
      std::uint32_t tag = ch[i].tag.load(std::memory_order_relaxed);
      if (tag & kOriginMask)
        out.push_back({c * kChunk + i, ch[i].seq,
                       attribute_value(ch[i].word.load(std::memory_order_relaxed),
                                       static_cast<origin>(tag & kOriginMask)),
                       (tag & kDeleting) != 0});
    }
  }
  std::sort(out.begin(), out.end(), [](const entry& a, const entry& b) { return a.seq > b.seq; });
  return out;
}

}  // namespace mpiattr
