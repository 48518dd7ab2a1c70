// Point-to-point on the standalone runtime: messages to self, requests and their completion.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "p2p_internal.h"

namespace mpiattr {

// ---- point-to-point: messages to self ----
// A send is buffered at once (packed into a message); a receive takes the oldest matching message
// of the same communicator, or, posted by MPI_Irecv, waits in the posted list for the next send.
// One process cannot wait for a send that no one else will make: a blocking receive, a probe or a
// wait that no queued message can satisfy fails with MPI_ERR_OTHER instead of hanging (D31).
namespace p2p {

state& queues() {
  static auto* s = new state;  // never destroyed: requests may outlive static teardown
  return *s;
}

bool tag_matches(int want, int tag) { return want == MPI_ANY_TAG || want == tag; }

status check_tag(int tag, bool receiving) {
  if (receiving && tag == MPI_ANY_TAG) return status::ok();
  if (tag < 0 || tag > 2147483647) return fail(MPI_ERR_TAG, "tag %d is not between 0 and MPI_TAG_UB", tag);
  return status::ok();
}

status check_peer(int rank, bool receiving) {
  if (rank == 0 || rank == MPI_PROC_NULL || (receiving && rank == MPI_ANY_SOURCE)) return status::ok();
  return fail(MPI_ERR_RANK, "rank %d is not a rank of a one-process communicator", rank);
}

status check_transfer(std::int64_t count, const type_object& t) {
  if (status st = check_count(count, t); !st.is_ok()) return st;
  if (!t.committed) return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return status::ok();
}

void copy_layout(const type_object& t, type_layout& into) {
  into.size = t.size;
  into.lb = t.lb;
  into.extent = t.extent;
  // (A derived datatype's map lives in its envelope, D67: the layout, which may outlive the
  // datatype, holds the envelope.)
  into.map = t.env ? std::shared_ptr<const std::vector<type_block>>(t.env, t.map.get()) : t.map;
}

// Unpacks a message into a receive; what does not fit is dropped and reported (MPI_ERR_TRUNCATE).
msg_status deliver(const message& m, const recv_target& r) {
  return deliver_bytes(m.data.data(), static_cast<aint>(m.data.size()), m.tag, r);
}

msg_status deliver_send(const void* buf, std::int64_t count, const type_layout& layout, int tag,
                        const recv_target& r) {
  const aint bytes = static_cast<aint>(count) * layout.size;
  if (contiguous(layout))  // its bytes are the message: no copy between (D115)
    return deliver_bytes(static_cast<const char*>(buf), bytes, tag, r);
  std::vector<char> packed(static_cast<std::size_t>(bytes));  // (may throw: nothing delivered yet)
  pack_elements(buf, count, layout, packed.data());
  return deliver_bytes(packed.data(), bytes, tag, r);
}

msg_status deliver_bytes(const char* data, aint size, int tag, const recv_target& r) {
  msg_status st;
  st.source = 0;
  st.tag = tag;
  aint room = r.count * r.layout.size;
  aint n = std::min<aint>(room, size);
  if (r.layout.size > 0) {
    const aint whole = n / r.layout.size;
    unpack_elements(data, r.buf, whole, r.layout);
    if (const aint rest = n - whole * r.layout.size; rest > 0)  // a short message's last element (D142)
      unpack_front(data + whole * r.layout.size, static_cast<char*>(r.buf) + whole * r.layout.extent,
                   rest, r.layout);
  }
  st.bytes = n;
  if (size > room) st.error = MPI_ERR_TRUNCATE;
  return st;
}

msg_status proc_null_status() {
  msg_status st;
  st.source = MPI_PROC_NULL;
  st.tag = MPI_ANY_TAG;
  return st;
}

status fail_truncated(const msg_status& st) {
  return fail(MPI_ERR_TRUNCATE, "the message has more than the receive's %lld bytes", st.bytes);
}

status would_wait_forever(const char* what, int tag) {
  return fail(MPI_ERR_OTHER, "%s with tag %d: no message from this process matches, and on one "
              "process none can come: it would wait forever (docs/decisions.md D31)", what, tag);
}

handle_t new_request() { return completed_request(); }

bool active(handle_t request) {
  if (request == h::request_null) return false;
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto e = p.extra.find(request);
  return e == p.extra.end() || e->second.k == request_extra::kind::grequest || e->second.active;
}

std::deque<message>::iterator match(state& p, std::uint64_t context, int tag) {
  for (auto it = p.queue.begin(); it != p.queue.end(); ++it)
    if (it->context == context && tag_matches(tag, it->tag)) return it;
  return p.queue.end();
}

// A synchronous send completes when a receive takes its message (MPI-4.1 §4.4); a buffered
// send's space in the attached buffer is free again once its message is received (§4.6).
message take(state& p, std::deque<message>::iterator it) {
  message m = std::move(*it);
  p.queue.erase(it);
  if (m.sync_request != 0)
    if (request_object* r = rt().requests.lookup(m.sync_request)) r->complete = true;
  release_bsend(p, m);
  return m;
}

void release_bsend(state& p, message& m) {
  if (m.bsend_bytes == 0) return;
  if (auto b = p.buffers.find(m.bsend_owner); b != p.buffers.end()) b->second.used -= m.bsend_bytes;
  m.bsend_bytes = 0;
}

namespace {
// The buffer a buffered send on the communicator of `context` uses (MPI-4.1 §3.6.1): the
// communicator's, else its session's, else the process's; nullptr when none is attached.
std::pair<std::uint64_t, attached_buffer*> buffer_for(state& p, std::uint64_t context) {
  std::uint64_t key = comm_buffer_key(context);
  if (auto b = p.buffers.find(key); b != p.buffers.end()) return {key, &b->second};
  if (auto s = p.comm_session.find(context); s != p.comm_session.end()) {
    key = session_buffer_key(s->second);
    if (auto b = p.buffers.find(key); b != p.buffers.end()) return {key, &b->second};
  }
  if (auto b = p.buffers.find(process_buffer); b != p.buffers.end()) return {process_buffer, &b->second};
  return {process_buffer, nullptr};
}
}  // namespace

// Delivers to the oldest matching posted receive, or queues the message. A synchronous send with
// no receive posted cannot complete on one process (blocking: D31's error; nonblocking: its
// request stays incomplete until a receive takes the message). A buffered send queues its
// message in the attached buffer's space, or fails with MPI_ERR_BUFFER (MPI-4.1 §4.6).
status post_send(const void* buf, std::int64_t count, const type_layout& layout, int dest, int tag,
                 std::uint64_t context, send_mode mode, handle_t request) {
  if (dest == MPI_PROC_NULL) return status::ok();
  std::size_t bytes = static_cast<std::size_t>(count) * static_cast<std::size_t>(layout.size);
  auto& p = queues();
  std::lock_guard lock(p.mu);
  aint need = static_cast<aint>(bytes) + MPI_BSEND_OVERHEAD;
  bool receive_posted = false;
  for (const auto& pr : p.posted) receive_posted = receive_posted || (pr.context == context && tag_matches(pr.tag, tag));
  auto [owner, buffer] = buffer_for(p, context);
  if (mode == send_mode::buffered && !receive_posted) {
    if (buffer == nullptr)
      return fail(MPI_ERR_BUFFER, "a buffered send of %zu bytes with no buffer attached "
                  "(MPI_Buffer_attach, MPI_Comm_attach_buffer, MPI_Session_attach_buffer)", bytes);
    if (!buffer->automatic && buffer->used + need > buffer->size)
      return fail(MPI_ERR_BUFFER, "a buffered send needs %lld bytes (%zu and MPI_BSEND_OVERHEAD) of "
                  "the attached buffer, which has %lld of its %lld free", static_cast<long long>(need),
                  bytes, static_cast<long long>(buffer->size - buffer->used),
                  static_cast<long long>(buffer->size));
  }
  // Everything that allocates comes before the first change (out of memory: nothing changed, D65).
  for (auto it = p.posted.begin(); it != p.posted.end(); ++it)
    if (it->context == context && tag_matches(it->tag, tag)) {  // the oldest posted receive
      msg_status* slot = it->freed ? nullptr : &p.done[it->request];  // (may throw: nothing delivered yet)
      const msg_status st = deliver_send(buf, count, layout, tag, it->target);
      if (slot != nullptr) {
        *slot = st;
        if (request_object* r = rt().requests.lookup(it->request)) r->complete = true;
      }
      p.posted.erase(it);
      return status::ok();
    }
  if (mode == send_mode::synchronous)
    return fail(MPI_ERR_OTHER, "a synchronous send with tag %d: no receive is posted, and on one "
                "process none can come while it waits: it would wait forever (docs/decisions.md D31)", tag);
  message m{context, tag, std::vector<char>(bytes), 0, 0};
  pack_elements(buf, count, layout, m.data.data());
  if (mode == send_mode::synchronous_nonblocking) m.sync_request = request;
  if (mode == send_mode::buffered) {
    m.bsend_bytes = need;
    m.bsend_owner = owner;
  }
  p.queue.push_back(std::move(m));  // (may throw: then nothing is queued, nothing held)
  if (mode == send_mode::synchronous_nonblocking)
    if (request_object* r = rt().requests.lookup(request)) r->complete = false;
  if (mode == send_mode::buffered) buffer->used += need;
  return status::ok();
}

void post_recv(handle_t request, const recv_target& r, int source, int tag, std::uint64_t context) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  request_object* ro = rt().requests.lookup(request);
  if (source == MPI_PROC_NULL) {
    p.done[request] = proc_null_status();
    if (ro != nullptr) ro->complete = true;
    return;
  }
  auto it = match(p, context, tag);
  if (it != p.queue.end()) {
    msg_status& slot = p.done[request];  // (may throw: then the message stays queued, D65)
    message m = take(p, it);
    slot = deliver(m, r);
    if (ro != nullptr) ro->complete = true;
    return;
  }
  p.done.erase(request);  // (reserve_recv's slot, when the receive waits instead)
  p.posted.push_back({request, context, tag, r, false});  // (may throw: nothing posted)
  if (ro != nullptr) ro->complete = false;
}

void reserve_recv(handle_t request) {
  auto& p = queues();
  std::lock_guard lock(p.mu);
  p.posted.reserve(p.posted.size() + 1);
  p.done.try_emplace(request);
}

}  // namespace p2p

