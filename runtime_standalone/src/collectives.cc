// Collectives and reduction operations on the standalone runtime's one process.
#include <cstring>
#include <vector>

#include "runtime_internal.h"

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

}  // namespace api
}  // namespace mpiattr
