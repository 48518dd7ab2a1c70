// The host runtime: mpiattr's caching over a host MPI (MPICH or Open MPI), reached through PMPI
// (docs/host.md). It keeps a record (record.h: comm_record, type_record, win_record, the core's
// objects with the record table's own fields) for each host object
// that carries an mpiattr attribute, keyed by the host's handle; the core does the caching on the
// records exactly as in standalone mode. It implements lifecycle.h over the host.
//
// A record is given up when its object is freed (emptied, and asleep for the handle's next object,
// or dropped: let_go): the free routines are this library's under both their MPI_ and PMPI_
// names, in C and in Fortran (docs/host.md), so a handle value the host reuses never inherits
// attributes, and a record costs the host nothing. The one host attribute
// mpiattr sets is on MPI_COMM_SELF, when it starts: its delete callback is how mpiattr learns that
// the host is finalizing when MPI_Finalize was not called through one of mpiattr's names.
//
// mpiattr runs while MPI is usable through either model (docs/decisions.md D57): from the first
// caching call after the host's MPI_Init or MPI_Session_init (this library's MPI_Session_init and
// MPI_Session_finalize count the live sessions, where the host has them) until the end of the
// last model: MPI_Finalize with no session live, or the last MPI_Session_finalize after
// MPI_Finalize or without MPI_Init. What needs the World Model (the finalize guard, the report's
// rank, the handler of errors with no object) waits for it, or does without.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "host_glue.h"
#include "mpiattr/lifecycle.h"

// The host's thread levels, named at global scope: inside namespace mpiattr the core's constants of
// the same names (mpiattr's values) would hide a host that declares them in an enum (Open MPI),
// while a macro (MPICH) would win anyway. Every other host constant this folder uses is a macro in
// both hosts.
static const int host_thread_single = MPI_THREAD_SINGLE;
static const int host_thread_multiple = MPI_THREAD_MULTIPLE;
// The host, as MPIATTR_REPORT's header names it.
#if defined(OMPI_MAJOR_VERSION)
static const char* const kHostName = "over Open MPI";
#elif defined(MPICH_VERSION)
static const char* const kHostName = "over MPICH";
#else
static const char* const kHostName = "over the host MPI";
#endif

