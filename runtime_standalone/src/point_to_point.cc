// Point-to-point on the standalone runtime: messages to self, requests and their completion.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {
namespace api {

// ---- requests ----

static status finish_request(handle_t& request) {
  if (request == h::request_null) return status::ok();
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) return fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
  rt().requests.erase(r);
  delete r;
  request = h::request_null;
  return status::ok();
}

// ---- point-to-point: messages to self ----
// A send is buffered at once (packed into a message); a receive takes the oldest matching message
// of the same communicator, or, posted by MPI_Irecv, waits in the posted list for the next send.
// One process cannot wait for a send that no one else will make: a blocking receive, a probe or a
// wait that no queued message can satisfy fails with MPI_ERR_OTHER instead of hanging (D31).
namespace {

struct message {
  std::uint64_t context;
  int tag;
  std::vector<char> data;
  handle_t sync_request = 0;  // MPI_Issend's request, complete once a receive takes the message
};

// A receive's destination: the buffer and a copy of the datatype's layout (the datatype may be
// freed before the receive completes).
struct recv_target {
  void* buf = nullptr;
  int count = 0;
  type_layout layout;
};

struct posted_recv {
  handle_t request;
  std::uint64_t context;
  int tag;
  recv_target target;
  bool freed = false;  // MPI_Request_free: the receive still happens, nobody waits for it
};

struct p2p_state {
  std::mutex mu;
  std::deque<message> queue;
  std::vector<posted_recv> posted;
  std::unordered_map<handle_t, msg_status> done;  // completed requests' statuses
};
p2p_state& p2p() {
  static auto* s = new p2p_state;  // never destroyed: requests may outlive static teardown
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

status check_transfer(int count, const type_object& t) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (!t.committed) return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return status::ok();
}

void copy_layout(const type_object& t, type_layout& into) {
  into.size = t.size;
  into.lb = t.lb;
  into.extent = t.extent;
  into.map = t.map;
}

// Unpacks a message into a receive; what does not fit is dropped and reported (MPI_ERR_TRUNCATE).
msg_status deliver(const message& m, const recv_target& r) {
  msg_status st;
  st.source = 0;
  st.tag = m.tag;
  aint room = static_cast<aint>(r.count) * r.layout.size;
  aint n = std::min<aint>(room, static_cast<aint>(m.data.size()));
  if (r.layout.size > 0) {
    int whole = static_cast<int>(n / r.layout.size);
    unpack_elements(m.data.data(), r.buf, whole, r.layout);
  }
  st.bytes = n;
  if (static_cast<aint>(m.data.size()) > room) st.error = MPI_ERR_TRUNCATE;
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

}  // namespace

namespace {
enum class send_mode { buffered, synchronous, synchronous_nonblocking };
// Delivers to the oldest matching posted receive, or queues the message. A synchronous send with
// no receive posted cannot complete on one process (blocking: D31's error; nonblocking: its
// request stays incomplete until a receive takes the message).
status post_send(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
                 send_mode mode, handle_t request);
}  // namespace

status send(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm) {
  return post_send(buf, count, t, dest, tag, comm, send_mode::buffered, 0);
}

namespace {
status post_send(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
                 send_mode mode, handle_t request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(dest, false); !st.is_ok()) return st;
  if (status st = check_tag(tag, false); !st.is_ok()) return st;
  if (dest == MPI_PROC_NULL) return status::ok();
  message m{comm.context, tag, std::vector<char>(static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size)), 0};
  pack_elements(buf, count, t, m.data.data());
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  for (auto it = p.posted.begin(); it != p.posted.end(); ++it)
    if (it->context == m.context && tag_matches(it->tag, tag)) {  // the oldest posted receive
      msg_status st = deliver(m, it->target);
      if (!it->freed) {
        p.done[it->request] = st;
        if (request_object* r = rt().requests.lookup(it->request)) r->complete = true;
      }
      p.posted.erase(it);
      return status::ok();
    }
  if (mode == send_mode::synchronous)
    return fail(MPI_ERR_OTHER, "a synchronous send with tag %d: no receive is posted, and on one "
                "process none can come while it waits: it would wait forever (docs/decisions.md D31)", tag);
  if (mode == send_mode::synchronous_nonblocking) {
    m.sync_request = request;
    if (request_object* r = rt().requests.lookup(request)) r->complete = false;
  }
  p.queue.push_back(std::move(m));
  return status::ok();
}
}  // namespace

