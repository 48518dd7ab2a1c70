// Sessions on the standalone runtime's one process (MPI-4.1 §11.3, docs/decisions.md D49).
// A session is a record outside the object tables (the handle's kind bits are all used): its
// handle is kSessionTag | a serial number never reused, so a finalized session's handle stays
// invalid. Its process sets are "mpi://WORLD" and "mpi://SELF", both this process. Groups and
// communicators made from a session are the runtime's ordinary objects.
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

// Outside the tables' 0x40000000 | kind | generation | index and the predefined handles; it fits
// a Fortran INTEGER, which standalone is the handle itself (D1).
constexpr handle_t kSessionTag = 0x20000000;
constexpr handle_t kSessionSerialMask = 0x0fffffff;

struct session_record {
  std::atomic<errhandler_object*> errhandler{nullptr};
  std::vector<std::pair<std::string, std::string>> hints;  // the info given to MPI_Session_init
  int level = MPI_THREAD_SINGLE;                          // the thread level it provides
};

std::mutex g_sessions_mu;
std::map<handle_t, session_record*> g_sessions;
handle_t g_next_serial = 1;

session_record* find_session(handle_t session) {
  std::lock_guard lock(g_sessions_mu);
  auto it = g_sessions.find(session);
  return it == g_sessions.end() ? nullptr : it->second;
}

// The process sets (MPI-4.1 §11.3.2): the two every implementation has, each this process.
constexpr const char* kPsets[] = {"mpi://WORLD", "mpi://SELF"};
constexpr int kNumPsets = 2;

}  // namespace

// A process set's name, compared as given (runtime_internal.h).
bool known_pset(const char* name) {
  for (const char* p : kPsets)
    if (std::strcmp(p, name) == 0) return true;
  return false;
}

namespace {

status check_session(handle_t session, session_record*& out) {
  out = find_session(session);
  if (out != nullptr) return status::ok();
  if (session == h::session_null) return fail(MPI_ERR_SESSION, "the session is MPI_SESSION_NULL");
  return fail(MPI_ERR_SESSION, "0x%x is not a session handle (never initialized, or finalized)", session);
}

status check_pset(const char* pset_name) {
  if (pset_name == nullptr) return fail(MPI_ERR_ARG, "pset_name is a NULL pointer");
  if (known_pset(pset_name)) return status::ok();
  return fail(MPI_ERR_ARG, "\"%s\" is not a process set of this session (there are \"mpi://WORLD\" and \"mpi://SELF\", "
                           "each the one process)", pset_name);
}

// The level a "thread_level" hint names (MPI-4.1 §11.3.1), or -1.
int thread_level_of(const std::string& name) {
  for (int level : {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE})
    if (name == thread_level_name(level)) return level;
  return -1;
}

}  // namespace

errhandler_object* session_eh_of(handle_t session) {
  session_record* s = find_session(session);
  return s == nullptr ? nullptr : s->errhandler.load(std::memory_order_acquire);
}

void session_eh_store(handle_t session, errhandler_object* e) {
  if (session_record* s = find_session(session)) s->errhandler.store(e, std::memory_order_release);
}

namespace api {

// ---- sessions ----

status session_init(handle_t info, errhandler_object& errhandler, handle_t& session) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (errhandler.what == errhandler_object::builtin::none && !errhandler.for_session)
    return fail(MPI_ERR_ARG, "the error handler was not created by MPI_Session_create_errhandler (nor is it predefined)");
  hint_list hints = pairs_of(info);
  // The level asked for, which the runtime provides (D49); without one, the World Model's while
  // it is active (the session shares its objects), else MPI_THREAD_SINGLE.
  int level = rt().world_active() ? rt().thread_level : MPI_THREAD_SINGLE;
  for (const auto& kv : hints)
    if (kv.first == "thread_level") {
      level = thread_level_of(kv.second);
      if (level < 0)
        return fail(MPI_ERR_INFO_VALUE, "the info key \"thread_level\" is \"%s\", not one of MPI_THREAD_SINGLE, "
                                        "MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE",
                    kv.second.c_str());
    }
  {
    std::lock_guard lock(g_sessions_mu);
    if (g_next_serial > kSessionSerialMask) return fail(MPI_ERR_INTERN, "too many sessions");
  }
  // The record and its entry first, then the session begins (out of memory: MPI is not made
  // usable by a session that does not exist, D65).
  auto s = std::make_unique<session_record>();
  s->hints = std::move(hints);
  s->level = level;
  s->errhandler.store(&errhandler, std::memory_order_relaxed);
  handle_t made = 0;
  {
    std::lock_guard lock(g_sessions_mu);
    made = kSessionTag | g_next_serial;
    g_sessions.emplace(made, s.get());
    ++g_next_serial;
  }
  status st;
  try {
    st = session_begin(level);
  } catch (...) {
    st = from_exception("the runtime's state");
  }
  if (!st.is_ok()) {
    std::lock_guard lock(g_sessions_mu);
    g_sessions.erase(made);
    return st;
  }
  (void)s.release();
  session = made;
  return status::ok();
}

status session_finalize(handle_t& session) {
  session_record* s = nullptr;
  if (status st = check_session(session, s); !st.is_ok()) return st;
  {
    std::lock_guard lock(g_sessions_mu);
    g_sessions.erase(session);
  }
  delete s;
  p2p::buffer_session_finalized(session);
  session = h::session_null;
  session_end();  // the last one, without the World Model: MPI is usable no more (D49)
  return status::ok();
}

