// runtime_host/host_glue.h: the host runtime as the generated entry points (functions.cc) see it.
//
// Everything in runtime_host/ is compiled once per host MPI, against that host's mpi.h, so that
// MPI_Comm, the callback typedefs and the constants are the host's. The core's headers come first:
// its constants are C++ names (mpiattr::MPI_ERR_KEYVAL) that the host's macros of the same names
// would rewrite, so after mpi.h this code names mpiattr's error classes only through the k*
// constants captured below, and every MPI_* name it writes is the host's.
#pragma once
#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "mpiattr/api.h"
#include "mpiattr/attributes.h"
#include "mpiattr/errors.h"
#include "mpiattr/keyval.h"
#include "mpiattr/object.h"
#include "native_map.h"
#include "record.h"

namespace mpiattr::host {
// mpiattr's error classes (the spec's values), as the core reports them.
inline constexpr int kErrArg = mpiattr::MPI_ERR_ARG, kErrComm = mpiattr::MPI_ERR_COMM,
                     kErrType = mpiattr::MPI_ERR_TYPE, kErrWin = mpiattr::MPI_ERR_WIN,
                     kErrOther = mpiattr::MPI_ERR_OTHER, kErrIntern = mpiattr::MPI_ERR_INTERN;
}  // namespace mpiattr::host

#include <mpi.h>  // the host's

#include "c_callbacks.h"  // after mpi.h: the C callbacks, and handles from integers

#define MPIATTR_EXPORT __attribute__((visibility("default")))