namespace mpiattr::host {

record_map<comm_record> g_comms;
record_map<type_record> g_types;
record_map<win_record> g_wins;
std::atomic<bool> g_fast{false};
std::atomic<bool> g_fast_concurrent{false};
// Closed until start opens it (constant initialisation: closed before any initialiser runs).
constinit fast_gate g_gate{{keyval_registry::closed_row(), keyval_registry::closed_row(), keyval_registry::closed_row()},
                 keyval_registry::kClosedMask};
void open_gate() {
  for (object_kind k : {object_kind::comm, object_kind::type, object_kind::win})
    g_gate.rows[static_cast<int>(k)].store(keyval_registry::hot_row_of(k), std::memory_order_relaxed);
  g_gate.mask.store(keyval_registry::kMaxIndex - 1, std::memory_order_relaxed);
}
void close_gate() {
  g_gate.mask.store(keyval_registry::kClosedMask, std::memory_order_relaxed);
  for (auto& row : g_gate.rows) row.store(keyval_registry::closed_row(), std::memory_order_relaxed);
}

namespace {

enum : int { kNotStarted = 0, kRunning = 1, kFinalized = 2 };
std::atomic<int> g_state{kNotStarted};
// The World Model as mpiattr has seen it: not yet (or not noticed yet: world_active), active (the
// finalize guard is set on MPI_COMM_SELF), ended (MPI_Finalize deleted MPI_COMM_SELF's and
// MPI_COMM_WORLD's attributes). Written under g_start_mu.
enum : int { kWorldNever = 0, kWorldActive = 1, kWorldEnded = 2 };
std::atomic<int> g_world{kWorldNever};
// The sessions the host made through this library's MPI_Session_init and not yet finalized.
std::atomic<int> g_sessions{0};
// Where MPIATTR_REPORT's header comes from without the World Model: the process's rank and the size
// of the process set mpi://WORLD, read at the first MPI_Session_init when a report is asked.
int g_session_rank = 0, g_session_size = 1;
std::mutex g_start_mu;
sync::mutex g_admit_mu;  // one record per object when two threads set its first attribute

// Host keyvals of mpiattr's own, by kind, never set: a get with one is how mpiattr asks the host
// whether a handle it has no record of is valid (the host raises its own error if not).
int g_probe_comm = MPI_KEYVAL_INVALID, g_probe_type = MPI_KEYVAL_INVALID,
    g_probe_win = MPI_KEYVAL_INVALID;
// Where the host raises its own errors that have no communicator or window (a datatype's, a
// keyval's, a null handle's): on MPI_COMM_WORLD's handler (kOnWorld) or MPI_COMM_SELF's
// (kOnSelf), measured the first time mpiattr raises such an error or returns a code
// (no_object_comm), and mpiattr raises its own such errors there too, so that a process has one
// policy (docs/decisions.md D56, D101). kUnmeasured until then.
constexpr int kUnmeasured = 0, kOnWorld = 1, kOnSelf = 2;
std::atomic<int> g_no_object_rule{kUnmeasured};
// The host keyval of the attribute on MPI_COMM_SELF whose delete callback says the host is
// finalizing.
int g_finalize_guard = MPI_KEYVAL_INVALID;
// What a get or delete sees on a valid object that has no record: no attribute.
// (Their cold parts first: made before them, gone after them.)
attr_object_cold g_no_attrs_cold[3];
comm_record g_no_comm_attrs{g_no_attrs_cold[0]};
type_record g_no_type_attrs{g_no_attrs_cold[1]};
win_record g_no_win_attrs{g_no_attrs_cold[2]};
// While MPI_Finalize deletes MPI_COMM_WORLD's attributes, MPI_COMM_SELF is being freed (D133): a set
// on it finds its record, or, when it had none, this one (admit), whose store is marked so.
attr_object_cold g_self_freed_cold;
comm_record g_self_freed{g_self_freed_cold};
std::atomic<bool> g_self_freeing{false};

const predefined_set g_predefined(host_predefined_callbacks, &host_predefined_callback_count);
const language_binding g_c_binding = {ccallbacks::copy, ccallbacks::del, ccallbacks::release,
                                      &g_predefined};

// ---- lifecycle.h over the host ----
class host_lifecycle final : public lifecycle {
 public:
  status comm_dup(const comm_object& old, comm_object& fresh) override {
    MPI_Comm n = MPI_COMM_NULL;
    if (MPIATTR_HOST_PMPI(MPI_Comm_dup)(from_native<MPI_Comm>(old.native), &n) != MPI_SUCCESS)
      return mpiattr::fail(kErrComm, "the host MPI could not duplicate the communicator");
    fresh.native = native(n);
    return status::ok();
  }
  status comm_derive(const comm_object&, bool, comm_object&) override {
    return mpiattr::fail(kErrIntern, "host mode: communicators are made by the host MPI");
  }
  void comm_release(comm_object& c) override {
    MPI_Comm h = from_native<MPI_Comm>(c.native);
    MPIATTR_HOST_PMPI(MPI_Comm_free)(&h);
  }
  status type_dup(const type_object& old, type_object& fresh) override {
    MPI_Datatype n = MPI_DATATYPE_NULL;
    if (MPIATTR_HOST_PMPI(MPI_Type_dup)(from_native<MPI_Datatype>(old.native), &n) != MPI_SUCCESS)
      return mpiattr::fail(kErrType, "the host MPI could not duplicate the datatype");
    fresh.native = native(n);
    return status::ok();
  }
  void type_release(type_object& t) override {
    MPI_Datatype h = from_native<MPI_Datatype>(t.native);
    MPIATTR_HOST_PMPI(MPI_Type_free)(&h);
  }
  status win_create(const comm_object&, win_object&) override {
    return mpiattr::fail(kErrIntern, "host mode: windows are made by the host MPI");
  }
  void win_release(win_object& w) override {
    MPI_Win h = from_native<MPI_Win>(w.native);
    MPIATTR_HOST_PMPI(MPI_Win_free)(&h);
  }
  world_attributes world() const override {
    // The host answers its predefined keys itself (they are its keyvals); this is for reports.
    // With sessions alone MPI_COMM_WORLD does not exist (the host's error would be fatal).
    world_attributes w{};
    int* v = nullptr;
    int flag = 0;
    if (g_world.load(std::memory_order_acquire) == kWorldActive &&
        MPIATTR_HOST_PMPI(MPI_Comm_get_attr)(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag) == MPI_SUCCESS && flag)
      w.tag_ub = *v;
    return w;
  }
};
host_lifecycle g_life;

// ---- the records ----
template <typename F>
void with_map(object_kind kind, F&& f) {
  switch (kind) {
    case object_kind::comm: f(g_comms); break;
    case object_kind::type: f(g_types); break;
    case object_kind::win: f(g_wins); break;
    default: break;
  }
}

// The host's value of one of mpiattr's error classes.
int host_class(int mpiattr_class) {
  for (std::size_t i = 0; i < host_error_class_count; ++i)
    if (host_error_classes[i].mpiattr_class == mpiattr_class) return host_error_classes[i].host_class;
  return MPI_ERR_OTHER;
}

// The code a failed status gives back to the host, from inside a host callback (the finalize guard).
int host_code_of(status st) {
  const int user = detail::last_user_code();
  detail::clear_last();
  return user != 0 ? user : host_class(st.error_class());
}

// Where records live (docs/decisions.md D95): in mpiattr's own blocks, one run of blocks per kind,
// rather than each allocated by itself, so that over a host that mallocs its own objects (Open
// MPI's datatypes and communicators, at each dup) the records are not interleaved with them: a
// program's records fill as few pages and lines as they can. A block holds 8 records of its kind
// at first, then twice the last block's, up to 1,024; its first line links it to the kind's
// previous block (so every block stays reachable, for leak checkers), the records' hot parts
// follow, 128 bytes each (what a get or set reads: attr_store.h), then their cold parts, so that
// a get at 2,000 objects touches 63 pages of records, not 406 (the first-level TLB holds 72: D120,
// D125). A record whose memory goes back (recycle) leaves its hot part on its kind's free list,
// linked through its first word, with its cold part's address in the second, for the next record
// of the kind; blocks are never given back. Out of memory for a block is
// std::bad_alloc, as `new` was: take_record's callers turn it into MPI_ERR_NO_MEM with nothing
// changed (D61). Under AddressSanitizer records are each allocated and freed by themselves, so
// that it still sees a use of a freed record. All of it under g_pool.mu.
// Over MPICH a record lies in its handle's home where it can (native_map.h: homes, D126): take_home
// builds it there the first time (its cold part in the memory that goes with the home), and a
// record whose object is freed stays there, empty, for the handle's next object (recycle): homes
// are never on the free lists or in the pool, which hold the records that lie elsewhere.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRecordBlocks = false;
#else
constexpr bool kRecordBlocks = true;
#endif
// Over MPICH records lie in their handles' homes where they can (native_map.h, D126); not under
// AddressSanitizer, whose records are each allocated by themselves.
constexpr bool kHomes = kRecordBlocks && MPIATTR_HOST_POINTER_HANDLES == 0;
constexpr std::size_t kLine = attr_store::kLine;
constexpr std::size_t kFirstBlockRecords = 8, kMaxBlockRecords = 1024;
// (A record's size is a multiple of its alignment, a line: record.h. Every kind's is the hot part.)
constexpr std::size_t kHotBytes = sizeof(comm_record), kColdBytes = sizeof(attr_object_cold);
static_assert(alignof(comm_record) == kLine && alignof(type_record) == kLine && alignof(win_record) == kLine);
static_assert(sizeof(type_record) == kHotBytes && sizeof(win_record) == kHotBytes);
static_assert(kHotBytes % alignof(attr_object_cold) == 0);
struct record_blocks {
  void* free[3];       // by kind: hot parts given back, linked through their first word
  char* next[3];       // the last block's first unused hot part
  char* end[3];        // and its end
  char* cold_next[3];  // the last block's first unused cold part
  std::size_t last[3];  // the records of the kind's last block (0: none yet)
  void* blocks[3];     // the kind's last block (its first word: the one before)
};
// Memory for one record: its hot part and its cold part.
struct record_place {
  void* hot;
  void* cold;
};

// Records of freed objects, kept for the next dup or first set: a dup + free of an object with a
// few attributes then allocates nothing. Below MPI_THREAD_MULTIPLE the pool keeps up to kPoolMax
// records per kind whose stores never grew beyond the inline chunk, and frees the others (their
// memory goes back to record_blocks' free list). At
// MPI_THREAD_MULTIPLE no record is ever freed (the threads' shared cache of records may still
// name it: native_map::find_shared): a large store is reset, and records beyond kPoolMax wait in
// a list linked through building_next (unused while a record is not being built).
constexpr std::size_t kPoolMax = 64;
struct record_pool {
  sync::spinlock mu;  // held for a few loads and stores
  attr_object* free[3][kPoolMax];  // by kind: comm, type, win
  std::size_t count[3];
  attr_object* more[3];  // at MPI_THREAD_MULTIPLE: the records beyond kPoolMax
  record_blocks blocks;
};
// Plain memory, constant-initialised: it stays usable during static teardown (host callbacks
// that free objects may still run then).
constinit record_pool g_pool{};
// Destroys record o and gives its memory back (to its kind's free list: record_blocks); _locked:
// with g_pool.mu held.
void release_record_locked(attr_object* o) {
  if constexpr (!kRecordBlocks) {
    delete o;
  } else {
    const int k = static_cast<int>(o->kind);
    attr_object_cold* cold = &o->cold();
    o->~attr_object();
    cold->~attr_object_cold();
    void** raw = reinterpret_cast<void**>(o);
    raw[0] = g_pool.blocks.free[k];
    raw[1] = cold;
    g_pool.blocks.free[k] = raw;
  }
}
void release_record(attr_object* o) {
  std::lock_guard lock(g_pool.mu);
  release_record_locked(o);
}
// Memory for a record of kind k: from the kind's free list, else its last block, else a new block.
// Throws std::bad_alloc when a block cannot be allocated (then nothing has changed).
record_place record_memory(int k) {
  record_blocks& b = g_pool.blocks;
  // The next record of the kind's last block (with the lock held; there is one).
  const auto carve = [&] {
    record_place p{b.next[k], b.cold_next[k]};
    b.next[k] += kHotBytes;
    b.cold_next[k] += kColdBytes;
    return p;
  };
  std::size_t want = 0;
  {
    std::lock_guard lock(g_pool.mu);
    if (void* raw = b.free[k]) {
      void** words = static_cast<void**>(raw);
      b.free[k] = words[0];
      return {raw, words[1]};
    }
    if (b.next[k] != b.end[k]) return carve();
    want = b.last[k] == 0 ? kFirstBlockRecords : std::min(2 * b.last[k], kMaxBlockRecords);
  }
  // (Allocated outside the lock; a thread that installed a block meanwhile is served first.)
  char* block =
      static_cast<char*>(::operator new(kLine + want * (kHotBytes + kColdBytes), std::align_val_t{kLine}));
  std::lock_guard lock(g_pool.mu);
  if (b.next[k] != b.end[k]) {  // (another thread's block: ours goes back)
    ::operator delete(block, std::align_val_t{kLine});
    return carve();
  }
  *reinterpret_cast<void**>(block) = b.blocks[k];
  b.blocks[k] = block;
  b.last[k] = want;
  b.next[k] = block + kLine;
  b.end[k] = block + kLine + want * kHotBytes;
  b.cold_next[k] = b.end[k];
  return carve();
}
template <object_kind K>
attr_object* make_record() {
  if constexpr (!kRecordBlocks) {
    return new record<K>;
  } else {
    const record_place p = record_memory(static_cast<int>(K));
    // (Neither constructor allocates.)
    return new (p.hot) record<K>(*new (p.cold) attr_object_cold);
  }
}
// Whether record o (its handle in `native`, awake or asleep) lies in its handle's home.
bool at_home(attr_object* o) {
  if constexpr (!kHomes) return false;
  const std::uintptr_t key = __atomic_load_n(&o->native, __ATOMIC_RELAXED) & ~record_map<comm_record>::kTags;
  switch (o->kind) {
    case object_kind::comm: return g_comms.at_home(key, static_cast<comm_record*>(o));
    case object_kind::type: return g_types.at_home(key, static_cast<type_record*>(o));
    case object_kind::win: return g_wins.at_home(key, static_cast<win_record*>(o));
    default: return false;
  }
}
void recycle(attr_object* o) {
  if (at_home(o)) {  // it stays in its home, empty, for the handle's next object (take_home)
    if (!o->attrs.reusable()) o->attrs.reset();
    o->attrs.freeing = false;
    __atomic_store_n(&o->native, std::uintptr_t{0}, __ATOMIC_RELEASE);
    return;
  }
  const int k = static_cast<int>(o->kind);
  const bool keep = sync::concurrent();
  if (!o->attrs.reusable()) {
    if (!keep) {
      release_record(o);
      return;
    }
    o->attrs.reset();  // back to a fresh store, as copy_plain_into expects
  }
  o->attrs.freeing = false;  // delete_all left it set; the store is empty
  __atomic_store_n(&o->native, std::uintptr_t{0}, __ATOMIC_RELEASE);
  std::lock_guard lock(g_pool.mu);
  if (g_pool.count[k] < kPoolMax) {
    g_pool.free[k][g_pool.count[k]++] = o;
  } else if (keep) {
    o->cold().building_next = g_pool.more[k];
    g_pool.more[k] = o;
  } else {
    release_record_locked(o);
  }
}

}  // namespace

// The record o of `key`, now empty (its object is being freed, or a dup copied nothing to it):
// asleep in its slot for the handle's next object (native_map::retire), or dropped.
void let_go(attr_object* o, object_kind kind, std::uintptr_t key) {
  o->attrs.freeing = false;  // (delete_all may have set it; the store is empty)
  if (o->attrs.reusable() && !o->predefined) {  // (MPI_Finalize's MPI_COMM_SELF and MPI_COMM_WORLD)
    bool asleep = false;
    switch (kind) {
      case object_kind::comm: asleep = g_comms.retire(key, static_cast<comm_record*>(o)); break;
      case object_kind::type: asleep = g_types.retire(key, static_cast<type_record*>(o)); break;
      case object_kind::win: asleep = g_wins.retire(key, static_cast<win_record*>(o)); break;
      default: break;
    }
    if (asleep) return;
  }
  with_map(kind, [&](auto& m) { recycle(m.erase(key)); });
}

namespace {

// Deletes the attributes (newest first) of record o, the record of `key`, and lets the record go.
// Returns the failure, if any.
status destroy_record(attr_object* o, object_kind kind, std::uintptr_t key) {
  if (status st = delete_all(*o); !st.is_ok()) return st;
  let_go(o, kind, key);
  return status::ok();
}
status destroy_record(object_kind kind, std::uintptr_t key) {
  attr_object* o = find(kind, key);
  return o == nullptr ? status::ok() : destroy_record(o, kind, key);
}

// mpiattr stops: MPI is no longer usable through either model. Records stay (no delete callback
// runs: R10.3, MPI-4.1 §11.3.1); what they hold is in the report.
void stop() {
  close_gate();  // (before g_fast: the gate is open only while g_fast is true)
  g_fast.store(false);
  g_fast_concurrent.store(false);
  g_state.store(kFinalized, std::memory_order_release);
  // MPIATTR_REPORT: what survives finalize's deletions, with the counts (docs/decisions.md D33).
  // (No host call: this may run inside the host's MPI_Finalize, from finalize_guard.)
  report::finish([](const std::function<void(const attr_object&)>& f) {
    g_comms.for_each([&](attr_object* o) { f(*o); });
    g_types.for_each([&](attr_object* o) { f(*o); });
    g_wins.for_each([&](attr_object* o) { f(*o); });
  });
}

// MPI_COMM_SELF's attributes, then MPI_COMM_WORLD's (as standalone, docs/decisions.md D18), while
// the host is fully alive; then mpiattr stops, unless a session is live (D57). MPI_COMM_SELF stays
// being freed until MPI_COMM_WORLD's are deleted too (MPI-4.1 §12.2.4, R10.1: MPI_Finalize frees it
// first), so a delete callback of MPI_COMM_WORLD's cannot put an attribute on it that nothing
// would delete (D133, as standalone: MPI_ERR_OTHER, "being freed").
status finalize_attributes() {
  attr_object* self = find(object_kind::comm, native(MPI_COMM_SELF));
  if (self != nullptr) {
    if (status st = delete_all(*self); !st.is_ok()) return st;  // (the store stays `freeing`)
  }
  g_self_freed.attrs.freeing = true;
  g_self_freeing.store(true, std::memory_order_release);
  if (status st = destroy_record(object_kind::comm, native(MPI_COMM_WORLD)); !st.is_ok()) {
    g_self_freeing.store(false, std::memory_order_release);  // (MPI stays initialised, D8)
    if (self != nullptr) let_go(self, object_kind::comm, native(MPI_COMM_SELF));  // (usable again)
    return st;
  }
  if (self != nullptr) let_go(self, object_kind::comm, native(MPI_COMM_SELF));
  std::lock_guard lock(g_start_mu);
  g_world.store(kWorldEnded, std::memory_order_release);
  if (g_sessions.load(std::memory_order_acquire) == 0) stop();
  return status::ok();
}

// The host is finalizing (its MPI_Finalize deletes MPI_COMM_SELF's attributes first).
int finalize_guard(MPI_Comm, int, void*, void*) {
  if (g_state.load(std::memory_order_acquire) != kRunning ||
      g_world.load(std::memory_order_acquire) != kWorldActive)
    return MPI_SUCCESS;
  status st = finalize_attributes();
  return st.is_ok() ? MPI_SUCCESS : host_code_of(st);
}

// Asks the host whether a handle is valid: a get under the probe keyval, for which the host
// raises its own error, through its handler, if it is not. Returns the host's code.
int host_probe(object_kind kind, std::uintptr_t key) {
  void* found = nullptr;
  int flag = 0;
  switch (kind) {
    case object_kind::comm: return MPIATTR_HOST_PMPI(MPI_Comm_get_attr)(from_native<MPI_Comm>(key), g_probe_comm, &found, &flag);
    case object_kind::type: return MPIATTR_HOST_PMPI(MPI_Type_get_attr)(from_native<MPI_Datatype>(key), g_probe_type, &found, &flag);
    case object_kind::win: return MPIATTR_HOST_PMPI(MPI_Win_get_attr)(from_native<MPI_Win>(key), g_probe_win, &found, &flag);
    default: return MPI_ERR_INTERN;
  }
}

// Over MPICH, the record of `key` in its home (native_map.h: homes, D126): made there the first
// time, or the empty one a freed object left there (recycle); nullptr when key has no home, or
// it is another handle's (or key's own asleep, which revive wakes instead).
template <object_kind K>
attr_object* take_home(std::uintptr_t key) {
  void* cold = nullptr;
  bool built = false;
  std::lock_guard lock(g_pool.mu);
  record<K>* h = records<K>().home_memory(key, &cold, &built);
  if (h == nullptr) return nullptr;
  if (!built)
    new (h) record<K>(*new (cold) attr_object_cold);  // (neither constructor allocates)
  else if (__atomic_load_n(&h->native, __ATOMIC_RELAXED) != 0)
    return nullptr;
  __atomic_store_n(&h->native, key, __ATOMIC_RELEASE);
  return h;
}

attr_object* take_record(object_kind kind, std::uintptr_t key) {
  attr_object* o = nullptr;
  if constexpr (kHomes) {
    switch (kind) {
      case object_kind::comm: o = take_home<object_kind::comm>(key); break;
      case object_kind::type: o = take_home<object_kind::type>(key); break;
      case object_kind::win: o = take_home<object_kind::win>(key); break;
      default: break;
    }
    if (o != nullptr) return o;
  }
  {
    const int k = static_cast<int>(kind);
    std::lock_guard lock(g_pool.mu);
    if (g_pool.count[k] != 0) {
      o = g_pool.free[k][--g_pool.count[k]];
    } else if (g_pool.more[k] != nullptr) {
      o = g_pool.more[k];
      g_pool.more[k] = o->cold().building_next;
      o->cold().building_next = nullptr;
    }
  }
  if (o != nullptr) {
    __atomic_store_n(&o->native, key, __ATOMIC_RELEASE);
    return o;
  }
  switch (kind) {
    case object_kind::comm: o = make_record<object_kind::comm>(); break;
    case object_kind::type: o = make_record<object_kind::type>(); break;
    case object_kind::win: o = make_record<object_kind::win>(); break;
    default: std::abort();
  }
  __atomic_store_n(&o->native, key, __ATOMIC_RELEASE);
  return o;
}

// A record for `key`, which the caller publishes (insert). `admitted`: the object was not made by a
// dup, so it may be a predefined one (which the fast free leaves to before_free).
attr_object* new_record(object_kind kind, std::uintptr_t key, bool admitted) {
  attr_object* o = take_record(kind, key);
  o->predefined = admitted && (kind == object_kind::comm ? key == native(MPI_COMM_WORLD) || key == native(MPI_COMM_SELF)
                                                         : kind == object_kind::type && host_predefined_type(key));
  if (report::on() && kind == object_kind::type) [[unlikely]] {  // MPIATTR_REPORT names a predefined datatype (D60)
    o->cold().name.clear();
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    if (o->predefined && PMPI_Type_get_name(from_native<MPI_Datatype>(key), name, &len) == MPI_SUCCESS && len > 0)
      o->cold().name.assign(name, static_cast<std::size_t>(len));
  }
  return o;
}

attr_object* revive(object_kind kind, std::uintptr_t key) {
  attr_object* o = nullptr;
  switch (kind) {
    case object_kind::comm: o = g_comms.revive(key); break;
    case object_kind::type: o = g_types.revive(key); break;
    case object_kind::win: o = g_wins.revive(key); break;
    default: break;
  }
  // Below MPI_THREAD_MULTIPLE a record asleep may still hold the plain attributes of the handle's
  // last object (host_glue.h: fast_free, D90); they go before the caller sees the record. (At
  // MPI_THREAD_MULTIPLE every free clears the record before it sleeps.)
  if (o != nullptr && !sync::concurrent() && o->attrs.size() != 0) o->attrs.drop_plain<false>();
  return o;
}

void insert(attr_object* o) {
  switch (o->kind) {
    case object_kind::comm: g_comms.insert(o->native, static_cast<comm_record*>(o)); break;
    case object_kind::type: g_types.insert(o->native, static_cast<type_record*>(o)); break;
    case object_kind::win: g_wins.insert(o->native, static_cast<win_record*>(o)); break;
    default: break;
  }
}

// The lazy keyval counts' census (keyval.h): attributes under keyval index `index` on every
// record of `kind`, and on those a dup is filling. A dup publishes its record (insert) before it
// leaves the dups in progress, so that each record is found in one place or the other.
void census(object_kind kind, std::uint32_t index) {
  census_in_construction(kind, index);  // (first its heavy fence: a lock-free dup or free from
                                        // now on sees the keyval counted, D73)
  with_map(kind, [&](auto& m) { m.for_each([&](attr_object* o) { census_one(*o, index); }); });
}

// Whether the host has communicators and windows whose handler was never set (MPICH: none is
// kept, and MPI_*_get_errhandler reads it as MPI_ERRORS_ARE_FATAL). The host sends its own errors
// on such an object to another communicator's handler (MPICH 4.0.2: MPI_COMM_WORLD's; later
// releases MPI_COMM_SELF's if it was set, else MPI_COMM_WORLD's), while MPI_*_call_errhandler on
// it is fatal; and once a handler is set on an object, no call makes it unset again (D101).
#ifndef MPIATTR_HOST_UNSET_HANDLERS
#define MPIATTR_HOST_UNSET_HANDLERS 0
#endif
constexpr bool kUnsetHandlers = MPIATTR_HOST_UNSET_HANDLERS != 0;

bool fatal_handler(MPI_Errhandler eh) {
#ifdef MPI_ERRORS_ABORT
  if (eh == MPI_ERRORS_ABORT) return true;
#endif
  return eh == MPI_ERRORS_ARE_FATAL;
}

// Where the host sends an error of its own that `provoke` makes it raise (D56, D101): to
// MPI_COMM_WORLD's handler, MPI_COMM_SELF's, or neither (the object's own). A temporary handler on
// each records the call, and the program's are put back. Putting a handler back must leave the
// host's routing as it was: it does on Open MPI, where every handler is one that was set; over a
// host with unset handlers, MPI_COMM_WORLD's does (MPICH sends every error on a world with none,
// and on objects that fall back to it, to MPI_ERRORS_ARE_FATAL, as with that set), and
// MPI_COMM_SELF's only when it reads as one that was set (not fatal): a fatal-reading
// MPI_COMM_SELF is left alone, since setting it would change where MPICH sends the errors of every
// object without a handler of its own (before D101 the probe did, and MPICH's own errors on
// MPI_COMM_SELF then ended the process instead of reaching MPI_COMM_WORLD's handler). An error the
// host then sends to that MPI_COMM_SELF ends the process there, as the error mpiattr is raising
// would have. Serialised: the handlers are swapped for the one host call, and at
// MPI_THREAD_MULTIPLE an error another thread raises on them meanwhile goes to the recorder (its
// call still returns its code).
enum class routed { world, self, elsewhere };
std::mutex g_route_mu;
std::atomic<int> g_probe_world_calls{0}, g_probe_self_calls{0};
void probe_on_world(MPI_Comm*, int*, ...) { g_probe_world_calls.fetch_add(1); }
void probe_on_self(MPI_Comm*, int*, ...) { g_probe_self_calls.fetch_add(1); }
template <typename Provoke>
routed host_route(Provoke provoke) {
  std::lock_guard lock(g_route_mu);
  MPI_Errhandler prog_world = MPI_ERRHANDLER_NULL, prog_self = MPI_ERRHANDLER_NULL;
  MPI_Errhandler on_world = MPI_ERRHANDLER_NULL, on_self = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &prog_world) != MPI_SUCCESS ||
      PMPI_Comm_get_errhandler(MPI_COMM_SELF, &prog_self) != MPI_SUCCESS ||
      PMPI_Comm_create_errhandler(probe_on_world, &on_world) != MPI_SUCCESS ||
      PMPI_Comm_create_errhandler(probe_on_self, &on_self) != MPI_SUCCESS)
    return routed::elsewhere;  // (not expected)
  const bool swap_self = !kUnsetHandlers || !fatal_handler(prog_self);
  g_probe_world_calls.store(0);
  g_probe_self_calls.store(0);
  PMPI_Comm_set_errhandler(MPI_COMM_WORLD, on_world);
  if (swap_self) PMPI_Comm_set_errhandler(MPI_COMM_SELF, on_self);
  provoke();
  PMPI_Comm_set_errhandler(MPI_COMM_WORLD, prog_world);
  if (swap_self) PMPI_Comm_set_errhandler(MPI_COMM_SELF, prog_self);
  PMPI_Errhandler_free(&on_world);
  PMPI_Errhandler_free(&on_self);
  if (!predefined_handler(prog_world)) PMPI_Errhandler_free(&prog_world);
  if (!predefined_handler(prog_self)) PMPI_Errhandler_free(&prog_self);
  const int w = g_probe_world_calls.load(), sf = g_probe_self_calls.load();
  return w == 1 && sf == 0 ? routed::world : sf == 1 && w == 0 ? routed::self : routed::elsewhere;
}

