// What point_to_point.cc (messages to self, completion), requests.cc (persistent, buffered,
// cancelled, generalized, matched and partitioned requests) and collectives.cc (nonblocking and
// persistent collectives) share: the message queue, the receives waiting in it, and the state of
// requests that are more than "complete or not" (D44).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr::p2p {

using api::msg_status;

struct message {
  std::uint64_t context;
  int tag;
  std::vector<char> data;
  handle_t sync_request = 0;  // MPI_Issend's request, complete once a receive takes the message
  aint bsend_bytes = 0;       // what MPI_Bsend took of the attached buffer, given back when received
  std::uint64_t bsend_owner = 0;  // whose buffer that is (buffer_owner)
};

// An attached buffer (MPI-4.1 §3.6): the process's (MPI_Buffer_attach), a communicator's or a
// session's; MPI_BUFFER_AUTOMATIC has no size and never runs out (D55).
struct attached_buffer {
  void* buffer = nullptr;
  aint size = 0;
  aint used = 0;
  bool automatic = false;
};
// The key of an attached buffer in state::buffers: 0 the process's, a communicator's by its
// context, a session's by its handle.
inline constexpr std::uint64_t process_buffer = 0;
inline std::uint64_t comm_buffer_key(std::uint64_t context) { return (std::uint64_t{1} << 63) | context; }
inline std::uint64_t session_buffer_key(handle_t session) { return (std::uint64_t{1} << 62) | session; }

// A receive's destination: the buffer and a copy of the datatype's layout (the datatype may be
// freed before the receive completes).
struct recv_target {
  void* buf = nullptr;
  std::int64_t count = 0;
  type_layout layout;
};

struct posted_recv {
  handle_t request;
  std::uint64_t context;
  int tag;
  recv_target target;
  bool freed = false;  // MPI_Request_free: the receive still happens, nobody waits for it
};

enum class send_mode { standard, buffered, synchronous, synchronous_nonblocking };

// A request that is more than "complete or not": persistent (point-to-point, collective,
// partitioned), generalized. A persistent request is inactive until MPI_Start and again once a
// completion call returns it; an inactive one completes at once with an empty status.
struct request_extra {
  enum class kind { send, recv, collective, grequest, psend, precv } k;
  explicit request_extra(kind which) : k(which) {}
  bool active = false;
  // persistent point-to-point and partitioned: the arguments of the operation MPI_Start begins
  const void* send_buf = nullptr;
  void* recv_buf = nullptr;
  std::int64_t count = 0;
  type_layout layout;
  int peer = 0;  // dest or source
  int tag = 0;
  std::uint64_t context = 0;
  send_mode mode = send_mode::standard;
  // persistent collective: the blocking collective, run by MPI_Start
  std::function<status()> run;
  // generalized request (MPI-4.1 §14.2)
  language lang = language::c;
  fnptr query_fn = nullptr, free_fn = nullptr, cancel_fn = nullptr;
  aint extra_state = 0;
  bool user_freed = false;  // MPI_Request_free before MPI_Grequest_complete
  // partitioned: which partitions MPI_Pready marked, and whether the receive has its message
  int partitions = 0;
  std::vector<char> ready;
  bool arrived = false;
};

struct state {
  std::mutex mu;
  std::deque<message> queue;
  std::vector<posted_recv> posted;
  std::unordered_map<handle_t, msg_status> done;  // completed requests' statuses
  std::unordered_map<handle_t, request_extra> extra;
  // The attached buffers, by buffer_owner key, and what queued buffered sends hold of each
  std::unordered_map<std::uint64_t, attached_buffer> buffers;
  // The session a communicator derives from (MPI_Comm_create_from_group, then dup, split, ...),
  // by context: its buffered sends may use the session's buffer.
  std::unordered_map<std::uint64_t, handle_t> comm_session;
  // matched probes: the messages MPI_Mprobe took off the queue, by MPI_Message handle
  std::unordered_map<handle_t, message> matched;
  handle_t next_message = 0;
  // partitioned sends whose partitions are all ready and that no partitioned receive took yet
  std::deque<message> partitioned;
};
state& queues();  // the process's message queues and request state

bool tag_matches(int want, int tag);
status check_tag(int tag, bool receiving);
status check_peer(int rank, bool receiving);
status check_transfer(std::int64_t count, const type_object& t);
void copy_layout(const type_object& t, type_layout& into);
msg_status deliver(const message& m, const recv_target& r);
// deliver, of `size` packed bytes at data (a message's, or a contiguous send buffer's).
msg_status deliver_bytes(const char* data, aint size, int tag, const recv_target& r);
// deliver, of count elements of `layout` at buf, straight into a posted receive: packed first
// only where the layout is not contiguous (D115).
msg_status deliver_send(const void* buf, std::int64_t count, const type_layout& layout, int tag,
                        const recv_target& r);
msg_status proc_null_status();
status fail_truncated(const msg_status& st);
status would_wait_forever(const char* what, int tag);

// Sends count elements of `layout` at buf, in `mode`, to the one process; the caller checked the
// arguments (dest is 0 or MPI_PROC_NULL). `request` is the nonblocking send's, if any.
status post_send(const void* buf, std::int64_t count, const type_layout& layout, int dest, int tag,
                 std::uint64_t context, send_mode mode, handle_t request);
// Begins a receive for `request` (checked arguments): completed by a queued message at once, or
// posted for the next matching send.
void post_recv(handle_t request, const recv_target& r, int source, int tag, std::uint64_t context);
// Allocates what post_recv(request, ...) needs, so that it then cannot run out of memory (D65):
// for a routine that must not fail after it changed something (MPI_Isendrecv's send).
void reserve_recv(handle_t request);
// The oldest queued message a receive or probe matches, or end() (the lock held).
std::deque<message>::iterator match(state& p, std::uint64_t context, int tag);
// Takes a message off the queue (the lock held): its sender is released, its buffer space freed.
message take(state& p, std::deque<message>::iterator it);
// Gives a queued buffered message's space back to its buffer (the lock held).
void release_bsend(state& p, message& m);

// A new request, already complete; MPI_REQUEST_NULL when the table is full.
handle_t new_request();
// A new inactive persistent (or generalized) request with its arguments `e` (requests.cc); out of
// memory leaves no request behind (D65).
status new_persistent(request_extra e, handle_t& request);
// Whether a completion call would wait for `request`: not null, and not an inactive persistent one.
bool active(handle_t request);

}  // namespace mpiattr::p2p

namespace mpiattr::p2p {
// A generalized request's end (requests.cc): query_fn fills the status, then free_fn runs; the
// first error either returns is the completion's.
status grequest_finish(const request_extra& g, msg_status& out);
// free_fn alone (MPI_Request_free of a completed generalized request).
status grequest_release(const request_extra& g);
}  // namespace mpiattr::p2p