namespace mpiattr::host {

// The host's own definition of a routine this library defines under both names (MPI_X and
// PMPI_X: the dup, free, finalize and error routines, docs/host.md "Objects"): the next one after
// this library in the search order, or, when the host comes first (a program linked with -lmpi
// before -lmpiattr_<host>), the first one. Never this library's own, which would recurse.
[[gnu::cold, gnu::noinline]] inline void* resolve_host(const char* name, void* self) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == nullptr || f == self) f = dlsym(RTLD_DEFAULT, name);
  if (f == nullptr || f == self) {
    std::fprintf(stderr, "mpiattr: the host MPI's %s is not found after libmpiattr in the search order\n", name);
    std::abort();
  }
  return f;
}
// A routine's name as a template argument.
template <std::size_t N>
struct routine_name {
  char text[N];
  constexpr routine_name(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};
// The host's routine `Name` (Self: this library's routine of that signature). One pointer per
// routine for the whole library, which starts at a trampoline that resolves the routine, stores
// it and calls it: a call through it is one indirect call with nothing to check, so the entry
// points that pass a call on keep no stack frame (a guarded static would need one, for the first
// call's initialisation). Threads that race on the first call store the same value.
template <routine_name Name, auto Self>
struct host_slot;
template <routine_name Name, typename R, typename... A, R (*Self)(A...)>
struct host_slot<Name, Self> {
  using fn_t = R (*)(A...);
  [[gnu::cold, gnu::noinline]] static R first(A... a) {
    const auto f = reinterpret_cast<fn_t>(resolve_host(Name.text, reinterpret_cast<void*>(Self)));
    __atomic_store_n(&fn, f, __ATOMIC_RELAXED);
    return f(a...);
  }
  static inline fn_t fn = &first;
};
template <routine_name Name, auto Self>
inline decltype(Self) host_routine() {
  return __atomic_load_n(&host_slot<Name, Self>::fn, __ATOMIC_RELAXED);
}
// MPIATTR_HOST_PMPI(MPI_Comm_free): the host's PMPI_Comm_free.
#define MPIATTR_HOST_PMPI(name) (::mpiattr::host::host_routine<"P" #name, &name>())

// Whether mpiattr created `keyval`: its handles are 0x40000000 | generation << 20 | index with
// index >= 16 (keyval.h). Neither host issues such a value (docs/host.md): MPICH's predefined
// keys have index < 16 and its created keyvals bit 31 set; Open MPI's keyvals are small integers.
MPIATTR_HOT bool owned(int keyval) {
  return (keyval & 0xC0000000) == 0x40000000 &&
         (static_cast<std::uint32_t>(keyval) & 0xFFFFFu) >= keyval_registry::kFirstUserIndex;
}

// Whether a caching call with `keyval` goes to the host untouched: a keyval mpiattr did not
// create. MPI_KEYVAL_INVALID is no keyval of anyone's: mpiattr rejects it with MPI_ERR_KEYVAL
// itself (Open MPI alone answers MPI_ERR_OTHER).
MPIATTR_HOT bool to_host(int keyval) { return !owned(keyval) && keyval != MPI_KEYVAL_INVALID; }

// A host handle as an integer, and back.
template <typename H>
MPIATTR_HOT std::uintptr_t native(H h) {
  if constexpr (std::is_pointer_v<H>)
    return reinterpret_cast<std::uintptr_t>(h);
  else
    return static_cast<std::uintptr_t>(static_cast<std::make_unsigned_t<H>>(h));
}
template <typename H>
MPIATTR_HOT H from_native(std::uintptr_t n) {
  return ccallbacks::as_handle<H>(n);
}

template <object_kind K> struct kind_traits;
template <> struct kind_traits<object_kind::comm> {
  using object = comm_record;  // (host mode's record: record.h)
  using handle = MPI_Comm;
};
template <> struct kind_traits<object_kind::type> {
  using object = type_record;
  using handle = MPI_Datatype;
};
template <> struct kind_traits<object_kind::win> {
  using object = win_record;
  using handle = MPI_Win;
};

// ---- the runtime (host_runtime.cc) ----
// The records of the host objects that carry mpiattr attributes, by host handle.
// Over MPICH a record's home holds its cold part too (native_map.h: homes, D126).
template <typename R>
using record_map = native_map<R, no_map_hooks, MPIATTR_HOST_POINTER_HANDLES != 0, sizeof(attr_object_cold)>;
extern record_map<comm_record> g_comms;
extern record_map<type_record> g_types;
extern record_map<win_record> g_wins;
template <object_kind K> inline auto& records() {
  if constexpr (K == object_kind::comm) return g_comms;
  else if constexpr (K == object_kind::type) return g_types;
  else return g_wins;
}
// Whether the fast paths may run: mpiattr started and the host provides less than
// MPI_THREAD_MULTIPLE, so that no two MPI calls overlap (as standalone, D19).
extern std::atomic<bool> g_fast;
// Whether the thread-safe fast get may run: mpiattr started, at MPI_THREAD_MULTIPLE.
extern std::atomic<bool> g_fast_concurrent;
// The gate of the fast get and set below MPI_THREAD_MULTIPLE (D89): open exactly while g_fast is
// true (opened after g_fast is set, closed before it is cleared), and read as part of the keyval's
// check (keyval_registry::live_user_gated) rather than as a flag of its own: open, it gives each
// kind's hot row of keyvals and the index mask; closed (its constant initial value), a row that
// no keyval matches. So a fast get or set tests nothing but its keyval, record and slot, and at
// MPI_THREAD_MULTIPLE it declines at the keyval, two instructions later than a flag would say so.
struct fast_gate {
  std::atomic<const void*> rows[3];  // by object_kind: comm, type, win
  std::atomic<std::size_t> mask;
};
extern fast_gate g_gate;
void open_gate();   // (host_runtime.cc)
void close_gate();

bool ready();                  // MPI initialised and not finalised; sets up mpiattr on first use
// After ready() failed: the host's error code if the host refused what mpiattr sets up for itself
// (its own keyvals; out of memory, D66), which the host's handler has had; 0 if MPI is not
// initialised, or finalised.
int refused_code();
attr_object* find(object_kind kind, std::uintptr_t native);
// The record of a valid host object with no record yet: registers one (set) after checking the
// handle with the host, or (get, delete) checks it and gives an empty record. Returns nullptr
// with *host_code set when the host rejected the handle (its error handler has run).
attr_object* admit(object_kind kind, std::uintptr_t native, bool create, int* host_code);
// Raises `st` (or the code a user callback returned) on the error handler of the object
// (kind, native) — MPI_COMM_SELF's when there is none or it is a datatype — and returns the code.
int raise(object_kind kind, std::uintptr_t native, bool has_target, status st, const char* routine);
int after_dup(object_kind kind, const char* routine, std::uintptr_t old, std::uintptr_t fresh,
              bool* undo);
int before_free(object_kind kind, const char* routine, std::uintptr_t native);
// The record o of `native`, emptied: asleep for the handle's next object, or dropped.
void let_go(attr_object* o, object_kind kind, std::uintptr_t native);
void release(object_kind kind, std::uintptr_t native);  // frees a host object (undoing a dup)
int before_finalize();
#if MPIATTR_HOST_HAS_MPI_Session_init
// The host made a session (this library's MPI_Session_init), or is about to finalize one and has
// (MPI_Session_finalize): mpiattr runs while a session is live, with or without the World Model
// (docs/decisions.md D57).
void after_session_init(MPI_Session session);
void before_session_finalize();
void after_session_finalize();
#endif
// MPICH's MPI::ERRORS_THROW_EXCEPTIONS (a C handle in its mpi.h): MPICH's C routines return
// their code under it and its MPI:: wrappers throw; MPICH calls no handler, and its
// MPI_Comm_call_errhandler with a code the host added prints an "INTERNAL ERROR" line.
inline bool throwing_handler([[maybe_unused]] MPI_Errhandler eh) {
#ifdef MPIR_ERRORS_THROW_EXCEPTIONS
  return eh == MPIR_ERRORS_THROW_EXCEPTIONS;
#else
  return false;
#endif
}
// The handlers PMPI_Comm_get_errhandler gives without a reference to free.
inline bool predefined_handler(MPI_Errhandler eh) {
  return eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN || eh == MPI_ERRHANDLER_NULL ||
         throwing_handler(eh)
#ifdef MPI_ERRORS_ABORT
         || eh == MPI_ERRORS_ABORT
#endif
      ;
}

// The codes mpiattr returns over a host are the host's (host_codes.cc, D87): per class a ring of
// codes the host added, found again through a table of their values (code << 32 | class << 8 |
// slot; 0: empty), written under a lock and read without one. g_code_range is the lowest code
// added << 32 | the highest less the lowest; before any, it holds 0x80000000 alone, which is no
// code (codes are not negative).
inline constexpr std::uint64_t kNoCodeRange = std::uint64_t{0x80000000u} << 32;
inline constexpr unsigned kCodeTable = 4096;
extern std::atomic<std::uint64_t> g_code_range;
extern std::atomic<std::uint64_t> g_code_table[kCodeTable];
inline unsigned code_hash(std::uint32_t code) { return (code * 0x9E3779B1u) >> 20; }
static_assert(kCodeTable == 1u << 12, "code_hash gives 12 bits");
// The table's entry for `code`, or 0 when mpiattr did not issue it. A host code outside the range
// of mpiattr's (every code before mpiattr's first failure, and the hosts' own codes: MPICH's
// classes and encoded codes, Open MPI's classes below the added ones) costs a load, a subtraction
// and one unsigned compare.
MPIATTR_HOT std::uint64_t issued_entry(int code) {
  const std::uint64_t r = g_code_range.load(std::memory_order_relaxed);
  const auto u = static_cast<std::uint32_t>(code);
  if (u - static_cast<std::uint32_t>(r >> 32) > static_cast<std::uint32_t>(r)) [[likely]] return 0;
  for (unsigned i = code_hash(u);; i = (i + 1) & (kCodeTable - 1)) {
    const std::uint64_t e = g_code_table[i].load(std::memory_order_acquire);
    if (e == 0) return 0;
    if (static_cast<std::uint32_t>(e >> 32) == u) return e;
  }
}
// Whether mpiattr issued `code` (MPI_Error_string answers it, the host every other).
MPIATTR_HOT bool owns_code(int code) { return issued_entry(code) != 0; }
// The code to return for a failure of mpiattr's class `cls` (the host's value host_cls) with the
// message `text`: one of the class's ring, or host_cls when no code can be had. `quiet`: the
// communicator whose handler the host raises a refused MPI_Add_error_code on, set to
// MPI_ERRORS_RETURN for the call (MPI_COMM_NULL: left alone, at MPI_THREAD_MULTIPLE).
int issue_code(int cls, int host_cls, const char* text, MPI_Comm quiet) noexcept;
// MPI_Error_string of a code owns_code says mpiattr issued: out of line, so that the entry point's
// path for the host's codes keeps no stack frame (a compare and a tail call, D74).
[[gnu::cold, gnu::noinline]] int error_string(int code, char* string, int* resultlen);

// The predefined callbacks and error classes as the host's mpi.h defines them (generated).
extern const predefined_callback host_predefined_callbacks[];
extern const std::size_t host_predefined_callback_count;
struct class_pair {
  int mpiattr_class;
  int host_class;
};
extern const class_pair host_error_classes[];
extern const std::size_t host_error_class_count;
bool predefined_type(std::uintptr_t datatype);
// Whether a datatype the program names is predefined: one of the spec's in the host's mpi.h
// (predefined_type), or one the host's envelope says is, MPI_COMBINER_NAMED (MPI_UB, MPIX_C_FLOAT16,
// MPI_2COMPLEX) or MPI_COMBINER_F90_* (what MPI_Type_create_f90_* return). D132.
bool host_predefined_type(std::uintptr_t datatype);

// MPICH's MPI_Type_get_contents gives back the constituents' own handles, one more reference to
// each (D132): after the host's call, mpiattr counts them (and for a failure to count, out of
// memory, gives the references back, leaves MPI_DATATYPE_NULL in `types` and raises
// MPI_ERR_NO_MEM); a free of such a handle releases one of them and deletes no attribute, the
// object living on under the program's other handle. Nothing over Open MPI, whose contents are
// new datatypes.
int after_get_contents(MPI_Datatype datatype, MPI_Datatype* types, MPI_Count max_datatypes,
                       const char* routine);
#if MPIATTR_HOST_CONTENTS_SHARES_HANDLES
extern std::atomic<bool> g_shared_types;  // some such reference is counted
bool release_shared_type(std::uintptr_t datatype);
#endif
// Whether the free of *h releases a reference MPI_Type_get_contents gave out (then the host frees
// and mpiattr deletes nothing): one relaxed load while none is counted.
template <object_kind K, typename H>
MPIATTR_HOT bool shared_reference([[maybe_unused]] const H* h) {
#if MPIATTR_HOST_CONTENTS_SHARES_HANDLES
  if constexpr (K == object_kind::type) {
    if (g_shared_types.load(std::memory_order_relaxed)) [[unlikely]]
      return h != nullptr && release_shared_type(native(*h));
  }
#endif
  return false;
}

// What a generated entry point uses, as cbind::call in the C bindings.
class call {
 public:
  explicit call(const char* routine) : routine_(routine) {}