namespace api {
using namespace p2p;

namespace {
status checked_send(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
                    send_mode mode, handle_t request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(dest, false); !st.is_ok()) return st;
  if (status st = check_tag(tag, false); !st.is_ok()) return st;
  type_layout l;
  copy_layout(t, l);
  return post_send(buf, count, l, dest, tag, comm.context, mode, request);
}

// A nonblocking send: the send, then its request (already complete, but for MPI_Issend's);
// no request is left behind by a failed call, nor by one that ran out of memory (D65).
status nonblocking_send(const void* buf, std::int64_t count, type_object& t, int dest, int tag,
                        comm_object& comm, send_mode mode, handle_t& request) {
  return with_new_request(request, "the message", [&](handle_t r) {
    return checked_send(buf, count, t, dest, tag, comm, mode, r);
  });
}
}  // namespace

status send(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm) {
  return checked_send(buf, count, t, dest, tag, comm, send_mode::standard, 0);
}

status ssend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm) {
  return checked_send(buf, count, t, dest, tag, comm, send_mode::synchronous, 0);
}

status bsend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm) {
  return checked_send(buf, count, t, dest, tag, comm, send_mode::buffered, 0);
}

// A ready send needs its receive posted first (MPI-4.1 §4.4); one that finds none is erroneous,
// and is then buffered as a standard send, as MPICH and Open MPI do.
status rsend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm) {
  return send(buf, count, t, dest, tag, comm);
}

