// Requests beyond "send, receive, wait" on the standalone runtime (D44): persistent requests,
// buffered mode, cancellation, generalized requests, MPI_Isendrecv, matched probes and receives,
// partitioned communication. Messages and completion live in point_to_point.cc.
#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>
#include <vector>

#include "p2p_internal.h"

namespace mpiattr {
namespace p2p {

// ---- generalized requests (MPI-4.1 §14.2) ----
// The callbacks use their creator's conventions: C's (also C++'s, whose glue gives C functions)
// take extra_state by value and return the error code; Fortran's take every argument by reference
// and set IERROR. A status is the same eight integers in C and Fortran (MPI_F_STATUS_SIZE); a
// Fortran LOGICAL `complete` is passed as 1 or 0 (gfortran's .TRUE. and .FALSE.).
namespace {
using c_query = int(void*, int*);
using c_free = int(void*);
using c_cancel = int(void*, int);
using f_query = void(aint*, int*, int*);
using f_free = void(aint*, int*);
using f_cancel = void(aint*, int*, int*);

bool fortran(language l) { return l == language::fortran_mpi1 || l == language::fortran_mpi2 || l == language::fortran_f08; }

msg_status from_words(const int* w) {
  msg_status m;
  m.source = w[0];
  m.tag = w[1];
  m.error = w[2];
  m.bytes = msg_status::bytes_of(w[3], w[4]);
  m.cancelled = w[5] != 0;
  return m;
}
void to_words(const msg_status& m, int* w) {
  w[0] = m.source;
  w[1] = m.tag;
  w[2] = m.error;
  w[3] = m.bytes_low();
  w[4] = m.bytes_high();
  w[5] = m.cancelled ? 1 : 0;
}

int call_query(const request_extra& g, msg_status& out) {
  int words[8] = {};
  to_words(msg_status{}, words);
  int rc = MPI_SUCCESS;
  aint extra = g.extra_state;
  if (fortran(g.lang))
    reinterpret_cast<f_query*>(g.query_fn)(&extra, words, &rc);
  else
    rc = reinterpret_cast<c_query*>(g.query_fn)(reinterpret_cast<void*>(extra), words);
  out = from_words(words);
  return rc;
}
int call_free(const request_extra& g) {
  int rc = MPI_SUCCESS;
  aint extra = g.extra_state;
  if (fortran(g.lang))
    reinterpret_cast<f_free*>(g.free_fn)(&extra, &rc);
  else
    rc = reinterpret_cast<c_free*>(g.free_fn)(reinterpret_cast<void*>(extra));
  return rc;
}
int call_cancel(const request_extra& g, bool completed) {
  int rc = MPI_SUCCESS, flag = completed ? 1 : 0;
  aint extra = g.extra_state;
  if (fortran(g.lang))
    reinterpret_cast<f_cancel*>(g.cancel_fn)(&extra, &flag, &rc);
  else
    rc = reinterpret_cast<c_cancel*>(g.cancel_fn)(reinterpret_cast<void*>(extra), flag);
  return rc;
}
}  // namespace

status grequest_finish(const request_extra& g, msg_status& out) {
  int rc = call_query(g, out);
  int rc_free = call_free(g);
  if (rc != MPI_SUCCESS) return callback_failed(rc, "the generalized request's query_fn");
  if (rc_free != MPI_SUCCESS) return callback_failed(rc_free, "the generalized request's free_fn");
  return status::ok();
}

status grequest_release(const request_extra& g) {
  int rc = call_free(g);
  if (rc != MPI_SUCCESS) return callback_failed(rc, "the generalized request's free_fn");
  return status::ok();
}

// A new inactive persistent (or generalized) request, with its arguments.
status new_persistent(request_extra e, handle_t& request) {
  handle_t r = new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  try {
    auto& p = queues();
    std::lock_guard lock(p.mu);
    p.extra.emplace(r, std::move(e));
  } catch (...) {  // out of memory (D65): no request is left behind
    (void)api::request_free(r);
    return from_exception("the persistent request");
  }
  request = r;
  return status::ok();
}

}  // namespace p2p

namespace api {
using namespace p2p;

namespace {

status send_init_mode(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
                      send_mode mode, handle_t& request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(dest, false); !st.is_ok()) return st;
  if (status st = check_tag(tag, false); !st.is_ok()) return st;
  request_extra e{request_extra::kind::send};
  e.send_buf = buf;
  e.count = count;
  copy_layout(t, e.layout);
  e.peer = dest;
  e.tag = tag;
  e.context = comm.context;
  e.mode = mode;
  return new_persistent(std::move(e), request);
}
}  // namespace

// ---- persistent point-to-point (MPI-4.1 §4.9) ----

status send_init(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
                 handle_t& request) {
  return send_init_mode(buf, count, t, dest, tag, comm, send_mode::standard, request);
}
status bsend_init(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
                  handle_t& request) {
  return send_init_mode(buf, count, t, dest, tag, comm, send_mode::buffered, request);
}
status ssend_init(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
                  handle_t& request) {
  return send_init_mode(buf, count, t, dest, tag, comm, send_mode::synchronous_nonblocking, request);
}
status rsend_init(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
                  handle_t& request) {
  return send_init_mode(buf, count, t, dest, tag, comm, send_mode::standard, request);
}

status recv_init(void* buf, std::int64_t count, type_object& t, int source, int tag, comm_object& comm,
                 handle_t& request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  request_extra e{request_extra::kind::recv};
  e.recv_buf = buf;
  e.count = count;
  copy_layout(t, e.layout);
  e.peer = source;
  e.tag = tag;
  e.context = comm.context;
  return new_persistent(std::move(e), request);
}

namespace {
void send_partitioned(state& p, handle_t request, request_extra& e);

// Whether `request` is a persistent request MPI_Start may start: valid, persistent, inactive.
status startable(handle_t request, const char* name) {
  if (request == h::request_null) return fail(MPI_ERR_REQUEST, "%s is MPI_REQUEST_NULL", name);
  if (rt().requests.lookup(request) == nullptr)
    return fail(MPI_ERR_REQUEST, "%s = 0x%x is not a valid request", name, request);
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto e = p.extra.find(request);
  if (e == p.extra.end() || e->second.k == request_extra::kind::grequest)
    return fail(MPI_ERR_REQUEST, "%s = 0x%x is not a persistent request (MPI_Start starts only "
                "those of MPI_Send_init and the other _init routines)", name, request);
  if (e->second.active)
    return fail(MPI_ERR_REQUEST, "%s = 0x%x is already active: it must complete before it is "
                "started again (MPI-4.1 section 4.9.1)", name, request);
  return status::ok();
}

// Starts a startable request: the operation its _init routine described begins.
status start_one(handle_t request) {
  auto& p = queues();
  std::unique_lock lock(p.mu);
  request_extra& e = p.extra.at(request);
  request_object* r = rt().requests.lookup(request);
  p.done.erase(request);
  switch (e.k) {
    case request_extra::kind::send: {
      const void* buf = e.send_buf;
      std::int64_t count = e.count;
      int dest = e.peer, tag = e.tag;
      type_layout l = e.layout;
      std::uint64_t context = e.context;
      send_mode mode = e.mode;
      lock.unlock();
      r->complete = true;
      if (status st = post_send(buf, count, l, dest, tag, context, mode, request); !st.is_ok()) return st;
      lock.lock();
      p.extra.at(request).active = true;
      return status::ok();
    }
    case request_extra::kind::recv: {
      recv_target t{e.recv_buf, e.count, e.layout};
      int source = e.peer, tag = e.tag;
      std::uint64_t context = e.context;
      e.active = true;
      lock.unlock();
      try {
        post_recv(request, t, source, tag, context);  // (posts nothing when it throws)
      } catch (...) {  // out of memory (D65): the request is not started
        lock.lock();
        p.extra.at(request).active = false;
        throw;
      }
      return status::ok();
    }
    case request_extra::kind::collective: {
      std::function<status()> run = e.run;
      lock.unlock();
      if (status st = run(); !st.is_ok()) return st;
      r->complete = true;
      lock.lock();
      p.extra.at(request).active = true;
      return status::ok();
    }
    case request_extra::kind::psend:
      std::fill(e.ready.begin(), e.ready.end(), 0);
      e.active = true;
      r->complete = false;
      if (e.partitions == 0) send_partitioned(p, request, e);  // no partition to wait for
      return status::ok();
    case request_extra::kind::precv: {
      msg_status& slot = p.done[request];  // (out of memory here: not started, D65)
      e.active = true;
      e.arrived = false;
      r->complete = false;
      for (auto it = p.partitioned.begin(); it != p.partitioned.end(); ++it)
        if (it->context == e.context && tag_matches(e.tag, it->tag)) {
          slot = deliver(*it, recv_target{e.recv_buf, e.count * e.partitions, e.layout});
          p.partitioned.erase(it);
          e.arrived = true;
          r->complete = true;
          break;
        }
      return status::ok();
    }
    case request_extra::kind::grequest:
      break;
  }
  return fail(MPI_ERR_INTERN, "request 0x%x cannot be started", request);
}
}  // namespace

status start(handle_t& request) {
  if (status st = startable(request, "request"); !st.is_ok()) return st;
  return start_one(request);
}

// Every request is checked before any starts, so a bad one starts none.
status startall(int count, handle_t* requests) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {
    if (status st = startable(requests[i], "array_of_requests[i]"); !st.is_ok()) return st;
    for (int j = 0; j < i; ++j)
      if (requests[j] == requests[i])
        return fail(MPI_ERR_REQUEST, "array_of_requests[%d] and [%d] are the same request", j, i);
  }
  for (int i = 0; i < count; ++i)
    if (status st = start_one(requests[i]); !st.is_ok()) return st;
  return status::ok();
}

