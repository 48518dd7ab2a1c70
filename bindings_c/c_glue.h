// bindings_c/c_glue.h: the hand-written half of the C bindings. The generated functions.cc uses
// `call` to check that MPI is usable, look up handles, pick the error handler (the first
// communicator or window argument's, else MPI_COMM_SELF's) and raise errors through it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mpi.h"
#include "mpiattr/api.h"
#include "mpiattr/errors.h"
#include "mpiattr/fast.h"
#include "mpiattr/runtime.h"
#include "mpiattr/runtime_api.h"

#define MPIATTR_EXPORT __attribute__((visibility("default")))

namespace mpiattr::cbind {

template <typename H>
inline handle_t to_handle(H h) {
  return static_cast<handle_t>(reinterpret_cast<std::uintptr_t>(h));
}
inline handle_t to_handle(handle_t h) { return h; }
template <typename H>
inline H to_c(std::uintptr_t h) {
  return reinterpret_cast<H>(h);
}

// A completed operation's status into the caller's MPI_Status (not MPI_STATUS_IGNORE): source,
// tag, and the byte count and cancelled flag in the hidden fields (D44); MPI_ERROR only for the routines that complete
// several requests (MPI-4.1 §4.2.5: the single ones leave it alone).
inline void set_status(MPI_Status* s, const api::msg_status& m, bool error_field) {
  if (s == MPI_STATUS_IGNORE) return;
  s->MPI_SOURCE = m.source;
  s->MPI_TAG = m.tag;
  if (error_field || m.empty_inquiry) s->MPI_ERROR = m.error;
  s->mpiattr_internal[0] = m.bytes_low();
  s->mpiattr_internal[1] = m.bytes_high();
  s->mpiattr_internal[2] = m.cancelled ? 1 : 0;
}
inline api::msg_status read_status(const MPI_Status* s) {
  api::msg_status m;
  m.source = s->MPI_SOURCE;
  m.tag = s->MPI_TAG;
  m.error = s->MPI_ERROR;
  m.bytes = api::msg_status::bytes_of(s->mpiattr_internal[0], s->mpiattr_internal[1]);
  m.cancelled = s->mpiattr_internal[2] != 0;
  return m;
}

// The fast paths of MPI_XXX_GET_ATTR and MPI_XXX_SET_ATTR (mpiattr/fast.h; at
// MPI_THREAD_MULTIPLE their concurrent forms, D67): true when the call is done; false, with
// nothing changed, when the checked path must take it.
template <object_kind K, typename T, bool Concurrent = false>
MPIATTR_HOT bool fast_get(const object_table<T>& table, handle_t h, int keyval, void* attribute_val,
                          int* flag) {
  if (attribute_val == nullptr || flag == nullptr) return false;
  if constexpr (!Concurrent) {
    switch (fast::get_attr<K>(table, h, keyval, [attribute_val](const attr_store& s, std::size_t i) {
              return s.read_c_unsynchronised(i, static_cast<void**>(attribute_val));
            })) {
      case fast::got::not_done: return false;
      case fast::got::present: fast::put_flag(flag, 1); return true;
      case fast::got::absent: break;
    }
    fast::put_flag(flag, 0);
    return true;
  }
  attr_read r;
  if (!fast::get_attr_concurrent<K>(table, h, keyval, r)) return false;  // (Concurrent)
  if (r.found) [[likely]] {
    *static_cast<void**>(attribute_val) = r.as_c();
    fast::put_flag(flag, 1);
  } else {
    fast::put_flag(flag, 0);
  }
  return true;
}
template <object_kind K, typename T>
MPIATTR_HOT bool fast_set(const object_table<T>& table, handle_t h, int keyval, void* attribute_val) {
  return fast::set_attr<K>(table, h, keyval, attribute_value::from_c(attribute_val));
}
template <object_kind K, typename T>
MPIATTR_HOT bool fast_get_concurrent(const object_table<T>& table, handle_t h, int keyval, void* attribute_val,
                                     int* flag) {
  return fast_get<K, T, true>(table, h, keyval, attribute_val, flag);
}
template <object_kind K, typename T>
MPIATTR_HOT bool fast_set_concurrent(const object_table<T>& table, handle_t h, int keyval, void* attribute_val) {
  return fast::set_attr_concurrent<K>(table, h, keyval, attribute_value::from_c(attribute_val));
}

// The objects an array of handles names, looked up by a generated entry point (a struct
// constructor's datatypes, ...): up to eight without an allocation (D67).
template <typename T>
class object_array {
 public:
  explicit object_array(long long n) {
    if (n > kInline) heap_.resize(static_cast<std::size_t>(n));
  }
  T*& operator[](long long i) { return data()[i]; }
  T** data() { return heap_.empty() ? inline_ : heap_.data(); }