status isend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
             handle_t& request) {
  return nonblocking_send(buf, count, t, dest, tag, comm, send_mode::standard, request);
}

status issend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  return nonblocking_send(buf, count, t, dest, tag, comm, send_mode::synchronous_nonblocking, request);
}

status ibsend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  return nonblocking_send(buf, count, t, dest, tag, comm, send_mode::buffered, request);
}

status irsend(const void* buf, std::int64_t count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  return isend(buf, count, t, dest, tag, comm, request);
}

status sendrecv_replace(void* buf, std::int64_t count, type_object& t, int dest, int sendtag, int source,
                        int recvtag, comm_object& comm, msg_status& out) {
  if (status st = check_peer(source, true); !st.is_ok()) return st;  // nothing sent if it fails
  if (status st = check_tag(recvtag, true); !st.is_ok()) return st;
  if (status st = send(buf, count, t, dest, sendtag, comm); !st.is_ok()) return st;  // packed now
  return recv(buf, count, t, source, recvtag, comm, out);
}

status recv(void* buf, std::int64_t count, type_object& t, int source, int tag, comm_object& comm, msg_status& out) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  if (source == MPI_PROC_NULL) {
    out = proc_null_status();
    return status::ok();
  }
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto it = match(p, comm.context, tag);
  if (it == p.queue.end()) return would_wait_forever("a receive", tag);
  recv_target r{buf, count, {}};
  copy_layout(t, r.layout);
  message m = take(p, it);
  out = deliver(m, r);
  if (out.error != 0) return fail_truncated(out);
  return status::ok();
}