// ---- buffered mode (MPI-4.1 §4.6) ----
// The attached buffer is accounted for, not written: a buffered message to self is held in the
// queue like any other, and takes its size plus MPI_BSEND_OVERHEAD of the buffer until received.
}  // namespace api

namespace p2p {
namespace {
// The process's, a communicator's or a session's buffer (`owner`, p2p_internal.h); `whose` names
// it in messages. MPI_BUFFER_AUTOMATIC: the library provides the space, as much as a buffered
// send needs; size is then ignored (MPI-4.1 §4.6.1).
status attach_to(std::uint64_t owner, const char* whose, void* buffer, std::int64_t size) {
  const bool automatic = buffer == gen::buffer_automatic;
  if (!automatic && size < 0) return fail(MPI_ERR_ARG, "size %lld is negative", static_cast<long long>(size));
  // (D149: space at NULL or at MPI_IN_PLACE is no space; MPI_BUFFER_AUTOMATIC is its own address)
  if (!automatic && size > 0 && (buffer == nullptr || buffer == gen::in_place))
    return fail(MPI_ERR_BUFFER, "buffer is %s, with a size of %lld", buffer == nullptr ? "NULL" : "MPI_IN_PLACE",
                static_cast<long long>(size));
  auto& p = queues();
  std::lock_guard lock(p.mu);
  if (p.buffers.count(owner) != 0)
    return fail(MPI_ERR_BUFFER, "a buffer is already attached to %s: detach it first "
                "(MPI-4.1 section 4.6.1: one buffer at a time)", whose);
  attached_buffer& a = p.buffers[owner];
  a.buffer = automatic ? gen::buffer_automatic : buffer;
  a.size = automatic ? 0 : size;
  a.automatic = automatic;
  return status::ok();
}

// Releases the space the queued buffered messages hold of `owner`'s buffer: they count as
// transmitted (on one process they are in the receiver's queue already) and stay receivable (D55).
void flush_locked(state& p, std::uint64_t owner) {
  for (auto& m : p.queue)
    if (m.bsend_bytes != 0 && m.bsend_owner == owner) release_bsend(p, m);
}

// Detaching waits for the buffered messages to be sent: on one process they already are (queued
// to self), so it returns at once, and the queued messages stay receivable. An automatic buffer
// gives MPI_BUFFER_AUTOMATIC and size 0. The int forms cannot give a size beyond int (one a
// large-count form attached, D115): MPI_ERR_VALUE_TOO_LARGE, and the buffer stays attached.
template <typename Size>
status detach_from(std::uint64_t owner, const char* whose, void*& buffer_addr, Size& size) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto b = p.buffers.find(owner);
  if (b == p.buffers.end()) return fail(MPI_ERR_BUFFER, "no buffer is attached to %s", whose);
  if (b->second.size > std::numeric_limits<Size>::max())
    return fail(MPI_ERR_VALUE_TOO_LARGE, "the buffer attached to %s has %lld bytes, more than an int holds: "
                "the large-count form (MPI_Buffer_detach_c, MPI_Comm_detach_buffer_c, "
                "MPI_Session_detach_buffer_c) gives its size", whose, static_cast<long long>(b->second.size));
  flush_locked(p, owner);
  buffer_addr = b->second.buffer;
  size = static_cast<Size>(b->second.size);
  p.buffers.erase(b);
  return status::ok();
}

status flush(std::uint64_t owner) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  flush_locked(p, owner);  // with no buffer attached there is nothing to flush
  return status::ok();
}