 private:
  static constexpr long long kInline = 8;
  T* inline_[kInline] = {};
  std::vector<T*> heap_;
};

class call {
 public:
  explicit call(const char* routine) : routine_(routine) {}

  MPIATTR_HOT bool usable() {
    if (rt().usable()) [[likely]] return true;
    return not_usable();
  }
  [[gnu::cold, gnu::noinline]] bool not_usable() {
    if (rt().usable()) return true;
    pending_ = mpiattr::fail(MPI_ERR_OTHER, "%s", not_usable_why());
    return false;
  }
  // MPI_Session_init (spec `init = "setup"`): may come first, so the runtime's predefined
  // objects are set up before its handles are looked up (D49).
  bool set_up() {
    status st = runtime_setup();
    if (st.is_ok()) return true;
    pending_ = st;
    return false;
  }

  MPIATTR_HOT comm_object* lookup_comm(MPI_Comm h, const char* name) {
    comm_object* o = rt().comms.lookup(to_handle(h));
    if (o == nullptr) [[unlikely]] bad_comm(h, name);
    return o;
  }
  MPIATTR_HOT win_object* lookup_win(MPI_Win h, const char* name) {
    win_object* o = rt().wins.lookup(to_handle(h));
    if (o == nullptr) [[unlikely]] bad_handle(h == MPI_WIN_NULL, MPI_ERR_WIN, "window", "MPI_WIN_NULL", name, to_handle(h));
    return o;
  }
  MPIATTR_HOT type_object* lookup_type(MPI_Datatype h, const char* name) {
    type_object* o = rt().types.lookup(to_handle(h));
    if (o == nullptr) [[unlikely]] bad_handle(h == MPI_DATATYPE_NULL, MPI_ERR_TYPE, "datatype", "MPI_DATATYPE_NULL", name, to_handle(h));
    return o;
  }
  MPIATTR_HOT group_object* lookup_group(MPI_Group h, const char* name) {
    group_object* o = rt().groups.lookup(to_handle(h));
    if (o == nullptr) [[unlikely]] bad_handle(h == MPI_GROUP_NULL, MPI_ERR_GROUP, "group", "MPI_GROUP_NULL", name, to_handle(h));
    return o;
  }
  MPIATTR_HOT errhandler_object* lookup_errhandler(MPI_Errhandler h, const char* name) {
    errhandler_object* o = rt().errhandlers.lookup(to_handle(h));
    if (o == nullptr) [[unlikely]] bad_handle(h == MPI_ERRHANDLER_NULL, MPI_ERR_ARG, "error handler", "MPI_ERRHANDLER_NULL", name, to_handle(h));
    return o;
  }
  // For INOUT handles the core looks the object up; these only choose the error handler.
  comm_object* peek_comm(handle_t h) { return rt().comms.lookup(h); }
  win_object* peek_win(handle_t h) { return rt().wins.lookup(h); }

  void target(const attr_object* o) { target_ = o; }
  // A file routine: errors go to the file's handler, or MPI_FILE_NULL's when `file` is no open file
  // (raise_file_error).
  void target_file(handle_t file) {
    on_file_ = true;
    object_ = file;
  }
  // A session routine: errors go to the session's handler, or to the no-object handler when
  // `session` is not a live session (raise_session_error, D49).
  void target_session(handle_t session) {
    on_session_ = true;
    object_ = session;
  }
  // MPI_Session_init: errors go to its errhandler argument (MPI-4.1 §11.3.1), once looked up.
  void target_session_init(errhandler_object* given) {
    on_session_ = true;
    object_ = to_handle(MPI_SESSION_NULL);
    given_ = given;
  }

