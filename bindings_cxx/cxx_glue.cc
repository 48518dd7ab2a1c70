// bindings_cxx/cxx_glue.cc: the hand-written half of the MPI:: bindings. It uses the C API
// (mpi.h) and two entries of mpiattr's C library, mpiattr_keyval_set_release and
// mpiattr_keyval_state_alloc (libmpiattr and every libmpiattr_<host> export them), so it works
// standalone and over a host MPI. Three services:
//
// 1. C++ keyval callbacks. A keyval created with C++ (or mixed C/C++) callbacks is a C keyval
//    whose callbacks are the trampolines below and whose extra_state points to a `keyval_state`
//    holding the user's functions and extra_state. The trampolines build the C++ object the user
//    function takes (an Intracomm or Intercomm, as MPI_Comm_test_inter says; a Win; a Datatype),
//    call it, and turn any exception into an error code: C++ exceptions never cross C frames.
//
//    The state must live exactly as long as the C keyval record: until the keyval is freed *and*
//    every attribute under it is gone (R2.2), whichever language stored them (MPI::X::Set_attr,
//    the C MPI_X_set_attr, Fortran) or copied them. Only the C library sees all of those, so the
//    state is handed to it: mpiattr_keyval_set_release(keyval, release_state) makes the library
//    call release_state(extra_state) when the record dies, after the last callback has returned
//    (docs/cxx.md C2). The glue counts nothing itself.
//
// 2. MPI::ERRORS_THROW_EXCEPTIONS. One C error handler per object kind (MPI_Comm_create_errhandler,
//    MPI_Win_create_errhandler), created on first use, records the error code in a thread-local
//    variable and returns; the C call returns the code to the C++ wrapper, which throws
//    MPI::Exception when that handler recorded it (mpiattr_detail::raise). The throw happens in
//    C++ code, after the C call has returned.
//
// 3. C++ error handler functions (Comm::Create_errhandler, Win::Create_errhandler). A C error
//    handler gets no extra state, so each distinct C++ function gets one of a fixed set of C
//    functions (slots), each calling the C++ function stored in its slot with an MPI:: object.
//    An exception a handler throws is kept (thread-local) and rethrown by the C++ wrapper once the
//    C call has returned, as for ERRORS_THROW_EXCEPTIONS.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <array>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>

#include "mpi.h"

// mpiattr's C library: call release(extra_state) when the keyval's record dies (after its last
// attribute is gone and the handle is freed); MPI_SUCCESS, or an error code if keyval is not a
// live keyval of mpiattr's.
extern "C" int mpiattr_keyval_set_release(int keyval, void (*release)(void* extra_state));
// mpiattr's C library: `bytes` from malloc for a keyval's state, counted by mpiattr's allocation
// switch (docs/decisions.md D61); on failure nullptr, with MPI_ERR_NO_MEM raised as `routine` raises
// an error with no object (standalone on MPI_COMM_SELF's handler, over a host on the one the host
// uses for its own, D56) and its code in *code (D64).
extern "C" void* mpiattr_keyval_state_alloc(std::size_t bytes, const char* routine, int* code);

