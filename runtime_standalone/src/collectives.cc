// Collectives and reduction operations on the standalone runtime's one process.
#include <cstring>
#include <vector>

#include "p2p_internal.h"

namespace mpiattr {
namespace {

// A one-process transfer of count elements of t from send to recv: the bytes of the type map
// only, so recv's gaps keep their contents (a copy of extent bytes would overwrite them).
void copy_bytes(const void* send, void* recv, int count, const type_object& t) {
  if (send == gen::in_place || count <= 0 || send == recv) return;
  if (contiguous(t)) {
    std::memmove(recv, send, static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
    return;
  }
  std::vector<char> tmp(static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
  pack_elements(send, count, t, tmp.data());
  unpack_elements(tmp.data(), recv, count, t);
}

status check_root(int root) {
  return root != 0 ? fail(MPI_ERR_ROOT, "root %d is not a rank of a one-process communicator", root)
                   : status::ok();
}

}  // namespace

namespace api {

// ---- collectives and operations ----

status barrier(comm_object&) { return status::ok(); }

status bcast(void*, int count, type_object&, int root, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  return check_root(root);
}

// An operation for a datatype: a user's (any datatype), or a predefined one, which MPI-4.1 §7.9.2
// defines for predefined datatypes only.
static status check_op(handle_t op, const type_object& t) {
  if (rt().ops.lookup(op) != nullptr) return status::ok();
  for (const auto& o : gen::ops)
    if (o.value == op) {
      if (!t.predefined)
        return fail(MPI_ERR_OP, "a predefined operation applies to predefined datatypes only, not "
                    "to a derived one (MPI-4.1 section 7.9.2)");
      return status::ok();
    }
  return fail(MPI_ERR_OP, "operation handle 0x%x is not valid", op);
}

status op_create(fnptr user_fn, bool commute, handle_t& op) {
  if (user_fn == nullptr) return fail(MPI_ERR_ARG, "user_fn is a NULL function");
  auto* o = new op_object;
  o->fn = user_fn;
  o->commute = commute;
  return insert_new(rt().ops, o, op, "operations");
}

status op_free(handle_t& op) {
  op_object* o = rt().ops.lookup(op);
  if (o == nullptr) {
    for (const auto& p : gen::ops)
      if (p.value == op) return fail(MPI_ERR_OP, "a predefined operation cannot be freed");
    return fail(MPI_ERR_OP, "operation handle 0x%x is null or not valid", op);
  }
  rt().ops.erase(o);
  delete o;
  op = h::op_null;
  return status::ok();
}

// ---- the other collectives on one process (MPI-4.1 §7): the process's own block only ----

namespace {
// count elements of stype at send into rcount elements of rtype at recv: the same type
// signature (MPI-4.1 §7.1); more data than the receive holds is MPI_ERR_TRUNCATE.
status transfer(const void* send, int scount, const type_object& stype, void* recv, int rcount,
                const type_object& rtype) {
  if (status st = check_count(scount); !st.is_ok()) return st;
  if (status st = check_count(rcount); !st.is_ok()) return st;
  if (send == gen::in_place) return status::ok();
  aint bytes = static_cast<aint>(scount) * stype.size;
  if (bytes > static_cast<aint>(rcount) * rtype.size)
    return fail(MPI_ERR_TRUNCATE, "%ld bytes sent, the receive holds %ld", static_cast<long>(bytes),
                static_cast<long>(static_cast<aint>(rcount) * rtype.size));
  if (bytes == 0) return status::ok();
  if (&stype == &rtype && contiguous(stype)) {
    std::memmove(recv, send, static_cast<std::size_t>(bytes));
    return status::ok();
  }
  std::vector<char> tmp(static_cast<std::size_t>(bytes));
  pack_elements(send, scount, stype, tmp.data());
  unpack_elements(tmp.data(), recv, rtype.size > 0 ? static_cast<int>(bytes / rtype.size) : 0, rtype);
  return status::ok();
}
char* at(void* buf, int displ, const type_object& t) { return static_cast<char*>(buf) + displ * t.extent; }
const char* at(const void* buf, int displ, const type_object& t) {
  return static_cast<const char*>(buf) + displ * t.extent;
}
}  // namespace

status gather(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
              type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status gatherv(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
               const int* recvcounts, const int* displs, type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
}

status scatter(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
               type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (recvbuf == gen::in_place) return check_count(sendcount);  // the root keeps its block
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status scatterv(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                void* recvbuf, int recvcount, type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (recvbuf == gen::in_place) return status::ok();
  return transfer(at(sendbuf, displs[0], sendtype), sendcounts[0], sendtype, recvbuf, recvcount, recvtype);
}

status allgather(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                 type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status allgatherv(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
                  const int* recvcounts, const int* displs, type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
}

status alltoall(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                 void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype, comm_object&) {
  if (sendbuf == gen::in_place) return status::ok();
  return transfer(at(sendbuf, sdispls[0], sendtype), sendcounts[0], sendtype,
                  at(recvbuf, rdispls[0], recvtype), recvcounts[0], recvtype);
}

status scan(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

// Rank 0's recvbuf is undefined after MPI_Exscan (MPI-4.1 §7.11.2): it is left as it is.
status exscan(const void*, void*, int count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  return check_op(op, t);
}

status reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& t,
                      handle_t op, comm_object&) {  // the process's share: recvcounts[0] elements
  if (status st = check_count(recvcounts[0]); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, recvcounts[0], t);
  return status::ok();
}

status reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, type_object& t,
                            handle_t op, comm_object& comm) {
  return reduce_scatter(sendbuf, recvbuf, &recvcount, t, op, comm);
}

status reduce(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, int root, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  if (status st = check_root(root); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

status allreduce(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

// ---- nonblocking collectives (MPI-4.1 §7.12): the blocking one, done at the call; the request
// is complete at once ----

namespace {
status started(status st, handle_t& request) {
  if (!st.is_ok()) return st;
  handle_t r = p2p::new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  request = r;
  return status::ok();
}
}  // namespace

status ibarrier(comm_object& comm, handle_t& request) { return started(barrier(comm), request); }

status ibcast(void* buffer, int count, type_object& t, int root, comm_object& comm, handle_t& request) {
  return started(bcast(buffer, count, t, root, comm), request);
}

status ireduce(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, int root,
               comm_object& comm, handle_t& request) {
  return started(reduce(sendbuf, recvbuf, count, t, op, root, comm), request);
}

status iallreduce(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op,
                  comm_object& comm, handle_t& request) {
  return started(allreduce(sendbuf, recvbuf, count, t, op, comm), request);
}

status igather(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
               type_object& recvtype, int root, comm_object& comm, handle_t& request) {
  return started(gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), request);
}

status igatherv(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
                const int* recvcounts, const int* displs, type_object& recvtype, int root,
                comm_object& comm, handle_t& request) {
  return started(gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                 request);
}

status iscatter(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                type_object& recvtype, int root, comm_object& comm, handle_t& request) {
  return started(scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm), request);
}

status iscatterv(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                 void* recvbuf, int recvcount, type_object& recvtype, int root, comm_object& comm,
                 handle_t& request) {
  return started(scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                 request);
}

status iallgather(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                  type_object& recvtype, comm_object& comm, handle_t& request) {
  return started(allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request);
}

status iallgatherv(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
                   const int* recvcounts, const int* displs, type_object& recvtype, comm_object& comm,
                   handle_t& request) {
  return started(allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                 request);
}

status ialltoall(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                 type_object& recvtype, comm_object& comm, handle_t& request) {
  return started(alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request);
}

status ialltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                  void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype,
                  comm_object& comm, handle_t& request) {
  return started(alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                           comm),
                 request);
}

status iscan(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, comm_object& comm,
             handle_t& request) {
  return started(scan(sendbuf, recvbuf, count, t, op, comm), request);
}

status iexscan(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op,
               comm_object& comm, handle_t& request) {
  return started(exscan(sendbuf, recvbuf, count, t, op, comm), request);
}

status ireduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& t,
                       handle_t op, comm_object& comm, handle_t& request) {
  return started(reduce_scatter(sendbuf, recvbuf, recvcounts, t, op, comm), request);
}

status ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, type_object& t,
                             handle_t op, comm_object& comm, handle_t& request) {
  return started(reduce_scatter_block(sendbuf, recvbuf, recvcount, t, op, comm), request);
}

// ---- persistent collectives (MPI-4.1 §7.13): the arguments are checked at the _init call, and
// MPI_Start runs the blocking collective with them. The communicator and datatypes are found again
// by handle at each start: one freed in between fails the start (D44). Array arguments (counts,
// displacements) are read at the start, as the standard allows (they must not change). ----

namespace {
// The objects a persistent collective names, found again at MPI_Start.
struct objects {
  handle_t comm, send, recv;
  status find(comm_object*& c, type_object*& s, type_object*& r) const {
    c = rt().comms.lookup(comm);
    s = rt().types.lookup(send);
    r = rt().types.lookup(recv);
    if (c == nullptr) return fail(MPI_ERR_COMM, "the persistent collective's communicator was freed");
    if (s == nullptr || r == nullptr)
      return fail(MPI_ERR_TYPE, "a datatype of the persistent collective was freed before MPI_Start");
    return status::ok();
  }
};

// A persistent collective's request: MPI_Start calls `run`.
status persistent_request(handle_t info, std::function<status()> run, handle_t& request) {
  if (status st = check_info(info); !st.is_ok()) return st;
  p2p::request_extra e{p2p::request_extra::kind::collective};
  e.run = std::move(run);
  handle_t r = p2p::new_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  auto& p = p2p::get();
  std::lock_guard lock(p.mu);
  p.extra.emplace(r, std::move(e));
  request = r;
  return status::ok();
}

// The same for a collective with a communicator and datatypes, found again at each start.
status persistent(const objects& o, handle_t info,
                  std::function<status(comm_object&, type_object&, type_object&)> run, handle_t& request) {
  return persistent_request(info, [o, run]() -> status {
    comm_object* c = nullptr;
    type_object *s = nullptr, *r = nullptr;
    if (status st = o.find(c, s, r); !st.is_ok()) return st;
    return run(*c, *s, *r);
  }, request);
}

status check_counts(int a, int b) {
  if (status st = check_count(a); !st.is_ok()) return st;
  return check_count(b);
}
}  // namespace

status barrier_init(comm_object& comm, handle_t info, handle_t& request) {
  return persistent_request(info, [h = comm.handle]() -> status {
    comm_object* c = rt().comms.lookup(h);
    if (c == nullptr) return fail(MPI_ERR_COMM, "the persistent collective's communicator was freed");
    return barrier(*c);
  }, request);
}

status bcast_init(void* buffer, int count, type_object& t, int root, comm_object& comm, handle_t info,
                  handle_t& request) {
  if (status st = bcast(buffer, count, t, root, comm); !st.is_ok()) return st;  // moves nothing
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) { return bcast(buffer, count, tt, root, c); },
                    request);
}

status reduce_init(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, int root,
                   comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  if (status st = check_root(root); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return reduce(sendbuf, recvbuf, count, tt, op, root, c);
                    }, request);
}

