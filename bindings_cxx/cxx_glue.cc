// bindings_cxx/cxx_glue.cc: the hand-written half of the MPI:: bindings. It uses only the C API
// (mpi.h), so it works over any MPI library. Two services:
//
// 1. C++ keyval callbacks. A keyval created with C++ (or mixed C/C++) callbacks is a C keyval
//    whose callbacks are the trampolines below and whose extra_state is the id of a `keyval_state`
//    holding the user's functions and extra_state. The trampolines build the C++ object the user
//    function takes (an Intracomm or Intercomm, as MPI_Comm_test_inter says; a Win; a Datatype),
//    call it, and turn any exception into an error code: C++ exceptions never cross C frames.
//
//    The state must live exactly as long as the C keyval record: until the keyval is freed *and*
//    every attribute under it is gone (R2.2). The C API cannot report that, so the state counts it
//    itself: 1 for the keyval handle, plus 1 per attribute it knows of. An attribute is counted
//    when MPI::X::Set_attr stores it (counted before the C call, uncounted if the call fails, so
//    the count never drops to 0 in between) and when a copy trampoline returns flag = true with
//    success (the new object gets a copy); it is uncounted when a delete trampoline succeeds (the
//    attribute is gone). Free_keyval drops the handle's 1. At 0 the state is freed.
//
//    Limit: an attribute stored under a C++ keyval through the C function (MPI_Comm_set_attr)
//    is not counted. Trampolines find states by id, never by pointer, so if such an attribute
//    outlives the count its callbacks are not called (the delete is treated as done, a copy as
//    flag = false) instead of touching freed memory. Use MPI::X::Set_attr for C++ keyvals.
//
// 2. MPI::ERRORS_THROW_EXCEPTIONS. One C error handler per object kind (MPI_Comm_create_errhandler,
//    MPI_Win_create_errhandler), created on first use, records the error code in a thread-local
//    variable and returns; the C call returns the code to the C++ wrapper, which throws
//    MPI::Exception when that handler recorded it (mpiattr_detail::raise). The throw happens in
//    C++ code, after the C call has returned.
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "mpi.h"

namespace MPI {
namespace mpiattr_detail {
namespace {

// ---- ERRORS_THROW_EXCEPTIONS ----

thread_local int pending_code = MPI_SUCCESS;
thread_local bool pending = false;

extern "C" void throw_comm_handler(MPI_Comm*, int* code, ...) {
  pending_code = *code;
  pending = true;
}
extern "C" void throw_win_handler(MPI_Win*, int* code, ...) {
  pending_code = *code;
  pending = true;
}

std::mutex handler_mutex;
MPI_Errhandler comm_throw = MPI_ERRHANDLER_NULL;
MPI_Errhandler win_throw = MPI_ERRHANDLER_NULL;

// ---- keyval states ----

struct keyval_state {
  object_kind kind;
  void* extra_state;  // the user's
  void (*c_copy)();   // exactly one of c_/cxx_ per role may be set; none: the NULL function
  void (*c_delete)();
  void (*cxx_copy)();
  void (*cxx_delete)();
  long refs;  // 1 for the keyval handle + counted attributes
};

class registry {
 public:
  // A new state with one reference (the handle); returns its id.
  std::uintptr_t add(keyval_state s) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::uintptr_t id = ++last_id_;
    s.refs = 1;
    states_.emplace(id, s);
    return id;
  }
  void bind(object_kind kind, int keyval, std::uintptr_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    handles_[{kind, keyval}] = id;
  }
  // Counts an attribute about to be stored under a live C++ keyval; 0 if it is not one.
  std::uintptr_t retain_handle(object_kind kind, int keyval) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = handles_.find({kind, keyval});
    if (it == handles_.end()) return 0;
    ++states_.at(it->second).refs;
    return it->second;
  }
  // The handle is gone (Free_keyval succeeded): drop its reference.
  void unbind(object_kind kind, int keyval) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = handles_.find({kind, keyval});
    if (it == handles_.end()) return;
    const std::uintptr_t id = it->second;
    handles_.erase(it);
    release_locked(id);
  }
  // A copy of the state's callbacks (callbacks run without the lock held, R11.1).
  bool get(std::uintptr_t id, keyval_state& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = states_.find(id);
    if (it == states_.end()) return false;
    out = it->second;
    return true;
  }
  void retain(std::uintptr_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = states_.find(id);
    if (it != states_.end()) ++it->second.refs;
  }
  void release(std::uintptr_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    release_locked(id);
  }
  std::size_t live_states() {
    std::lock_guard<std::mutex> lock(mutex_);
    return states_.size();
  }