status irecv(void* buf, std::int64_t count, type_object& t, int source, int tag, comm_object& comm,
             handle_t& request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  handle_t r = new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  recv_target target{buf, count, {}};
  copy_layout(t, target.layout);
  try {
    post_recv(r, target, source, tag, comm.context);  // (posts nothing when it throws)
  } catch (...) {  // out of memory (D65): the request goes too
    (void)request_free(r);
    return from_exception("the posted receive");
  }
  request = r;
  return status::ok();
}

status sendrecv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, int dest, int sendtag,
                void* recvbuf, std::int64_t recvcount, type_object& recvtype, int source, int recvtag,
                comm_object& comm, msg_status& out) {
  if (status st = check_transfer(recvcount, recvtype); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(recvtag, true); !st.is_ok()) return st;
  // "The send and receive buffers must be disjoint" (MPI-4.1 §3.10; MPI_Sendrecv_replace is the
  // one-buffer form): the same address twice is refused before anything is sent (D148).
  if (sendbuf == recvbuf && sendbuf != nullptr && sendcount > 0 && recvcount > 0)
    return fail(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (MPI_Sendrecv_replace exchanges "
                "in one buffer)");
  if (status st = send(sendbuf, sendcount, sendtype, dest, sendtag, comm); !st.is_ok()) return st;
  return recv(recvbuf, recvcount, recvtype, source, recvtag, comm, out);
}

status probe(int source, int tag, comm_object& comm, msg_status& out) {
  bool flag = false;
  msg_status st;
  if (status e = iprobe(source, tag, comm, flag, st); !e.is_ok()) return e;
  if (!flag) return would_wait_forever("a probe", tag);
  out = st;
  return status::ok();
}

status iprobe(int source, int tag, comm_object& comm, bool& flag, msg_status& out) {
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  if (source == MPI_PROC_NULL) {
    flag = true;
    out = proc_null_status();
    return status::ok();
  }
  auto& p = queues();
  std::lock_guard lock(p.mu);
  auto it = match(p, comm.context, tag);
  flag = it != p.queue.end();
  if (flag) {
    out = msg_status{};
    out.source = 0;
    out.tag = it->tag;
    out.bytes = static_cast<long long>(it->data.size());
  }
  return status::ok();
}

status get_count(const msg_status& st, type_object& t, int& count) {
  std::int64_t large = 0;
  (void)get_count_c(st, t, large);
  // MPI_UNDEFINED also where the count does not fit (MPI_Get_count_c answers it, D47).
  count = large > INT_MAX ? MPI_UNDEFINED : static_cast<int>(large);
  return status::ok();
}

// ---- completion ----

namespace {
void forget(request_object* r, handle_t& request) {
  rt().requests.erase(r);
  delete r;
  request = h::request_null;
}

// Completes `request` if it can: false when it must still wait (a receive no message reached, a
// synchronous send no receive took, a generalized request not yet MPI_Grequest_complete'd). A
// persistent request stays, inactive; an inactive one completes at once with an empty status
// (MPI-4.1 §4.9.1); a generalized one's query_fn fills the status, then its free_fn runs (§14.2).
bool complete(handle_t& request, msg_status& out, status& error) {
  error = status::ok();
  out = msg_status{};
  if (request == h::request_null) return true;
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) {
    error = fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
    return true;
  }
  auto& p = queues();
  std::unique_lock lock(p.mu);
  auto e = p.extra.find(request);
  bool grequest = e != p.extra.end() && e->second.k == request_extra::kind::grequest;
  if (e != p.extra.end() && !grequest) {  // persistent
    if (!e->second.active) return true;
    if (!r->complete) return false;
    if (auto it = p.done.find(request); it != p.done.end()) {
      out = it->second;
      p.done.erase(it);
    }
    e->second.active = false;
    e->second.arrived = false;
    if (out.error == MPI_ERR_TRUNCATE) error = fail_truncated(out);
    return true;
  }
  if (!r->complete) return false;
  if (grequest) {
    request_extra g = std::move(e->second);
    p.extra.erase(e);
    lock.unlock();
    error = grequest_finish(g, out);
    forget(r, request);
    return true;
  }
  if (auto it = p.done.find(request); it != p.done.end()) {
    out = it->second;
    p.done.erase(it);
  }
  lock.unlock();
  forget(r, request);
  if (out.error == MPI_ERR_TRUNCATE) error = fail_truncated(out);
  return true;
}

// Whether request i of an array can be completed now (null and inactive ones can), or the
// error of an invalid handle.
status completable(handle_t request, int i, bool& can) {
  can = true;
  if (request == h::request_null) return status::ok();
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr)
    return fail(MPI_ERR_REQUEST, "array_of_requests[%d] = 0x%x is not a valid request", i, request);
  can = r->complete || !active(request);
  return status::ok();
}
}  // namespace