// The handler the host uses for its own errors with no communicator or window (D56): the host
// made to raise one (a get on MPI_DATATYPE_NULL: it changes nothing). MPICH 4.0.2 and Open MPI
// 4.1.4 use MPI_COMM_WORLD's (the MPI-3.1 rule, though MPICH declares MPI-4.0); a host that calls
// neither or both is given the standard's, MPI_COMM_SELF's (MPI-4.1 §10.3), for this error only
// (kUnmeasured: another thread's error may have reached a recorder too).
int measure_no_object_rule() {
  const routed r = host_route([] {
    void* found = nullptr;
    int flag = 0;
    MPIATTR_HOST_PMPI(MPI_Type_get_attr)(MPI_DATATYPE_NULL, g_probe_type, &found, &flag);
  });
  return r == routed::world ? kOnWorld : r == routed::self ? kOnSelf : kUnmeasured;
}

}  // namespace
// The Fortran bindings of host mode (host_fortran.cc), when the library has them.
[[gnu::weak]] void register_fortran();
namespace {

// Whether the host's World Model is between MPI_Init and MPI_Finalize.
bool host_world_up() {
  int initialized = 0, finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  return initialized && !finalized;
}

// mpiattr meets the World Model (at its start, or later if sessions started it): the finalize
// guard goes on MPI_COMM_SELF. Under g_start_mu, mpiattr running. Returns the host's code.
int begin_world() {
  if (int rc = MPIATTR_HOST_PMPI(MPI_Comm_set_attr)(MPI_COMM_SELF, g_finalize_guard, nullptr); rc != MPI_SUCCESS) return rc;
  g_world.store(kWorldActive, std::memory_order_release);
  return MPI_SUCCESS;
}

// The host's code when it refused what start() asks of it (0: it did not); see refused_code().
std::atomic<int> g_refused{0};

// Whether the World Model is active, noticing an MPI_Init that came after sessions started
// mpiattr (the host does not tell: MPI_Init is not this library's).
bool world_active() {
  const int w = g_world.load(std::memory_order_acquire);
  if (w != kWorldNever) return w == kWorldActive;
  std::lock_guard lock(g_start_mu);
  if (g_world.load(std::memory_order_acquire) == kWorldNever &&
      g_state.load(std::memory_order_acquire) == kRunning && host_world_up())
    begin_world();
  return g_world.load(std::memory_order_acquire) == kWorldActive;
}

[[gnu::cold]] bool start() {
  std::lock_guard lock(g_start_mu);
  const int s = g_state.load(std::memory_order_acquire);
  if (s != kNotStarted) return s == kRunning;
  // The World Model once finalized is not started again; live sessions are enough (D57).
  const bool world = g_world.load(std::memory_order_acquire) == kWorldNever && host_world_up();
  if (!world && g_sessions.load(std::memory_order_acquire) == 0) {
    g_refused.store(0, std::memory_order_release);  // (MPI is not running: nothing was refused)
    return false;
  }
  int level = host_thread_single;
  PMPI_Query_thread(&level);
  sync::set_concurrent(level == host_thread_multiple);  // the level the host provides (R11)
  if (level == host_thread_multiple) asymmetric::enable();  // (or the dups and frees lock)
  register_language(language::c, &g_c_binding);
  if (register_fortran) register_fortran();
  keyvals().set_attribute_census(census);
  // mpiattr's own allocations at its start (D85): none without MPIATTR_REPORT (the D56 probe, the
  // finalize guard and the host keyvals below are the host's allocations; the host's routines were
  // resolved with dlsym at their first call). With it, the report's records and a record per kind:
  // the report is a diagnostic the program's caching does not need, so when they cannot be
  // allocated mpiattr starts without it and says so, rather than fail the program's call (whose
  // error could only go to the initial handler, fatal: no handler of the host's can be chosen
  // before mpiattr has probed the host's policy, D56).
  int rank = g_session_rank, size = g_session_size;
  if (world) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  bool reporting = false;
  try {
    if (report::requested()) {
      // MPIATTR_REPORT names the dup that made an object (D60): every dup and free must pass
      // through after_dup and before_free, which no_records() skips while a kind has no record. A
      // record per kind under a key no host handle is (an address of this library's) keeps that
      // test false while reporting, at no cost when not. Made before the report starts, once.
      static const char pin = 0;
      const auto key = reinterpret_cast<std::uintptr_t>(&pin);
      for (object_kind k : {object_kind::comm, object_kind::type, object_kind::win}) {
        if (find(k, key) != nullptr) continue;  // (pinned by a start the host refused after it)
        attr_object* o = new_record(k, key, false);
        try {
          insert(o);
        } catch (...) {  // (out of memory: the table is as it was)
          recycle(o);
          throw;
        }
      }
    }
    // MPIATTR_REPORT: every call is to be counted, so none may take a fast path (report.h). It
    // makes its records all or none.
    reporting = report::start(rank, size, kHostName);
  } catch (...) {
    std::fprintf(stderr, "mpiattr: MPIATTR_REPORT: out of memory while setting up the report; mpiattr runs "
                         "without it (docs/decisions.md D85)\n");
    std::fflush(stderr);
  }
  // mpiattr's own host keyvals. The host refuses them only when it is out of memory itself (D66):
  // the routine that started mpiattr then returns the host's code, which the host's handler has
  // had, and the next caching call tries again, from nothing.
  int rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &g_probe_comm, nullptr);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &g_probe_type, nullptr);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &g_probe_win, nullptr);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_guard, &g_finalize_guard, nullptr);
  if (rc == MPI_SUCCESS && world) rc = begin_world();
  if (rc != MPI_SUCCESS) {
    for (int* k : {&g_probe_comm, &g_finalize_guard})
      if (*k != MPI_KEYVAL_INVALID) MPIATTR_HOST_PMPI(MPI_Comm_free_keyval)(k);
    if (g_probe_type != MPI_KEYVAL_INVALID) MPIATTR_HOST_PMPI(MPI_Type_free_keyval)(&g_probe_type);
    if (g_probe_win != MPI_KEYVAL_INVALID) MPIATTR_HOST_PMPI(MPI_Win_free_keyval)(&g_probe_win);
    g_probe_comm = g_probe_type = g_probe_win = g_finalize_guard = MPI_KEYVAL_INVALID;
    g_refused.store(rc, std::memory_order_release);
    return false;
  }
  g_refused.store(0, std::memory_order_release);
  // (The record caches' set 0 holds no empty entry before a fast path may look in it, D84; over
  // MPICH the homes are reserved, D126.)
  g_comms.seal();
  g_types.seal();
  g_wins.seal();
  g_fast.store(level != host_thread_multiple && !reporting);
  if (level != host_thread_multiple && !reporting) open_gate();  // (after g_fast)
  g_fast_concurrent.store(level == host_thread_multiple && !reporting);
  g_state.store(kRunning, std::memory_order_release);
  return true;
}

