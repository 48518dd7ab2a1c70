// Error handling on the standalone runtime: handlers, raising errors, classes, codes, strings.
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

std::atomic<errhandler_invoker> g_eh_invokers[kLanguages];
// MPI_FILE_NULL's error handler; nullptr: MPI_ERRORS_RETURN, its initial value (MPI-4.1 §15.7).
std::atomic<errhandler_object*> g_file_null_eh{nullptr};

}  // namespace

void register_errhandler_invoker(language lang, errhandler_invoker invoke) {
  g_eh_invokers[static_cast<int>(lang)].store(invoke);
}

namespace {
// The exit status of a process a fatal error ends: the error's class, as MPICH and Open MPI exit
// (MPI-4.1 §9.3: as if MPI_ABORT were called; §11.5: its errorcode goes to the environment), or
// 1 when that would read as success (a class of 256 and up) or MPI is not usable (before init,
// after finalize: the hosts exit 1 too). D150.
int fatal_exit_status(int code) {
  int cls = 0;
  if (!rt().usable() || !errors::class_of(code, &cls) || (cls & 0xFF) == 0) return 1;
  return cls & 0xFF;
}

// Calls error handler `eh` for `code` raised on object (kind, obj) in `routine`. A fatal handler
// prints `context` after the code's text: what went wrong when the code is a callback's own.
void invoke_handler(errhandler_object* eh, object_kind kind, handle_t obj, int code, const char* routine,
                    const char* context = nullptr) {
  using b = errhandler_object::builtin;
  if (eh == nullptr || eh->what == b::fatal || eh->what == b::abort) {
    char text[1024];
    int len = 0;
    if (!errors::string_of(code, text, sizeof text, &len)) std::snprintf(text, sizeof text, "error code %d", code);
    flush_output();
    if (context != nullptr && *context != '\0')
      std::fprintf(stderr, "mpiattr: fatal error in %s: %s (%s)\n", routine, text, context);
    else
      std::fprintf(stderr, "mpiattr: fatal error in %s: %s\n", routine, text);
    std::fflush(stderr);
    std::_Exit(fatal_exit_status(code));
  }
  if (eh->what == b::none) {
    if (auto inv = g_eh_invokers[static_cast<int>(eh->lang)].load()) inv(*eh, kind, obj, code);
  }
}
}  // namespace

// The code a failure raises. A callback's own valid code is returned as it is (D8) and so carries
// no message of ours; `context` is then what happened, which a fatal handler prints beside it.
static int code_of(status st, const char* routine, std::string& context) {
  int code = detail::last_user_code();
  int cls = 0;
  if (code == 0 || !errors::class_of(code, &cls))
    code = errors::make_code(st.error_class(), routine);
  else
    context = detail::last_detail();
  detail::clear_last();
  return code;
}

int raise_error(const attr_object* target, status st, const char* routine) {
  std::string context;
  const int code = code_of(st, routine, context);
  runtime& r = rt();
  errhandler_object* eh = nullptr;
  object_kind kind = object_kind::comm;
  handle_t obj = h::comm_self;
  if (target != nullptr && target->kind != object_kind::type) {
    eh = target->cold().errhandler.load(std::memory_order_acquire);
    kind = target->kind;
    obj = target->handle;
  } else if (r.usable()) {
    // Errors not tied to a communicator or window go to MPI_COMM_SELF (MPI-4.1 §10.3).
    if (comm_object* self = r.comms.lookup(h::comm_self)) eh = self->cold().errhandler.load();
  }
  // Before init and after finalize: the initial error handler, MPI_ERRORS_ARE_FATAL (R10.4).
  if (eh == nullptr) eh = builtin_eh(h::errors_are_fatal);
  invoke_handler(eh, kind, obj, code, routine, context.c_str());
  return code;
}

errhandler_object* file_default_eh() {
  errhandler_object* eh = g_file_null_eh.load(std::memory_order_acquire);
  return eh != nullptr ? eh : builtin_eh(h::errors_return);
}

int raise_file_error(handle_t file, status st, const char* routine) {
  std::string context;
  const int code = code_of(st, routine, context);
  // An open file's handler; else MPI_FILE_NULL's (MPI-4.1 §15.7). Before init and after finalize:
  // the initial error handler, MPI_ERRORS_ARE_FATAL (R10.4).
  errhandler_object* eh = nullptr;
  if (!rt().usable()) {
    eh = builtin_eh(h::errors_are_fatal);
    file = h::file_null;
  } else if (file == h::file_null || (eh = file_eh_of(file)) == nullptr) {
    eh = file_default_eh();
    file = h::file_null;
  }
  invoke_handler(eh, object_kind::comm, file, code, routine, context.c_str());
  return code;
}