  // Raises MPI_ERR_ARG for a NULL output or inout pointer `name`; returns the error code.
  [[gnu::cold, gnu::noinline]] int null_pointer(const char* name) {
    return fail(mpiattr::fail(MPI_ERR_ARG, "%s is a NULL pointer", name));
  }
  // A Fortran status argument that is Fortran's MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE
  // (MPI_F_STATUS_IGNORE, ...): no status to convert.
  [[gnu::cold, gnu::noinline]] int ignored_status(const char* name) {
    return fail(mpiattr::fail(MPI_ERR_ARG, "%s is Fortran's MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE "
                              "(MPI_F_STATUS_IGNORE, MPI_F08_STATUS_IGNORE, ...), which holds no status", name));
  }

  // A routine the standalone runtime does not carry out (spec/surface.toml `unsupported`):
  // MPI_ERR_UNSUPPORTED_OPERATION, with why, through the chosen error handler.
  [[gnu::cold, gnu::noinline]] int unsupported(const char* why) {
    return fail(mpiattr::fail(MPI_ERR_UNSUPPORTED_OPERATION, "mpiattr's standalone runtime does not carry it out: %s", why));
  }
  // The same on a file routine that takes no file: the handler is MPI_FILE_NULL's (MPI-4.1 §15.7),
  // MPI_ERRORS_RETURN unless the program set another.
  [[gnu::cold, gnu::noinline]] int unsupported_on_file(const char* why) {
    return raise_file_error(gen::handle::file_null, mpiattr::fail(MPI_ERR_UNSUPPORTED_OPERATION, "mpiattr's standalone runtime does not carry it out: %s", why), routine_);
  }

  // A routine of the tool information interface (MPI_T_*) the runtime does not carry out: the tool
  // interface reports errors by return code only, never through a handler (MPI-4.1 §16.3.10), and
  // MPI_T_ERR_NOT_SUPPORTED is its code for "not supported" (docs/decisions.md D39).
  [[gnu::cold, gnu::noinline]] int unsupported_tool(const char* why) {
    (void)why;
    return MPI_T_ERR_NOT_SUPPORTED;
  }

  // Runs a routine's body, which returns its error code. No exception leaves an entry point (D61):
  // one the body throws (std::bad_alloc: out of memory) is MPI_ERR_NO_MEM (anything else
  // MPI_ERR_INTERN), raised through the error handler the body had chosen. The core changes nothing
  // when it throws, so neither did the call.
  template <typename Body>
  MPIATTR_HOT int guarded(Body&& body) {
    return mpiattr::guarded(body, [this](status st) { return fail(st); });
  }
  // The same for a routine with output handles: `nulls` writes the null handle to each when the
  // body throws, as a failed call leaves them (D65), before the error is raised.
  template <typename Body, typename Nulls>
  MPIATTR_HOT int guarded(Body&& body, Nulls&& nulls) {
    return mpiattr::guarded(body, [this, &nulls](status st) {
      nulls();
      return fail(st);
    });
  }

  // A buffer the call would read or write: NULL with data to carry (count > 0 elements of a
  // datatype that holds some, whose lowest byte is at its origin, so not MPI_BOTTOM with a datatype
  // of absolute addresses) is MPI_ERR_BUFFER, as both hosts (D111); the generated bindings test
  // each buffer whose count and datatype are scalars (lowering.buffer_checks).
  // in_place_ok: the routine is a collective, whose core says which of its buffers MPI_IN_PLACE
  // may stand for; elsewhere it is no buffer (a copy through it faulted: D149).
  bool buffer_ok(const void* buf, std::int64_t count, type_object& t, const char* name, bool in_place_ok = true) {
    if ((buf != nullptr && (in_place_ok || buf != MPI_IN_PLACE)) || count <= 0 || t.size <= 0) [[likely]]
      return true;
    return buffer_checked(buf, count, t, name);
  }

  // Raises the pending (or given) failure on the chosen error handler; returns the error code.
  int fail() { return fail(pending_); }
  int fail(status st) {
    if (on_session_) return raise_session_error(object_, st, routine_, given_);
    return on_file_ ? raise_file_error(object_, st, routine_) : raise_error(target_, st, routine_);
  }

 private:
  [[gnu::cold, gnu::noinline]] void bad_handle(bool is_null, int cls, const char* what, const char* null_name, const char* name,
                  handle_t h) {
    pending_ = is_null ? mpiattr::fail(cls, "%s is %s", name, null_name)
                       : mpiattr::fail(cls, "%s (0x%x) is not a valid %s handle (freed, never created, or another kind's)",
                                       name, h, what);
  }