// The message of `code`: mpiattr's for a code mpiattr made, the host's for any other (a code a
// user callback returned is the host's, R4.5, and only the host knows its numbering).
void message_of(int code, char (&text)[MPI_MAX_ERROR_STRING]) {
  int len = 0;
  if (errors::made_code(code) ? errors::string_of(code, text, sizeof text, &len)
                              : MPIATTR_HOST_PMPI(MPI_Error_string)(code, text, &len) == MPI_SUCCESS)
    return;
  std::snprintf(text, sizeof text, "error code %d", code);
}
[[gnu::cold]] void print_fatal(int code, const char* routine) {
  char text[MPI_MAX_ERROR_STRING];
  message_of(code, text);
  std::fprintf(stderr, "mpiattr: fatal error in %s: %s\n", routine, text);
  std::fflush(stderr);
}

// The host's own code for what `code` says: the host's value of the class for a code mpiattr made
// (the host can decode no mpiattr code), any other code (a callback's own, the host's) as it is.
int host_code_for(int code) {
  if (!errors::made_code(code)) return code;
  int cls = 0;
  errors::class_of(code, &cls);
  return host_class(cls);
}

// Where an error that belongs to no communicator or window goes (datatypes, keyvals, null
// handles): where the host sends its own (measure_no_object_rule; docs/decisions.md D4, D56).
// Programs written for the host set MPI_ERRORS_RETURN there alone and expect the code back.
// Measured when first needed, not when mpiattr starts (D101): over MPICH that needs no handler of
// the program's set or put back while none of its errors is being raised.
MPI_Comm no_object_comm() {
  int rule = g_no_object_rule.load(std::memory_order_acquire);
  if (rule == kUnmeasured) {
    rule = measure_no_object_rule();
    if (rule != kUnmeasured) g_no_object_rule.store(rule, std::memory_order_release);
  }
  return rule == kOnWorld ? MPI_COMM_WORLD : MPI_COMM_SELF;
}