int raise_session_error(handle_t session, status st, const char* routine, errhandler_object* given) {
  errhandler_object* eh = rt().usable() ? session_eh_of(session) : nullptr;
  if (eh == nullptr && given != nullptr && (given->predefined || given->for_session)) eh = given;
  if (eh == nullptr) return raise_error(nullptr, st, routine);  // no live session: D4
  std::string context;
  const int code = code_of(st, routine, context);
  invoke_handler(eh, object_kind::comm, session, code, routine, context.c_str());
  return code;
}

static void raise_on(attr_object& o, int code) {
  invoke_handler(o.cold().errhandler.load(std::memory_order_acquire), o.kind, o.handle, code,
                 o.kind == object_kind::comm ? "MPI_Comm_call_errhandler" : "MPI_Win_call_errhandler");
}

namespace api {

// ---- error handling ----

static status create_errhandler(object_kind kind, language lang, fnptr fn, handle_t& out,
                                bool for_file = false, bool for_session = false) {
  if (fn == nullptr) return fail(MPI_ERR_ARG, "the error handler function is NULL");
  auto* e = new errhandler_object;  // (nothing after it throws)
  e->for_kind = kind;
  e->for_file = for_file;
  e->for_session = for_session;
  e->lang = lang;
  e->fn = fn;
  return insert_new(rt().errhandlers, e, out, "error handlers");
}

status comm_create_errhandler(language lang, fnptr fn, handle_t& eh) {
  return create_errhandler(object_kind::comm, lang, fn, eh);
}

status win_create_errhandler(language lang, fnptr fn, handle_t& eh) {
  return create_errhandler(object_kind::win, lang, fn, eh);
}

static const char* made_for(const errhandler_object& e) {
  return e.for_file ? "file" : e.for_session ? "session" : kind_name(e.for_kind);
}

static status set_eh(attr_object& o, errhandler_object& e) {
  if (e.what == errhandler_object::builtin::none && (e.for_file || e.for_session || e.for_kind != o.kind))
    return fail(MPI_ERR_ARG, "the error handler was created for %ss, not %ss", made_for(e), kind_name(o.kind));
  o.cold().errhandler.store(&e, std::memory_order_release);
  return status::ok();
}

status comm_set_errhandler(comm_object& comm, errhandler_object& e) { return set_eh(comm, e); }
status win_set_errhandler(win_object& win, errhandler_object& e) { return set_eh(win, e); }

// The handle MPI_XXX_get_errhandler gives is a new reference, which the program frees as it frees
// the one from create (MPI-4.1 §10.3.4: "the error handler is freed when it is no longer
// referenced"; MPICH and Open MPI count them the same way).
// A handler whose every reference was freed while objects still use it has left the table; a
// new reference brings it back under a fresh handle.
static handle_t new_reference(errhandler_object* e) {
  if (!e->predefined && e->handle_refs.fetch_add(1, std::memory_order_acq_rel) == 0 &&
      rt().errhandlers.insert(e) == 0)
    return h::errhandler_null;  // the table is full: no handle to give
  return e->handle;
}

status comm_get_errhandler(comm_object& comm, handle_t& eh) {
  eh = new_reference(comm.cold().errhandler.load());
  return status::ok();
}

status win_get_errhandler(win_object& win, handle_t& eh) {
  eh = new_reference(win.cold().errhandler.load());
  return status::ok();
}

status errhandler_free(handle_t& eh) {
  errhandler_object* e = rt().errhandlers.lookup(eh);
  if (e == nullptr) return fail(MPI_ERR_ARG, "error handler 0x%x is null or not valid", eh);
  // The handle stays valid while the program holds another reference to it. After the last one,
  // objects still using the handler keep it (MPI-4.1 §10.3.4): the record is not reclaimed, but
  // kept with the other retired ones (no object counts its users; each costs a few bytes).
  if (!e->predefined && e->handle_refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    rt().errhandlers.erase(e);
    static std::mutex mu;
    static auto* retired = new std::vector<errhandler_object*>;  // reachable: not a leak
    std::lock_guard lock(mu);
    try {
      retired->push_back(e);
    } catch (...) {  // out of memory: a free never fails for it (D61); the record stays, unlisted
    }
  }
  eh = h::errhandler_null;
  return status::ok();
}

status comm_call_errhandler(comm_object& comm, int errorcode) {
  raise_on(comm, errorcode);
  return status::ok();
}

status win_call_errhandler(win_object& win, int errorcode) {
  raise_on(win, errorcode);
  return status::ok();
}

// ---- files: MPI_FILE_NULL's handler here, an open file's in its record (files.cc) ----

status file_create_errhandler(language lang, fnptr fn, handle_t& eh) {
  return create_errhandler(object_kind::comm, lang, fn, eh, true);
}

// The handler of `file`: an open file's, or MPI_FILE_NULL's; MPI_ERR_FILE for any other handle.
static status file_eh(handle_t file, errhandler_object*& eh) {
  if (file == h::file_null) {
    eh = file_default_eh();
    return status::ok();
  }
  eh = file_eh_of(file);
  if (eh != nullptr) return status::ok();
  return fail(MPI_ERR_FILE, "0x%x is not a file handle (never opened, or closed)", file);
}

status file_set_errhandler(handle_t file, errhandler_object& e) {
  errhandler_object* old = nullptr;
  if (status st = file_eh(file, old); !st.is_ok()) return st;
  if (e.what == errhandler_object::builtin::none && !e.for_file)
    return fail(MPI_ERR_ARG, "the error handler was created for %ss, not files", made_for(e));
  if (file == h::file_null) g_file_null_eh.store(&e, std::memory_order_release);
  else if (!file_eh_store(file, &e)) return fail(MPI_ERR_FILE, "0x%x is not a file handle (closed)", file);
  return status::ok();
}

status file_get_errhandler(handle_t file, handle_t& eh) {
  errhandler_object* e = nullptr;
  if (status st = file_eh(file, e); !st.is_ok()) return st;
  eh = new_reference(e);
  return status::ok();
}

status file_call_errhandler(handle_t file, int errorcode) {
  errhandler_object* e = nullptr;
  if (status st = file_eh(file, e); !st.is_ok()) return st;
  invoke_handler(e, object_kind::comm, file, errorcode, "MPI_File_call_errhandler");
  return status::ok();
}

// ---- sessions (D49): their handles and records are sessions.cc's ----

status session_create_errhandler(language lang, fnptr fn, handle_t& eh) {
  return create_errhandler(object_kind::comm, lang, fn, eh, false, true);
}

static status live_session(handle_t session, errhandler_object*& eh) {
  eh = session_eh_of(session);
  if (eh != nullptr) return status::ok();
  if (session == h::session_null) return fail(MPI_ERR_SESSION, "the session is MPI_SESSION_NULL");
  return fail(MPI_ERR_SESSION, "0x%x is not a session handle (never initialized, or finalized)", session);
}

status session_set_errhandler(handle_t session, errhandler_object& e) {
  errhandler_object* old = nullptr;
  if (status st = live_session(session, old); !st.is_ok()) return st;
  if (e.what == errhandler_object::builtin::none && !e.for_session)
    return fail(MPI_ERR_ARG, "the error handler was created for %ss, not sessions", made_for(e));
  session_eh_store(session, &e);
  return status::ok();
}

status session_get_errhandler(handle_t session, handle_t& eh) {
  errhandler_object* e = nullptr;
  if (status st = live_session(session, e); !st.is_ok()) return st;
  eh = new_reference(e);
  return status::ok();
}

status session_call_errhandler(handle_t session, int errorcode) {
  errhandler_object* e = nullptr;
  if (status st = live_session(session, e); !st.is_ok()) return st;
  invoke_handler(e, object_kind::comm, session, errorcode, "MPI_Session_call_errhandler");
  return status::ok();
}

status error_class(int errorcode, int& errorclass) {
  if (!errors::class_of(errorcode, &errorclass))
    return fail(MPI_ERR_ARG, "%d is not an MPI error code", errorcode);
  return status::ok();
}

// User-defined classes and codes (MPI-4.1 §10.5): MPI_LASTUSEDCODE follows them (R8.2).
status add_error_class(int& errorclass) {
  if (status st = errors::add_class(errorclass); !st.is_ok()) return st;
  set_int(g_environment, MPI_LASTUSEDCODE, errors::last_used_code());
  return status::ok();
}

status add_error_code(int errorclass, int& errorcode) {
  if (status st = errors::add_code(errorclass, errorcode); !st.is_ok()) return st;
  set_int(g_environment, MPI_LASTUSEDCODE, errors::last_used_code());
  return status::ok();
}

status add_error_string(int errorcode, const char* string) { return errors::add_string(errorcode, string); }

// Their removal (MPI-4.1 §10.5, D55): only what MPI_Add_error_* made, only when nothing depends on
// it (a class with a code); the value is never given out again, so MPI_LASTUSEDCODE stays.
status remove_error_class(int errorclass) { return errors::remove_class(errorclass); }
status remove_error_code(int errorcode) { return errors::remove_code(errorcode); }
status remove_error_string(int errorcode) { return errors::remove_string(errorcode); }

status error_string(int errorcode, char* string, int& resultlen) {
  if (!errors::string_of(errorcode, string, MPI_MAX_ERROR_STRING, &resultlen))
    return fail(MPI_ERR_ARG, "%d is not an MPI error code", errorcode);
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