status flushed_request(std::uint64_t owner, handle_t& request) {
  handle_t r = new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  (void)flush(owner);
  request = r;
  return status::ok();
}

status check_session_handle(handle_t session) {
  if (session_eh_of(session) != nullptr) return status::ok();
  if (session == h::session_null) return fail(MPI_ERR_SESSION, "the session is MPI_SESSION_NULL");
  return fail(MPI_ERR_SESSION, "0x%x is not a session handle (never initialized, or finalized)", session);
}
}  // namespace

void buffer_comm_derived(const comm_object& parent, const comm_object& fresh) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  if (auto s = p.comm_session.find(parent.context); s != p.comm_session.end())
    p.comm_session[fresh.context] = s->second;
}

void buffer_comm_of_session(const comm_object& comm, handle_t session) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  p.comm_session[comm.context] = session;
}

void buffer_comm_released(const comm_object& comm) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  p.comm_session.erase(comm.context);
  if (auto b = p.buffers.find(comm_buffer_key(comm.context)); b != p.buffers.end()) {
    flush_locked(p, b->first);
    p.buffers.erase(b);
  }
}

void buffer_session_finalized(handle_t session) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  if (auto b = p.buffers.find(session_buffer_key(session)); b != p.buffers.end()) {
    flush_locked(p, b->first);
    p.buffers.erase(b);
  }
}

}  // namespace p2p