  MPIATTR_HOT bool usable() {
    if (ready()) [[likely]] return true;
    host_code_ = refused_code();  // (then fail() returns it: the host's handler has run)
    if (host_code_ == 0) pending_ = mpiattr::fail(kErrOther, "MPI is not initialized, or has been finalized");
    return false;
  }

  // The record of the object `h` names, for a caching call on it (see admit).
  template <object_kind K>
  MPIATTR_HOT typename kind_traits<K>::object* object(typename kind_traits<K>::handle h,
                                                     const char* name, bool create) {
    using T = typename kind_traits<K>::object;
    if (h == null_handle<K>()) [[unlikely]] {
      pending_ = mpiattr::fail(null_class<K>(), "%s is %s", name, null_name<K>());
      return nullptr;
    }
    kind_ = K;
    native_ = native(h);
    has_target_ = K != object_kind::type;
    // (Through the cache the fast paths read, which keeps what it finds: native_map::lookup.)
    if (T* o = records<K>().lookup(native_)) [[likely]] return o;
    return static_cast<T*>(admit(K, native_, create, &host_code_));
  }

  // Runs a routine's body, which returns its error code. No exception leaves an entry point (D61):
  // one the body throws (std::bad_alloc: out of memory) is MPI_ERR_NO_MEM (anything else
  // MPI_ERR_INTERN), raised through the handler of the object the body had looked up, as the
  // standalone entry points do (bindings_c/c_glue.h).
  template <typename Body>
  MPIATTR_HOT int guarded(Body&& body) {
    return mpiattr::guarded(body, [this](status st) { return fail(st); });
  }