MPIATTR_CXX_BEGIN
namespace mpiattr_detail {
namespace {

// ---- ERRORS_THROW_EXCEPTIONS ----

thread_local int pending_code = MPI_SUCCESS;
thread_local bool pending = false;
thread_local std::exception_ptr pending_exception;  // thrown by a C++ error handler function

extern "C" void throw_comm_handler(MPI_Comm*, int* code, ...) {
  pending_code = *code;
  pending = true;
}
extern "C" void throw_win_handler(MPI_Win*, int* code, ...) {
  pending_code = *code;
  pending = true;
}
extern "C" void throw_file_handler(MPI_File*, int* code, ...) {
  pending_code = *code;
  pending = true;
}

std::mutex handler_mutex;
MPI_Errhandler comm_throw = MPI_ERRHANDLER_NULL;
MPI_Errhandler win_throw = MPI_ERRHANDLER_NULL;
MPI_Errhandler file_throw = MPI_ERRHANDLER_NULL;

// ---- keyval states ----

struct keyval_state {
  object_kind kind;
  void* extra_state;  // the user's
  void (*c_copy)();   // exactly one of c_/cxx_ per role may be set; none: the NULL function
  void (*c_delete)();
  void (*cxx_copy)();
  void (*cxx_delete)();
  void (*cxx_copy_void_in)();  // a host's form of the copy function, void* attribute_val_in (D59)
};

std::atomic<std::size_t> live_states{0};  // for tests: states not yet released

// (Its memory is mpiattr_keyval_state_alloc's, from malloc: nothing to destroy but the bytes.)
static_assert(std::is_trivially_destructible_v<keyval_state>);

extern "C" void release_state(void* extra_state) {
  std::free(extra_state);
  live_states.fetch_sub(1, std::memory_order_relaxed);
}

const keyval_state& state_of(void* extra_state) { return *static_cast<const keyval_state*>(extra_state); }

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

bool comm_is_inter(MPI_Comm comm) {
  int inter = 0;
  return MPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter != 0;
}

// ---- trampolines: one copy and one delete per object kind, from one template ----

// What differs between the kinds: the C handle, the C and C++ callback types, and how the C++
// object the callback sees is made: a communicator is an Intercomm, or an Intracomm of its
// topology's class (Cartcomm, Graphcomm, Distgraphcomm), so that a callback may dynamic_cast the
// object it is given to the class the program made, as with MPICH's and Open MPI's MPI:: (D134).
struct comm_traits {
  using handle = MPI_Comm;
  using c_copy = MPI_Comm_copy_attr_function;
  using c_delete = MPI_Comm_delete_attr_function;
  using cxx_copy = Comm::Copy_attr_function;
  using cxx_copy_void_in = Comm::Copy_attr_function;  // the annex's form already takes void*
  using cxx_delete = Comm::Delete_attr_function;
  // For an attribute callback.
  template <typename F>
  static int with_object(MPI_Comm h, F&& f) {
    int topology = MPI_UNDEFINED;
    if (!comm_is_inter(h) && MPI_Topo_test(h, &topology) == MPI_SUCCESS) {
      if (topology == MPI_CART) {
        Cartcomm c(h);
        return f(c);
      }
      if (topology == MPI_GRAPH) {
        Graphcomm c(h);
        return f(c);
      }
      if (topology == MPI_DIST_GRAPH) {
        Distgraphcomm c(h);
        return f(c);
      }
    }
    return with_plain_object(h, f);
  }
  // For an error handler: both hosts give it an MPI::Intracomm whatever the topology.
  template <typename F>
  static int with_plain_object(MPI_Comm h, F&& f) {
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
  using cxx_copy_void_in = Win::Copy_attr_function;  // the annex's form already takes void*
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
  using cxx_copy_void_in = Datatype::Mpich_copy_attr_function;
  using cxx_delete = Datatype::Delete_attr_function;
  template <typename F>
  static int with_object(MPI_Datatype h, F&& f) {
    Datatype t(h);
    return f(t);
  }
};

template <typename K>
int copy_trampoline(typename K::handle old, int keyval, void* extra, void* in, void* out, int* flag) {
  const keyval_state& s = state_of(extra);
  *flag = 0;
  return firewall([&] {
    int rc = MPI_SUCCESS;
    if (s.cxx_copy) {
      bool f = false;
      rc = K::with_object(old, [&](const auto& obj) {
        return as<typename K::cxx_copy>(s.cxx_copy)(obj, keyval, s.extra_state, in, out, f);
      });
      *flag = f ? 1 : 0;
    } else if (s.cxx_copy_void_in) {
      bool f = false;
      rc = K::with_object(old, [&](const auto& obj) {
        return as<typename K::cxx_copy_void_in>(s.cxx_copy_void_in)(obj, keyval, s.extra_state, in,
                                                                    out, f);
      });
      *flag = f ? 1 : 0;
    } else if (s.c_copy) {
      rc = as<typename K::c_copy>(s.c_copy)(old, keyval, s.extra_state, in, out, flag);
    }
    return rc;
  });
}

template <typename K>
int delete_trampoline(typename K::handle h, int keyval, void* value, void* extra) {
  const keyval_state& s = state_of(extra);
  return firewall([&] {
    int rc = MPI_SUCCESS;
    if (s.cxx_delete) {
      rc = K::with_object(h, [&](auto& obj) {
        return as<typename K::cxx_delete>(s.cxx_delete)(obj, keyval, value, s.extra_state);
      });
    } else if (s.c_delete) {
      rc = as<typename K::c_delete>(s.c_delete)(h, keyval, value, s.extra_state);
    }
    return rc;
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
// recognises its predefined functions); otherwise through the trampolines with a state, which the
// C library releases with the keyval record.
// `routine`: the C routine, which the messages of the keyval's errors name.
template <typename CCopy, typename CDelete, typename Create, typename Free, typename TCopy,
          typename TDelete>
int create_keyval(object_kind kind, const char* routine, CCopy* c_copy, CDelete* c_delete,
                  void (*cxx_copy)(), void (*cxx_delete)(), void* extra_state, Create create,
                  Free free_keyval, TCopy* tcopy, TDelete* tdelete,
                  void (*cxx_copy_void_in)() = nullptr) {
  int keyval = MPI_KEYVAL_INVALID;
  if (cxx_copy == nullptr && cxx_delete == nullptr && cxx_copy_void_in == nullptr) {
    check(create(c_copy, c_delete, &keyval, extra_state));
    return keyval;
  }
  // Out of memory (D61, D64): no keyval; the C library has raised MPI_ERR_NO_MEM, naming the
  // routine, where the C routine raises its keyval errors, and an MPI::Exception follows under
  // MPI::ERRORS_THROW_EXCEPTIONS.
  int rc = MPI_ERR_NO_MEM;
  void* memory = mpiattr_keyval_state_alloc(sizeof(keyval_state), routine, &rc);
  if (memory == nullptr) {
    raise(rc);
    return MPI_KEYVAL_INVALID;
  }
  auto* state = new (memory) keyval_state{kind,     extra_state, erase(c_copy), erase(c_delete),
                                          cxx_copy, cxx_delete,  cxx_copy_void_in};
  rc = create(tcopy, tdelete, &keyval, state);
  if (rc == MPI_SUCCESS) {
    rc = mpiattr_keyval_set_release(keyval, release_state);
    if (rc == MPI_SUCCESS) {
      live_states.fetch_add(1, std::memory_order_relaxed);
      return keyval;
    }
    free_keyval(&keyval);  // never used: its record dies at once, without callbacks
  }
  std::free(state);
  raise(rc);
  return MPI_KEYVAL_INVALID;
}

// ---- C++ error handler functions: a fixed set of C functions, one per distinct C++ function ----

constexpr int kErrhandlerSlots = 64;

template <typename Fn>
struct slots {
  std::atomic<Fn*> fns[kErrhandlerSlots] = {};
};
slots<Comm::Errhandler_function> comm_slots;
slots<Win::Errhandler_function> win_slots;
slots<File::Errhandler_function> file_slots;
slots<User_function> op_slots;  // MPI::Op::Init: the C function has no extra_state to find it by
std::mutex slot_mutex;

template <typename F>
void keep_exception(F&& body) noexcept {
  try {
    body();
  } catch (...) {
    pending_exception = std::current_exception();
  }
}

template <int I>
void comm_slot(MPI_Comm* comm, int* code, ...) {
  Comm::Errhandler_function* f = comm_slots.fns[I].load(std::memory_order_acquire);
  keep_exception([&] {
    comm_traits::with_plain_object(*comm, [&](auto& obj) {
      f(obj, code);
      return 0;
    });
  });
}
template <int I>
void win_slot(MPI_Win* win, int* code, ...) {
  Win::Errhandler_function* f = win_slots.fns[I].load(std::memory_order_acquire);
  keep_exception([&] {
    Win w(*win);
    f(w, code);
  });
}

template <int I>
void file_slot(MPI_File* file, int* code, ...) {
  File::Errhandler_function* f = file_slots.fns[I].load(std::memory_order_acquire);
  keep_exception([&] {
    File fh(*file);
    f(fh, code);
  });
}
// A C++ exception cannot cross the C library's reduction: it is kept and rethrown by the member
// that called it, as for error handler functions.
template <int I>
void op_slot(void* in, void* inout, int* len, MPI_Datatype* type) {
  User_function* f = op_slots.fns[I].load(std::memory_order_acquire);
  keep_exception([&] { f(in, inout, *len, Datatype(*type)); });
}

template <int... I>
std::array<MPI_File_errhandler_function*, sizeof...(I)> file_slot_table(std::integer_sequence<int, I...>) {
  return {{&file_slot<I>...}};
}
template <int... I>
std::array<MPI_User_function*, sizeof...(I)> op_slot_table(std::integer_sequence<int, I...>) {
  return {{&op_slot<I>...}};
}
template <int... I>
std::array<MPI_Comm_errhandler_function*, sizeof...(I)> comm_slot_table(std::integer_sequence<int, I...>) {
  return {{&comm_slot<I>...}};
}
template <int... I>
std::array<MPI_Win_errhandler_function*, sizeof...(I)> win_slot_table(std::integer_sequence<int, I...>) {
  return {{&win_slot<I>...}};
}
const auto comm_slot_fns = comm_slot_table(std::make_integer_sequence<int, kErrhandlerSlots>());
const auto win_slot_fns = win_slot_table(std::make_integer_sequence<int, kErrhandlerSlots>());
const auto file_slot_fns = file_slot_table(std::make_integer_sequence<int, kErrhandlerSlots>());
const auto op_slot_fns = op_slot_table(std::make_integer_sequence<int, kErrhandlerSlots>());

// ---- generalized requests and data representations: C++ functions behind C ones ----

struct grequest_state {
  Grequest::Query_function* query;
  Grequest::Free_function* free;
  Grequest::Cancel_function* cancel;
  void* extra_state;
};
extern "C" int grequest_query(void* state, MPI_Status* status) {
  auto* g = static_cast<grequest_state*>(state);
  Status s(*status);
  int rc = MPI_ERR_OTHER;
  keep_exception([&] { rc = g->query(g->extra_state, s); });
  *status = s;
  return rc;
}
extern "C" int grequest_free(void* state) {
  auto* g = static_cast<grequest_state*>(state);
  int rc = MPI_ERR_OTHER;
  keep_exception([&] { rc = g->free(g->extra_state); });
  delete g;
  return rc;
}
extern "C" int grequest_cancel(void* state, int complete) {
  auto* g = static_cast<grequest_state*>(state);
  int rc = MPI_ERR_OTHER;
  keep_exception([&] { rc = g->cancel(g->extra_state, complete != 0); });
  return rc;
}

// Kept until the program ends: a data representation cannot be unregistered (MPI-2.2 §13.5.3).
struct datarep_state {
  Datarep_conversion_function* read;
  Datarep_conversion_function* write;
  Datarep_extent_function* extent;
  void* extra_state;
};
extern "C" int datarep_read(void* userbuf, MPI_Datatype type, int count, void* filebuf,
                            MPI_Offset position, void* state) {
  auto* d = static_cast<datarep_state*>(state);
  Datatype t(type);
  keep_exception([&] { d->read(userbuf, t, count, filebuf, position, d->extra_state); });
  return MPI_SUCCESS;
}
extern "C" int datarep_write(void* userbuf, MPI_Datatype type, int count, void* filebuf,
                             MPI_Offset position, void* state) {
  auto* d = static_cast<datarep_state*>(state);
  Datatype t(type);
  keep_exception([&] { d->write(userbuf, t, count, filebuf, position, d->extra_state); });
  return MPI_SUCCESS;
}
extern "C" int datarep_extent(MPI_Datatype type, MPI_Aint* extent, void* state) {
  auto* d = static_cast<datarep_state*>(state);
  Aint e = 0;
  keep_exception([&] { d->extent(Datatype(type), e, d->extra_state); });
  *extent = e;
  return MPI_SUCCESS;
}

// The slot of f (taken if f has none): its C function; null when every slot is taken (then the
// C call refuses the null function through its error handler).
template <typename Fn, typename C, std::size_t N>
C* slot_for(slots<Fn>& table, const std::array<C*, N>& fns, Fn* f) {
  std::lock_guard<std::mutex> lock(slot_mutex);
  for (int i = 0; i < kErrhandlerSlots; ++i) {
    Fn* g = table.fns[i].load(std::memory_order_relaxed);
    if (g == f) return fns[i];
    if (g == nullptr) {
      table.fns[i].store(f, std::memory_order_release);
      return fns[i];
    }
  }
  return nullptr;
}

}  // namespace

void raise(int rc) {
  if (pending_exception) {
    std::exception_ptr e = pending_exception;
    pending_exception = nullptr;
    pending = false;
    std::rethrow_exception(e);
  }
  if (pending && pending_code == rc) {
    pending = false;
    throw Exception(rc);
  }
}

void raise_pending() {
  if (pending_exception) {
    std::exception_ptr e = pending_exception;
    pending_exception = nullptr;
    pending = false;
    std::rethrow_exception(e);
  }
  if (pending) {
    pending = false;
    throw Exception(pending_code);
  }
}

int create_keyval_comm(MPI_Comm_copy_attr_function* c_copy, MPI_Comm_delete_attr_function* c_delete,
                       Comm::Copy_attr_function* cxx_copy, Comm::Delete_attr_function* cxx_delete,
                       void* extra_state) {
  return create_keyval(comm_kind, "MPI_Comm_create_keyval", c_copy, c_delete, erase(cxx_copy),
                       erase(cxx_delete), extra_state, MPI_Comm_create_keyval,
                       MPI_Comm_free_keyval, comm_copy_trampoline, comm_delete_trampoline);
}

int create_keyval_win(MPI_Win_copy_attr_function* c_copy, MPI_Win_delete_attr_function* c_delete,
                      Win::Copy_attr_function* cxx_copy, Win::Delete_attr_function* cxx_delete,
                      void* extra_state) {
  return create_keyval(win_kind, "MPI_Win_create_keyval", c_copy, c_delete, erase(cxx_copy),
                       erase(cxx_delete), extra_state, MPI_Win_create_keyval,
                       MPI_Win_free_keyval, win_copy_trampoline, win_delete_trampoline);
}

int create_keyval_type(MPI_Type_copy_attr_function* c_copy, MPI_Type_delete_attr_function* c_delete,
                       Datatype::Copy_attr_function* cxx_copy,
                       Datatype::Delete_attr_function* cxx_delete,
                       Datatype::Mpich_copy_attr_function* cxx_copy_mpich, void* extra_state) {
  return create_keyval(type_kind, "MPI_Type_create_keyval", c_copy, c_delete, erase(cxx_copy),
                       erase(cxx_delete), extra_state, MPI_Type_create_keyval,
                       MPI_Type_free_keyval, type_copy_trampoline, type_delete_trampoline,
                       erase(cxx_copy_mpich));
}

MPI_Comm_errhandler_function* comm_errhandler_fn(Comm::Errhandler_function* f) {
  return slot_for(comm_slots, comm_slot_fns, f);
}

MPI_Win_errhandler_function* win_errhandler_fn(Win::Errhandler_function* f) {
  return slot_for(win_slots, win_slot_fns, f);
}

MPI_File_errhandler_function* file_errhandler_fn(File::Errhandler_function* f) {
  return slot_for(file_slots, file_slot_fns, f);
}

MPI_Op op_init(User_function* function, bool commute) {
  MPI_Op op = MPI_OP_NULL;
  // Every slot taken: the null function makes MPI_Op_create fail through its error handler.
  check(MPI_Op_create(slot_for(op_slots, op_slot_fns, function), commute ? 1 : 0, &op));
  return op;
}

MPI_Request grequest_start(Grequest::Query_function* query_fn,
                           Grequest::Free_function* free_fn,
                           Grequest::Cancel_function* cancel_fn, void* extra_state) {
  auto* g = new grequest_state{query_fn, free_fn, cancel_fn, extra_state};
  MPI_Request r = MPI_REQUEST_NULL;
  const int rc = MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, g, &r);
  if (rc != MPI_SUCCESS) delete g;
  check(rc);
  return r;
}

void register_datarep(const char* datarep, Datarep_conversion_function* read_conversion_fn,
                      Datarep_conversion_function* write_conversion_fn,
                      Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  auto* d = new datarep_state{read_conversion_fn, write_conversion_fn, dtype_file_extent_fn,
                              extra_state};
  const int rc = MPI_Register_datarep(const_cast<char*>(datarep),
                                      read_conversion_fn ? datarep_read : MPI_CONVERSION_FN_NULL,
                                      write_conversion_fn ? datarep_write : MPI_CONVERSION_FN_NULL,
                                      dtype_file_extent_fn ? datarep_extent : nullptr, d);
  if (rc != MPI_SUCCESS) delete d;
  check(rc);
}

MPI_Errhandler c_errhandler(const Errhandler& e, object_kind kind) {
  if (!e.mpiattr_throws()) return e.mpiattr_c();
  std::lock_guard<std::mutex> lock(handler_mutex);
  if (kind == win_kind) {
    if (win_throw == MPI_ERRHANDLER_NULL) check(MPI_Win_create_errhandler(throw_win_handler, &win_throw));
    return win_throw;
  }
  if (kind == file_kind) {
    if (file_throw == MPI_ERRHANDLER_NULL) {
      check(MPI_File_create_errhandler(throw_file_handler, &file_throw));
#if defined(MPICH_VERSION) && defined(MPIATTR_OVER_HOST)
      // MPICH 4.0's MPI_File_close releases a user-defined error handler the file inherited from
      // MPI_FILE_NULL without MPI_File_open having taken it: a plain C program with one aborts at
      // its third close (ref_count >= 0, errhan_impl.c). This handler lives as long as the
      // process, so it is given references to spare: each MPI_File_get_errhandler takes one
      // (docs/decisions.md D36).
      MPI_Errhandler before = MPI_ERRHANDLER_NULL, spare = MPI_ERRHANDLER_NULL;
      check(MPI_File_get_errhandler(MPI_FILE_NULL, &before));
      check(MPI_File_set_errhandler(MPI_FILE_NULL, file_throw));
      for (int i = 0; i < (1 << 18); ++i) check(MPI_File_get_errhandler(MPI_FILE_NULL, &spare));
      check(MPI_File_set_errhandler(MPI_FILE_NULL, before));
#endif
    }
    return file_throw;
  }
  if (comm_throw == MPI_ERRHANDLER_NULL) check(MPI_Comm_create_errhandler(throw_comm_handler, &comm_throw));
  return comm_throw;
}

Errhandler cxx_errhandler(MPI_Errhandler h) {
  std::lock_guard<std::mutex> lock(handler_mutex);
  if (h != MPI_ERRHANDLER_NULL && (h == comm_throw || h == win_throw || h == file_throw))
    return ERRORS_THROW_EXCEPTIONS;
  return Errhandler(h);
}

// For tests: how many keyval states are alive (tests/cxx check that none leak).
extern "C" __attribute__((visibility("default"))) std::size_t mpiattr_cxx_live_keyval_states() {
  return live_states.load(std::memory_order_relaxed);
}

}  // namespace mpiattr_detail
MPIATTR_CXX_END  // namespace MPI