namespace api {
using namespace p2p;

status buffer_attach(void* buffer, std::int64_t size) {
  return attach_to(process_buffer, "the process (MPI_Buffer_attach)", buffer, size);
}

status buffer_detach(void*& buffer_addr, int& size) {
  return detach_from(process_buffer, "the process (MPI_Buffer_attach)", buffer_addr, size);
}
status buffer_detach_c(void*& buffer_addr, std::int64_t& size) {
  return detach_from(process_buffer, "the process (MPI_Buffer_attach)", buffer_addr, size);
}

status buffer_flush() { return flush(process_buffer); }
status buffer_iflush(handle_t& request) { return flushed_request(process_buffer, request); }

status comm_attach_buffer(comm_object& comm, void* buffer, std::int64_t size) {
  return attach_to(comm_buffer_key(comm.context), "the communicator", buffer, size);
}
status comm_detach_buffer(comm_object& comm, void*& buffer_addr, int& size) {
  return detach_from(comm_buffer_key(comm.context), "the communicator", buffer_addr, size);
}
status comm_detach_buffer_c(comm_object& comm, void*& buffer_addr, std::int64_t& size) {
  return detach_from(comm_buffer_key(comm.context), "the communicator", buffer_addr, size);
}
status comm_flush_buffer(comm_object& comm) { return flush(comm_buffer_key(comm.context)); }
status comm_iflush_buffer(comm_object& comm, handle_t& request) {
  return flushed_request(comm_buffer_key(comm.context), request);
}

status session_attach_buffer(handle_t session, void* buffer, std::int64_t size) {
  if (status st = check_session_handle(session); !st.is_ok()) return st;
  return attach_to(session_buffer_key(session), "the session", buffer, size);
}
status session_detach_buffer(handle_t session, void*& buffer_addr, int& size) {
  if (status st = check_session_handle(session); !st.is_ok()) return st;
  return detach_from(session_buffer_key(session), "the session", buffer_addr, size);
}
status session_detach_buffer_c(handle_t session, void*& buffer_addr, std::int64_t& size) {
  if (status st = check_session_handle(session); !st.is_ok()) return st;
  return detach_from(session_buffer_key(session), "the session", buffer_addr, size);
}
status session_flush_buffer(handle_t session) {
  if (status st = check_session_handle(session); !st.is_ok()) return st;
  return flush(session_buffer_key(session));
}
status session_iflush_buffer(handle_t session, handle_t& request) {
  if (status st = check_session_handle(session); !st.is_ok()) return st;
  return flushed_request(session_buffer_key(session), request);
}

// ---- cancellation (MPI-4.1 §4.8.4) ----
// A receive still posted is cancelled: it completes, its status says so. A synchronous send whose
// message no receive took yet is cancelled too: its message leaves the queue (as MPICH does for a
// message to self). Any other send is already complete (buffered) and is not cancelled, as a
// request already complete never is. A generalized request's cancel_fn is called.

status cancel(handle_t request) {
  if (request == h::request_null) return fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) return fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
  auto& p = queues();
  std::unique_lock lock(p.mu);
  auto e = p.extra.find(request);
  if (e != p.extra.end() && e->second.k == request_extra::kind::grequest) {
    request_extra g = e->second;
    bool completed = r->complete;
    lock.unlock();
    int rc = call_cancel(g, completed);
    if (rc != MPI_SUCCESS) return callback_failed(rc, "the generalized request's cancel_fn");
    return status::ok();
  }
  if (e != p.extra.end() && !e->second.active)
    return fail(MPI_ERR_REQUEST, "request 0x%x is an inactive persistent request: there is nothing "
                "to cancel (MPI-4.1 section 4.8.4)", request);
  if (r->complete) return status::ok();
  msg_status cancelled;
  cancelled.cancelled = true;
  for (auto it = p.posted.begin(); it != p.posted.end(); ++it)
    if (it->request == request) {
      p.posted.erase(it);
      p.done[request] = cancelled;
      r->complete = true;
      return status::ok();
    }
  for (auto it = p.queue.begin(); it != p.queue.end(); ++it)
    if (it->sync_request == request) {
      release_bsend(p, *it);
      p.queue.erase(it);
      p.done[request] = cancelled;
      r->complete = true;
      return status::ok();
    }
  if (e != p.extra.end() && e->second.k == request_extra::kind::precv) {  // no partitioned send came
    p.done[request] = cancelled;
    r->complete = true;
  }
  return status::ok();
}

status test_cancelled(const msg_status& st, bool& flag) {
  flag = st.cancelled;
  return status::ok();
}

