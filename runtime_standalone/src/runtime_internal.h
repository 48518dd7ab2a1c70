// What the standalone runtime's files, one per chapter, share: object helpers, type maps, checks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mpiattr/runtime.h"
#include "mpiattr/api.h"
#include "mpiattr/runtime_api.h"
#include "mpiattr/attributes.h"
#include "mpiattr/errors.h"

namespace mpiattr {

namespace h = gen::handle;

// A new object, and the end of one never published or just unpublished. Datatypes come from and
// go back to a pool of freed ones (datatypes.cc, D72): a dup + free or a constructor + free then
// neither allocates nor zeroes the object; the others are new and delete.
template <typename T>
T* make_object() {
  return new T;
}
template <typename T>
void discard(T* o) noexcept {
  delete o;
}
template <>
type_object* make_object<type_object>();  // (std::bad_alloc when the pool is empty and memory is)
template <>
void discard<type_object>(type_object* t) noexcept;

// Publishes a new object in its table (its handle in `out`), or discards it when the table is full.
template <typename T>
status insert_new(object_table<T>& table, T* obj, handle_t& out, const char* what) {
  if (table.insert(obj) == 0) {
    discard(obj);
    return fail(MPI_ERR_INTERN, "too many %s", what);
  }
  if constexpr (std::is_base_of_v<attr_object, T>) report::object_made(obj->kind, obj->handle);  // (D60)
  out = obj->handle;
  return status::ok();
}

inline errhandler_object* builtin_eh(handle_t which) { return rt().errhandlers.lookup(which); }

// Flushes what the program wrote before the process ends without exit() (environment.cc).
void flush_output();

// The lazy keyval counts' census, installed by MPI_Init (lifecycle.cc).
void census(object_kind kind, std::uint32_t index);

// delete_all for a free or MPI_Finalize, naming what a failed delete callback was on (lifecycle.cc).
status delete_attributes(attr_object& o);

// A communicator's hints (info.cc, D45): the standalone lifecycle's dup copies them and its
// release drops them; MPI_Comm_dup_with_info replaces a dup's with its info's.
void comm_hints_copy(const comm_object& from, comm_object& to);
void comm_hints_drop(const comm_object& comm);
void comm_hints_replace(const comm_object& comm, handle_t info);

// A live session's error handler, or nullptr when `session` is not a live session; and setting a
// live session's (sessions.cc, D49).
errhandler_object* session_eh_of(handle_t session);
// A session begins, at thread level `level`: sets the runtime up if no model has yet, and makes
// MPI usable; and a session ended: with the last, unless the World Model is active, MPI is
// usable no more until the next MPI_Session_init or MPI_Init (environment.cc, D49).
status session_begin(int level);
void session_end();
void session_eh_store(handle_t session, errhandler_object* e);

// Files (files.cc, D107): an open file's error handler (nullptr when `fh` is no open file), and
// setting it (false: no open file); and MPI_FILE_NULL's, which a file gets when it is opened
// (error_handling.cc, MPI-4.1 §15.7).
errhandler_object* file_eh_of(handle_t fh);
bool file_eh_store(handle_t fh, errhandler_object* e);
errhandler_object* file_default_eh();
// "external32" in files (external32.cc): whether t's basic elements have their memory sizes in
// external32 (else MPI_ERR_UNSUPPORTED_DATAREP); t's extent in an external32 file; and `items`
// packed items of t converted in place, to external32 or back (t checked by external32_same_size).
status external32_same_size(const type_object& t);
status external32_extent(const type_object& t, aint& extent);
void external32_swap(const type_object& t, char* packed, aint items, bool to_external);

// The buffers of communicators and sessions (requests.cc, D55): a communicator derived from one
// made from a session's group derives from that session too; a freed communicator's buffer and a
// finalized session's are detached.
namespace p2p {
void buffer_comm_derived(const comm_object& parent, const comm_object& fresh);
void buffer_comm_of_session(const comm_object& comm, handle_t session);
void buffer_comm_released(const comm_object& comm);
void buffer_session_finalized(handle_t session);
}  // namespace p2p

// Integer-valued predefined attributes behave as if set by Fortran MPI_ATTR_PUT (R7.5).
inline void set_int(predefined_values& table, int key, int v) {
  table.set(keyval_registry::index_of(key), attribute_value::from_fortran_int(v));
}

// Objects are created unpublished; a failure leaves no handle behind.
template <typename T>
struct unpublished {
  T* obj = make_object<T>();
  ~unpublished() {
    if (obj != nullptr) discard(obj);
  }
  T* release() {
    T* o = obj;
    obj = nullptr;
    return o;
  }
};

// ---- hints (MPI-4.1 §11; D29: kept, and ignored) ----
using hint_list = std::vector<std::pair<std::string, std::string>>;
// An info's pairs, none for MPI_INFO_NULL (the caller checked the handle: check_info; info.cc).
hint_list pairs_of(handle_t info);
// `kept` with `given` merged in, as MPI_XXX_set_info merges: a key given replaces its value, a new
// key comes last. Built apart, so that out of memory leaves the caller's hints as they were (D65).
hint_list merged_hints(hint_list kept, hint_list given);
// A new group of `size` processes (0: MPI_GROUP_EMPTY; else 1, the process; communicators.cc).
status new_group(int size, handle_t& out);
// A new info holding `pairs` (MPI_XXX_get_info, MPI_Info_create, ...).
status new_info(hint_list pairs, handle_t& out);

// Whether `name` is one of the process sets (MPI-4.1 §11.3.2: "mpi://WORLD", "mpi://SELF"; sessions.cc).
bool known_pset(const char* name);

// An info argument that hints may be given in: MPI_INFO_NULL or a live info (MPI-4.1 §11).
inline status check_info(handle_t info) {
  if (info == h::info_null || rt().infos.lookup(info) != nullptr) return status::ok();
  return fail(MPI_ERR_INFO, "info handle 0x%x is not valid", info);
}

inline handle_t completed_request() {
  auto* r = new request_object;
  if (rt().requests.insert(r) == 0) {
    delete r;
    return h::request_null;
  }
  return r->handle;
}

// A routine that gives a request for work done at the call (a nonblocking send, collective or
// RMA transfer): the request first, then work(request), whose failure frees it again. Out of memory
// for the request after the work would leave the work done by a call that failed (D65).
template <typename Work>
status with_new_request(handle_t& request, const char* what, Work&& work) {
  handle_t r = completed_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  status st;
  try {
    st = work(r);
  } catch (...) {
    st = from_exception(what);
  }
  if (!st.is_ok()) {
    (void)api::request_free(r);
    return st;
  }
  request = r;
  return status::ok();
}

// Frees an attribute-carrying object: delete callbacks first; on failure it stays (R4.5).
template <typename T, typename Release>
status free_attr_object(object_table<T>& table, handle_t& handle, Release release, int err,
                        const char* what) {
  T* o = table.lookup(handle);
  if (o == nullptr) return fail(err, "%s handle 0x%x is null or not valid", what, handle);
  if (o->predefined) return fail(err, "predefined %s 0x%x cannot be freed", what, handle);
  if (status st = delete_attributes(*o); !st.is_ok()) return st;
  release(*o);
  table.erase(o);
  discard(o);
  handle = (err == MPI_ERR_COMM) ? h::comm_null : (err == MPI_ERR_WIN) ? h::win_null : h::datatype_null;
  return status::ok();
}

// ---- type maps (MPI-4.1 §6.1) ----

// A datatype's layout, apart from the object (a receive keeps one: its datatype may be freed).
struct type_layout {
  aint size = 0, lb = 0, extent = 0;
  std::shared_ptr<const std::vector<type_block>> map;
};

// A type map's runs (none for an empty type).
// (Constant-initialised: no guard to test at each call.)
inline constinit const std::vector<type_block> no_blocks{};
inline const std::vector<type_block>& blocks(
    const std::shared_ptr<const std::vector<type_block>>& map) {
  return map ? *map : no_blocks;
}

// Whether count elements of t are one run of bytes (a basic type, or built of them without gaps).
template <typename T>
bool contiguous(const T& t) {
  const auto& m = blocks(t.map);
  return t.lb == 0 && t.extent == t.size && (m.empty() || (m.size() == 1 && m[0].disp == 0));
}

// Packs count elements of t at `in` into `out` (t.size * count bytes), in type-map order.
template <typename T>
void pack_elements(const void* in, aint count, const T& t, char* out) {
  const char* base = static_cast<const char*>(in);
  if (contiguous(t)) {
    std::memcpy(out, base, static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
    return;
  }
  for (aint i = 0; i < count; ++i, base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      std::memcpy(out, base + b.disp, static_cast<std::size_t>(b.len));
      out += b.len;
    }
}

// The reverse: count elements of t at `out` from packed bytes; the gaps of `out` are untouched.
template <typename T>
void unpack_elements(const char* in, void* out, aint count, const T& t) {
  char* base = static_cast<char*>(out);
  if (contiguous(t)) {
    std::memcpy(base, in, static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
    return;
  }
  for (aint i = 0; i < count; ++i, base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      std::memcpy(base + b.disp, in, static_cast<std::size_t>(b.len));
      in += b.len;
    }
}

// The first `bytes` bytes of one element of t (fewer than t.size), from packed bytes into `out`, in
// type-map order: the front of an element a short message fills (MPI-4.1 §3.3.5: a receive of
// fewer basic elements than its buffer holds fills the first ones; docs/decisions.md D142).
template <typename T>
void unpack_front(const char* in, void* out, aint bytes, const T& t) {
  char* base = static_cast<char*>(out);
  if (contiguous(t)) {
    std::memcpy(base, in, static_cast<std::size_t>(bytes));
    return;
  }
  for (const type_block& b : blocks(t.map)) {
    if (bytes <= 0) break;
    const aint n = std::min<aint>(b.len, bytes);
    std::memcpy(base + b.disp, in, static_cast<std::size_t>(n));
    in += n;
    bytes -= n;
  }
}

// MPI_Comm_/Type_/Win_set_name and _get_name (MPI-4.1 §7.10): the name of a communicator, datatype
// or window, kept beside its attributes and read and written under their lock; a longer name is
// cut at MPI_MAX_OBJECT_NAME - 1 characters.
template <typename T>
status set_object_name(T& object, const char* name) {
  std::lock_guard lock(object.attrs.mutex());
  object.cold().name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return status::ok();
}

// A null object (MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_WIN_NULL) is named after its handle
// (MPI-4.1 §7.8, §6.1.14 and §13.2.6 allow it since MPI-4.1; docs/decisions.md D116).
template <typename T>
status get_object_name(T* object, const char* null_name, char* name, int& resultlen) {
  if (object == nullptr) {
    const std::size_t n = std::strlen(null_name);
    std::memcpy(name, null_name, n + 1);
    resultlen = static_cast<int>(n);
    return status::ok();
  }
  std::lock_guard lock(object->attrs.mutex());
  std::memcpy(name, object->cold().name.c_str(), object->cold().name.size() + 1);
  resultlen = static_cast<int>(object->cold().name.size());
  return status::ok();
}


// MPI_Pack / MPI_Unpack and their external32 forms (MPI-4.1 §6.2.1, §6.2.3): `need` bytes from
// `position` must lie within the buffer's `size` bytes, else MPI_ERR_TRUNCATE, nothing moved.
inline status check_pack_room(aint need, aint position, aint size, bool packing) {
  if (position >= 0 && position <= size && need <= size - position) return status::ok();
  if (packing)
    return fail(MPI_ERR_TRUNCATE, "packing %ld bytes at position %ld does not fit in outsize %ld",
                static_cast<long>(need), static_cast<long>(position), static_cast<long>(size));
  return fail(MPI_ERR_TRUNCATE, "unpacking %ld bytes at position %ld reads past insize %ld",
              static_cast<long>(need), static_cast<long>(position), static_cast<long>(size));
}

// A thread level's name (MPI-4.1 §11.2.1; the values are the ABI's, not consecutive): of the
// "thread_level" hints, sessions' and MPI_Info_create_env's.
inline const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

inline status check_count(long long count) {
  return count < 0 ? fail(MPI_ERR_COUNT, "count %lld is negative", count) : status::ok();
}
// Whether count (not negative) items of `size` bytes make a byte count MPI_Aint holds.
inline bool bytes_fit(long long count, aint size) {
  return size <= 0 || count <= std::numeric_limits<aint>::max() / size;
}

// A count of elements of t: not negative, and its bytes countable in MPI_Aint (a count beyond int
// comes from the large-count forms, D115).
inline status check_count(long long count, const type_object& t) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (!bytes_fit(count, t.size))
    return fail(MPI_ERR_COUNT, "count = %lld of a datatype of %lld bytes does not fit in MPI_Aint", count,
                static_cast<long long>(t.size));
  return status::ok();
}

// Packed bytes (MPI_Pack's outbuf, MPI_Unpack's inbuf, the external32 forms): `need` of them at a
// NULL or MPI_IN_PLACE address (D149).
inline status check_packed(const void* buf, long long need, const char* name) {
  if (need <= 0 || (buf != nullptr && buf != gen::in_place)) return status::ok();
  return fail(MPI_ERR_BUFFER, "%s is %s, with %lld bytes to %s", name, buf == nullptr ? "NULL" : "MPI_IN_PLACE", need,
              name[0] == 'o' ? "pack" : "unpack");
}

// ---- one-sided communication (rma.cc, windows.cc; docs/decisions.md D46) ----

// A window's RMA state, beside the window (the core's win_object stays runtime-free): its epochs
// (MPI-4.1 §13.5), the memory attached to a dynamic window, the hints it was given. Read and
// written under rma_mutex().
struct rma_state {
  bool fence = false;          // since a fence without MPI_MODE_NOSUCCEED, with nothing but RMA
                               // calls after it: the fence epoch it may have started
  bool fence_used = false;     //   an RMA call came in it: it did start one
  int lock_type = 0;           // MPI_Win_lock's lock on the process, or 0
  bool lock_all = false;       // MPI_Win_lock_all
  bool access = false;         // from MPI_Win_start to MPI_Win_complete
  bool access_self = false;    //   its group holds the process
  bool exposure = false;       // from MPI_Win_post to MPI_Win_wait (or a true MPI_Win_test)
  bool exposure_self = false;  //   its group holds the process: its complete ends the epoch
  bool completed = false;      //   the process's MPI_Win_complete came
  std::vector<std::pair<char*, aint>> attached;  // a dynamic window's memory (MPI_Win_attach)
  std::vector<std::pair<std::string, std::string>> hints;  // kept and ignored (D29)
};
std::mutex& rma_mutex();
// The state of a window (created on first use); the caller holds rma_mutex().
rma_state& rma_of(const win_object& win);
// MPI_Win_free forgets it.
void rma_forget(const win_object& win);

}  // namespace mpiattr