status allreduce_init(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op,
                      comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return allreduce(sendbuf, recvbuf, count, tt, op, c);
                    }, request);
}

status gather_init(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                   type_object& recvtype, int root, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (status st = check_counts(sendcount, recvcount); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return gather(sendbuf, sendcount, s, recvbuf, recvcount, r, root, c);
                    }, request);
}

status gatherv_init(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
                    const int* recvcounts, const int* displs, type_object& recvtype, int root,
                    comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (status st = check_counts(sendcount, recvcounts[0]); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return gatherv(sendbuf, sendcount, s, recvbuf, recvcounts, displs, r, root, c);
                    }, request);
}

status scatter_init(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                    type_object& recvtype, int root, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (status st = check_counts(sendcount, recvcount); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return scatter(sendbuf, sendcount, s, recvbuf, recvcount, r, root, c);
                    }, request);
}

status scatterv_init(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                     void* recvbuf, int recvcount, type_object& recvtype, int root, comm_object& comm,
                     handle_t info, handle_t& request) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (status st = check_counts(sendcounts[0], recvcount); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return scatterv(sendbuf, sendcounts, displs, s, recvbuf, recvcount, r, root, c);
                    }, request);
}

status allgather_init(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                      type_object& recvtype, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_counts(sendcount, recvcount); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return allgather(sendbuf, sendcount, s, recvbuf, recvcount, r, c);
                    }, request);
}

