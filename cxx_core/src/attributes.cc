// Attribute caching: keyval creation, set/get/delete, copy on dup and delete on free (R1-R6, R10).
//
// Locking discipline (R11.1): the object's attr_store mutex guards its slots; it is never held
// while a user callback runs. An attribute whose delete callback is running is marked `deleting`:
// get still sees it, a set or delete of it from another thread or from inside the callback fails
// with MPI_ERR_OTHER, and it is removed only when the callback succeeds (docs/decisions.md).
#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "mpiattr/api.h"
#include "mpiattr/asymmetric_fence.h"
#include "mpiattr/attributes.h"

namespace mpiattr {
namespace {

status wrong_kind(const keyval_record& r, const attr_object& obj, int keyval) {
  return fail(MPI_ERR_KEYVAL, "keyval 0x%x was created for %ss, not %ss (MPI-4.1 section 8.7; see docs/rules.md R1.5)",
              static_cast<unsigned>(keyval), kind_name(r.kind), kind_name(obj.kind));
}

// Finds the record a set/get may use, checking kind and predefinedness.
status find_for(const attr_object& obj, int keyval, bool writing, keyval_record** out) {
  keyval_record* r = keyvals().find_live(keyval);
  if (r == nullptr) {
    if (keyval == 0) return fail(MPI_ERR_KEYVAL, "keyval is MPI_KEYVAL_INVALID (MPI-4.1 section 8.7.2; see docs/rules.md R2.3)");
    if (keyvals().find_referenced(keyval))  // only set_attr gets here with it (D6)
      return fail(MPI_ERR_KEYVAL,
                  "keyval 0x%x has been freed: the attributes still under it can be read and "
                  "deleted, but none can be set (docs/decisions.md D6)",
                  static_cast<unsigned>(keyval));
    if (keyvals().was_issued(keyval))
      return fail(MPI_ERR_KEYVAL, "keyval 0x%x has been freed and no attribute uses it any more (MPI-4.1 section 8.7.2; see docs/rules.md R2.3)",
                  static_cast<unsigned>(keyval));
    return fail(MPI_ERR_KEYVAL, "%d (0x%x) is not a keyval", keyval, static_cast<unsigned>(keyval));
  }
  if (r->kind != obj.kind) return wrong_kind(*r, obj, keyval);
  if (writing && r->predefined)
    return fail(MPI_ERR_KEYVAL, "keyval %d is a predefined attribute, which cannot be changed or deleted (MPI-4.1 section 10.1.2; see docs/rules.md R8.1)", keyval);
  *out = r;
  return status::ok();
}

constexpr attr_store::flags_t kCopyDup = attr_flags::copy_dup, kCopyUser = attr_flags::copy_user,
                              kDeleteUser = attr_flags::delete_user;

int call_delete(const keyval_record& r, const attr_object& obj, attribute_value v, const aint* home) {
  if (r.cbs.delete_kind != delete_behaviour::user) return 0;
  const language_binding* b = binding_for(r.cbs.lang);
  const int rc = b->del(r.cbs, obj.kind, obj.app_handle(), r.handle, v, home);
  report::callback_ran(false, rc);
  return rc;
}

}  // namespace

const char* kind_name(object_kind k) {
  switch (k) {
    case object_kind::comm: return "communicator";
    case object_kind::type: return "datatype";
    case object_kind::win: return "window";
    case object_kind::group: return "group";
    case object_kind::request: return "request";
    case object_kind::errhandler: return "error handler";
    case object_kind::info: return "info";
    case object_kind::op: return "operation";
  }
  return "object";
}

namespace api {

status create_keyval(object_kind kind, language lang, fnptr copy_fn, fnptr delete_fn, int& keyval,
                     aint extra_state) {
  return create_keyval(kind, lang, copy_fn, delete_fn, nullptr, keyval, extra_state);
}

status create_keyval(object_kind kind, language lang, fnptr copy_fn, fnptr delete_fn, fnptr release_fn,
                     int& keyval, aint extra_state) {
  callbacks cbs;
  if (!make_callbacks(lang, copy_fn, delete_fn, extra_state, &cbs))
    return fail(MPI_ERR_INTERN, "no binding registered for this language");
  // Set before the record exists, so that no free or last release can miss it (keyval.cc create).
  cbs.lang_state = reinterpret_cast<void*>(release_fn);
  status st = keyvals().create(kind, cbs, &keyval);
  if (report::on()) [[unlikely]]
    if (st.is_ok()) report::keyval_created(kind, keyval);
  return st;
}

status free_keyval(object_kind kind, int& keyval) {
  const int k = keyval;
  status st = keyvals().free(kind, &keyval, kind_name(kind));
  if (report::on()) [[unlikely]]
    if (st.is_ok()) report::keyval_freed(kind, k);
  return st;
}

// The part of set_attr that runs no callback, with the store's lock held: true when done.
static bool store_without_callback(attr_store& s, const keyval_record& r, std::uint32_t idx,
                                   attribute_value value, attr_store::put_result* result) {
  *result = s.try_put(idx, value, flags_of(r.cbs), kDeleteUser);
  switch (*result) {
    case attr_store::put_result::added:
      if (keyvals().attach(idx)) s.mark_counted(idx);  // the attribute's reference (R2.2, D20)
      return true;
    case attr_store::put_result::replaced:  // no delete callback to run on the old value
      report::add(report::attrs_deleted, r.kind);  // (a replaced value counts as deleted: R4.1)
      return true;
    default:
      return false;
  }
}

status set_attr(attr_object& obj, int keyval, attribute_value value) {
  keyval_record* r = keyvals().find_live(keyval);
  if (r == nullptr || r->kind != obj.kind || r->predefined) [[unlikely]] {
    if (status st = find_for(obj, keyval, true, &r); !st.is_ok()) return st;
  }
  std::uint32_t idx = keyval_registry::index_of(keyval);
  attr_store& s = obj.attrs;
  std::unique_lock lock(s.mutex());
  if (s.freeing) [[unlikely]] {
    // While its object is being freed an attribute may be replaced (the free deletes the new value
    // in its turn), as both hosts allow, but none added: so a free always ends (D9).
    attr_store::entry held;
    if (!s.peek(idx, &held))
      return fail(MPI_ERR_OTHER, "the %s is being freed; no attribute can be added to it", kind_name(obj.kind));
  }
  attr_store::put_result result;
  if (store_without_callback(s, *r, idx, value, &result)) {
    report::add(report::attrs_set, obj.kind);
    report::attribute_set(obj, idx);  // (where, D60)
    return status::ok();
  }
  if (result == attr_store::put_result::deleting)
    return fail(MPI_ERR_OTHER, "the attribute under keyval 0x%x is being deleted by its delete callback",
                static_cast<unsigned>(keyval));
  // Replace = delete (the callback runs on the old value) + store (R4.1).
  attr_store::entry old;
  s.peek(idx, &old);
  s.set_deleting(idx, true);
  const aint* home = s.home(idx);
  lock.unlock();
  int rc = call_delete(*r, obj, old.value, home);
  lock.lock();
  if (rc != 0) {
    s.set_deleting(idx, false);
    return callback_failed(rc, "the delete callback, run on the value being replaced (MPI-4.1 section 8.7.2; see docs/rules.md R4.1),");
  }
  s.put(idx, value, flags_of(r->cbs));  // clears `deleting`; now the most recently set (R10.1)
  report::add(report::attrs_deleted, obj.kind);
  report::add(report::attrs_set, obj.kind);
  report::attribute_set(obj, idx);
  return status::ok();
}

namespace detail {
status get_attr_slow(const attr_object& obj, int keyval, attr_read& value, bool& flag) {
  // A key the user has freed but whose attributes still exist is still a key (R2.2): its
  // attributes can be read through a copy of the handle (D6). The reference taken keeps the
  // index from being reused while the slot is read.
  auto read_freed = [&](keyval_record* r) {
    status st = status::ok();
    if (r->kind == obj.kind) {
      flag = obj.attrs.read(keyval_registry::index_of(keyval), &value);
      report::add(report::attrs_read, obj.kind);
    } else {
      st = wrong_kind(*r, obj, keyval);
    }
    keyvals().release(r);
    return st;
  };
  if (keyval_record* r = keyvals().acquire_freed(keyval)) return read_freed(r);
  keyval_record* unused = nullptr;
  status st = find_for(obj, keyval, false, &unused);
  if (st.is_ok()) {  // it became live since the caller looked (another thread created it): read
    std::uint32_t index = keyval_registry::index_of(keyval);
    flag = index >= kPredefinedIndices ? obj.attrs.read(index, &value) : read_predefined(obj, index, &value);
    report::add(report::attrs_read, obj.kind, index >= kPredefinedIndices);
  } else if (keyval_record* r = keyvals().acquire_freed(keyval)) {
    // Live when acquire_freed() looked, freed (with attributes) when find_for() did: another
    // thread freed it in between. A get through the handle then reads as after the free (D81).
    return read_freed(r);
  }
  return st;
}
}  // namespace detail

status delete_attr(attr_object& obj, int keyval) {
  keyval_record* r = keyvals().find_live(keyval);
  if (r != nullptr && r->kind == obj.kind && !r->predefined) [[likely]]
    return delete_one(obj, *r, keyval_registry::index_of(keyval));
  if (r == nullptr) {
    // Freed but in use (R2.2): delete_attr is how the program releases what is left (D6).
    if (keyval_record* f = keyvals().acquire_freed(keyval)) {
      status st = f->kind == obj.kind ? delete_one(obj, *f, keyval_registry::index_of(keyval))
                                      : wrong_kind(*f, obj, keyval);
      keyvals().release(f);
      return st;
    }
  }
  keyval_record* unused = nullptr;
  status st = find_for(obj, keyval, true, &unused);
  return st.is_ok() ? fail(MPI_ERR_KEYVAL, "keyval 0x%x is not usable", static_cast<unsigned>(keyval)) : st;
}

}  // namespace api

status delete_one(attr_object& obj, keyval_record& r, std::uint32_t idx) {
  attr_store& s = obj.attrs;
  std::unique_lock lock(s.mutex());
  attr_store::entry e;
  if (!s.peek(idx, &e)) return status::ok();  // nothing stored: nothing to do (docs/decisions.md)
  if (e.deleting)
    return fail(MPI_ERR_OTHER, "the attribute under keyval 0x%x is already being deleted",
                static_cast<unsigned>(r.handle));
  if (r.cbs.delete_kind == delete_behaviour::user) {
    s.set_deleting(idx, true);
    const aint* home = s.home(idx);
    lock.unlock();
    int rc = call_delete(r, obj, e.value, home);
    lock.lock();
    if (rc != 0) {
      s.set_deleting(idx, false);
      return callback_failed(rc, "the delete callback");
    }
  }
  const bool counted = s.erase(idx);
  lock.unlock();
  report::add(report::attrs_deleted, obj.kind);
  if (counted) keyvals().detach(idx);
  return status::ok();
}

namespace {
// delete_all_checked's way when the list of attributes cannot be allocated (D61): the newest
// attribute, found by a scan, is deleted, and so on until none is left or a callback fails.
status delete_all_unlisted(attr_object& obj) {
  attr_store& s = obj.attrs;
  for (;;) {
    attr_store::entry newest{};
    bool any = false;
    {
      std::lock_guard lock(s.mutex());
      s.for_each([&](const attr_store::entry& e) {
        if (!any || e.seq > newest.seq) newest = e;
        any = true;
      });
    }
    if (!any) return status::ok();
    status st = delete_one(obj, *keyvals().at(newest.index), newest.index);
    if (!st.is_ok()) {
      std::lock_guard lock(s.mutex());
      s.freeing = false;  // as below (R4.5)
      return st;
    }
  }
}

[[gnu::noinline]] status delete_all_checked(attr_object& obj) {
  attr_store& s = obj.attrs;
  std::vector<attr_store::entry> todo;
  bool no_memory = false;
  {
    std::lock_guard lock(s.mutex());
    if (s.freeing) return fail(MPI_ERR_OTHER, "the %s is already being freed", kind_name(obj.kind));
    s.freeing = true;
    bool any_user = false;
    s.for_each([&](const attr_store::entry& e) {
      any_user = any_user || e.deleting || (e.flags & kDeleteUser);
    });
    if (!any_user) {
      report::add(report::attrs_deleted, obj.kind, s.size());
      s.clear([](const attr_store::entry& e) {
        if (e.counted) keyvals().detach(e.index);
      });
      return status::ok();
    }
    try {
      todo = s.snapshot_newest_first();
    } catch (...) {
      // Out of memory for the list (D61): the delete callbacks still run, newest first, each
      // attribute found by a scan that allocates nothing.
      no_memory = true;
    }
  }
  if (no_memory) return delete_all_unlisted(obj);
  for (const auto& e : todo) {
    keyval_record* r = keyvals().at(e.index);
    status st = delete_one(obj, *r, e.index);
    if (!st.is_ok()) {
      std::lock_guard lock(s.mutex());
      s.freeing = false;  // the object stays usable, with the attributes not yet deleted (R4.5)
      return st;
    }
  }
  return status::ok();
}
}  // namespace

status delete_all(attr_object& obj) {
  attr_store& s = obj.attrs;
  if (s.size() == 0 && !s.freeing) {
    // Nothing to delete (the free of an object that never had an attribute): no lock (D67). No
    // other thread may use an object being freed, so none is storing into it; a census may be
    // reading it (census_one), which finds nothing to count and writes nothing.
    s.freeing = true;
    return status::ok();
  }
  if (!sync::concurrent()) {
    // Below MPI_THREAD_MULTIPLE no call overlaps this one and the lock below is a no-op: the
    // plain case goes straight, and no reader can overlap the drop (no sequence counter, D73, D77).
    if (!s.freeing && s.all_plain()) {
      s.freeing = true;
      report::add(report::attrs_deleted, obj.kind, s.size());
      s.drop_plain<false>();
      return status::ok();
    }
    return delete_all_checked(obj);
  }
  if (asymmetric::enabled()) {
    // At MPI_THREAD_MULTIPLE, plain attributes go without the store's lock (D73): the only other
    // thread that may touch an object being freed is a census, which marks its keyval counted,
    // makes a heavy fence and waits for `dropping` to be 0 before it visits the object
    // (census_one). So either this sees the keyval counted and takes the lock below, or the
    // census sees the drop in progress and waits for it.
    obj.dropping.store(1, std::memory_order_relaxed);
    asymmetric::light();
    const bool plain = !keyvals().counting() && !s.freeing && s.all_plain();
    if (plain) {
      s.freeing = true;
      report::add(report::attrs_deleted, obj.kind, s.size());
      s.drop_plain();
    }
    obj.dropping.store(0, std::memory_order_release);
    if (plain) return status::ok();
  }
  {
    std::lock_guard lock(s.mutex());
    // When no attribute has a delete callback to run or a keyval reference to give back, nothing
    // can observe the order: drop them all at once (the common case, and what makes dup + free
    // cheap).
    if (!s.freeing && s.all_plain()) {
      s.freeing = true;
      report::add(report::attrs_deleted, obj.kind, s.size());
      s.drop_plain();
      return status::ok();
    }
  }
  return delete_all_checked(obj);
}

namespace {
// Objects copy_all is filling, not yet findable by the runtime's census (census_in_construction):
// from before the first copy until the runtime has published the object (dup_in_progress). A
// list through the objects themselves, newest first (nested dups, from copy callbacks, end first).
sync::spinlock g_building_mu;
attr_object* g_building = nullptr;

// A thread's plain dup in progress at MPI_THREAD_MULTIPLE (dup_in_progress::copy_plain_in_slot,
// D73): its new object, from before the copy until the runtime has published it; null otherwise.
// In a place of its own (sync::thread_places, D119) from its first such dup until it ends; the
// census walks every place (wait_for_slots). A thread whose place another live thread owns
// takes the list instead. Only the owner writes a place's object; owners change under g_slots_mu.
struct alignas(64) thread_slot {
  std::atomic<attr_object*> obj{nullptr};
  std::atomic<std::uintptr_t> owner{0};  // (sync::thread_places)
};
sync::spinlock g_slots_mu;
sync::thread_places<thread_slot, 6> g_slot_table;  // 64 places

void release_slot(void* p) {
  std::lock_guard lock(g_slots_mu);
  decltype(g_slot_table)::release(*static_cast<thread_slot*>(p));
}
[[gnu::noinline]] thread_slot* claim_slot() {
  std::lock_guard lock(g_slots_mu);
  return g_slot_table.claim<release_slot>();
}

// Waits until no thread holds a plain dup in progress that began before the caller's heavy
// fence; those that begin after it see the keyval counted and take the list instead. (Every
// place, owned or not: a place's object is null whenever no dup of its owner is in it.)
void wait_for_slots() {
  for (thread_slot& ts : g_slot_table)
    for (unsigned spins = 0; ts.obj.load(std::memory_order_acquire) != nullptr;) sync::backoff(spins);
}
}  // namespace

bool dup_in_progress::copy_plain_in_slot(const attr_object& from, attr_object& to) {
  thread_slot* slot = g_slot_table.own();
  if (slot == nullptr) [[unlikely]] {
    slot = claim_slot();
    if (slot == nullptr) return false;
  }
  thread_slot& ts = *slot;
  if (ts.obj.load(std::memory_order_relaxed) != nullptr) return false;  // (a plain dup runs no callback: never)
  ts.obj.store(&to, std::memory_order_relaxed);
  asymmetric::light();  // (the census: counted, heavy fence, then the slots; asymmetric_fence.h)
  if (keyvals().counting() || !from.attrs.all_plain()) {
    ts.obj.store(nullptr, std::memory_order_release);
    return false;
  }
  try {
    from.attrs.copy_plain_into(to.attrs);
  } catch (...) {
    ts.obj.store(nullptr, std::memory_order_release);
    throw;
  }
  to.building = attr_object::building_in_slot;
  to.cold().building_next = reinterpret_cast<attr_object*>(&ts);  // (for leave_slot: the place found once)
  return true;
}
void dup_in_progress::leave_slot(attr_object& to) {
  // (After the runtime published `to`.)
  reinterpret_cast<thread_slot*>(to.cold().building_next)->obj.store(nullptr, std::memory_order_release);
  to.cold().building_next = nullptr;
  to.building = attr_object::building_none;
}

void dup_in_progress::enter(attr_object& to) {
  std::lock_guard lock(g_building_mu);
  to.cold().building_next = g_building;
  g_building = &to;
  to.building = attr_object::building_listed;
}
bool dup_in_progress::enter_copying_plain(const attr_object& from, attr_object& to) {
  std::lock_guard lock(g_building_mu);
  // (Checked under the list's lock: a census that has walked the list already marked its keyval
  // counted before it took the lock, so this sees it and the checked copy counts for itself.)
  const bool plain = !keyvals().counting() && from.attrs.all_plain();
  to.cold().building_next = g_building;
  g_building = &to;
  to.building = attr_object::building_listed;
  if (plain) from.attrs.copy_plain_into(to.attrs);  // (may throw std::bad_alloc: `to` stays empty)
  return plain;
}
void dup_in_progress::leave(attr_object& to) {
  std::lock_guard lock(g_building_mu);
  attr_object** p = &g_building;
  while (*p != &to) p = &(*p)->cold().building_next;
  *p = to.cold().building_next;
  to.cold().building_next = nullptr;
  to.building = attr_object::building_none;
}

void census_one(attr_object& o, std::uint32_t index) {
  // (A free dropping plain attributes without the lock, delete_all: after it, nothing to count.)
  for (unsigned spins = 0; o.dropping.load(std::memory_order_acquire) != 0;) sync::backoff(spins);
  std::lock_guard lock(o.attrs.mutex());
  if (o.attrs.mark_counted(index)) keyval_registry::acquire(keyvals().at(index));
}

void census_in_construction(object_kind kind, std::uint32_t index) {
  // The keyval is counted already: after this fence, a plain dup or free that has not marked
  // itself (a thread's slot, `dropping`) sees it and takes the locks (D73).
  asymmetric::heavy();
  {
    std::lock_guard lock(g_building_mu);
    for (attr_object* o = g_building; o != nullptr; o = o->cold().building_next)
      if (o->kind == kind) census_one(*o, index);
  }
  // A plain dup in a thread's slot publishes its object before it leaves the slot: once the slots
  // are empty, the runtime's walk of its published objects (after this) finds it.
  if (asymmetric::enabled()) wait_for_slots();
}

namespace {
[[gnu::noinline]] status copy_all_checked(const attr_object& from, attr_object& to) {
  struct pending {
    attr_store::entry e;
    keyval_record* r;
  };
  std::vector<pending> user;
  std::vector<attr_store::entry> made;  // (for undoing, below)
  std::vector<std::uint32_t> newer, newer_counted;
  const attr_store& s = from.attrs;
  attr_store& d = to.attrs;
  {
    // `to` is not published yet: no reader can see it, so no seqlock; its lock is for the census
    // of lazy counting (dup_in_progress), which may visit it from a copy callback or another
    // thread. MPI_XXX_DUP_FN values are copied slot by slot, keeping origin and set order (D10,
    // D16).
    std::lock_guard lock(s.mutex());
    std::lock_guard to_lock(d.mutex());
    // Everything the copy and its undoing need is allocated first, so that out of memory fails the
    // dup before any attribute is copied or any callback runs (D61).
    try {
      d.reserve_like(s);
      user.reserve(s.size());
      made.reserve(s.size());
      newer.reserve(s.size());
      newer_counted.reserve(s.size());
    } catch (...) {
      return from_exception("the duplicate's attributes");
    }
    const bool counting = keyvals().counting();
    s.copy_into(d, [&](const attr_store::entry& e) {
      if (!(e.flags & (kCopyDup | kCopyUser))) return attr_store::pick::skip;  // NULL_COPY_FN
      if (e.flags & kCopyDup)  // the copy's reference, if its keyval is counted
        return counting && keyvals().attach(e.index, false) ? attr_store::pick::copy_counted
                                                             : attr_store::pick::copy;
      keyval_record* r = keyvals().at(e.index);
      keyval_registry::acquire(r);  // the callback's, while it runs
      user.push_back({e, r});
      return attr_store::pick::skip;
    });
    report::add(report::attrs_copied, to.kind, d.size());  // (the MPI_XXX_DUP_FN copies)
  }
  // Copy callbacks run oldest first (D10).
  std::sort(user.begin(), user.end(), [](const pending& a, const pending& b) { return a.e.seq < b.e.seq; });
  status result = status::ok();
  std::size_t done = 0;
  for (; done < user.size(); ++done) {
    pending& p = user[done];
    if (done > 0) {
      // An earlier copy callback may have deleted or replaced this attribute of the old object
      // (D9): a deleted one is not copied, and a replaced one is copied with its value now, never
      // with one its delete callback has released.
      attr_store::entry now;
      bool held;
      {
        std::lock_guard lock(s.mutex());
        held = s.peek(p.e.index, &now);
      }
      if (!held) continue;
      p.e.value = now.value;
    }
    const language_binding* b = binding_for(p.r->cbs.lang);
    attribute_value out;
    bool keep = false;
    aint stored = p.e.value.word();  // home of the value the callback sees
    int rc = b->copy(p.r->cbs, from.kind, from.app_handle(), p.r->handle, p.e.value, &stored, &out, &keep);
    report::callback_ran(true, rc);
    if (rc != 0) {
      result = callback_failed(rc, "the copy callback");
      break;
    }
    if (keep) {
      std::lock_guard to_lock(d.mutex());
      d.put_private(p.e.index, out, p.e.seq, p.e.flags, keyvals().attach(p.e.index, false));
      report::add(report::attrs_copied, to.kind);
    }
  }
  for (auto& p : user) keyvals().release(p.r);
  if (!result.is_ok()) {
    // No half-built object (R4.5): undo the copies already made, running their delete callbacks
    // so that what the copy callbacks allocated is released; their errors are secondary.
    // (Nothing here allocates: the vectors were reserved above, D61.)
    int user_code = detail::last_user_code();
    char saved[512];
    std::snprintf(saved, sizeof saved, "%s", detail::last_detail());
    {
      std::lock_guard lock(d.mutex());
      // Copies are made oldest first (D10), so the attributes set after the failing one were
      // never copied. MPI_XXX_DUP_FN values were copied in bulk above, all of them (that keeps
      // the dup that succeeds free of per-attribute ordering work): those newer than the failing
      // attribute are dropped here without their delete callbacks, which is as if they had not
      // been copied (a DUP_FN copy runs no callback, and `to` was never visible).
      const std::uint32_t failed_seq = user[done].e.seq;
      d.for_each([&](const attr_store::entry& e) {
        if (e.seq > failed_seq) newer.push_back(e.index);
      });
      for (std::uint32_t index : newer)
        if (d.erase(index)) newer_counted.push_back(index);
      report::add(report::attrs_deleted, to.kind, newer.size());
      d.for_each([&](const attr_store::entry& e) { made.push_back(e); });
      std::sort(made.begin(), made.end(), [](const attr_store::entry& a, const attr_store::entry& b) { return a.seq > b.seq; });
    }
    for (std::uint32_t index : newer_counted) keyvals().detach(index);  // the dropped copy's reference
    for (const auto& e : made) (void)delete_one(to, *keyvals().at(e.index), e.index);
    return user_code ? callback_failed(user_code, "the copy callback")
                     : fail(result.error_class(), "%s", saved);
  }
  return status::ok();
}
// Copies `s`'s plain attributes (all MPI_XXX_DUP_FN) into `to` wholesale, counted for
// MPIATTR_REPORT; `to`'s lock held, or not needed (copy_all).
[[gnu::always_inline]] inline status copy_plain(const attr_store& s, attr_object& to) {
  try {
    s.copy_plain_into(to.attrs);  // (allocates before it copies: a failure leaves `to` empty)
  } catch (...) {
    return from_exception("the duplicate's attributes");
  }
  report::add(report::attrs_copied, to.kind, to.attrs.size());
  return status::ok();
}
}  // namespace

status copy_all(const attr_object& from, attr_object& to) {
  const attr_store& s = from.attrs;
  attr_store& d = to.attrs;
  if (!sync::concurrent()) {
    // Below MPI_THREAD_MULTIPLE no call overlaps this one: the locks below are no-ops and `to` is
    // never waiting for a registration (dup_in_progress), so the plain case goes straight (D77).
    if (s.size() == 0) return status::ok();
    if (!keyvals().counting() && s.all_plain()) return copy_plain(s, to);
    return copy_all_checked(from, to);
  }
  {
    std::lock_guard lock(s.mutex());
    if (s.size() == 0) return status::ok();  // nothing to copy: `to` stays unlisted (D67)
    // A registration that waited for something to copy (dup_in_progress at MPI_THREAD_MULTIPLE):
    // before the first copy, so that a census finds `to`. (Lock order: `from`, the list, `to`; the
    // census takes the list and then listed objects, never a published `from`.) Plain attributes
    // are copied in the same hold of the list's lock, and `to`'s lock is not taken: a census
    // reaches `to` only through the list, after this hold (D73).
    if (to.building == attr_object::building_wanted) {
      try {
        if ((asymmetric::enabled() && dup_in_progress::copy_plain_in_slot(from, to)) ||
            dup_in_progress::enter_copying_plain(from, to)) {
          report::add(report::attrs_copied, to.kind, d.size());
          return status::ok();
        }
      } catch (...) {
        return from_exception("the duplicate's attributes");
      }
    }
    std::lock_guard to_lock(d.mutex());  // (see copy_all_checked)
    if (!keyvals().counting() && s.all_plain()) return copy_plain(s, to);  // all MPI_XXX_DUP_FN
  }
  return copy_all_checked(from, to);
}

constinit predefined_values g_environment;

namespace api::detail {
bool read_predefined(const attr_object& obj, std::uint32_t index, attr_read* out) {
  // In the Sessions Model MPI_TAG_UB is a communicator's only predefined attribute (R8.2, D124).
  // A window's own values (MPI_WIN_BASE, ...) are its cold part's to name: none over a host.
  const predefined_values* table = obj.kind == object_kind::win ? obj.cold().predefined : &g_environment;
  if ((obj.sessions_model && index != keyval_registry::index_of(MPI_TAG_UB)) || table == nullptr) {
    out->found = false;
    return false;
  }
  const predefined_slot& s = table->slot[index];
  out->found = s.present;
  if (s.present) {
    out->value = attribute_value(s.word, s.how);
    out->home = &s.word;
  }
  return s.present;
}
}  // namespace api::detail

}  // namespace mpiattr