status status_set_cancelled(msg_status& st, bool flag) {
  st.cancelled = flag;
  return status::ok();
}

// The status a completion call would give, without completing (MPI-4.1 §4.7.6): the request
// stays as it is; a null or inactive one gives flag true and an empty status.
namespace {
// The empty status an inquiry gives for a null or inactive request (its error field written too).
msg_status empty_inquiry() {
  msg_status st;
  st.empty_inquiry = true;
  return st;
}
}  // namespace

status request_get_status(handle_t request, bool& flag, msg_status& out) {
  if (request == h::request_null) {
    flag = true;
    out = empty_inquiry();
    return status::ok();
  }
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) return fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
  auto& p = queues();
  std::unique_lock lock(p.mu);
  auto e = p.extra.find(request);
  if (e != p.extra.end() && e->second.k != request_extra::kind::grequest && !e->second.active) {
    flag = true;
    out = empty_inquiry();
    return status::ok();
  }
  if (!r->complete) {
    flag = false;
    return status::ok();
  }
  if (e != p.extra.end() && e->second.k == request_extra::kind::grequest) {
    request_extra g = e->second;
    lock.unlock();
    msg_status st;
    int rc = call_query(g, st);
    if (rc != MPI_SUCCESS) return callback_failed(rc, "the generalized request's query_fn");
    flag = true;
    out = st;
    return status::ok();
  }
  msg_status st;
  if (auto it = p.done.find(request); it != p.done.end()) st = it->second;
  flag = true;
  out = st;
  if (st.error == MPI_ERR_TRUNCATE) return fail_truncated(st);
  return status::ok();
}

// ---- generalized requests (MPI-4.1 §14.2) ----

status grequest_start(language lang, fnptr query_fn, fnptr free_fn, fnptr cancel_fn, aint extra_state,
                      handle_t& request) {
  if (query_fn == nullptr || free_fn == nullptr || cancel_fn == nullptr)
    return fail(MPI_ERR_ARG, "query_fn, free_fn and cancel_fn must all be functions (none may be NULL)");
  request_extra e{request_extra::kind::grequest};
  e.lang = lang;
  e.query_fn = query_fn;
  e.free_fn = free_fn;
  e.cancel_fn = cancel_fn;
  e.extra_state = extra_state;
  handle_t r = h::request_null;
  if (status st = new_persistent(std::move(e), r); !st.is_ok()) return st;
  rt().requests.lookup(r)->complete = false;
  request = r;
  return status::ok();
}

status grequest_complete(handle_t request) {
  request_object* r = request == h::request_null ? nullptr : rt().requests.lookup(request);
  auto& p = queues();
  std::unique_lock lock(p.mu);
  auto e = p.extra.find(request);
  if (r == nullptr || e == p.extra.end() || e->second.k != request_extra::kind::grequest)
    return fail(MPI_ERR_REQUEST, "request 0x%x is not a generalized request (MPI_Grequest_start)", request);
  if (r->complete)
    return fail(MPI_ERR_REQUEST, "generalized request 0x%x is already complete", request);
  r->complete = true;
  if (!e->second.user_freed) return status::ok();
  // Freed already (MPI_Request_free): nobody will wait for it, it ends now (free_fn only).
  request_extra g = std::move(e->second);
  p.extra.erase(e);
  lock.unlock();
  status st = grequest_release(g);
  rt().requests.erase(r);
  delete r;
  return st;
}

// ---- MPI_Isendrecv (MPI-4.1 §4.10): the send, then a receive posted like MPI_Irecv's ----

status isendrecv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, int dest, int sendtag,
                 void* recvbuf, std::int64_t recvcount, type_object& recvtype, int source, int recvtag,
                 comm_object& comm, handle_t& request) {
  if (status st = check_transfer(recvcount, recvtype); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(recvtag, true); !st.is_ok()) return st;
  if (status st = check_transfer(sendcount, sendtype); !st.is_ok()) return st;
  if (status st = check_peer(dest, false); !st.is_ok()) return st;
  if (status st = check_tag(sendtag, false); !st.is_ok()) return st;
  handle_t r = new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  type_layout sl;
  copy_layout(sendtype, sl);
  recv_target t{recvbuf, recvcount, {}};
  copy_layout(recvtype, t.layout);
  try {  // out of memory (D65): the receive's room first, then the send; nothing is sent on failure
    reserve_recv(r);
    (void)post_send(sendbuf, sendcount, sl, dest, sendtag, comm.context, send_mode::standard, 0);
  } catch (...) {
    (void)request_free(r);  // (and reserve_recv's slot with it)
    return from_exception("the message");
  }
  post_recv(r, t, source, recvtag, comm.context);  // (allocates nothing now)
  request = r;
  return status::ok();
}

