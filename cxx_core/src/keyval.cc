// Keyval records and their reference counts (keyval.h).
#include "mpiattr/keyval.h"

#include "mpiattr/asymmetric_fence.h"

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

bool make_callbacks(language lang, fnptr copy_fn, fnptr delete_fn, aint extra_state,
                    callbacks* out) {
  const language_binding* b = binding_for(lang);
  if (b == nullptr) return false;
  out->lang = lang;
  out->copy = copy_fn;
  out->del = delete_fn;
  out->copy_kind = b->predefined->classify_copy(copy_fn);
  out->delete_kind = b->predefined->classify_delete(delete_fn);
  out->extra_state = extra_state;
  out->lang_state = nullptr;
  return true;
}

constinit never_destroyed<keyval_registry> g_keyvals;

namespace sync {
constinit bool g_concurrent = true;
void set_concurrent(bool on) {
  g_concurrent = on;
  // (The plain dups and frees then order themselves against a census with a light fence, D73.)
  if (on) asymmetric::enable();
}
}  // namespace sync

keyval_record* keyval_registry::find_referenced(int keyval) const {
  std::uint32_t i = index_of(keyval);
  if (i == 0) return nullptr;
  keyval_record* r = at(i);
  std::lock_guard lock(mu_);  // handle and refs change together under mu_ on recycle
  return (__atomic_load_n(&r->handle, __ATOMIC_RELAXED) == keyval && r->refs.load(std::memory_order_acquire) > 0)
             ? r
             : nullptr;
}

keyval_record* keyval_registry::acquire_freed(int keyval) {
  std::uint32_t i = index_of(keyval);
  if (i < kFirstUserIndex) return nullptr;  // not a keyval, or a predefined one
  keyval_record* r = at(i);
  // mu_ orders this with create() (a reused index changes the handle) and with recycle().
  std::lock_guard lock(mu_);
  if (__atomic_load_n(&r->handle, __ATOMIC_RELAXED) != keyval ||
      r->live_handle.load(std::memory_order_acquire) == keyval)
    return nullptr;
  // Only a keyval freed with attributes is counted (drop_handle), and only its attributes can
  // still be read or deleted: a keyval that never had one is recycled, or is a thread's spare
  // (create_fast_concurrent), whose record must take no reference.
  if (!r->counted.load(std::memory_order_relaxed)) return nullptr;
  // Only while a reference remains: a release() that has taken the count to 0 is recycling the
  // record, and must not see it come back (so no blind increment).
  std::int32_t n = r->refs.load(std::memory_order_acquire);
  while (n > 0 && !sync::compare_exchange(r->refs, n, n + 1)) {
  }
  return n > 0 ? r : nullptr;
}

// Hot entry 0 of each kind is addressed by every keyval whose low 20 bits are 0: mpiattr's
// MPI_KEYVAL_INVALID (0), and in host mode the host's own keyvals of that form, such as Open MPI's
// MPI_TAG_UB (0). Zero-initialised, the entry would hold handle 0 and live_user() would take
// keyval 0 for a live mpiattr keyval of index 0, so a fast get of MPI_TAG_UB on an object with
// mpiattr attributes read mpiattr's empty slot 0 (flag false) instead of asking the host. The
// entry gets a handle no keyval has (its index bits are not 0) when the library is loaded, before
// any keyval exists, whichever runtime runs the core; no user keyval has index 0
// (kFirstUserIndex), so nothing ever writes the entry again.
bool keyval_registry::reserve_hot_entry_zero() {
  for (object_kind k : {object_kind::comm, object_kind::type, object_kind::win}) hot_row(k)[0].handle = 1;
  return true;
}
const bool keyval_registry::hot_entry_zero_reserved_ = keyval_registry::reserve_hot_entry_zero();

// Never called; its address marks a classified entry not filled. noipa: an identical function
// merged with it (GCC's -fipa-icf) could be one a program passes as a callback.
[[gnu::noipa]] void keyval_registry::unclassified_copy() {}

void keyval_registry::define_predefined(int keyval, object_kind kind) {
  keyval_record* r = at(index_of(keyval));
  r->handle = keyval;
  r->kind = kind;
  r->predefined = true;
  r->refs.store(1, std::memory_order_relaxed);
  r->live_handle.store(keyval, std::memory_order_release);
}