  [[gnu::cold, gnu::noinline]] bool buffer_checked(const void* buf, std::int64_t count, type_object& t,
                                                   const char* name) {
    pending_ = api::check_buffer(buf, count, t, name);
    return pending_.is_ok();
  }

  // MPI_COMM_WORLD and MPI_COMM_SELF exist in the World Model only (MPI-4.1 §11.2, D49).
  [[gnu::cold, gnu::noinline]] void bad_comm(MPI_Comm c, const char* name) {
    const handle_t v = to_handle(c);
    if ((v == gen::handle::comm_world || v == gen::handle::comm_self) && !rt().world_active()) {
      const char* which = v == gen::handle::comm_world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF";
      pending_ = rt().world_state() == world_model::never
                     ? mpiattr::fail(MPI_ERR_COMM, "%s is %s, which exists in the World Model only, between MPI_Init and "
                                                   "MPI_Finalize, and MPI_Init was not called (MPI-4.1 section 11.2; "
                                                   "a session's communicators come from MPI_Comm_create_from_group)",
                                     name, which)
                     : mpiattr::fail(MPI_ERR_COMM, "%s is %s, which exists in the World Model only, between MPI_Init and "
                                                   "MPI_Finalize, and MPI_Finalize was called (MPI-4.1 section 11.2)",
                                     name, which);
      return;
    }
    bad_handle(c == MPI_COMM_NULL, MPI_ERR_COMM, "communicator", "MPI_COMM_NULL", name, v);
  }

  const char* routine_;
  const attr_object* target_ = nullptr;
  bool on_file_ = false;
  bool on_session_ = false;
  handle_t object_ = 0;  // the file's (on_file_) or the session's (on_session_) whose handler errors go to
  errhandler_object* given_ = nullptr;
  status pending_;
};

// Routines the binding carries out itself (codegen lang/c.py BINDING_ROUTINES, docs/decisions.md
// D39). Address arithmetic (MPI-4.1 §6.1.5): addresses are plain integers here.
inline MPI_Aint aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(disp));
}
inline MPI_Aint aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) - static_cast<std::uintptr_t>(addr2));
}
// Status conversions (MPI-4.1 §20.3.5). The C MPI_Status, the Fortran INTEGER status array and
// MPI_F08_status hold the same MPI_F_STATUS_SIZE integers in the same order (source, tag, error,
// then the byte count that f_glue.h and set_status write), so each is a copy. MPI_STATUS_IGNORE,
// a NULL pointer, or Fortran's MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE (MPI_F_STATUS_IGNORE, ...)
// is MPI_ERR_ARG, returned (these routines have no object to raise it on).
static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
              offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
              offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint));
// Whether p is one of Fortran's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, as C sees them.
inline bool fortran_status_ignore(const void* p) {
  return p == MPI_F_STATUS_IGNORE || p == MPI_F_STATUSES_IGNORE || p == MPI_F08_STATUS_IGNORE ||
         p == MPI_F08_STATUSES_IGNORE;
}
inline int status_copy(const void* from, void* to) {
  if (from == nullptr || to == nullptr || fortran_status_ignore(from) || fortran_status_ignore(to))
    return MPI_ERR_ARG;
  std::memmove(to, from, MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
  return MPI_SUCCESS;
}
inline int status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) { return status_copy(c_status, f_status); }
inline int status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) { return status_copy(f_status, c_status); }
inline int status_c2f08(const MPI_Status* c_status, MPI_F08_status* f08_status) { return status_copy(c_status, f08_status); }
inline int status_f082c(const MPI_F08_status* f08_status, MPI_Status* c_status) { return status_copy(f08_status, c_status); }
// MPI_Status_f082f and MPI_Status_f2f08 (the same copy, from the first argument to the second):
// routines with an error code, whose bad arguments the entry point has already raised (D51).
inline status status_fortran_copy(const void* from, void* to) {
  std::memmove(to, from, MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
  return status::ok();
}

// The predefined callbacks, as predefined.cc defines them.
extern const predefined_callback predefined_callbacks[];
extern const std::size_t predefined_callback_count;

}  // namespace mpiattr::cbind