// The code the program gets for `code` (D87): for a code mpiattr made, one the host added to the
// error class (issue_code: the host's MPI_Error_class classes it, this library's MPI_Error_string
// gives mpiattr's message), or the bare host class when the host gives none; any other code (a
// callback's own, R4.5; a bare class) as it is.
[[gnu::cold]] int issued(int code) {
  if (!errors::made_code(code)) return code;
  int cls = 0;
  errors::class_of(code, &cls);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  errors::string_of(code, text, sizeof text, &len);
  // (A refused code raises on the handler of the host's errors with no object: silenced for the
  // call below MPI_THREAD_MULTIPLE; at it another thread's errors there could be lost.)
  const MPI_Comm quiet = sync::concurrent() || !world_active() ? MPI_COMM_NULL : no_object_comm();
  return issue_code(cls, host_class(cls), text, quiet);
}

// The code to call the host's error handler `eh` with, for `code` (D56), and the code the program
// gets back (*out). A fatal handler (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT) is to end the process
// as the host does for its own errors: mpiattr's message, naming the routine, is printed first
// (the host's handler prints the class's text and cannot say in which routine the error was
// raised), then the handler gets the host's own code for the error's class, which it takes its
// exit status from (a code the host added would give Open MPI's exit status the code's value, 0
// for code 512: D83). Any other handler gets the code the program gets (issued). Frees eh's
// reference.
int code_for_handler(MPI_Errhandler eh, int code, int* out, const char* routine) {
  const bool fatal = fatal_handler(eh);
  if (!predefined_handler(eh)) PMPI_Errhandler_free(&eh);
  if (!fatal) return *out = issued(code);
  print_fatal(code, routine);
  return host_code_for(code);
}
// Over a host with unset handlers, where the host sends its own errors on an object whose handler
// reads as fatal (D101): maybe to MPI_COMM_WORLD's or MPI_COMM_SELF's handler (it had none set),
// which matters only when one of those does not end the process. `provoke` makes the host raise
// an error of its own on the object. MPI_COMM_NULL: the object's own handler.
template <typename Provoke>
MPI_Comm unset_handler_target(Provoke provoke) {
  if constexpr (!kUnsetHandlers) {
    return MPI_COMM_NULL;
  } else {
    MPI_Errhandler w = MPI_ERRHANDLER_NULL, sf = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &w);
    PMPI_Comm_get_errhandler(MPI_COMM_SELF, &sf);
    const bool any_not_fatal = !fatal_handler(w) || !fatal_handler(sf);
    if (!predefined_handler(w)) PMPI_Errhandler_free(&w);
    if (!predefined_handler(sf)) PMPI_Errhandler_free(&sf);
    if (!any_not_fatal) return MPI_COMM_NULL;  // every way, the process ends
    switch (host_route(provoke)) {
      case routed::world: return MPI_COMM_WORLD;
      case routed::self: return MPI_COMM_SELF;
      default: return MPI_COMM_NULL;
    }
  }
}
void call_comm_handler(MPI_Comm c, int code, int* out, const char* routine) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  PMPI_Comm_get_errhandler(c, &eh);
  if (throwing_handler(eh)) {  // (as the host's own errors under it: returned, thrown in MPI::)
    *out = issued(code);
    return;
  }
  if (kUnsetHandlers && eh == MPI_ERRORS_ARE_FATAL && c != MPI_COMM_WORLD) {
    const MPI_Comm to = unset_handler_target([c] {
      void* found = nullptr;
      int flag = 0;
      MPIATTR_HOST_PMPI(MPI_Comm_get_attr)(c, MPI_KEYVAL_INVALID, &found, &flag);
    });
    if (to != MPI_COMM_NULL && to != c) {
      call_comm_handler(to, code, out, routine);
      return;
    }
  }
  PMPI_Comm_call_errhandler(c, code_for_handler(eh, code, out, routine));
}
// An error with no object while only sessions are live: no MPI_COMM_SELF to take it (MPI-4.1
// §11.3.1 gives sessions' errors to the session's handler, and a caching routine names none), so
// the initial handler, MPI_ERRORS_ARE_FATAL, as MPICH 4.0.2 does with an error of its own there
// (its message, then the job ends with the error's class as exit status).
[[noreturn, gnu::cold]] void fatal_without_world(int code, const char* routine) {
  print_fatal(code, routine);
  int cls = MPI_ERR_OTHER;
  PMPI_Error_class(host_code_for(code), &cls);
  std::_Exit(cls > 0 && cls < 256 ? cls : 1);
}
void call_win_handler(MPI_Win w, int code, int* out, const char* routine) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  PMPI_Win_get_errhandler(w, &eh);
  if (throwing_handler(eh)) {  // (as in call_comm_handler)
    *out = issued(code);
    return;
  }
  if (kUnsetHandlers && eh == MPI_ERRORS_ARE_FATAL) {
    const MPI_Comm to = unset_handler_target([w] {
      void* found = nullptr;
      int flag = 0;
      MPIATTR_HOST_PMPI(MPI_Win_get_attr)(w, MPI_KEYVAL_INVALID, &found, &flag);
    });
    if (to != MPI_COMM_NULL) {
      call_comm_handler(to, code, out, routine);
      return;
    }
  }
  PMPI_Win_call_errhandler(w, code_for_handler(eh, code, out, routine));
}

}  // namespace