 private:
  void release_locked(std::uintptr_t id) {
    auto it = states_.find(id);
    if (it != states_.end() && --it->second.refs <= 0) states_.erase(it);
  }

  std::mutex mutex_;
  std::uintptr_t last_id_ = 0;
  std::map<std::uintptr_t, keyval_state> states_;
  std::map<std::pair<int, int>, std::uintptr_t> handles_;
};

registry& states() {
  static registry* r = new registry;  // never destroyed: callbacks may run during exit
  return *r;
}

std::uintptr_t id_of(void* extra_state) { return reinterpret_cast<std::uintptr_t>(extra_state); }

// The user callback may throw anything; it must not unwind into the C library.
template <typename F>
int firewall(F&& body) noexcept {
  try {
    return body();
  } catch (const MPI::Exception& e) {
    return e.Get_error_code() == MPI_SUCCESS ? MPI_ERR_OTHER : e.Get_error_code();
  } catch (...) {
    return MPI_ERR_OTHER;
  }
}

template <typename Fn>
Fn* as(void (*f)()) {
  return reinterpret_cast<Fn*>(f);
}

// After a copy or delete callback: keep the count equal to the attributes that exist.
int account_copy(std::uintptr_t id, int rc, bool flag) {
  if (rc == MPI_SUCCESS && flag) states().retain(id);
  return rc;
}
int account_delete(std::uintptr_t id, int rc) {
  if (rc == MPI_SUCCESS) states().release(id);
  return rc;
}

bool comm_is_inter(MPI_Comm comm) {
  int inter = 0;
  return MPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter != 0;
}

// ---- trampolines: one copy and one delete per object kind, from one template ----

// What differs between the kinds: the C handle, the C and C++ callback types, and how the C++
// object the callback sees is made (a communicator is an Intracomm or an Intercomm).
struct comm_traits {
  using handle = MPI_Comm;
  using c_copy = MPI_Comm_copy_attr_function;
  using c_delete = MPI_Comm_delete_attr_function;
  using cxx_copy = Comm::Copy_attr_function;
  using cxx_delete = Comm::Delete_attr_function;
  template <typename F>
  static int with_object(MPI_Comm h, F&& f) {
    if (comm_is_inter(h)) {
      Intercomm c(h);
      return f(c);
    }
    Intracomm c(h);
    return f(c);
  }
};
struct win_traits {
  using handle = MPI_Win;
  using c_copy = MPI_Win_copy_attr_function;
  using c_delete = MPI_Win_delete_attr_function;
  using cxx_copy = Win::Copy_attr_function;
  using cxx_delete = Win::Delete_attr_function;
  template <typename F>
  static int with_object(MPI_Win h, F&& f) {
    Win w(h);
    return f(w);
  }
};
struct type_traits {
  using handle = MPI_Datatype;
  using c_copy = MPI_Type_copy_attr_function;
  using c_delete = MPI_Type_delete_attr_function;
  using cxx_copy = Datatype::Copy_attr_function;
  using cxx_delete = Datatype::Delete_attr_function;
  template <typename F>
  static int with_object(MPI_Datatype h, F&& f) {
    Datatype t(h);
    return f(t);
  }
};