  int fail() { return host_code_ != 0 ? host_code_ : raise(kind_, native_, has_target_, pending_, routine_); }
  int fail(status st) { return raise(kind_, native_, has_target_, st, routine_); }
  [[gnu::cold, gnu::noinline]] int null_pointer(const char* name) {
    return fail(mpiattr::fail(kErrArg, "%s is a NULL pointer", name));
  }

 private:
  template <object_kind K> static typename kind_traits<K>::handle null_handle() {
    if constexpr (K == object_kind::comm) return MPI_COMM_NULL;
    else if constexpr (K == object_kind::type) return MPI_DATATYPE_NULL;
    else return MPI_WIN_NULL;
  }
  template <object_kind K> static int null_class() {
    return K == object_kind::comm ? kErrComm : K == object_kind::type ? kErrType : kErrWin;
  }
  template <object_kind K> static const char* null_name() {
    return K == object_kind::comm ? "MPI_COMM_NULL" : K == object_kind::type ? "MPI_DATATYPE_NULL" : "MPI_WIN_NULL";
  }

  const char* routine_;
  object_kind kind_ = object_kind::comm;
  std::uintptr_t native_ = 0;
  bool has_target_ = false;
  int host_code_ = 0;
  status pending_;
};

// The fast paths of get and set (as the standalone runtime's, mpiattr/fast.h): the whole call for
// a recorded object and a live mpiattr keyval of its kind (keyval.h: live_user), with a slot that
// exists; otherwise false, with nothing changed, and the entry point takes its checked path.
// Below MPI_THREAD_MULTIPLE (Concurrent false) the gate (g_gate) is open, the record comes from
// the cache in front of the record table (over MPICH from the handle's home, D126:
// native_map::find_hot), and the slot is read and written directly. The fast paths read the cache
// alone: a call of the table's probe would cost every call a stack frame (six instructions, D69);
// when the cache does not know the handle, their checked path probes the table and tries again
// (refilled, fortran_refilled; D69, and for Fortran D89).
// At it (Concurrent true: the entry point has checked g_fast_concurrent) the record comes from
// the cache the threads share (its entries checked against the record's handle,
// native_map::find_shared), a get reads under the store's sequence counter and a set takes the
// store's lock.
// The keyval's check, through the gate: the kind's hot row (in *row) and the index.
template <object_kind K>
MPIATTR_HOT bool gated_keyval(int keyval, const void** row, std::uint32_t* index) {
  *row = g_gate.rows[static_cast<int>(K)].load(std::memory_order_relaxed);
  return keyval_registry::live_user_gated(*row, g_gate.mask.load(std::memory_order_relaxed), keyval, index);
}
template <bool Concurrent, object_kind K, typename H>
MPIATTR_HOT typename kind_traits<K>::object* fast_target(H h, int keyval, std::uint32_t* index) {
  if constexpr (Concurrent) {
    if (!keyvals().live_user(keyval, K, index)) return nullptr;
    return records<K>().find_shared(native(h));
  } else {
    // (The handle as the cache compares it, made first: GCC otherwise copies the argument's
    // register away for the keyval's check, then copies it again to widen it.)
    std::uintptr_t key = native(h);
    asm("" : "+r"(key));
    const void* row;
    if (!gated_keyval<K>(keyval, &row, index)) return nullptr;
    return records<K>().find_hot(key);
  }
}
// Whether a fast path that read the cache alone should be tried again: below
// MPI_THREAD_MULTIPLE, the cache did not know h; now it does (the table was probed, and what it
// holds for h, a record or none, is in the cache). The checked paths of the C get and set ask
// first (functions.cc.j2), so a program whose calls visit more objects than the cache holds pays
// the probe, not the checked path (D63, D69). Over MPICH there is nothing to fill: a record the
// fast path did not find in its handle's home is not there (D126), and the checked path finds it.
template <object_kind K, typename H>
[[gnu::always_inline]] inline bool refilled(H h) {
  if constexpr (MPIATTR_HOST_POINTER_HANDLES == 0) return false;
  if (!g_fast.load(std::memory_order_relaxed)) return false;
  typename kind_traits<K>::object* o;
  if (records<K>().cached(native(h), &o)) return false;
  return records<K>().find_unsynchronised(native(h)) != nullptr;
}
// A get's flag: one store of a constant in each branch (a volatile store, which GCC neither merges
// into a store of a register loaded with the constant nor moves out of line; fast.h's put_flag).
template <typename F>
MPIATTR_HOT void put_flag(F* flag, F value) {
  *static_cast<volatile F*>(flag) = value;
}
template <bool Concurrent, object_kind K, typename H>
MPIATTR_HOT bool fast_get(H h, int keyval, void* attribute_val, int* flag) {
  std::uint32_t index;
  if (attribute_val == nullptr || flag == nullptr) return false;
  auto* o = fast_target<Concurrent, K>(h, keyval, &index);
  if (o == nullptr) return false;
  if constexpr (Concurrent) {
    attr_read r;
    o->attrs.read(index, &r);
    if (r.found) *static_cast<void**>(attribute_val) = r.as_c();
    *flag = r.found;
  } else {
    // (The hit on a value C wrote is one compare of the slot's tag, D82.)
    if (o->attrs.read_c_unsynchronised(index, static_cast<void**>(attribute_val))) [[likely]]
      put_flag(flag, 1);
    else
      put_flag(flag, 0);
  }
  return true;
}
// The C handle of a Fortran one, for the Fortran entry points' fast paths (D68). MPICH's f2c is
// the integer itself (a macro); Open MPI's PMPI_XXX_f2c is a call that checks MPI's state, the
// table's bounds and whether threads are in use before it reads ompi_XXX_f_to_c_table, some 30
// instructions per get, which put a Fortran get over Open MPI at twice a C one. So over Open MPI a
// direct-mapped cache per kind answers for the Fortran handles (Open MPI's are indices into its
// table) of objects that carry mpiattr attributes. An entry is filled only below
// MPI_THREAD_MULTIPLE (g_fast is checked first: fortran_refilled), by the host's own f2c,
// and only while the object's record is awake; and every free of an object of the kind that this
// library sees (MPI_XXX_free and PMPI_XXX_free, MPI_Comm_disconnect, in any language) moves the
// kind's generation on, which empties the cache. A Fortran handle names another object only once
// the host has destroyed the first, which happens at or after its free: so an entry can never
// give the handle's earlier object. (The entry's tag is the generation and the handle: zero
// pages, generation 0, match nothing; the generation skips 0 when it wraps, clearing the table.)
#if defined(OMPI_MAJOR_VERSION)
inline constexpr bool kFortranHandleCache = true;
#else
inline constexpr bool kFortranHandleCache = false;
#endif
template <object_kind K>
struct fortran_handles {
  using H = typename kind_traits<K>::handle;
  static constexpr std::size_t kSize = 1024;  // Open MPI's first 1024 handles of the kind
  struct entry {
    std::uint64_t tag;
    H handle;
  };
  static inline entry table[kSize];
  // The generation, in the tag's high half (so that a tag is this ORed with the handle).
  static constexpr std::uint64_t kGeneration = std::uint64_t{1} << 32;
  static inline std::atomic<std::uint64_t> generation{kGeneration};
  static std::uint64_t tag(MPI_Fint f) {
    return generation.load(std::memory_order_relaxed) | static_cast<std::uint32_t>(f);
  }
  // A free of an object of this kind (any thread level: a lost increment between two threads'
  // frees is one generation, which still differs from every filled entry's).
  MPIATTR_HOT static void forget() {
    if constexpr (kFortranHandleCache) {
      const std::uint64_t g = generation.load(std::memory_order_relaxed) + kGeneration;
      if (g == 0) [[unlikely]] {
        wrap();
        return;
      }
      generation.store(g, std::memory_order_relaxed);
    }
  }
  [[gnu::cold, gnu::noinline]] static void wrap() {
    for (entry& e : table) e.tag = 0;
    generation.store(kGeneration, std::memory_order_relaxed);
  }
  // Below MPI_THREAD_MULTIPLE only (the caller has checked g_fast, or found the gate open).
  // known: the C handle of f in *out if the cache holds it (over MPICH always: f2c is the integer
  // itself), with no call, for the fast paths; to_c: the C handle, filling the cache.
  template <typename F2c>
  MPIATTR_HOT static bool known(MPI_Fint f, F2c f2c, H* out) {
    if constexpr (!kFortranHandleCache) {
      *out = f2c(f);
      return true;
    } else {
      const entry& e = table[static_cast<std::uint32_t>(f) & (kSize - 1)];
      if (e.tag != tag(f)) return false;
      *out = e.handle;
      return true;
    }
  }
  template <typename F2c>
  MPIATTR_HOT static H to_c(MPI_Fint f, F2c f2c) {
    if constexpr (!kFortranHandleCache) {
      return f2c(f);
    } else {
      entry& e = table[static_cast<std::uint32_t>(f) & (kSize - 1)];
      if (e.tag == tag(f)) [[likely]] return e.handle;
      return fill(e, f, f2c);
    }
  }
  template <typename F2c>
  [[gnu::noinline]] static H fill(entry& e, MPI_Fint f, F2c f2c) {
    const H h = f2c(f);
    if (records<K>().find_unsynchronised(native(h)) != nullptr) e = entry{tag(f), h};
    return h;
  }
};
template <object_kind K>
MPIATTR_HOT void forget_fortran_handles() {
  fortran_handles<K>::forget();
}

// The set below MPI_THREAD_MULTIPLE on o, the record, under the keyval the gate's `row` accepted
// with `index`: a live keyval is never counted there, so a new attribute only notes that the keyval
// was used.
template <typename T>
MPIATTR_HOT bool put_unsynchronised(T* o, const void* row, std::uint32_t index, attribute_value v) {
  auto added = [index] {
    keyvals().note_used(index);
    return false;
  };
  return o->attrs.template put_fast<false>(index, v, keyval_registry::hot_flags_gated(row, index), added) !=
         attr_store::fast_put::not_done;
}
// fast_set of a value of any origin.
template <bool Concurrent, object_kind K, typename H>
MPIATTR_HOT bool fast_put(H h, int keyval, attribute_value v) {
  std::uint32_t index;
  if constexpr (Concurrent) {
    auto* o = fast_target<true, K>(h, keyval, &index);
    if (o == nullptr) return false;
    // (A concurrent free of the keyval may have started its census: attach.)
    auto added = [index] { return keyvals().attach(index); };
    return o->attrs.template put_fast<true>(index, v, keyvals().hot_flags(K, index), added) !=
           attr_store::fast_put::not_done;
  } else {
    const void* row;
    if (!gated_keyval<K>(keyval, &row, &index)) return false;
    auto* o = records<K>().find_hot(native(h));
    if (o == nullptr) return false;
    return put_unsynchronised(o, row, index, v);
  }
}
template <bool Concurrent, object_kind K, typename H>
MPIATTR_HOT bool fast_set(H h, int keyval, void* attribute_val) {
  return fast_put<Concurrent, K>(h, keyval, attribute_value::from_c(attribute_val));
}

// The Fortran entry points' get and set below MPI_THREAD_MULTIPLE (fortran.cc.j2; D63, D89): as
// fast_get and fast_put, the Fortran handle f converted after the keyval's check (a closed gate
// declines before it: over Open MPI the host's f2c is not paid twice, here and on the checked
// path) and only through the cache of Fortran handles (fortran_handles::known), so that nothing is
// called and the entry point keeps no stack frame; when either cache does not know the handle,
// the checked path fills them and tries again (fortran_refilled). The value converts for V,
// INTEGER(KIND=MPI_ADDRESS_KIND) or INTEGER (MPI_ATTR_GET, R7.1), from the word whoever wrote it
// (R7.3, as the standalone Fortran get: f_glue.h), the flag a LOGICAL of this compiler (FTrue,
// FFalse). fortran_target: the record, after the keyval's check (the kind's row and the index).
template <object_kind K, typename F2c>
MPIATTR_HOT typename kind_traits<K>::object* fortran_target(MPI_Fint f, F2c f2c, int keyval, const void** row,
                                                           std::uint32_t* index) {
  if (!gated_keyval<K>(keyval, row, index)) return nullptr;
  typename kind_traits<K>::handle h;
  if (!fortran_handles<K>::known(f, f2c, &h)) return nullptr;
  return records<K>().find_hot(native(h));
}
template <object_kind K, int FTrue, int FFalse, typename F2c, typename V>
MPIATTR_HOT bool fast_get_fortran(MPI_Fint f, F2c f2c, int keyval, V* value, MPI_Fint* flag) {
  std::uint32_t index;
  const void* row;
  auto* o = fortran_target<K>(f, f2c, keyval, &row, &index);
  if (o == nullptr) return false;
  aint word;
  if (o->attrs.read_word_unsynchronised(index, &word)) [[likely]] {
    if constexpr (std::is_same_v<V, MPI_Fint>) *value = attribute_value(word, origin::c_address).as_fortran_int();
    else *value = word;
    put_flag(flag, MPI_Fint{FTrue});
  } else {
    put_flag(flag, MPI_Fint{FFalse});
  }
  return true;
}
template <object_kind K, typename F2c>
MPIATTR_HOT bool fast_put_fortran(MPI_Fint f, F2c f2c, int keyval, attribute_value v) {
  std::uint32_t index;
  const void* row;
  auto* o = fortran_target<K>(f, f2c, keyval, &row, &index);
  if (o == nullptr) return false;
  return put_unsynchronised(o, row, index, v);
}
// What the checked path of a Fortran get or set asks first (fortran.cc.j2), as refilled for C:
// below MPI_THREAD_MULTIPLE, when the cache of Fortran handles or the record cache did not know
// the handle, fills them (the host's f2c, the table's probe) and says whether the fast path may
// now find its record. So a Fortran program whose calls visit more objects than the caches hold
// pays the fill, not the checked path (D63). Over MPICH, whose Fortran handles are its C handles,
// nothing (refilled).
template <object_kind K, typename F2c>
[[gnu::always_inline]] inline bool fortran_refilled(MPI_Fint f, F2c f2c) {
  if constexpr (MPIATTR_HOST_POINTER_HANDLES == 0) return false;
  if (!g_fast.load(std::memory_order_relaxed)) return false;
  typename kind_traits<K>::handle h;
  const bool knew = fortran_handles<K>::known(f, f2c, &h);
  if (!knew) h = fortran_handles<K>::to_c(f, f2c);  // (fills the entry when h has a record)
  typename kind_traits<K>::object* o;
  if (knew && records<K>().cached(native(h), &o)) return false;  // (both knew it: nothing new)
  return records<K>().find_unsynchronised(native(h)) != nullptr &&
         (!kFortranHandleCache || fortran_handles<K>::known(f, f2c, &h));
}

// MPI_XXX_CREATE_KEYVAL and MPI_XXX_FREE_KEYVAL below MPI_THREAD_MULTIPLE (keyval.h: create_fast,
// free_fast): true when done.
template <object_kind K, typename Copy, typename Delete>
MPIATTR_HOT bool fast_create_keyval(Copy* copy_fn, Delete* delete_fn, int* keyval, void* extra_state) {
  if (!g_fast.load(std::memory_order_relaxed) || keyval == nullptr) return false;
  return keyvals().create_fast(K, language::c, reinterpret_cast<fnptr>(copy_fn),
                               reinterpret_cast<fnptr>(delete_fn), reinterpret_cast<aint>(extra_state),
                               keyval);
}
template <object_kind K>
MPIATTR_HOT bool fast_free_keyval(int* keyval) {
  if (!g_fast.load(std::memory_order_relaxed) || keyval == nullptr) return false;
  if (!keyvals().free_fast(K, keyval)) return false;
  *keyval = MPI_KEYVAL_INVALID;  // the host's value (the core wrote mpiattr's, 0)
  return true;
}

// Whether no object of kind K has a record: a dup or free then is the host's alone (the entry
// point makes it a tail call). At MPI_THREAD_MULTIPLE a first attribute set by another thread
// during the call is ordered after it, as two concurrent calls may be.
template <object_kind K>
MPIATTR_HOT bool no_records() {
  return records<K>().size() == 0;
}

// After the host duplicated `old` into *fresh (and, for MPI_Comm_idup, started *request): copies
// mpiattr's attributes through their copy callbacks. On a callback failure the new object is
// freed through the host (after completing the request) and set to the null handle (R4.5).
// Dup and free below MPI_THREAD_MULTIPLE, where nothing can observe their steps, when the cache in
// front of the record table (native_map::cached) knows the objects: the whole of mpiattr's part
// of the call when the object has no record (the host's objects mpiattr has nothing on), or when
// every attribute is plain (attr_store::all_plain: copied by MPI_XXX_DUP_FN, no delete callback,
// no keyval reference). Then a dup copies to the record the fresh handle's last object left asleep
// (native_map::revive_unsynchronised), over what that object left in it, and a free puts the
// record to sleep with its plain attributes in place (retire_at; D90): neither takes the table's lock nor reads the thread level, which
// g_fast implies. True when done; false, having changed nothing, when the general path must do it.
//
// At MPI_THREAD_MULTIPLE the same cases: a dup copies, under the source's store lock, into the
// record the fresh handle's last object left asleep, and wakes it; a free clears the record and
// puts it to sleep. A free does not take the store's lock: the object's other writers are the
// census and calls on the object being freed, which are erroneous. What keeps the census out is
// native_map's protocol without a lock (revive_lock_free, retire_lock_free: a busy mark and
// asymmetric fences), where the kernel provides those fences and the record holds a sleep token;
// else one hold of the record table's lock (revive_with, retire_with), which the census holds
// while it visits the records. One lock round trip for the dup and free of an object with one
// attribute (three with the table's lock; the general path takes five).
// The free of h, which has no record: mpiattr has no attribute to delete and the host frees (or
// refuses), except MPI_COMM_WORLD and MPI_COMM_SELF, which before_free refuses itself (false).
template <object_kind K>
MPIATTR_HOT bool host_frees_alone(std::uintptr_t h) {
  if constexpr (K == object_kind::comm) return h != native(MPI_COMM_WORLD) && h != native(MPI_COMM_SELF);
  return true;
}
template <object_kind K>
[[gnu::noinline]] bool fast_dup_concurrent(std::uintptr_t old, std::uintptr_t fresh) {
  auto* from = records<K>().find_shared(old);
  if (from == nullptr) return true;  // no mpiattr attribute to copy
  auto fill = [from](typename kind_traits<K>::object* to) {
    const attr_store& s = from->attrs;
    std::lock_guard lock(s.mutex());
    // (A census that has begun is seen here: counting(). Under the table's lock, one that has
    // passed this table; without it, one that has made its heavy fence.)
    if (!s.all_plain() || !s.all_inline() || s.size() == 0 || keyvals().counting()) return false;
    s.copy_plain_into(to->attrs);  // (allocates nothing: all_inline, D93)
    return true;
  };
  // (The lock-free form finds what the locked one would: only a call on `fresh`, which no other
  // thread has yet, could change whether its record sleeps.)
  if (asymmetric::enabled()) return records<K>().revive_lock_free(fresh, fill);
  return records<K>().revive_with(fresh, fill);
}
template <object_kind K>
[[gnu::noinline]] bool fast_free_concurrent(std::uintptr_t h) {
  auto* o = records<K>().find_shared(h);
  if (o == nullptr) return host_frees_alone<K>(h);
  if (o->predefined) return false;
  auto empty = [](typename kind_traits<K>::object* r) {
    attr_store& s = r->attrs;
    if (!s.all_plain() || s.freeing || !s.inline_only()) return false;
    s.template drop_plain<true>();
    return true;
  };
  // Without the lock while the record holds a sleep token and no census has begun; otherwise (its
  // first sleep, or a census) under it.
  if (asymmetric::enabled() &&
      records<K>().retire_lock_free(h, o, [&](typename kind_traits<K>::object* r) {
        return !keyvals().counting() && empty(r);
      }))
    return true;
  return records<K>().retire_with(h, o, empty);
}

template <object_kind K>
MPIATTR_HOT bool fast_dup(std::uintptr_t old, std::uintptr_t fresh) {
  if (!g_fast.load(std::memory_order_relaxed)) return false;
  typename kind_traits<K>::object* from;
  if (!records<K>().cached(old, &from)) return false;
  if (from == nullptr) return true;  // no mpiattr attribute to copy
  const attr_store& s = from->attrs;
  // (A source with attributes beyond its inline chunk takes the general path: its copy allocates,
  // and may fail, which after_dup's general path reports having changed nothing, D93.)
  if (!s.all_plain() || !s.all_inline() || s.size() == 0 || keyvals().counting()) return false;
  auto* to = records<K>().revive_unsynchronised(fresh);
  if (to == nullptr) return false;
  s.copy_plain_over(to->attrs);  // (over what the fast free left in it, D90)
  return true;
}
template <object_kind K>
MPIATTR_HOT bool fast_free(std::uintptr_t h) {
  if (!g_fast.load(std::memory_order_relaxed)) return false;
  typename kind_traits<K>::object* o;
  void* const entry = records<K>().cached_at(h, &o);
  if (entry == nullptr) return false;
  if (o == nullptr) return host_frees_alone<K>(h);
  if (o->predefined) return false;  // (before_free refuses it)
  attr_store& s = o->attrs;
  if (!s.all_plain() || s.freeing || !s.inline_only()) return false;
  // The record sleeps with its plain attributes in place (D90): no lookup returns a record asleep,
  // the next fast dup to the handle copies over them (attr_store::copy_plain_over), and every
  // other wake clears them first (host_runtime.cc: revive). (The entry cached_at found: nothing
  // has changed the map since.)
  if (!records<K>().retire_at(entry, h, o)) [[unlikely]] {
    s.template drop_plain<false>();
    let_go(o, K, h);
  }
  return true;
}

template <object_kind K, typename H>
int after_dup(const char* routine, H old, H* fresh, MPI_Request* request) {
  if (fast_dup<K>(native(old), native(*fresh))) [[likely]] return MPI_SUCCESS;
  if (g_fast_concurrent.load(std::memory_order_relaxed) && fast_dup_concurrent<K>(native(old), native(*fresh)))
    return MPI_SUCCESS;
  bool undo = false;
  const int rc = after_dup(K, routine, native(old), native(*fresh), &undo);
  if (undo) {
    if (request != nullptr) {
      PMPI_Wait(request, MPI_STATUS_IGNORE);  // (not a routine this library defines)
      *request = MPI_REQUEST_NULL;
    }
    release(K, native(*fresh));  // through the host (lifecycle.h)
    if constexpr (K == object_kind::comm) *fresh = MPI_COMM_NULL;
    else *fresh = MPI_DATATYPE_NULL;
  }
  return rc;
}

// Before the host frees `h`: runs mpiattr's delete callbacks; on a failure the object stays.
template <object_kind K, typename H>
int before_free(const char* routine, H h) {
  if (fast_free<K>(native(h))) [[likely]] return MPI_SUCCESS;
  if (g_fast_concurrent.load(std::memory_order_relaxed) && fast_free_concurrent<K>(native(h))) return MPI_SUCCESS;
  return before_free(K, routine, native(h));
}

}  // namespace mpiattr::host