// ---- host_glue.h ----

bool ready() {
  if (g_state.load(std::memory_order_acquire) == kRunning) [[likely]] return true;
  return start();
}

int refused_code() { return g_refused.load(std::memory_order_acquire); }

attr_object* find(object_kind kind, std::uintptr_t key) {
  switch (kind) {
    case object_kind::comm: return g_comms.lookup(key);
    case object_kind::type: return g_types.lookup(key);
    case object_kind::win: return g_wins.lookup(key);
    default: return nullptr;
  }
}

attr_object* admit(object_kind kind, std::uintptr_t key, bool create, int* host_code) {
  // MPI_COMM_SELF with no record, which MPI_Finalize has freed: no attribute can be added (D133).
  if (create && kind == object_kind::comm && key == native(MPI_COMM_SELF) &&
      g_self_freeing.load(std::memory_order_acquire)) [[unlikely]]
    return &g_self_freed;
  // MPI_Init after sessions started mpiattr: the finalize guard before MPI_COMM_SELF's first
  // attribute (MPI_Finalize must delete it).
  if (kind == object_kind::comm && (key == native(MPI_COMM_SELF) || key == native(MPI_COMM_WORLD)))
    world_active();
  if (int rc = host_probe(kind, key); rc != MPI_SUCCESS) {
    *host_code = rc;
    return nullptr;
  }
  if (!create) {
    switch (kind) {
      case object_kind::comm: return &g_no_comm_attrs;
      case object_kind::type: return &g_no_type_attrs;
      default: return &g_no_win_attrs;
    }
  }
  std::lock_guard lock(g_admit_mu);
  if (attr_object* o = find(kind, key)) return o;  // another thread admitted it meanwhile
  if (attr_object* o = revive(kind, key)) {  // (a predefined object's record never sleeps, but
    // Open MPI's MPI_Type_create_f90_* may give a predefined datatype a freed one's address)
    if (kind == object_kind::type) o->predefined = host_predefined_type(key);
    return o;
  }
  attr_object* o = new_record(kind, key, true);
  try {
    insert(o);
  } catch (...) {  // out of memory (D61): no record, and the caller's entry point says so
    recycle(o);
    throw;
  }
  return o;
}