template <typename K>
int copy_trampoline(typename K::handle old, int keyval, void* extra, void* in, void* out, int* flag) {
  keyval_state s;
  *flag = 0;
  if (!states().get(id_of(extra), s)) return MPI_SUCCESS;  // orphan (see the file comment)
  return firewall([&] {
    int rc = MPI_SUCCESS;
    if (s.cxx_copy) {
      bool f = false;
      rc = K::with_object(old, [&](const auto& obj) {
        return as<typename K::cxx_copy>(s.cxx_copy)(obj, keyval, s.extra_state, in, out, f);
      });
      *flag = f ? 1 : 0;
    } else if (s.c_copy) {
      rc = as<typename K::c_copy>(s.c_copy)(old, keyval, s.extra_state, in, out, flag);
    }
    return account_copy(id_of(extra), rc, *flag != 0);
  });
}

template <typename K>
int delete_trampoline(typename K::handle h, int keyval, void* value, void* extra) {
  keyval_state s;
  if (!states().get(id_of(extra), s)) return MPI_SUCCESS;
  return firewall([&] {
    int rc = MPI_SUCCESS;
    if (s.cxx_delete) {
      rc = K::with_object(h, [&](auto& obj) {
        return as<typename K::cxx_delete>(s.cxx_delete)(obj, keyval, value, s.extra_state);
      });
    } else if (s.c_delete) {
      rc = as<typename K::c_delete>(s.c_delete)(h, keyval, value, s.extra_state);
    }
    return account_delete(id_of(extra), rc);
  });
}

// The C library calls these through C function pointers.
extern "C" {
int comm_copy_trampoline(MPI_Comm old, int k, void* e, void* in, void* out, int* f) {
  return copy_trampoline<comm_traits>(old, k, e, in, out, f);
}
int comm_delete_trampoline(MPI_Comm h, int k, void* v, void* e) { return delete_trampoline<comm_traits>(h, k, v, e); }
int win_copy_trampoline(MPI_Win old, int k, void* e, void* in, void* out, int* f) {
  return copy_trampoline<win_traits>(old, k, e, in, out, f);
}
int win_delete_trampoline(MPI_Win h, int k, void* v, void* e) { return delete_trampoline<win_traits>(h, k, v, e); }
int type_copy_trampoline(MPI_Datatype old, int k, void* e, void* in, void* out, int* f) {
  return copy_trampoline<type_traits>(old, k, e, in, out, f);
}
int type_delete_trampoline(MPI_Datatype h, int k, void* v, void* e) { return delete_trampoline<type_traits>(h, k, v, e); }
}

template <typename Fn>
void (*erase(Fn* f))() {
  return reinterpret_cast<void (*)()>(f);
}

// Creates the keyval. With C functions only, the C keyval is created directly (the C library then
// recognises its predefined functions); otherwise through the trampolines with a state.
template <typename CCopy, typename CDelete, typename Create, typename TCopy, typename TDelete>
int create_keyval(object_kind kind, CCopy* c_copy, CDelete* c_delete, void (*cxx_copy)(),
                  void (*cxx_delete)(), void* extra_state, Create create, TCopy* tcopy,
                  TDelete* tdelete) {
  int keyval = MPI_KEYVAL_INVALID;
  if (cxx_copy == nullptr && cxx_delete == nullptr) {
    check(create(c_copy, c_delete, &keyval, extra_state));
    return keyval;
  }
  const std::uintptr_t id = states().add(
      keyval_state{kind, extra_state, erase(c_copy), erase(c_delete), cxx_copy, cxx_delete, 0});
  const int rc = create(tcopy, tdelete, &keyval, reinterpret_cast<void*>(id));
  if (rc != MPI_SUCCESS) {
    states().release(id);
    raise(rc);
    return MPI_KEYVAL_INVALID;
  }
  states().bind(kind, keyval, id);
  return keyval;
}

}  // namespace

void raise(int rc) {
  if (pending && pending_code == rc) {
    pending = false;
    throw Exception(rc);
  }
}

void raise_pending() {
  if (pending) {
    pending = false;
    throw Exception(pending_code);
  }
}

