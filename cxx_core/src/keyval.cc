// Keyval records and their reference counts (keyval.h).
#include "mpiattr/keyval.h"

namespace mpiattr {
namespace {
std::atomic<const language_binding*> g_bindings[kLanguages];
}

void predefined_set::build() const {
  std::lock_guard lock(build_mu_);
  if (built_.load(std::memory_order_relaxed)) return;
  lo_ = UINTPTR_MAX;
  for (std::size_t i = 0; i < *count_; ++i) {
    auto a = reinterpret_cast<std::uintptr_t>(table_[i].fn);
    lo_ = a < lo_ ? a : lo_;
    hi_ = a > hi_ ? a : hi_;
    std::size_t b = bucket(a);
    while (buckets_[b] != nullptr) b = (b + 1) % kBuckets;
    buckets_[b] = &table_[i];
  }
  built_.store(true, std::memory_order_release);
}

inline const predefined_callback* predefined_set::find(fnptr fn) const {
  if (!built_.load(std::memory_order_acquire)) build();
  auto a = reinterpret_cast<std::uintptr_t>(fn);
  // A user's function lies outside the range (usually in another object file): two compares.
  if (a < lo_ || a > hi_) return nullptr;
  for (std::size_t b = bucket(a); buckets_[b] != nullptr; b = (b + 1) % kBuckets)
    if (buckets_[b]->fn == fn) return buckets_[b];
  return nullptr;
}

copy_behaviour predefined_set::classify_copy(fnptr fn) const {
  if (fn == nullptr) return copy_behaviour::null_copy;
  const predefined_callback* p = find(fn);
  if (p == nullptr) return copy_behaviour::user;
  return p->behaviour == predefined_callback::dup ? copy_behaviour::dup
         : p->behaviour == predefined_callback::null_copy ? copy_behaviour::null_copy
                                                            : copy_behaviour::user;
}

delete_behaviour predefined_set::classify_delete(fnptr fn) const {
  if (fn == nullptr) return delete_behaviour::null_delete;
  const predefined_callback* p = find(fn);
  return (p && p->behaviour == predefined_callback::null_delete) ? delete_behaviour::null_delete
                                                                 : delete_behaviour::user;
}

void register_language(language lang, const language_binding* binding) {
  g_bindings[static_cast<int>(lang)].store(binding, std::memory_order_release);
}
const language_binding* binding_for(language lang) {
  return g_bindings[static_cast<int>(lang)].load(std::memory_order_acquire);
}

constinit never_destroyed<keyval_registry> g_keyvals;

namespace sync {
constinit bool g_concurrent = true;
void set_concurrent(bool on) { g_concurrent = on; }
}  // namespace sync

keyval_registry::~keyval_registry() {
  for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
}

keyval_record* keyval_registry::find_referenced(int keyval) const {
  std::uint32_t i = index_of(keyval);
  keyval_record* r = i ? at(i) : nullptr;
  if (r == nullptr) return nullptr;
  std::lock_guard lock(mu_);  // handle and refs change together under mu_ on recycle
  return (r->handle == keyval && r->refs.load(std::memory_order_acquire) > 0) ? r : nullptr;
}

void keyval_registry::define_predefined(int keyval, object_kind kind) {
  {
    std::lock_guard lock(mu_);
    if (chunks_[0].load(std::memory_order_relaxed) == nullptr)
      chunks_[0].store(new keyval_record[kChunkSize], std::memory_order_release);
  }
  keyval_record* r = at(index_of(keyval));
  r->handle = keyval;
  r->kind = kind;
  r->predefined = true;
  r->refs.store(1, std::memory_order_relaxed);
  r->live_handle.store(keyval, std::memory_order_release);
}

status keyval_registry::create(object_kind kind, const callbacks& cbs, int* keyval) {
  std::lock_guard lock(mu_);
  std::uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    if (next_ >= kMaxIndex)
      return fail(MPI_ERR_KEYVAL, "all %u keyvals are in use", kMaxIndex - kFirstUserIndex);
    i = next_++;
    auto& chunk = chunks_[i >> kChunkBits];
    if (chunk.load(std::memory_order_relaxed) == nullptr)
      chunk.store(new keyval_record[kChunkSize], std::memory_order_release);
  }
  keyval_record* r = at(i);
  r->gen = (r->gen + 1) & 0x3FFu;
  r->handle = static_cast<int>(0x40000000u | r->gen << 20 | i);
  r->kind = kind;
  r->predefined = false;
  r->cbs = cbs;
  r->refs.store(1, std::memory_order_relaxed);
  r->live_handle.store(r->handle, std::memory_order_release);
  set_hot(i, static_cast<std::uint32_t>(r->handle), kind, flags_of(cbs));
  *keyval = r->handle;
  return status::ok();
}

status keyval_registry::free(object_kind kind, int* keyval, const char* kind_label) {
  int k = *keyval;
  keyval_record* r = find_live(k);
  if (r == nullptr) {
    if (k == 0) return fail(MPI_ERR_KEYVAL, "keyval is MPI_KEYVAL_INVALID");
    if (was_issued(k))
      return fail(MPI_ERR_KEYVAL, "keyval 0x%x has been freed already (R2.1)", static_cast<unsigned>(k));
    return fail(MPI_ERR_KEYVAL, "%d (0x%x) is not a keyval", k, static_cast<unsigned>(k));
  }
  if (r->predefined)
    return fail(MPI_ERR_KEYVAL, "keyval %d is predefined and cannot be freed (R8.1)", k);
  if (r->kind != kind)
    return fail(MPI_ERR_KEYVAL, "keyval 0x%x was created for %ss, not %ss",
                static_cast<unsigned>(k), kind_name(r->kind), kind_label);
  int expected = k;
  if (!sync::compare_exchange(r->live_handle, expected, 0))
    return fail(MPI_ERR_KEYVAL, "keyval 0x%x was freed concurrently", static_cast<unsigned>(k));
  hot_[index_of(k)] = hot_entry{};
  release(r);
  *keyval = 0;  // MPI_KEYVAL_INVALID (R2.1)
  return status::ok();
}

bool keyval_registry::was_issued(int keyval) const {
  if ((keyval & 0xC0000000) != 0x40000000) return false;
  std::uint32_t i = static_cast<std::uint32_t>(keyval) & 0xFFFFFu;
  std::lock_guard lock(mu_);
  return i >= kFirstUserIndex && i < next_;
}

void keyval_registry::release(keyval_record* r) {
  if (r->predefined) return;
  if (sync::fetch_add(r->refs, -1) != 1) return;
  // Last reference: the callbacks can no longer run; give the language its state back.
  if (const language_binding* b = binding_for(r->cbs.lang); b && b->release) b->release(r->cbs);
  std::lock_guard lock(mu_);
  std::uint32_t i = index_of(r->handle);
  r->handle = 0;
  r->cbs = callbacks{};
  free_.push_back(i);
}

std::size_t keyval_registry::live_count() const {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (std::uint32_t i = kFirstUserIndex; i < next_; ++i)
    if (at(i)->refs.load(std::memory_order_relaxed) > 0) ++n;
  return n;
}

}  // namespace mpiattr