status isendrecv_replace(void* buf, std::int64_t count, type_object& t, int dest, int sendtag, int source,
                         int recvtag, comm_object& comm, handle_t& request) {
  return isendrecv(buf, count, t, dest, sendtag, buf, count, t, source, recvtag, comm, request);
}

// ---- matched probes and receives (MPI-4.1 §4.8.2, §4.8.3) ----
// MPI_Mprobe takes the message off the queue, so no other receive can match it; its MPI_Message
// handle is a number of our own (neither MPI_MESSAGE_NULL nor MPI_MESSAGE_NO_PROC).

namespace {
constexpr handle_t first_message = 0x4d000001;

status mprobe_any(int source, int tag, comm_object& comm, bool& flag, handle_t& message, msg_status& out) {
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  if (source == MPI_PROC_NULL) {
    flag = true;
    message = h::message_no_proc;
    out = proc_null_status();
    return status::ok();
  }
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto it = match(p, comm.context, tag);
  flag = it != p.queue.end();
  if (!flag) {
    message = h::message_null;
    return status::ok();
  }
  msg_status st;
  st.source = 0;
  st.tag = it->tag;
  st.bytes = static_cast<long long>(it->data.size());
  const handle_t m = first_message + p.next_message;
  auto slot = p.matched.try_emplace(m).first;  // (may throw: then the message stays queued, D65)
  slot->second = take(p, it);
  ++p.next_message;
  message = m;
  out = st;
  return status::ok();
}

// Receives a matched message into a target; `message` becomes MPI_MESSAGE_NULL.
status receive_matched(void* buf, std::int64_t count, type_object& t, handle_t& message, msg_status& out) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (message == h::message_no_proc) {
    out = proc_null_status();
    message = h::message_null;
    return status::ok();
  }
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto it = p.matched.find(message);
  if (it == p.matched.end())
    return fail(MPI_ERR_REQUEST, "message handle 0x%x is not a message MPI_Mprobe or MPI_Improbe "
                "matched (or it was received already)", message);
  recv_target r{buf, count, {}};
  copy_layout(t, r.layout);
  out = deliver(it->second, r);
  p.matched.erase(it);
  message = h::message_null;
  return status::ok();
}
}  // namespace

status mprobe(int source, int tag, comm_object& comm, handle_t& message, msg_status& out) {
  bool flag = false;
  handle_t m = h::message_null;
  msg_status st;
  if (status e = mprobe_any(source, tag, comm, flag, m, st); !e.is_ok()) return e;
  if (!flag) return would_wait_forever("a matched probe", tag);
  message = m;
  out = st;
  return status::ok();
}

status improbe(int source, int tag, comm_object& comm, bool& flag, handle_t& message, msg_status& out) {
  return mprobe_any(source, tag, comm, flag, message, out);
}

status mrecv(void* buf, std::int64_t count, type_object& t, handle_t& message, msg_status& out) {
  msg_status st;
  if (status e = receive_matched(buf, count, t, message, st); !e.is_ok()) return e;
  out = st;
  if (st.error == MPI_ERR_TRUNCATE) return fail_truncated(st);
  return status::ok();
}

status imrecv(void* buf, std::int64_t count, type_object& t, handle_t& message, handle_t& request) {
  handle_t r = new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  try {
    reserve_recv(r);  // the status's slot, before the message is taken (D65)
  } catch (...) {
    (void)request_free(r);
    return from_exception("the request's status");
  }
  msg_status st;
  if (status e = receive_matched(buf, count, t, message, st); !e.is_ok()) {
    (void)request_free(r);
    return e;
  }
  auto& p = queues();
  std::lock_guard lock(p.mu);
  p.done[r] = st;
  request = r;
  return status::ok();
}

// ---- partitioned communication (MPI-4.1 §4.11) ----
// A partitioned send is sent whole once every partition is ready; a partitioned receive matches
// partitioned sends only, and all its partitions arrive together.