status wait(handle_t& request, msg_status& out) {
  status st;
  msg_status one;
  if (!complete(request, one, st)) return would_wait_forever("MPI_Wait on a receive", -1);
  out = one;
  return st;
}

status test(handle_t& request, bool& flag, msg_status& out) {
  status st;
  msg_status one;
  flag = complete(request, one, st);
  if (flag) out = one;
  return st;
}

status waitall(int count, handle_t* requests, msg_status* statuses) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {  // every one must be completable, or none is completed
    bool can = true;
    if (status st = completable(requests[i], i, can); !st.is_ok()) return st;
    if (!can) return would_wait_forever("MPI_Waitall on a receive", -1);
  }
  status first = status::ok();
  for (int i = 0; i < count; ++i) {
    msg_status one;
    status st;
    complete(requests[i], one, st);
    if (!st.is_ok() && one.error == 0) one.error = st.error_class();
    if (statuses != nullptr) statuses[i] = one;
    if (!st.is_ok() && first.is_ok()) first = st;
  }
  return first;
}

status waitany(int count, handle_t* requests, int& index, msg_status& out) {
  if (status st = check_count(count); !st.is_ok()) return st;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    status st;
    msg_status one;
    if (complete(requests[i], one, st)) {
      index = i;
      out = one;
      return st;
    }
  }
  if (!any_active) {
    index = MPI_UNDEFINED;
    out = msg_status{};
    return status::ok();
  }
  return would_wait_forever("MPI_Waitany on receives", -1);
}