int raise(object_kind kind, std::uintptr_t key, bool has_target, status st, const char* routine) {
  int code = detail::last_user_code();  // a callback's own code (the host's) is passed on (R4.5)
  if (code == 0) {
    code = errors::make_code(st.error_class(), routine);
    // Out of memory even for the message (D61): the bare class, which is the host's to give.
    if (code == st.error_class()) code = host_class(code);
  }
  detail::clear_last();
  if (g_state.load(std::memory_order_acquire) != kRunning) {
    // Before MPI_Init and after MPI_Finalize no handler can run: the initial one is fatal.
    print_fatal(code, routine);
    std::_Exit(1);
  }
  int out = -1;  // the code the program gets (the handler's, unless that was fatal and returned)
  if (has_target && kind == object_kind::win)
    call_win_handler(from_native<MPI_Win>(key), code, &out, routine);
  else if (has_target && kind == object_kind::comm)
    call_comm_handler(from_native<MPI_Comm>(key), code, &out, routine);
  else if (!world_active())  // sessions alone: the initial handler, fatal, as the host's (D57)
    fatal_without_world(code, routine);
  else  // datatypes, keyvals, null handles: the host's handler for its own such errors (D56)
    call_comm_handler(no_object_comm(), code, &out, routine);
  return out != -1 ? out : host_code_for(code);
}

int after_dup(object_kind kind, const char* routine, std::uintptr_t old, std::uintptr_t fresh,
              bool* undo) {
  if (g_state.load(std::memory_order_acquire) != kRunning) return MPI_SUCCESS;
  report::object_made(kind, fresh, routine);  // (MPIATTR_REPORT names the dup, D60)
  attr_object* from = find(kind, old);
  if (from == nullptr) return MPI_SUCCESS;  // no mpiattr attribute to copy
  // The record the handle's last object left asleep, awake (and so findable by the census) from
  // now on; or a new one, published once it holds something.
  attr_object* to = revive(kind, fresh);
  const bool awake = to != nullptr;
  if (!awake) {
    try {
      to = new_record(kind, fresh, false);
    } catch (...) {  // out of memory (D61): the host's new object goes, nothing was copied
      status st = from_exception("the new object's record");
      *undo = true;
      return raise(kind, old, kind != object_kind::type, st, routine);
    }
  }
  status st;
  {
    // (An awake record is findable by the census already: no need to register it.)
    std::optional<dup_in_progress> building;
    if (!awake) building.emplace(*from, *to);
    st = copy_all(*from, *to);  // (out of memory: a failure that copied nothing, D61)
    if (st.is_ok() && to->attrs.size() != 0) {
      if (awake) return MPI_SUCCESS;
      try {
        insert(to);  // (before `building` ends: the census finds it in one place or the other)
        return MPI_SUCCESS;
      } catch (...) {
        // Out of memory for the table's growth (D61): the copies made go, their delete callbacks
        // run (as for a failing copy callback, D10), and so does the host's new object.
        st = from_exception("the table of objects with attributes");
        (void)delete_all(*to);
      }
    }
  }
  // Nothing was copied, or copy_all failed and left it with no attribute: no record.
  if (awake)
    let_go(to, kind, fresh);
  else
    recycle(to);
  if (st.is_ok()) return MPI_SUCCESS;
  *undo = true;
  return raise(kind, old, kind != object_kind::type, st, routine);
}

int before_free(object_kind kind, const char* routine, std::uintptr_t key) {
  if (g_state.load(std::memory_order_acquire) != kRunning) return MPI_SUCCESS;
  if (kind == object_kind::comm && (key == native(MPI_COMM_WORLD) || key == native(MPI_COMM_SELF)))
    // Erroneous (MPI-4.1 §8.4.3): refused before any attribute is deleted, as standalone does.
    return raise(kind, key, true, mpiattr::fail(kErrComm, "a predefined communicator cannot be freed"), routine);
  attr_object* o = find(kind, key);
  if (o == nullptr) {  // no mpiattr attribute: the host frees (or refuses)
    report::object_gone(kind, key);  // (its handle may come back, made by another routine: D60)
    return MPI_SUCCESS;
  }
  if (kind == object_kind::type && o->predefined)  // (new_record: admitted predefined datatypes)
    return raise(kind, key, false, mpiattr::fail(kErrType, "a predefined datatype cannot be freed"), routine);
  if (status st = destroy_record(o, kind, key); !st.is_ok())
    return raise(kind, key, kind != object_kind::type, st, routine);  // the object stays (R4.5)
  report::object_gone(kind, key);
  return MPI_SUCCESS;
}