status ssend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm) {
  return post_send(buf, count, t, dest, tag, comm, send_mode::synchronous, 0);
}

// A ready send needs its receive posted first (MPI-4.1 §4.4); one that finds none is erroneous,
// and is then buffered as a standard send, as MPICH and Open MPI do.
status rsend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm) {
  return send(buf, count, t, dest, tag, comm);
}

status issend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  request = completed_request();
  if (request == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  status st = post_send(buf, count, t, dest, tag, comm, send_mode::synchronous_nonblocking, request);
  if (!st.is_ok()) {  // no request is left behind by a failed call
    handle_t r = request;
    (void)request_free(r);
    request = h::request_null;
  }
  return st;
}

status irsend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  return isend(buf, count, t, dest, tag, comm, request);
}

status sendrecv_replace(void* buf, int count, type_object& t, int dest, int sendtag, int source,
                        int recvtag, comm_object& comm, msg_status& out) {
  if (status st = send(buf, count, t, dest, sendtag, comm); !st.is_ok()) return st;  // packed now
  return recv(buf, count, t, source, recvtag, comm, out);
}

namespace {
// A synchronous send completes when a receive takes its message (MPI-4.1 §4.4).
void release_sender(const message& m) {
  if (m.sync_request == 0) return;
  if (request_object* r = rt().requests.lookup(m.sync_request)) r->complete = true;
}
// The oldest queued message a receive or probe matches, or end().
std::deque<message>::iterator match(p2p_state& p, std::uint64_t context, int tag) {
  for (auto it = p.queue.begin(); it != p.queue.end(); ++it)
    if (it->context == context && tag_matches(tag, it->tag)) return it;
  return p.queue.end();
}
status would_wait_forever(const char* what, int tag) {
  return fail(MPI_ERR_OTHER, "%s with tag %d: no message from this process matches, and on one "
              "process none can come: it would wait forever (docs/decisions.md D31)", what, tag);
}
}  // namespace

status recv(void* buf, int count, type_object& t, int source, int tag, comm_object& comm, msg_status& out) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  if (source == MPI_PROC_NULL) {
    out = proc_null_status();
    return status::ok();
  }
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  auto it = match(p, comm.context, tag);
  if (it == p.queue.end()) return would_wait_forever("a receive", tag);
  recv_target r{buf, count, {}};
  copy_layout(t, r.layout);
  out = deliver(*it, r);
  release_sender(*it);
  p.queue.erase(it);
  if (out.error != 0) return fail_truncated(out);
  return status::ok();
}

status isend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
             handle_t& request) {
  if (status st = send(buf, count, t, dest, tag, comm); !st.is_ok()) return st;
  request = completed_request();
  return status::ok();
}