status testany(int count, handle_t* requests, int& index, bool& flag, msg_status& out) {
  if (status st = check_count(count); !st.is_ok()) return st;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    status st;
    msg_status one;
    if (complete(requests[i], one, st)) {
      index = i;
      flag = true;
      out = one;
      return st;
    }
  }
  index = MPI_UNDEFINED;
  flag = !any_active;  // no active request: flag true, index MPI_UNDEFINED (MPI-4.1 §4.7.5)
  out = msg_status{};
  return status::ok();
}

status testall(int count, handle_t* requests, bool& flag, msg_status* statuses) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {
    bool can = true;
    if (status st = completable(requests[i], i, can); !st.is_ok()) return st;
    if (!can) {
      flag = false;
      return status::ok();
    }
  }
  flag = true;
  return waitall(count, requests, statuses);
}

namespace {
// MPI_Waitsome and MPI_Testsome: every active request that can complete does; outcount is
// MPI_UNDEFINED when none is active (MPI-4.1 §4.7.5).
status some(int incount, handle_t* requests, int& outcount, int* indices, msg_status* statuses,
            bool waiting) {
  if (status st = check_count(incount); !st.is_ok()) return st;
  if (incount > 0 && indices == nullptr) return fail(MPI_ERR_ARG, "array_of_indices is a null pointer");
  bool any_active = false;
  std::vector<int> ready;
  for (int i = 0; i < incount; ++i) {
    bool can = true;
    if (status st = completable(requests[i], i, can); !st.is_ok()) return st;
    if (!active(requests[i])) continue;
    any_active = true;
    if (can) ready.push_back(i);
  }
  if (!any_active) {
    outcount = MPI_UNDEFINED;
    return status::ok();
  }
  if (ready.empty() && waiting) return would_wait_forever("MPI_Waitsome on receives", -1);
  status first = status::ok();
  int n = 0;
  for (int i : ready) {
    msg_status one;
    status st;
    complete(requests[i], one, st);
    if (!st.is_ok() && one.error == 0) one.error = st.error_class();
    indices[n] = i;
    if (statuses != nullptr) statuses[n] = one;
    ++n;
    if (!st.is_ok() && first.is_ok()) first = st;
  }
  outcount = n;
  return first;
}
}  // namespace

status waitsome(int incount, handle_t* requests, int& outcount, int* indices, msg_status* statuses) {
  return some(incount, requests, outcount, indices, statuses, true);
}

status testsome(int incount, handle_t* requests, int& outcount, int* indices, msg_status* statuses) {
  return some(incount, requests, outcount, indices, statuses, false);
}

status request_free(handle_t& request) {
  if (request == h::request_null) return fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) return fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
  auto& p = queues();
  std::unique_lock lock(p.mu);
  if (auto e = p.extra.find(request); e != p.extra.end()) {
    if (e->second.k == request_extra::kind::grequest) {
      // Freed before MPI_Grequest_complete: the request lives on until then (MPI-4.1 §14.2).
      if (!r->complete) {
        e->second.user_freed = true;
        request = h::request_null;
        return status::ok();
      }
      request_extra g = std::move(e->second);
      p.extra.erase(e);
      lock.unlock();
      status st = grequest_release(g);
      forget(r, request);
      return st;
    }
    p.extra.erase(e);
  }
  // A freed receive still takes its message when it comes (MPI-4.1 §4.7.3); no one learns its
  // status.
  p.done.erase(request);
  for (auto& pr : p.posted)
    if (pr.request == request) pr.freed = true;
  lock.unlock();
  forget(r, request);
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