bool host_predefined_type(std::uintptr_t key) {
  if (predefined_type(key)) return true;
  // (The host's combiners, at global scope: inside namespace mpiattr the names are the core's.)
  int ni = 0, na = 0, nd = 0, combiner = -1;
  if (PMPI_Type_get_envelope(from_native<MPI_Datatype>(key), &ni, &na, &nd, &combiner) != MPI_SUCCESS) return false;
  return combiner == ::MPI_COMBINER_NAMED || combiner == ::MPI_COMBINER_F90_REAL ||
         combiner == ::MPI_COMBINER_F90_COMPLEX || combiner == ::MPI_COMBINER_F90_INTEGER;
}

#if MPIATTR_HOST_CONTENTS_SHARES_HANDLES
std::atomic<bool> g_shared_types{false};
namespace {
// The references MPI_Type_get_contents gave out and no free has released yet: (handle, count).
// Few and short-lived (a library decodes a datatype and frees what it got), so a vector.
std::mutex g_shared_mu;
std::vector<std::pair<std::uintptr_t, std::uint32_t>> g_shared;
// A handle MPICH counts references to: a derived datatype (kinds direct and indirect, the top two
// bits 10 and 11; its predefined ones are kind builtin, 01).
bool counted_handle(MPI_Datatype t) { return (static_cast<std::uint32_t>(t) >> 30) >= 2; }
// The entry of `key`, or g_shared.end() (requires g_shared_mu).
auto shared_entry(std::uintptr_t key) {
  return std::find_if(g_shared.begin(), g_shared.end(), [key](const auto& e) { return e.first == key; });
}
}  // namespace

bool release_shared_type(std::uintptr_t key) {
  std::lock_guard lock(g_shared_mu);
  auto it = shared_entry(key);
  if (it == g_shared.end()) return false;
  if (--it->second == 0) {
    *it = g_shared.back();
    g_shared.pop_back();
  }
  g_shared_types.store(!g_shared.empty(), std::memory_order_relaxed);
  return true;
}
#endif

int after_get_contents([[maybe_unused]] MPI_Datatype datatype, [[maybe_unused]] MPI_Datatype* types,
                       [[maybe_unused]] MPI_Count max_datatypes, [[maybe_unused]] const char* routine) {
#if MPIATTR_HOST_CONTENTS_SHARES_HANDLES
  if (types == nullptr || max_datatypes <= 0) return MPI_SUCCESS;
  // How many the host wrote: the envelope's count (the rest of the array is the program's).
  // (The large-count envelope where the host has it: a datatype built with counts beyond int has
  // no int one.)
#if MPIATTR_HOST_HAS_MPI_Type_get_contents_c
  MPI_Count ni = 0, na = 0, nl = 0, nd = 0;
  int combiner = -1;
  if (PMPI_Type_get_envelope_c(datatype, &ni, &na, &nl, &nd, &combiner) != MPI_SUCCESS) return MPI_SUCCESS;
#else
  int ni = 0, na = 0, nd = 0, combiner = -1;
  if (PMPI_Type_get_envelope(datatype, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return MPI_SUCCESS;
#endif
  const MPI_Count n = std::min<MPI_Count>(nd, max_datatypes);
  return mpiattr::guarded(
      [&]() -> int {
        std::lock_guard lock(g_shared_mu);
        g_shared.reserve(g_shared.size() + static_cast<std::size_t>(n));  // (the one allocation)
        for (MPI_Count i = 0; i < n; ++i) {
          if (!counted_handle(types[i])) continue;
          const std::uintptr_t key = native(types[i]);
          auto it = shared_entry(key);
          if (it != g_shared.end()) ++it->second;
          else g_shared.emplace_back(key, 1u);
        }
        g_shared_types.store(!g_shared.empty(), std::memory_order_relaxed);
        return MPI_SUCCESS;
      },
      [&](status st) {
        // Nothing counted: the host's references go back, and the program gets no handle.
        for (MPI_Count i = 0; i < n; ++i) {
          if (counted_handle(types[i])) MPIATTR_HOST_PMPI(MPI_Type_free)(&types[i]);
          types[i] = MPI_DATATYPE_NULL;
        }
        return raise(object_kind::type, native(datatype), false, st, routine);
      });
#else
  return MPI_SUCCESS;
#endif
}

int before_finalize() {
  // A program that made no caching call has not started mpiattr; MPIATTR_REPORT still reports.
  if (g_state.load(std::memory_order_acquire) == kNotStarted && report::requested()) ready();
  if (g_state.load(std::memory_order_acquire) != kRunning) return MPI_SUCCESS;
  if (status st = finalize_attributes(); !st.is_ok())
    return raise(object_kind::comm, native(MPI_COMM_SELF), true, st, "MPI_Finalize");
  return MPI_SUCCESS;
}

#if MPIATTR_HOST_HAS_MPI_Session_init
void after_session_init(MPI_Session session) {
  // The first session, a report asked: the process's place in mpi://WORLD names it, if MPI_Init
  // is not called before mpiattr starts.
  if (g_sessions.fetch_add(1, std::memory_order_acq_rel) == 0 && report::requested() &&
      g_state.load(std::memory_order_acquire) == kNotStarted) {
    MPI_Group g = MPI_GROUP_NULL;
    if (PMPI_Group_from_session_pset(session, "mpi://WORLD", &g) == MPI_SUCCESS) {
      PMPI_Group_rank(g, &g_session_rank);
      PMPI_Group_size(g, &g_session_size);
      PMPI_Group_free(&g);
    }
  }
}

void before_session_finalize() {
  // A program that made no caching call has not started mpiattr; MPIATTR_REPORT still reports,
  // and the last model's end is where (as before_finalize).
  if (g_state.load(std::memory_order_acquire) == kNotStarted && report::requested()) ready();
}

void after_session_finalize() {
  std::lock_guard lock(g_start_mu);
  // The last session with the World Model never active or ended: MPI is not usable any more.
  if (g_sessions.fetch_sub(1, std::memory_order_acq_rel) == 1 &&
      g_world.load(std::memory_order_acquire) != kWorldActive && !host_world_up() &&
      g_state.load(std::memory_order_acquire) == kRunning)
    stop();
}
#endif

void release(object_kind kind, std::uintptr_t key) {
  if (kind == object_kind::comm) {
    comm_object c;
    c.native = key;
    g_life.comm_release(c);
  } else if (kind == object_kind::type) {
    type_object t;
    t.native = key;
    g_life.type_release(t);
  }
}

}  // namespace mpiattr::host

// For mpiattr's MPI:: glue built over this host (libmpiattr_cxx_<host>): free a keyval's C++
// callback state with the keyval record (bindings_c/c_callbacks.h). Not part of the MPI interface.
extern "C" MPIATTR_EXPORT int mpiattr_keyval_set_release(int keyval,
                                                         mpiattr::ccallbacks::state_release fn) {
  return mpiattr::ccallbacks::set_release(keyval, fn);
}
// And the memory of that state, counted by the allocation switch; out of memory raised on the
// handler the host uses for its own errors with no object (c_callbacks.h; D56, D64).
extern "C" MPIATTR_EXPORT void* mpiattr_keyval_state_alloc(std::size_t bytes, const char* routine, int* code) {
  return mpiattr::ccallbacks::keyval_state_alloc<mpiattr::host::call>(bytes, routine, code);
}