namespace {
status partitioned_init(void* buf, int partitions, std::int64_t count, type_object& t, int peer, int tag,
                        comm_object& comm, handle_t info, bool sending, handle_t& request) {
  if (partitions < 0) return fail(MPI_ERR_ARG, "partitions %d is negative", partitions);
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (partitions > 0 && !bytes_fit(count * t.size, partitions))  // (check_transfer: count * t.size fits)
    return fail(MPI_ERR_COUNT, "%d partitions of count = %lld of a datatype of %lld bytes do not fit in "
                "MPI_Aint", partitions, static_cast<long long>(count), static_cast<long long>(t.size));
  if (sending && peer == MPI_PROC_NULL)
    return fail(MPI_ERR_RANK, "dest is MPI_PROC_NULL, which a partitioned send may not name "
                "(MPI-4.1 section 4.11.2)");
  if (!sending && (peer == MPI_PROC_NULL || peer == MPI_ANY_SOURCE))
    return fail(MPI_ERR_RANK, "source %d: a partitioned receive names one rank (MPI-4.1 section 4.11.2)", peer);
  if (status st = check_peer(peer, false); !st.is_ok()) return st;
  if (status st = check_tag(tag, false); !st.is_ok()) return st;
  if (status st = check_info(info); !st.is_ok()) return st;
  request_extra e{sending ? request_extra::kind::psend : request_extra::kind::precv};
  e.send_buf = buf;
  e.recv_buf = buf;
  e.count = count;
  copy_layout(t, e.layout);
  e.peer = peer;
  e.tag = tag;
  e.context = comm.context;
  e.partitions = partitions;
  e.ready.assign(static_cast<std::size_t>(partitions), 0);
  return new_persistent(std::move(e), request);
}

// The partitioned send `request` (active, the lock held) is ready: deliver it whole.
void send_partitioned(state& p, handle_t request, request_extra& e) {
  const std::size_t bytes = static_cast<std::size_t>(e.count) * static_cast<std::size_t>(e.partitions) *
                            static_cast<std::size_t>(e.layout.size);
  // What may run out of memory (the receive's status slot, the queue) comes before any change (D65).
  for (auto& [h, rx] : p.extra)
    if (rx.k == request_extra::kind::precv && rx.active && !rx.arrived && rx.context == e.context &&
        rx.tag == e.tag) {
      msg_status& slot = p.done[h];
      slot = deliver_send(e.send_buf, e.count * e.partitions, e.layout, e.tag,
                          recv_target{rx.recv_buf, rx.count * rx.partitions, rx.layout});
      rx.arrived = true;
      if (request_object* r = rt().requests.lookup(h)) r->complete = true;
      if (request_object* r = rt().requests.lookup(request)) r->complete = true;
      return;
    }
  message m{e.context, e.tag, std::vector<char>(bytes), 0, 0};
  pack_elements(e.send_buf, e.count * e.partitions, e.layout, m.data.data());
  p.partitioned.push_back(std::move(m));
  if (request_object* r = rt().requests.lookup(request)) r->complete = true;
}

status mark_ready(int n, const int* partitions, int low, handle_t request) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto e = p.extra.find(request);
  if (request == h::request_null || e == p.extra.end() || e->second.k != request_extra::kind::psend)
    return fail(MPI_ERR_REQUEST, "request 0x%x is not a partitioned send (MPI_Psend_init)", request);
  request_extra& x = e->second;
  if (!x.active) return fail(MPI_ERR_REQUEST, "the partitioned send is not active (MPI_Start it first)");
  // Each partition is marked 2 as it is checked, so that one named twice in a list is found as a
  // second MPI_Pready of it would be (D122); on an error the marks are undone: nothing changes.
  auto at = [&](int i) { return partitions != nullptr ? partitions[i] : low + i; };
  auto undo = [&](int upto) {
    for (int j = 0; j < upto; ++j) x.ready[static_cast<std::size_t>(at(j))] = 0;
  };
  for (int i = 0; i < n; ++i) {
    const int k = at(i);
    if (k < 0 || k >= x.partitions) {
      undo(i);
      return fail(MPI_ERR_ARG, "partition %d is not between 0 and %d", k, x.partitions - 1);
    }
    char& r = x.ready[static_cast<std::size_t>(k)];
    if (r != 0) {
      undo(i);
      return r == 1 ? fail(MPI_ERR_ARG, "partition %d is ready already (MPI_Pready once per partition)", k)
                    : fail(MPI_ERR_ARG, "partition %d is named twice (MPI_Pready once per partition)", k);
    }
    r = 2;
  }
  for (int i = 0; i < n; ++i) x.ready[static_cast<std::size_t>(at(i))] = 1;
  if (std::all_of(x.ready.begin(), x.ready.end(), [](char c) { return c != 0; })) send_partitioned(p, request, x);
  return status::ok();
}
}  // namespace

status psend_init(const void* buf, int partitions, std::int64_t count, type_object& t, int dest, int tag,
                  comm_object& comm, handle_t info, handle_t& request) {
  if (partitions > 0 && count > 0)  // (the partitions precede the count: the bindings' D111 test misses it)
    if (status st = check_buffer(buf, count, t, "buf"); !st.is_ok()) return st;
  return partitioned_init(const_cast<void*>(buf), partitions, count, t, dest, tag, comm, info, true, request);
}

status precv_init(void* buf, int partitions, std::int64_t count, type_object& t, int source, int tag,
                  comm_object& comm, handle_t info, handle_t& request) {
  if (partitions > 0 && count > 0)
    if (status st = check_buffer(buf, count, t, "buf"); !st.is_ok()) return st;
  return partitioned_init(buf, partitions, count, t, source, tag, comm, info, false, request);
}

status pready(int partition, handle_t request) { return mark_ready(1, nullptr, partition, request); }