status irecv(void* buf, int count, type_object& t, int source, int tag, comm_object& comm,
             handle_t& request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  request = completed_request();
  if (request == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  if (source == MPI_PROC_NULL) {
    p.done[request] = proc_null_status();
    return status::ok();
  }
  recv_target r{buf, count, {}};
  copy_layout(t, r.layout);
  auto it = match(p, comm.context, tag);
  if (it != p.queue.end()) {
    p.done[request] = deliver(*it, r);
    release_sender(*it);
    p.queue.erase(it);
    return status::ok();
  }
  rt().requests.lookup(request)->complete = false;
  p.posted.push_back({request, comm.context, tag, std::move(r), false});
  return status::ok();
}

status sendrecv(const void* sendbuf, int sendcount, type_object& sendtype, int dest, int sendtag,
                void* recvbuf, int recvcount, type_object& recvtype, int source, int recvtag,
                comm_object& comm, msg_status& out) {
  if (status st = send(sendbuf, sendcount, sendtype, dest, sendtag, comm); !st.is_ok()) return st;
  return recv(recvbuf, recvcount, recvtype, source, recvtag, comm, out);
}

status probe(int source, int tag, comm_object& comm, msg_status& out) {
  bool flag = false;
  if (status st = iprobe(source, tag, comm, flag, out); !st.is_ok()) return st;
  if (!flag) return would_wait_forever("a probe", tag);
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
  auto& p = p2p();
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
// Completes `request` if it can: false when it is a receive still waiting for its send.
bool complete(handle_t& request, msg_status& out, status& error) {
  error = status::ok();
  out = msg_status{};
  if (request == h::request_null) return true;
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) {
    error = fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
    return true;
  }
  auto& p = p2p();
  {
    std::lock_guard lock(p.mu);
    if (!r->complete) return false;
    if (auto it = p.done.find(request); it != p.done.end()) {
      out = it->second;
      p.done.erase(it);
    }
  }
  rt().requests.erase(r);
  delete r;
  request = h::request_null;
  if (out.error == MPI_ERR_TRUNCATE) error = fail_truncated(out);
  return true;
}
}  // namespace

status wait(handle_t& request, msg_status& out) {
  status st;
  if (!complete(request, out, st)) return would_wait_forever("MPI_Wait on a receive", -1);
  return st;
}

status test(handle_t& request, bool& flag, msg_status& out) {
  status st;
  flag = complete(request, out, st);
  return st;
}

status waitall(int count, handle_t* requests, msg_status* statuses) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {  // every one must be completable, or none is completed
    request_object* r = requests[i] == h::request_null ? nullptr : rt().requests.lookup(requests[i]);
    if (requests[i] != h::request_null && r == nullptr)
      return fail(MPI_ERR_REQUEST, "array_of_requests[%d] = 0x%x is not a valid request", i, requests[i]);
    if (r != nullptr && !r->complete) return would_wait_forever("MPI_Waitall on a receive", -1);
  }
  status first = status::ok();
  for (int i = 0; i < count; ++i) {
    msg_status one;
    status st;
    complete(requests[i], one, st);
    if (statuses != nullptr) statuses[i] = one;
    if (!st.is_ok() && first.is_ok()) first = st;
  }
  return first;
}

status waitany(int count, handle_t* requests, int& index, msg_status& out) {
  if (status st = check_count(count); !st.is_ok()) return st;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == h::request_null) continue;
    any_active = true;
    status st;
    if (complete(requests[i], out, st)) {
      index = i;
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
  index = MPI_UNDEFINED;
  out = msg_status{};
  for (int i = 0; i < count; ++i) {
    if (requests[i] == h::request_null) continue;
    any_active = true;
    status st;
    if (complete(requests[i], out, st)) {
      index = i;
      flag = true;
      return st;
    }
  }
  flag = !any_active;  // no active request: flag true, index MPI_UNDEFINED (MPI-4.1 §4.7.5)
  return status::ok();
}

status testall(int count, handle_t* requests, bool& flag, msg_status* statuses) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {
    request_object* r = requests[i] == h::request_null ? nullptr : rt().requests.lookup(requests[i]);
    if (requests[i] != h::request_null && r == nullptr)
      return fail(MPI_ERR_REQUEST, "array_of_requests[%d] = 0x%x is not a valid request", i, requests[i]);
    if (r != nullptr && !r->complete) {
      flag = false;
      return status::ok();
    }
  }
  flag = true;
  return waitall(count, requests, statuses);
}

status request_free(handle_t& request) {
  if (request == h::request_null) return fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
  {
    // A freed receive still takes its message when it comes (MPI-4.1 §4.7.3); no one learns its
    // status.
    auto& p = p2p();
    std::lock_guard lock(p.mu);
    p.done.erase(request);
    for (auto& pr : p.posted)
      if (pr.request == request) pr.freed = true;
  }
  return finish_request(request);
}

}  // namespace api
}  // namespace mpiattr