status allgatherv_init(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
                       const int* recvcounts, const int* displs, type_object& recvtype, comm_object& comm,
                       handle_t info, handle_t& request) {
  if (status st = check_counts(sendcount, recvcounts[0]); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return allgatherv(sendbuf, sendcount, s, recvbuf, recvcounts, displs, r, c);
                    }, request);
}

status alltoall_init(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                     type_object& recvtype, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_counts(sendcount, recvcount); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return alltoall(sendbuf, sendcount, s, recvbuf, recvcount, r, c);
                    }, request);
}

status alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                      void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype,
                      comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_counts(sendcounts[0], recvcounts[0]); !st.is_ok()) return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return alltoallv(sendbuf, sendcounts, sdispls, s, recvbuf, recvcounts, rdispls, r, c);
                    }, request);
}

status scan_init(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op,
                 comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return scan(sendbuf, recvbuf, count, tt, op, c);
                    }, request);
}

status exscan_init(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op,
                   comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return exscan(sendbuf, recvbuf, count, tt, op, c);
                    }, request);
}

status reduce_scatter_init(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& t,
                           handle_t op, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_count(recvcounts[0]); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return reduce_scatter(sendbuf, recvbuf, recvcounts, tt, op, c);
                    }, request);
}

status reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, type_object& t,
                                 handle_t op, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = check_count(recvcount); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return reduce_scatter_block(sendbuf, recvbuf, recvcount, tt, op, c);
                    }, request);
}

}  // namespace api
}  // namespace mpiattr