status session_get_num_psets(handle_t session, handle_t info, int& npset_names) {
  session_record* s = nullptr;
  if (status st = check_session(session, s); !st.is_ok()) return st;
  if (status st = check_info(info); !st.is_ok()) return st;
  npset_names = kNumPsets;
  return status::ok();
}

status session_get_nth_pset(handle_t session, handle_t info, int n, int& pset_len, char* pset_name) {
  session_record* s = nullptr;
  if (status st = check_session(session, s); !st.is_ok()) return st;
  if (status st = check_info(info); !st.is_ok()) return st;
  if (n < 0 || n >= kNumPsets)
    return fail(MPI_ERR_ARG, "n = %d is not the number of a process set (there are %d: 0 to %d)", n, kNumPsets, kNumPsets - 1);
  if (pset_len < 0) return fail(MPI_ERR_ARG, "pset_len = %d is negative", pset_len);
  const std::size_t len = std::strlen(kPsets[n]);
  // 0 asks for the length, terminating null included (MPI-4.1 §11.3.2); any other pset_len is
  // the buffer's size, which the name, truncated, fills, and stays as it is (as in MPICH).
  if (pset_len == 0) {
    pset_len = static_cast<int>(len) + 1;
    return status::ok();
  }
  if (pset_name == nullptr) return fail(MPI_ERR_ARG, "pset_name is a NULL pointer");
  std::size_t k = std::min(len, static_cast<std::size_t>(pset_len - 1));
  std::memcpy(pset_name, kPsets[n], k);
  pset_name[k] = '\0';
  return status::ok();
}

// The hints given to MPI_Session_init, and "thread_level", the level the session provides (D49).
status session_get_info(handle_t session, handle_t& info_used) {
  session_record* s = nullptr;
  if (status st = check_session(session, s); !st.is_ok()) return st;
  auto pairs = s->hints;
  const char* level = thread_level_name(s->level);
  bool set = false;
  for (auto& kv : pairs)
    if (kv.first == "thread_level") {
      kv.second = level;
      set = true;
    }
  if (!set) pairs.emplace_back("thread_level", level);
  return new_info(std::move(pairs), info_used);
}

// "mpi_size", the one key MPI-4.1 §11.3.2 requires.
status session_get_pset_info(handle_t session, const char* pset_name, handle_t& info) {
  session_record* s = nullptr;
  if (status st = check_session(session, s); !st.is_ok()) return st;
  if (status st = check_pset(pset_name); !st.is_ok()) return st;
  return new_info({{"mpi_size", "1"}}, info);
}

status group_from_session_pset(handle_t session, const char* pset_name, handle_t& newgroup) {
  session_record* s = nullptr;
  if (status st = check_session(session, s); !st.is_ok()) return st;
  if (status st = check_pset(pset_name); !st.is_ok()) return st;
  auto* g = new group_object;
  g->size = 1;
  g->session = session;
  return insert_new(rt().groups, g, newgroup, "groups");
}

// A communicator of `group` (MPI-4.1 §8.4.2): standalone, the group holds this process or none.
// It has no attributes and no name; its hints are info's and its handler is errhandler.
status comm_create_from_group(group_object& group, const char* stringtag, handle_t info, errhandler_object& errhandler,
                              handle_t& newcomm) {
  if (stringtag == nullptr) return fail(MPI_ERR_ARG, "stringtag is a NULL pointer");
  const std::size_t n = std::strlen(stringtag);
  if (n > MPI_MAX_STRINGTAG_LEN)
    return fail(MPI_ERR_ARG, "stringtag has %zu characters; MPI_MAX_STRINGTAG_LEN is %d", n, MPI_MAX_STRINGTAG_LEN);
  if (group.size == 0) return fail(MPI_ERR_GROUP, "the group is empty: the calling process is not in it");
  if (status st = check_info(info); !st.is_ok()) return st;
  if (errhandler.what == errhandler_object::builtin::none && (errhandler.for_file || errhandler.for_session ||
                                                             errhandler.for_kind != object_kind::comm))
    return fail(MPI_ERR_ARG, "the error handler was not created for communicators");
  comm_object one;  // the group's one process (MPI_COMM_SELF may not exist: D49)
  one.size = 1;
  one.rank = 0;
  one.sessions_model = true;  // MPI_TAG_UB its only predefined attribute, and its derived ones' (R8.2, D124)
  unpublished<comm_object> fresh;
  if (status st = rt().life->comm_derive(one, true, *fresh.obj); !st.is_ok()) return st;
  comm_object* o = fresh.obj;
  try {  // everything it needs, before it is published (D65)
    if (info != h::info_null) comm_hints_replace(*o, info);
    if (group.session != 0) p2p::buffer_comm_of_session(*o, group.session);
  } catch (...) {
    rt().life->comm_release(*o);
    return from_exception("the communicator's hints");
  }
  o->cold().errhandler.store(&errhandler, std::memory_order_relaxed);
  if (rt().comms.insert(o) == 0) {
    rt().life->comm_release(*o);
    return fail(MPI_ERR_INTERN, "too many communicators");
  }
  report::object_made(object_kind::comm, o->handle);  // (MPIATTR_REPORT names where, D60)
  fresh.release();
  newcomm = o->handle;
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