inline std::uint32_t keyval_registry::take_index() {
  std::uint32_t i = free_.take();  // the smallest free index
  if (i == 0) {
    if (next_ >= kMaxIndex) return 0;
    i = next_++;  // (none is free)
    free_.issued(i);
  }
  low_free_.store(i + 1, std::memory_order_relaxed);  // (lower_bound: the rest are above it)
  return i;
}

status keyval_registry::create(object_kind kind, const callbacks& cbs, int* keyval) {
  std::lock_guard lock(mu_);
  std::uint32_t i = take_index();
  if (i == 0) return fail(MPI_ERR_KEYVAL, "all %u keyvals are in use", kMaxIndex - kFirstUserIndex);
  const std::uint8_t flags = flags_of(cbs);
  // For create_fast() (create_fast_concurrent(): the thread's own): the next keyval with these
  // callbacks needs no classification, and finds them in its record if it is this one's (tag).
  classified* c = nullptr;
  if (cbs.lang_state == nullptr && (!sync::concurrent() || thread_spares_)) {
    const bool own = sync::concurrent();
    thread_spare* t = own ? spares_.claim<spare_ended>() : nullptr;
    if (!own || t != nullptr) c = own ? &t->last[static_cast<int>(cbs.lang)] : &last_[static_cast<int>(cbs.lang)];
  }
  // (2^61 stamps: none is given twice in a process's life.)
  const std::uint64_t tag = c != nullptr ? ++stamps_ << 3 : 0;
  *keyval = init_record_checked(i, kind, cbs, flags, c != nullptr ? tag | static_cast<std::uint64_t>(kind) : 0);
  if (cbs.lang_state != nullptr) __atomic_store_n(&used_[i], kUsedLangState, __ATOMIC_RELAXED);  // (a free left it 0)
  if (c != nullptr) {
    c->cbs = cbs;
    c->flags = flags;
    c->tag = tag;
  }
  return status::ok();
}

status keyval_registry::rebind(int keyval, language lang, void* lang_state) {
  const language_binding* b = binding_for(lang);
  if (b == nullptr) return fail(MPI_ERR_INTERN, "no binding registered for this language");
  std::lock_guard lock(mu_);
  keyval_record* r = find_live(keyval);
  if (r == nullptr || r->predefined)
    return fail(MPI_ERR_KEYVAL, "keyval 0x%x is not a live user keyval", static_cast<unsigned>(keyval));
  const std::uint32_t i = index_of(keyval);
  if (r->cbs.lang_state != nullptr)
    if (const language_binding* old = binding_for(r->cbs.lang); old && old->release) old->release(r->cbs);
  r->cbs.lang = lang;
  r->cbs.lang_state = lang_state;
  r->tag = 0;  // (no remembered callbacks are these now)
  r->cbs.copy_kind = b->predefined->classify_copy(r->cbs.copy);
  r->cbs.delete_kind = b->predefined->classify_delete(r->cbs.del);
  if (lang_state != nullptr) __atomic_fetch_or(&used_[i], kUsedLangState, __ATOMIC_RELAXED);
  set_hot(i, static_cast<std::uint32_t>(keyval), r->kind, flags_of(r->cbs));
  return status::ok();
}

// The user's handle goes (R2.1). Attributes under a keyval that ever had one are counted now, and
// it is counted from now on (lazy counting, keyval.h). `counted` is set before the census visits
// any object, so that an attribute stored after the census passed its object counts itself; the
// census adds the references as it goes, so that an attribute deleted behind it gives back one
// it already has, while the handle's reference keeps the record alive throughout.
//
// A keyval that never had an attribute and has no language state (used_ 0; the usual case: a
// library's keyval freed with its communicator) cannot have a callback in flight, so its only
// reference besides the handle's is one that a get or delete naming the freed handle takes under
// mu_ (acquire_freed): under mu_, with none taken, its index is recycled at once. That read of
// used_ is a load, not an exchange: a first set racing the free (an erroneous program) would find
// the same state either way.
void keyval_registry::drop_handle(keyval_record* r, std::uint32_t i, bool counted_already) {
  const bool never_used = !counted_already && __atomic_load_n(&used_[i], __ATOMIC_RELAXED) == 0;
  const bool used = !never_used &&
                    (__atomic_exchange_n(&used_[i], std::uint8_t{0}, __ATOMIC_RELAXED) & kUsedAttribute) != 0;
  clear_hot(i, r->kind);
  if (never_used) [[likely]] {
    std::lock_guard lock(mu_);
    if (r->refs.load(std::memory_order_relaxed) == 1) [[likely]] {
      r->refs.store(0, std::memory_order_relaxed);
      recycle(r, i);
      return;
    }
  } else if (counted_already) {
    census_(r->kind, i);
  } else if (used && census_ != nullptr) {
    {
      std::lock_guard lock(mu_);  // with recycle(), which resets them
      mark_counted(r);
    }
    census_(r->kind, i);
  }
  release(r);
}