int create_keyval_comm(MPI_Comm_copy_attr_function* c_copy, MPI_Comm_delete_attr_function* c_delete,
                       Comm::Copy_attr_function* cxx_copy, Comm::Delete_attr_function* cxx_delete,
                       void* extra_state) {
  return create_keyval(comm_kind, c_copy, c_delete, erase(cxx_copy), erase(cxx_delete), extra_state,
                       MPI_Comm_create_keyval, comm_copy_trampoline, comm_delete_trampoline);
}

int create_keyval_win(MPI_Win_copy_attr_function* c_copy, MPI_Win_delete_attr_function* c_delete,
                      Win::Copy_attr_function* cxx_copy, Win::Delete_attr_function* cxx_delete,
                      void* extra_state) {
  return create_keyval(win_kind, c_copy, c_delete, erase(cxx_copy), erase(cxx_delete), extra_state,
                       MPI_Win_create_keyval, win_copy_trampoline, win_delete_trampoline);
}

int create_keyval_type(MPI_Type_copy_attr_function* c_copy, MPI_Type_delete_attr_function* c_delete,
                       Datatype::Copy_attr_function* cxx_copy,
                       Datatype::Delete_attr_function* cxx_delete, void* extra_state) {
  return create_keyval(type_kind, c_copy, c_delete, erase(cxx_copy), erase(cxx_delete), extra_state,
                       MPI_Type_create_keyval, type_copy_trampoline, type_delete_trampoline);
}

void free_keyval(object_kind kind, int& keyval) {
  const int old = keyval;
  int rc = MPI_ERR_INTERN;
  switch (kind) {
    case comm_kind: rc = MPI_Comm_free_keyval(&keyval); break;
    case win_kind: rc = MPI_Win_free_keyval(&keyval); break;
    case type_kind: rc = MPI_Type_free_keyval(&keyval); break;
  }
  if (rc == MPI_SUCCESS) states().unbind(kind, old);
  check(rc);
}

namespace {
template <typename H, typename Set>
void set_attr(object_kind kind, H handle, int keyval, const void* value, Set set) {
  const std::uintptr_t id = states().retain_handle(kind, keyval);
  const int rc = set(handle, keyval, const_cast<void*>(value));
  if (rc != MPI_SUCCESS && id != 0) states().release(id);
  check(rc);
}
}  // namespace

void set_attr_comm(MPI_Comm comm, int keyval, const void* value) {
  set_attr(comm_kind, comm, keyval, value, MPI_Comm_set_attr);
}
void set_attr_win(MPI_Win win, int keyval, const void* value) {
  set_attr(win_kind, win, keyval, value, MPI_Win_set_attr);
}
void set_attr_type(MPI_Datatype type, int keyval, const void* value) {
  set_attr(type_kind, type, keyval, value, MPI_Type_set_attr);
}

MPI_Errhandler c_errhandler(const Errhandler& e, object_kind kind) {
  if (!e.mpiattr_throws()) return e.mpiattr_c();
  std::lock_guard<std::mutex> lock(handler_mutex);
  if (kind == win_kind) {
    if (win_throw == MPI_ERRHANDLER_NULL) check(MPI_Win_create_errhandler(throw_win_handler, &win_throw));
    return win_throw;
  }
  if (comm_throw == MPI_ERRHANDLER_NULL) check(MPI_Comm_create_errhandler(throw_comm_handler, &comm_throw));
  return comm_throw;
}

Errhandler cxx_errhandler(MPI_Errhandler h) {
  std::lock_guard<std::mutex> lock(handler_mutex);
  if (h != MPI_ERRHANDLER_NULL && (h == comm_throw || h == win_throw)) return ERRORS_THROW_EXCEPTIONS;
  return Errhandler(h);
}

// For tests: how many keyval states are alive (tests/cxx check that none leak).
extern "C" __attribute__((visibility("default"))) std::size_t mpiattr_cxx_live_keyval_states() {
  return states().live_states();
}

}  // namespace mpiattr_detail
}  // namespace MPI