status pready_range(int low, int high, handle_t request) {
  if (high < low) return fail(MPI_ERR_ARG, "partition_high %d is below partition_low %d", high, low);
  return mark_ready(high - low + 1, nullptr, low, request);
}

status pready_list(int length, const int* partitions, handle_t request) {
  if (status st = check_count(length); !st.is_ok()) return st;
  if (length > 0 && partitions == nullptr) return fail(MPI_ERR_ARG, "array_of_partitions is a null pointer");
  return mark_ready(length, partitions, 0, request);
}

// MPI-4.1 (MPI_PARRIVED, p. 121): it may be called on a null or inactive request, and then flag
// is true, as a test of a null or inactive request completes at once (D122). Any other request that
// is not a partitioned receive is an error.
status parrived(handle_t request, int partition, bool& flag) {
  if (request == h::request_null) {
    flag = true;
    return status::ok();
  }
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto e = p.extra.find(request);
  if (e == p.extra.end() || e->second.k != request_extra::kind::precv)
    return fail(MPI_ERR_REQUEST, "request 0x%x is not a partitioned receive (MPI_Precv_init)", request);
  if (partition < 0 || partition >= e->second.partitions)
    return fail(MPI_ERR_ARG, "partition %d is not between 0 and %d", partition, e->second.partitions - 1);
  flag = !e->second.active || e->second.arrived;
  return status::ok();
}

// ---- the status of several requests, without completing them (MPI-4.1 §4.7.6, D55) ----
// As MPI_Request_get_status for each: nothing is freed or deactivated. A null or inactive
// request counts as complete with an empty status in _all and is skipped by _any and _some, as
// MPI_Testall, _Testany and _Testsome do. Every handle is checked before anything is answered.
namespace {
status check_requests(int count, const handle_t* requests) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i)
    if (requests[i] != h::request_null && rt().requests.lookup(requests[i]) == nullptr)
      return fail(MPI_ERR_REQUEST, "array_of_requests[%d] = 0x%x is not a request handle", i, requests[i]);
  return status::ok();
}
}  // namespace

status request_get_status_all(int count, const handle_t* requests, bool& flag, msg_status* statuses) {
  if (status st = check_requests(count, requests); !st.is_ok()) return st;
  std::vector<msg_status> got(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    bool done = false;
    if (status st = request_get_status(requests[i], done, got[static_cast<std::size_t>(i)]); !st.is_ok()) return st;
    if (!done) {
      flag = false;
      return status::ok();
    }
  }
  flag = true;
  for (int i = 0; i < count; ++i) statuses[i] = got[static_cast<std::size_t>(i)];
  return status::ok();
}

status request_get_status_any(int count, const handle_t* requests, int& indx, bool& flag, msg_status& out) {
  if (status st = check_requests(count, requests); !st.is_ok()) return st;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    bool done = false;
    msg_status st1;
    if (status st = request_get_status(requests[i], done, st1); !st.is_ok()) return st;
    if (done) {
      indx = i;
      flag = true;
      out = st1;
      return status::ok();
    }
  }
  indx = MPI_UNDEFINED;
  flag = !any_active;  // none active: true, with an empty status
  if (!any_active) out = empty_inquiry();
  return status::ok();
}

status request_get_status_some(int incount, const handle_t* requests, int& outcount, int* indices,
                               msg_status* statuses) {
  if (status st = check_requests(incount, requests); !st.is_ok()) return st;
  if (incount > 0 && indices == nullptr) return fail(MPI_ERR_ARG, "array_of_indices is NULL");  // (D149)
  bool any_active = false;
  std::vector<std::pair<int, msg_status>> ready;
  for (int i = 0; i < incount; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    bool done = false;
    msg_status st1;
    if (status st = request_get_status(requests[i], done, st1); !st.is_ok()) return st;
    if (done) ready.emplace_back(i, st1);
  }
  if (!any_active) {
    outcount = MPI_UNDEFINED;
    return status::ok();
  }
  outcount = static_cast<int>(ready.size());
  for (std::size_t k = 0; k < ready.size(); ++k) {
    indices[k] = ready[k].first;
    statuses[k] = ready[k].second;
  }
  return status::ok();
}

// ---- a status's fields (MPI-4.1 §4.2.5): any value may be set, as a program may set them in C ----
status status_get_source(const msg_status& s, int& source) {
  source = s.source;
  return status::ok();
}
status status_get_tag(const msg_status& s, int& tag) {
  tag = s.tag;
  return status::ok();
}
status status_get_error(const msg_status& s, int& error) {
  error = s.error;
  return status::ok();
}
status status_set_source(msg_status& s, int source) {
  s.source = source;
  return status::ok();
}
status status_set_tag(msg_status& s, int tag) {
  s.tag = tag;
  return status::ok();
}
status status_set_error(msg_status& s, int error) {
  s.error = error;
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