status keyval_registry::free(object_kind kind, int* keyval, const char* kind_label) {
  int k = *keyval;
  keyval_record* r = find_live(k);
  if (r == nullptr) {
    if (k == 0) return fail(MPI_ERR_KEYVAL, "keyval is MPI_KEYVAL_INVALID");
    if (was_issued(k))
      return fail(MPI_ERR_KEYVAL, "keyval 0x%x has been freed already (MPI-4.1 section 8.7.2; see docs/rules.md R2.1)", static_cast<unsigned>(k));
    return fail(MPI_ERR_KEYVAL, "%d (0x%x) is not a keyval", k, static_cast<unsigned>(k));
  }
  if (r->predefined)
    return fail(MPI_ERR_KEYVAL, "keyval %d is predefined and cannot be freed (MPI-4.1 section 10.1.2; see docs/rules.md R8.1)", k);
  if (r->kind != kind)
    return fail(MPI_ERR_KEYVAL, "keyval 0x%x was created for %ss, not %ss",
                static_cast<unsigned>(k), kind_name(r->kind), kind_label);
  const std::uint32_t i = index_of(k);
  int expected = k;
  // A keyval that has had an attribute is counted from its free on (drop_handle). The handle
  // goes and the record is marked counted in one hold of mu_, under which acquire_freed() looks:
  // a get or delete through a copy of the handle, in another thread, finds the keyval either
  // live or freed and counted, never freed and not counted, which it would take for a keyval
  // without attributes and refuse (D81).
  const bool count = (__atomic_load_n(&used_[i], __ATOMIC_RELAXED) & kUsedAttribute) && census_ != nullptr;
  if (count) [[unlikely]] {
    std::lock_guard lock(mu_);
    if (!sync::compare_exchange(r->live_handle, expected, 0))
      return fail(MPI_ERR_KEYVAL, "keyval 0x%x was freed concurrently", static_cast<unsigned>(k));
    mark_counted(r);
  } else if (!sync::compare_exchange(r->live_handle, expected, 0)) {
    return fail(MPI_ERR_KEYVAL, "keyval 0x%x was freed concurrently", static_cast<unsigned>(k));
  }
  drop_handle(r, i, count);
  *keyval = 0;  // MPI_KEYVAL_INVALID (R2.1)
  return status::ok();
}


// A thread that owns a place ends: its spare index goes back to the pool, its callbacks are
// forgotten and the place is nobody's. (The main thread's place stays its own until the process
// ends.)
void keyval_registry::spare_ended(void* p) {
  keyval_registry& r = keyvals();
  thread_spare& t = *static_cast<thread_spare*>(p);
  std::lock_guard lock(r.mu_);
  if (!decltype(r.spares_)::release(t)) return;
  if (t.index != 0) r.put_free(t.index);
  t.index = 0;
  for (classified& c : t.last) c.forget();
}

void keyval_registry::give_back(std::uint32_t i) {
  std::lock_guard lock(mu_);
  put_free(i);
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
  if (r->cbs.lang_state != nullptr)
    if (const language_binding* b = binding_for(r->cbs.lang); b && b->release) b->release(r->cbs);
  std::lock_guard lock(mu_);
  recycle(r, index_of(r->handle));
}

std::size_t keyval_registry::live_count() const {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (std::uint32_t i = kFirstUserIndex; i < next_; ++i)
    if (at(i)->refs.load(std::memory_order_relaxed) > 0) ++n;
  return n;
}

}  // namespace mpiattr
