// Collectives and reduction operations on the standalone runtime's one process.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "p2p_internal.h"
#include "predefined_arith.h"

namespace mpiattr {
namespace {

// Set while a persistent collective's `_init` runs the blocking routine for its checks only
// (checks_only, below): each check is then the blocking routine's own, and what MPI_Start will
// run, so the two cannot drift apart. The three places that write (copy_bytes, transfer after its
// block's checks, moved after its buffers') return before writing; a block's truncation is still
// found at MPI_Start (no `_init` checked it before either).
thread_local bool t_checks_only = false;

// A one-process transfer of count elements of t from send to recv: the bytes of the type map
// only, so recv's gaps keep their contents (a copy of extent bytes would overwrite them).
void copy_bytes(const void* send, void* recv, std::int64_t count, const type_object& t) {
  if (t_checks_only || send == gen::in_place || count <= 0 || send == recv) return;
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

// A count of elements of t a collective moves: not negative, countable, and t committed (MPI-4.1
// §5.1.9: a derived datatype is committed before communication uses it), as point-to-point checks.
status check_elements(std::int64_t count, const type_object& t) {
  if (status st = check_count(count, t); !st.is_ok()) return st;
  if (!t.committed && !t.predefined) return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return status::ok();
}

// MPI_IN_PLACE stands for a send buffer (and for MPI_Scatter's receive buffer at the root), never
// for a buffer the call writes: the call would write through it.
status check_recv_buffer(const void* recvbuf) {
  return recvbuf == gen::in_place
             ? fail(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE, which stands for the send buffer only")
             : status::ok();
}

// A send buffer that is also the receive buffer (MPI-4.1 §2.3: an OUT argument is not aliased with
// any other; the in-place form is MPI_IN_PLACE): the usual slip, which a run on more processes
// turns into wrong results. MPI_BOTTOM twice may reach disjoint memory through absolute addresses.
status check_not_aliased(const void* sendbuf, const void* recvbuf, std::int64_t scount) {
  return scount > 0 && sendbuf == recvbuf && sendbuf != nullptr && sendbuf != gen::in_place
             ? fail(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (the in-place form passes "
                    "MPI_IN_PLACE as sendbuf)")
             : status::ok();
}

// One block from sendbuf to recvbuf, checked before anything moves: counts and committed datatypes
// (the send side's ignored when it is MPI_IN_PLACE, D139), recvbuf no MPI_IN_PLACE, and the two
// buffers not the same.
status check_block(const void* sendbuf, std::int64_t scount, const type_object& stype, const void* recvbuf,
                   std::int64_t rcount, const type_object& rtype) {
  if (sendbuf != gen::in_place)
    if (status st = check_elements(scount, stype); !st.is_ok()) return st;
  if (status st = check_elements(rcount, rtype); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  return check_not_aliased(sendbuf, recvbuf, scount);
}

template <typename C>
status check_counts(const char* what, int n, const C* counts) {
  if (n > 0 && counts == nullptr) return fail(MPI_ERR_ARG, "%s is NULL", what);
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0) return fail(MPI_ERR_COUNT, "%s[%d] is %lld", what, i, static_cast<long long>(counts[i]));
  return status::ok();
}

// A vector collective's counts and displacements for n processes: neither NULL, no count negative.
template <typename C, typename D>
status check_v(int n, const C* counts, const char* cname, const D* displs, const char* dname) {
  if (status st = check_counts(cname, n, counts); !st.is_ok()) return st;
  return n > 0 && displs == nullptr ? fail(MPI_ERR_ARG, "%s is NULL", dname) : status::ok();
}

}  // namespace

namespace api {

// ---- collectives and operations ----

status barrier(comm_object&) { return status::ok(); }

status bcast(void*, std::int64_t count, type_object& t, int root, comm_object&) {
  if (status st = check_elements(count, t); !st.is_ok()) return st;
  return check_root(root);
}

namespace {
// Whether MPI-4.1 §7.9.2 defines predefined operation `op` on predefined datatype t (below, beside
// MPI_Reduce_local's arithmetic).
status op_defined_on(handle_t op, const type_object& t);
}  // namespace

// An operation for a datatype: a user's (any datatype), or a predefined one, which MPI-4.1 §7.9.2
// defines for predefined datatypes only.
static status check_op(handle_t op, const type_object& t) {
  if (rt().ops.lookup(op) != nullptr) return status::ok();
  for (const auto& o : gen::ops)
    if (o.value == op) {
      if (!t.predefined)
        return fail(MPI_ERR_OP, "a predefined operation applies to predefined datatypes only, not "
                    "to a derived one (MPI-4.1 section 7.9.2)");
      return op_defined_on(op, t);  // (D109)
    }
  return fail(MPI_ERR_OP, "operation handle 0x%x is not valid", op);
}

status op_create(language lang, fnptr user_fn, bool commute, handle_t& op) {
  if (user_fn == nullptr) return fail(MPI_ERR_ARG, "user_fn is a NULL function");
  auto* o = new op_object;
  o->fn = user_fn;
  o->lang = lang;
  o->commute = commute;
  return insert_new(rt().ops, o, op, "operations");
}

status op_create_c(language lang, fnptr user_fn, bool commute, handle_t& op) {
  if (status st = op_create(lang, user_fn, commute, op); !st.is_ok()) return st;
  rt().ops.lookup(op)->large = true;
  return status::ok();
}

// Every predefined operation is commutative (MPI-4.1 §7.9.2); a user's is what it was created as.
status op_commutative(handle_t op, bool& commute) {
  if (op_object* o = rt().ops.lookup(op)) {
    commute = o->commute;
    return status::ok();
  }
  if (arith::op_name(op) == nullptr) return fail(MPI_ERR_OP, "operation handle 0x%x is null or not valid", op);
  commute = true;
  return status::ok();
}

// ---- MPI_Reduce_local: inoutbuf[i] = inbuf[i] op inoutbuf[i] (MPI-4.1 §7.9.7) ----
namespace {

using arith::cat;
using arith::num;
using arith::load;
using arith::store;

template <typename V>
V reduced(const std::string& op, V a, V b) {  // a = in, b = inout
  if (op == "MPI_SUM") return a + b;
  if (op == "MPI_PROD") return a * b;
  if constexpr (!std::is_same_v<V, std::complex<float>> && !std::is_same_v<V, std::complex<double>> &&
                !std::is_same_v<V, std::complex<long double>>) {
    if (op == "MPI_MAX") return a > b ? a : b;
    if (op == "MPI_MIN") return a < b ? a : b;
    if constexpr (std::is_integral_v<V>) {
      if (op == "MPI_BAND") return a & b;
      if (op == "MPI_BOR") return a | b;
      if (op == "MPI_BXOR") return a ^ b;
      if (op == "MPI_LAND") return (a && b) ? 1 : 0;
      if (op == "MPI_LOR") return (a || b) ? 1 : 0;
      if (op == "MPI_LXOR") return (!a != !b) ? 1 : 0;
    }
  }
  return b;
}

template <typename V>
void combine(const std::string& op, const char* in, char* io) {
  store<V>(io, reduced<V>(op, load<V>(in), load<V>(io)));
}

// An integer of `size` bytes, signed or not.
void combine_integer(const std::string& op, aint size, bool is_signed, const char* in, char* io) {
  switch (size) {
    case 1: return is_signed ? combine<std::int8_t>(op, in, io) : combine<std::uint8_t>(op, in, io);
    case 2: return is_signed ? combine<std::int16_t>(op, in, io) : combine<std::uint16_t>(op, in, io);
    case 4: return is_signed ? combine<std::int32_t>(op, in, io) : combine<std::uint32_t>(op, in, io);
    case 8: return is_signed ? combine<std::int64_t>(op, in, io) : combine<std::uint64_t>(op, in, io);
    default: return is_signed ? combine<__int128>(op, in, io) : combine<unsigned __int128>(op, in, io);
  }
}

// A value of a pair (MAXLOC, MINLOC) as a long double or a long long, compared exactly.
template <typename V>
void combine_loc(bool max, aint second_at, bool int_index, const char* in, char* io) {
  const V a = load<V>(in), b = load<V>(io);
  auto index = [&](const char* p) {
    return int_index ? static_cast<long long>(load<int>(p + second_at))
                     : static_cast<long long>(load<V>(p + second_at));
  };
  const long long ia = index(in), ib = index(io);
  bool take_in = max ? a > b : a < b;
  long long idx = take_in ? ia : (a == b ? std::min(ia, ib) : ib);
  if (take_in) store<V>(io, a);
  if (int_index)
    store<int>(io + second_at, static_cast<int>(idx));
  else
    store<V>(io + second_at, static_cast<V>(idx));
}

// One element of the predefined datatype b (t.size bytes; `second_at` where a pair's index starts).
void combine_one(const std::string& op, const arith::basic_info& b, aint size, aint second_at, const char* in,
                 char* io) {
  switch (b.c) {
    case cat::c_int:
    case cat::f_int:  // (MPI_INTEGER16 too: num::none, combined as a 16-byte integer)
      return combine_integer(op, size, !arith::is_unsigned(b.n), in, io);
    case cat::byte:
      return combine_integer(op, 1, false, in, io);
    case cat::floating:
      if (b.n == num::fld) return combine<long double>(op, in, io);
      return b.n == num::f32 ? combine<float>(op, in, io) : combine<double>(op, in, io);
    case cat::complex:
      if (b.n == num::fld) return combine<std::complex<long double>>(op, in, io);
      return b.n == num::f32 ? combine<std::complex<float>>(op, in, io) : combine<std::complex<double>>(op, in, io);
    case cat::logical: {  // any non-zero is true; results are 1 and 0 (gfortran's too, D45)
      bool x = false, y = false;
      for (aint k = 0; k < size; ++k) {
        x = x || in[k] != 0;
        y = y || io[k] != 0;
      }
      const bool r = op == "MPI_LAND" ? (x && y) : op == "MPI_LOR" ? (x || y) : (x != y);
      std::memset(io, 0, static_cast<std::size_t>(size));
      if (r) {
        const unsigned long long one = 1;
        std::memcpy(io, &one, static_cast<std::size_t>(std::min<aint>(size, 1)));  // little-endian
      }
      return;
    }
    case cat::pair: {  // the index: an int (the C pairs) or of the value's type (MPI_2REAL, ...)
      const bool max = op == "MPI_MAXLOC", int_index = b.index == num::i32;
      arith::with_num(b.value, [&](auto v) { combine_loc<decltype(v)>(max, second_at, int_index, in, io); });
      return;
    }
    case cat::none:
    case cat::other: return;
  }
}

}  // namespace

status reduce_local(const void* inbuf, void* inoutbuf, std::int64_t count, type_object& t, handle_t op) {
  if (status st = check_count(count, t); !st.is_ok()) return st;
  if (inbuf == gen::in_place || inoutbuf == gen::in_place)
    return fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not a buffer of MPI_Reduce_local");
  if (status st = check_op(op, t); !st.is_ok()) return st;
  if (!t.committed && !t.predefined) return fail(MPI_ERR_TYPE, "the datatype is not committed");
  if (op_object* o = rt().ops.lookup(op)) {  // the user's function, in its language's convention
    if (count == 0) return status::ok();
    std::int64_t large_len = count;  // MPI_Op_create_c's functions: MPI_Count, or MPI_COUNT_KIND
    if (o->large) {
      if (o->lang == language::c || o->lang == language::cxx) {
        void* dt = reinterpret_cast<void*>(static_cast<std::uintptr_t>(t.handle));
        reinterpret_cast<void (*)(const void*, void*, std::int64_t*, void**)>(o->fn)(inbuf, inoutbuf, &large_len, &dt);
      } else {
        fint fdt = static_cast<fint>(t.handle);
        reinterpret_cast<void (*)(const void*, void*, std::int64_t*, fint*)>(o->fn)(inbuf, inoutbuf, &large_len, &fdt);
      }
      return status::ok();
    }
    // A function whose length is an int, given more elements than an int counts (a large-count
    // form's): called on consecutive pieces of at most INT_MAX elements (D115).
    const char* in = static_cast<const char*>(inbuf);
    char* io = static_cast<char*>(inoutbuf);
    for (std::int64_t done = 0; done < count;) {
      const int len = static_cast<int>(std::min<std::int64_t>(count - done, std::numeric_limits<int>::max()));
      if (o->lang == language::c || o->lang == language::cxx) {
        void* dt = reinterpret_cast<void*>(static_cast<std::uintptr_t>(t.handle));
        int l = len;
        reinterpret_cast<void (*)(const void*, void*, int*, void**)>(o->fn)(in, io, &l, &dt);
      } else {
        fint flen = len, fdt = static_cast<fint>(t.handle);
        reinterpret_cast<void (*)(const void*, void*, fint*, fint*)>(o->fn)(in, io, &flen, &fdt);
      }
      done += len;
      in += static_cast<aint>(len) * t.extent;
      io += static_cast<aint>(len) * t.extent;
    }
    return status::ok();
  }
  const std::string name_of_op = arith::op_name(op);  // (check_op tested it on t: op_defined_on)
  const arith::basic_info b = arith::basic_of(t.handle);
  if ((b.c == cat::floating || b.c == cat::complex) && b.n == num::none)
    return fail(MPI_ERR_UNSUPPORTED_OPERATION, "%s on %s: no arithmetic for that real kind here (D45)",
                name_of_op.c_str(), b.name);
  aint second_at = 0;  // a pair's index: where the spec says, else after the value
  if (b.c == cat::pair)
    for (const auto& d : gen::datatypes)
      if (d.value == t.handle) second_at = d.second_at ? d.second_at : t.size - arith::num_size(b.index);
  const char* in = static_cast<const char*>(inbuf);
  char* io = static_cast<char*>(inoutbuf);
  for (std::int64_t i = 0; i < count; ++i, in += t.extent, io += t.extent) combine_one(name_of_op, b, t.size, second_at, in, io);
  return status::ok();
}

namespace {
// MPI_REAL2, MPI_REAL16, MPI_COMPLEX4, MPI_COMPLEX32 are reals and complexes to §7.9.2, without
// arithmetic here: the reductions take them, MPI_Reduce_local refuses them (D45, D109).
status op_defined_on(handle_t op, const type_object& t) {
  const arith::basic_info b = arith::basic_of(t.handle);
  const char* oname = arith::op_name(op);
  if (!arith::op_applies(oname, b.c))
    return fail(MPI_ERR_OP, "%s is not defined on datatype %s (MPI-4.1 section 7.9.2)", oname,
                b.name ? b.name : "(unnamed)");
  return status::ok();
}
}  // namespace

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
// `scratch`, when given, holds the packed bytes (make_moves allocates it once for all its blocks).
// With MPI_IN_PLACE, scount and stype are ignored (MPI-4.1 §7.5-7.8, D139).
status transfer(const void* send, std::int64_t scount, const type_object& stype, void* recv, std::int64_t rcount,
                const type_object& rtype, char* scratch = nullptr) {
  if (status st = check_block(send, scount, stype, recv, rcount, rtype); !st.is_ok()) return st;
  if (send == gen::in_place || t_checks_only) return status::ok();
  aint bytes = static_cast<aint>(scount) * stype.size;
  if (bytes > static_cast<aint>(rcount) * rtype.size)
    return fail(MPI_ERR_TRUNCATE, "%ld bytes sent, the receive holds %ld", static_cast<long>(bytes),
                static_cast<long>(static_cast<aint>(rcount) * rtype.size));
  if (bytes == 0) return status::ok();
  if (&stype == &rtype && contiguous(stype)) {
    std::memmove(recv, send, static_cast<std::size_t>(bytes));
    return status::ok();
  }
  std::vector<char> tmp;
  if (scratch == nullptr) {
    tmp.resize(static_cast<std::size_t>(bytes));
    scratch = tmp.data();
  }
  pack_elements(send, scount, stype, scratch);
  unpack_elements(scratch, recv, rtype.size > 0 ? bytes / rtype.size : 0, rtype);
  return status::ok();
}
char* at(void* buf, aint displ, const type_object& t) { return static_cast<char*>(buf) + displ * t.extent; }
const char* at(const void* buf, aint displ, const type_object& t) {
  return static_cast<const char*>(buf) + displ * t.extent;
}
}  // namespace

status gather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
              type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

template <typename C, typename D>
status gatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
               const C* recvcounts, const D* displs, type_object& recvtype, int root, comm_object& comm) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (status st = check_v(comm.size, recvcounts, "recvcounts", displs, "displs"); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  if (status st = check_not_aliased(sendbuf, recvbuf, sendcount); !st.is_ok()) return st;
  if (status st = check_buffer(recvbuf, recvcounts[0], recvtype, "recvbuf"); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
}

status scatter(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
               type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (sendbuf == gen::in_place) return fail(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE (only the root's recvbuf may be)");
  if (recvbuf == gen::in_place) return check_elements(sendcount, sendtype);  // the root keeps its block
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

template <typename C, typename D>
status scatterv(const void* sendbuf, const C* sendcounts, const D* displs, type_object& sendtype,
                void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (status st = check_v(comm.size, sendcounts, "sendcounts", displs, "displs"); !st.is_ok()) return st;
  if (sendbuf == gen::in_place) return fail(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE (only the root's recvbuf may be)");
  if (recvbuf == gen::in_place) return check_elements(sendcounts[0], sendtype);  // the root keeps its block
  if (status st = check_not_aliased(sendbuf, recvbuf, recvcount); !st.is_ok()) return st;
  if (status st = check_buffer(sendbuf, sendcounts[0], sendtype, "sendbuf"); !st.is_ok()) return st;
  return transfer(at(sendbuf, displs[0], sendtype), sendcounts[0], sendtype, recvbuf, recvcount, recvtype);
}

status allgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                 type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

template <typename C, typename D>
status allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                  const C* recvcounts, const D* displs, type_object& recvtype, comm_object& comm) {
  if (status st = check_v(comm.size, recvcounts, "recvcounts", displs, "displs"); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  if (status st = check_not_aliased(sendbuf, recvbuf, sendcount); !st.is_ok()) return st;
  if (status st = check_buffer(recvbuf, recvcounts[0], recvtype, "recvbuf"); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
}

status alltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

template <typename C, typename D>
status alltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls, type_object& sendtype,
                 void* recvbuf, const C* recvcounts, const D* rdispls, type_object& recvtype, comm_object& comm) {
  if (status st = check_v(comm.size, recvcounts, "recvcounts", rdispls, "rdispls"); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  if (sendbuf == gen::in_place) return check_elements(recvcounts[0], recvtype);  // its block stays
  if (status st = check_v(comm.size, sendcounts, "sendcounts", sdispls, "sdispls"); !st.is_ok()) return st;
  if (status st = check_not_aliased(sendbuf, recvbuf, sendcounts[0]); !st.is_ok()) return st;
  if (status st = check_buffer(sendbuf, sendcounts[0], sendtype, "sendbuf"); !st.is_ok()) return st;
  if (status st = check_buffer(recvbuf, recvcounts[0], recvtype, "recvbuf"); !st.is_ok()) return st;
  return transfer(at(sendbuf, sdispls[0], sendtype), sendcounts[0], sendtype,
                  at(recvbuf, rdispls[0], recvtype), recvcounts[0], recvtype);
}

// ---- MPI_Alltoallw and the neighbourhood collectives: blocks with their own datatypes ----
namespace {

// One block's move: checked in full (counts, datatypes, sizes) before any is made, so that a
// failed call writes nothing.
struct block_move {
  const void* send;
  std::int64_t scount;
  const type_object* stype;
  void* recv;
  std::int64_t rcount;
  const type_object* rtype;
};

status type_at(handle_array types, int i, const char* what, type_object*& out) {
  if (types.base == nullptr) return fail(MPI_ERR_ARG, "%s is NULL", what);
  const handle_t hnd = types[i];
  out = rt().types.lookup(hnd);
  if (out == nullptr) return fail(MPI_ERR_TYPE, "%s[%d] (0x%x) is not a valid datatype", what, i, hnd);
  if (!out->committed && !out->predefined) return fail(MPI_ERR_TYPE, "%s[%d] is not committed", what, i);
  return status::ok();
}

status make_moves(const std::vector<block_move>& moves) {
  aint most = 0;
  for (const block_move& m : moves) {
    const aint bytes = static_cast<aint>(m.scount) * m.stype->size;
    if (bytes > static_cast<aint>(m.rcount) * m.rtype->size)
      return fail(MPI_ERR_TRUNCATE, "%ld bytes sent, the receive holds %ld", static_cast<long>(bytes),
                  static_cast<long>(static_cast<aint>(m.rcount) * m.rtype->size));
    most = std::max(most, bytes);
  }
  // One scratch buffer for every block, allocated before the first moves (out of memory after it
  // would leave some blocks moved: D65).
  std::vector<char> scratch(static_cast<std::size_t>(most > 0 ? most : 0));
  for (const block_move& m : moves)
    if (status st = transfer(m.send, m.scount, *m.stype, m.recv, m.rcount, *m.rtype, scratch.data()); !st.is_ok())
      return st;
  return status::ok();
}

const char* bytes_at(const void* buf, aint off) { return static_cast<const char*>(buf) + off; }
char* bytes_at(void* buf, aint off) { return static_cast<char*>(buf) + off; }

// The process's neighbours, and for each receive block the send block it gets (-1: none, an
// MPI_PROC_NULL neighbour). A grid's block from the neighbour below is what that neighbour sent
// up (MPI-4.1 §9.6): on one process, send block 2d+1 into receive block 2d and 2d into 2d+1. In a
// graph the process receives from itself, edge by edge, what it sends, in order (D45).
struct neighbourhood {
  int indegree = 0, outdegree = 0;
  std::vector<int> from;
};

status neighbours_of(comm_object& comm, neighbourhood& nb) {
  std::vector<int> sources, destinations;
  if (status st = topology_neighbors(comm, sources, destinations); !st.is_ok()) return st;
  nb.indegree = static_cast<int>(sources.size());
  nb.outdegree = static_cast<int>(destinations.size());
  nb.from.assign(sources.size(), -1);
  int topo = MPI_UNDEFINED;
  if (status st = api::topo_test(comm, topo); !st.is_ok()) return st;
  if (topo == MPI_CART) {
    for (int i = 0; i < nb.indegree; ++i)
      if (sources[i] != MPI_PROC_NULL) nb.from[i] = i ^ 1;
    return status::ok();
  }
  std::vector<int> outs;
  for (int j = 0; j < nb.outdegree; ++j)
    if (destinations[j] != MPI_PROC_NULL) outs.push_back(j);
  std::size_t k = 0;
  for (int i = 0; i < nb.indegree; ++i)
    if (sources[i] != MPI_PROC_NULL) {
      if (k == outs.size()) break;
      nb.from[i] = outs[k++];
    }
  const std::size_t ins = static_cast<std::size_t>(
      std::count_if(sources.begin(), sources.end(), [](int r) { return r != MPI_PROC_NULL; }));
  if (ins != outs.size())
    return fail(MPI_ERR_TOPOLOGY, "the process has %zu edges from itself and %zu to itself: each "
                "message it sends itself must have its receive", ins, outs.size());
  return status::ok();
}

status check_not_in_place(const void* sendbuf) {
  return sendbuf == gen::in_place
             ? fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in a neighbourhood collective")
             : status::ok();
}

}  // namespace

// What MPI_Alltoallw and the neighbourhood collectives move: every argument checked (counts,
// datatypes, the topology), nothing moved yet. The blocking routines make the moves at once; the
// persistent ones check at _init and make them at each MPI_Start (D48).
namespace {

// On one process: the block at sdispls[0] (bytes) to rdispls[0], each with its own datatype.
template <typename C, typename D>
status alltoallw_moves(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                       void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                       comm_object& comm, std::vector<block_move>& moves) {
  const int n = comm.size;
  if (status st = check_v(n, recvcounts, "recvcounts", rdispls, "rdispls"); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  type_object* rtype = nullptr;
  for (int i = 0; i < n; ++i)
    if (status st = type_at(recvtypes, i, "recvtypes", rtype); !st.is_ok()) return st;
  if (sendbuf == gen::in_place) return status::ok();  // the process's block stays where it is
  if (status st = check_v(n, sendcounts, "sendcounts", sdispls, "sdispls"); !st.is_ok()) return st;
  type_object* stype = nullptr;
  for (int i = 0; i < n; ++i)
    if (status st = type_at(sendtypes, i, "sendtypes", stype); !st.is_ok()) return st;
  type_object *s0 = nullptr, *r0 = nullptr;
  (void)type_at(sendtypes, comm.rank, "sendtypes", s0);
  (void)type_at(recvtypes, comm.rank, "recvtypes", r0);
  const int me = comm.rank;
  moves.push_back({bytes_at(sendbuf, sdispls[me]), sendcounts[me], s0, bytes_at(recvbuf, rdispls[me]),
                   recvcounts[me], r0});
  return status::ok();
}

status neighbor_allgather_moves(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                                std::int64_t recvcount, type_object& recvtype, comm_object& comm,
                                std::vector<block_move>& moves) {
  if (status st = check_not_in_place(sendbuf); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  if (status st = check_elements(sendcount, sendtype); !st.is_ok()) return st;
  if (status st = check_elements(recvcount, recvtype); !st.is_ok()) return st;
  neighbourhood nb;
  if (status st = neighbours_of(comm, nb); !st.is_ok()) return st;
  for (int i = 0; i < nb.indegree; ++i)
    if (nb.from[i] >= 0)
      moves.push_back({sendbuf, sendcount, &sendtype,
                       at(recvbuf, i * recvcount, recvtype), recvcount, &recvtype});
  return status::ok();
}

template <typename C, typename D>
status neighbor_allgatherv_moves(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                                 const C* recvcounts, const D* displs, type_object& recvtype,
                                 comm_object& comm, std::vector<block_move>& moves) {
  if (status st = check_not_in_place(sendbuf); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  if (status st = check_elements(sendcount, sendtype); !st.is_ok()) return st;
  if (status st = check_elements(0, recvtype); !st.is_ok()) return st;
  neighbourhood nb;
  if (status st = neighbours_of(comm, nb); !st.is_ok()) return st;
  if (status st = check_counts("recvcounts", nb.indegree, recvcounts); !st.is_ok()) return st;
  if (nb.indegree > 0 && displs == nullptr) return fail(MPI_ERR_ARG, "displs is NULL");
  for (int i = 0; i < nb.indegree; ++i)
    if (nb.from[i] >= 0)
      moves.push_back({sendbuf, sendcount, &sendtype, at(recvbuf, displs[i], recvtype), recvcounts[i], &recvtype});
  return status::ok();
}

status neighbor_alltoall_moves(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                               std::int64_t recvcount, type_object& recvtype, comm_object& comm,
                               std::vector<block_move>& moves) {
  if (status st = check_not_in_place(sendbuf); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  if (status st = check_elements(sendcount, sendtype); !st.is_ok()) return st;
  if (status st = check_elements(recvcount, recvtype); !st.is_ok()) return st;
  neighbourhood nb;
  if (status st = neighbours_of(comm, nb); !st.is_ok()) return st;
  for (int i = 0; i < nb.indegree; ++i)
    if (const int j = nb.from[i]; j >= 0)
      moves.push_back({at(sendbuf, j * sendcount, sendtype), sendcount, &sendtype,
                       at(recvbuf, i * recvcount, recvtype), recvcount, &recvtype});
  return status::ok();
}

template <typename C, typename D>
status neighbor_alltoallv_moves(const void* sendbuf, const C* sendcounts, const D* sdispls,
                                type_object& sendtype, void* recvbuf, const C* recvcounts,
                                const D* rdispls, type_object& recvtype, comm_object& comm,
                                std::vector<block_move>& moves) {
  if (status st = check_not_in_place(sendbuf); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  neighbourhood nb;
  if (status st = neighbours_of(comm, nb); !st.is_ok()) return st;
  if (status st = check_counts("sendcounts", nb.outdegree, sendcounts); !st.is_ok()) return st;
  if (status st = check_counts("recvcounts", nb.indegree, recvcounts); !st.is_ok()) return st;
  if ((nb.outdegree > 0 && sdispls == nullptr) || (nb.indegree > 0 && rdispls == nullptr))
    return fail(MPI_ERR_ARG, "sdispls or rdispls is NULL");
  if (status st = check_elements(0, sendtype); !st.is_ok()) return st;
  if (status st = check_elements(0, recvtype); !st.is_ok()) return st;
  for (int i = 0; i < nb.indegree; ++i)
    if (const int j = nb.from[i]; j >= 0)
      moves.push_back({at(sendbuf, sdispls[j], sendtype), sendcounts[j], &sendtype,
                       at(recvbuf, rdispls[i], recvtype), recvcounts[i], &recvtype});
  return status::ok();
}

template <typename C>
status neighbor_alltoallw_moves(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                                handle_array sendtypes, void* recvbuf, const C* recvcounts,
                                const aint* rdispls, handle_array recvtypes, comm_object& comm,
                                std::vector<block_move>& moves) {
  if (status st = check_not_in_place(sendbuf); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  neighbourhood nb;
  if (status st = neighbours_of(comm, nb); !st.is_ok()) return st;
  if (status st = check_counts("sendcounts", nb.outdegree, sendcounts); !st.is_ok()) return st;
  if (status st = check_counts("recvcounts", nb.indegree, recvcounts); !st.is_ok()) return st;
  if ((nb.outdegree > 0 && sdispls == nullptr) || (nb.indegree > 0 && rdispls == nullptr))
    return fail(MPI_ERR_ARG, "sdispls or rdispls is NULL");
  std::vector<type_object*> st_(nb.outdegree), rt_(nb.indegree);
  for (int j = 0; j < nb.outdegree; ++j)
    if (status st = type_at(sendtypes, j, "sendtypes", st_[j]); !st.is_ok()) return st;
  for (int i = 0; i < nb.indegree; ++i)
    if (status st = type_at(recvtypes, i, "recvtypes", rt_[i]); !st.is_ok()) return st;
  for (int i = 0; i < nb.indegree; ++i)
    if (const int j = nb.from[i]; j >= 0)
      moves.push_back({bytes_at(sendbuf, sdispls[j]), sendcounts[j], st_[j],
                       bytes_at(recvbuf, rdispls[i]), recvcounts[i], rt_[i]});
  return status::ok();
}

// Builds the moves, then makes them. sendbuf and recvbuf, the buffers the blocks are displaced
// from, are no NULL with a block's data to carry (D149; MPI_BOTTOM with absolute addresses is).
status check_move_buffers(const void* sendbuf, const void* recvbuf, const std::vector<block_move>& moves) {
  for (const block_move& m : moves) {
    if (status st = check_buffer(sendbuf, m.scount, *m.stype, "sendbuf"); !st.is_ok()) return st;
    if (status st = check_buffer(recvbuf, m.rcount, *m.rtype, "recvbuf"); !st.is_ok()) return st;
  }
  return status::ok();
}

template <class Build>
status moved(const void* sendbuf, const void* recvbuf, Build build) {
  std::vector<block_move> moves;
  if (status st = build(moves); !st.is_ok()) return st;
  if (status st = check_move_buffers(sendbuf, recvbuf, moves); !st.is_ok()) return st;
  return t_checks_only ? status::ok() : make_moves(moves);
}

}  // namespace

template <typename C, typename D>
status alltoallw(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                 void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                 comm_object& comm) {
  return moved(sendbuf, recvbuf, [&](std::vector<block_move>& m) {
    return alltoallw_moves(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                           comm, m);
  });
}

status neighbor_allgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                          std::int64_t recvcount, type_object& recvtype, comm_object& comm) {
  return moved(sendbuf, recvbuf, [&](std::vector<block_move>& m) {
    return neighbor_allgather_moves(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, m);
  });
}

template <typename C, typename D>
status neighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                           const C* recvcounts, const D* displs, type_object& recvtype,
                           comm_object& comm) {
  return moved(sendbuf, recvbuf, [&](std::vector<block_move>& m) {
    return neighbor_allgatherv_moves(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                     comm, m);
  });
}

status neighbor_alltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                         std::int64_t recvcount, type_object& recvtype, comm_object& comm) {
  return moved(sendbuf, recvbuf, [&](std::vector<block_move>& m) {
    return neighbor_alltoall_moves(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, m);
  });
}

template <typename C, typename D>
status neighbor_alltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls,
                          type_object& sendtype, void* recvbuf, const C* recvcounts,
                          const D* rdispls, type_object& recvtype, comm_object& comm) {
  return moved(sendbuf, recvbuf, [&](std::vector<block_move>& m) {
    return neighbor_alltoallv_moves(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                    recvtype, comm, m);
  });
}

template <typename C>
status neighbor_alltoallw(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                          handle_array sendtypes, void* recvbuf, const C* recvcounts,
                          const aint* rdispls, handle_array recvtypes, comm_object& comm) {
  return moved(sendbuf, recvbuf, [&](std::vector<block_move>& m) {
    return neighbor_alltoallw_moves(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                    recvtypes, comm, m);
  });
}

namespace {
// A reduction's count, operation (defined on the datatype: MPI_ERR_OP first, as on both hosts),
// committed datatype, and receive buffer (no MPI_IN_PLACE, not the send buffer).
status check_reduction(const void* sendbuf, const void* recvbuf, std::int64_t count, const type_object& t,
                       handle_t op) {
  if (status st = check_count(count, t); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  if (status st = check_elements(count, t); !st.is_ok()) return st;
  if (status st = check_recv_buffer(recvbuf); !st.is_ok()) return st;
  return check_not_aliased(sendbuf, recvbuf, count);
}
}  // namespace

status scan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_reduction(sendbuf, recvbuf, count, t, op); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

// Rank 0's recvbuf is undefined after MPI_Exscan (MPI-4.1 §7.11.2): it is left as it is.
status exscan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, comm_object&) {
  return check_reduction(sendbuf, recvbuf, count, t, op);
}

status reduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, type_object& t,
                            handle_t op, comm_object&) {  // the process's share: recvcount elements
  if (status st = check_reduction(sendbuf, recvbuf, recvcount, t, op); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, recvcount, t);
  return status::ok();
}

template <typename C>
status reduce_scatter(const void* sendbuf, void* recvbuf, const C* recvcounts, type_object& t,
                      handle_t op, comm_object& comm) {
  if (status st = check_counts("recvcounts", comm.size, recvcounts); !st.is_ok()) return st;
  if (sendbuf != gen::in_place)
    if (status st = check_buffer(sendbuf, recvcounts[0], t, "sendbuf"); !st.is_ok()) return st;
  if (status st = check_buffer(recvbuf, recvcounts[0], t, "recvbuf"); !st.is_ok()) return st;
  return reduce_scatter_block(sendbuf, recvbuf, recvcounts[0], t, op, comm);
}

status reduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, int root, comm_object&) {
  if (status st = check_reduction(sendbuf, recvbuf, count, t, op); !st.is_ok()) return st;
  if (status st = check_root(root); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

status allreduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_reduction(sendbuf, recvbuf, count, t, op); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

// ---- nonblocking collectives (MPI-4.1 §7.12): the blocking one, done at the call; the request
// is complete at once ----

namespace {
// (The request comes first: with_new_request, D65.)
template <typename Run>
status started(Run&& run, handle_t& request) {
  return with_new_request(request, "the collective", [&](handle_t) { return run(); });
}
}  // namespace

status ibarrier(comm_object& comm, handle_t& request) { return started([&] { return barrier(comm); }, request); }

status ibcast(void* buffer, std::int64_t count, type_object& t, int root, comm_object& comm, handle_t& request) {
  return started([&] { return bcast(buffer, count, t, root, comm); }, request);
}

status ireduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, int root,
               comm_object& comm, handle_t& request) {
  return started([&] { return reduce(sendbuf, recvbuf, count, t, op, root, comm); }, request);
}

status iallreduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op,
                  comm_object& comm, handle_t& request) {
  return started([&] { return allreduce(sendbuf, recvbuf, count, t, op, comm); }, request);
}

status igather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
               type_object& recvtype, int root, comm_object& comm, handle_t& request) {
  return started([&] {
    return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }, request);
}

template <typename C, typename D>
status igatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                const C* recvcounts, const D* displs, type_object& recvtype, int root,
                comm_object& comm, handle_t& request) {
  return started([&] {
    return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  }, request);
}

status iscatter(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                type_object& recvtype, int root, comm_object& comm, handle_t& request) {
  return started([&] {
    return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }, request);
}

template <typename C, typename D>
status iscatterv(const void* sendbuf, const C* sendcounts, const D* displs, type_object& sendtype,
                 void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                 handle_t& request) {
  return started([&] {
    return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }, request);
}

status iallgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                  type_object& recvtype, comm_object& comm, handle_t& request) {
  return started([&] {
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }, request);
}

template <typename C, typename D>
status iallgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                   const C* recvcounts, const D* displs, type_object& recvtype, comm_object& comm,
                   handle_t& request) {
  return started([&] {
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  }, request);
}

status ialltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                 type_object& recvtype, comm_object& comm, handle_t& request) {
  return started([&] {
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }, request);
}

template <typename C, typename D>
status ialltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls, type_object& sendtype,
                  void* recvbuf, const C* recvcounts, const D* rdispls, type_object& recvtype,
                  comm_object& comm, handle_t& request) {
  return started([&] {
    return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  }, request);
}

template <typename C, typename D>
status ialltoallw(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                  void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                  comm_object& comm, handle_t& request) {
  return started([&] {
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  }, request);
}

status ineighbor_allgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                           std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t& request) {
  return started([&] {
    return neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }, request);
}

template <typename C, typename D>
status ineighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                            const C* recvcounts, const D* displs, type_object& recvtype,
                            comm_object& comm, handle_t& request) {
  return started([&] {
    return neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  }, request);
}

status ineighbor_alltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                          std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t& request) {
  return started([&] {
    return neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }, request);
}

template <typename C, typename D>
status ineighbor_alltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls,
                           type_object& sendtype, void* recvbuf, const C* recvcounts, const D* rdispls,
                           type_object& recvtype, comm_object& comm, handle_t& request) {
  return started([&] {
    return neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                              comm);
  }, request);
}

template <typename C>
status ineighbor_alltoallw(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                           handle_array sendtypes, void* recvbuf, const C* recvcounts, const aint* rdispls,
                           handle_array recvtypes, comm_object& comm, handle_t& request) {
  return started([&] {
    return neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm);
  }, request);
}

status iscan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, comm_object& comm,
             handle_t& request) {
  return started([&] { return scan(sendbuf, recvbuf, count, t, op, comm); }, request);
}

status iexscan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op,
               comm_object& comm, handle_t& request) {
  return started([&] { return exscan(sendbuf, recvbuf, count, t, op, comm); }, request);
}

template <typename C>
status ireduce_scatter(const void* sendbuf, void* recvbuf, const C* recvcounts, type_object& t,
                       handle_t op, comm_object& comm, handle_t& request) {
  return started([&] { return reduce_scatter(sendbuf, recvbuf, recvcounts, t, op, comm); }, request);
}

status ireduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, type_object& t,
                             handle_t op, comm_object& comm, handle_t& request) {
  return started([&] { return reduce_scatter_block(sendbuf, recvbuf, recvcount, t, op, comm); }, request);
}

// ---- persistent collectives (MPI-4.1 §7.13): the arguments are checked at the _init call, and
// MPI_Start runs the blocking collective with them. The communicator and datatypes are found again
// by handle at each start: one freed in between fails the start (D44). Array arguments (counts,
// displacements, datatype handles) are copied at the _init: the standard forbids changing them, and
// the binding may have passed converted copies (a _c form's narrowed counts) that do not outlive
// the call (D48). ----

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

// Runs `blocking`, the blocking routine called with an `_init`'s arguments, for its checks only
// (t_checks_only): what the `_init` refuses is exactly what the blocking routine refuses.
template <class Blocking>
status checks_only(Blocking&& blocking) {
  struct restore {
    bool was;
    ~restore() { t_checks_only = was; }
  } r{t_checks_only};
  t_checks_only = true;
  return blocking();
}

// A persistent collective's request: MPI_Start calls `run`.
status persistent_request(handle_t info, std::function<status()> run, handle_t& request) {
  if (status st = check_info(info); !st.is_ok()) return st;
  p2p::request_extra e{p2p::request_extra::kind::collective};
  e.run = std::move(run);
  return p2p::new_persistent(std::move(e), request);
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

template <class T>
std::vector<T> copy_of(const T* a, int n) {
  return a == nullptr || n <= 0 ? std::vector<T>{} : std::vector<T>(a, a + n);
}

std::vector<handle_t> handles_of(handle_array a, int n) {
  std::vector<handle_t> out;
  if (a.base != nullptr)
    for (int i = 0; i < n; ++i) out.push_back(a[i]);
  return out;
}

handle_array as_array(const std::vector<handle_t>& v) {
  return handle_array{v.empty() ? nullptr : v.data(),
                      [](const void* b, int i) { return static_cast<const handle_t*>(b)[i]; }};
}

status degrees(comm_object& comm, int& in, int& out) {
  neighbourhood nb;
  if (status st = neighbours_of(comm, nb); !st.is_ok()) return st;
  in = nb.indegree;
  out = nb.outdegree;
  return status::ok();
}

// A persistent collective on its communicator alone (the datatypes come as handles).
status persistent_on(handle_t comm, handle_t info, std::function<status(comm_object&)> run,
                     handle_t& request) {
  return persistent_request(info, [comm, run]() -> status {
    comm_object* c = rt().comms.lookup(comm);
    if (c == nullptr) return fail(MPI_ERR_COMM, "the persistent collective's communicator was freed");
    return run(*c);
  }, request);
}
}  // namespace

status barrier_init(comm_object& comm, handle_t info, handle_t& request) {
  return persistent_request(info, [h = comm.handle]() -> status {
    comm_object* c = rt().comms.lookup(h);
    if (c == nullptr) return fail(MPI_ERR_COMM, "the persistent collective's communicator was freed");
    return barrier(*c);
  }, request);
}

status bcast_init(void* buffer, std::int64_t count, type_object& t, int root, comm_object& comm, handle_t info,
                  handle_t& request) {
  if (status st = bcast(buffer, count, t, root, comm); !st.is_ok()) return st;  // moves nothing
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) { return bcast(buffer, count, tt, root, c); },
                    request);
}

status reduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op, int root,
                   comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return reduce(sendbuf, recvbuf, count, t, op, root, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return reduce(sendbuf, recvbuf, count, tt, op, root, c);
                    }, request);
}

status allreduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op,
                      comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return allreduce(sendbuf, recvbuf, count, t, op, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return allreduce(sendbuf, recvbuf, count, tt, op, c);
                    }, request);
}

status gather_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                   type_object& recvtype, int root, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return gather(sendbuf, sendcount, s, recvbuf, recvcount, r, root, c);
                    }, request);
}

template <typename C, typename D>
status gatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                    const C* recvcounts, const D* displs, type_object& recvtype, int root,
                    comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=, rc = copy_of(recvcounts, comm.size), d = copy_of(displs, comm.size)](
                        comm_object& c, type_object& s, type_object& r) {
                      return gatherv(sendbuf, sendcount, s, recvbuf, rc.data(), d.data(), r, root, c);
                    }, request);
}

status scatter_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                    type_object& recvtype, int root, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return scatter(sendbuf, sendcount, s, recvbuf, recvcount, r, root, c);
                    }, request);
}

template <typename C, typename D>
status scatterv_init(const void* sendbuf, const C* sendcounts, const D* displs, type_object& sendtype,
                     void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                     handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=, sc = copy_of(sendcounts, comm.size), d = copy_of(displs, comm.size)](
                        comm_object& c, type_object& s, type_object& r) {
                      return scatterv(sendbuf, sc.data(), d.data(), s, recvbuf, recvcount, r, root, c);
                    }, request);
}

status allgather_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                      type_object& recvtype, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return allgather(sendbuf, sendcount, s, recvbuf, recvcount, r, c);
                    }, request);
}

template <typename C, typename D>
status allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                       const C* recvcounts, const D* displs, type_object& recvtype, comm_object& comm,
                       handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=, rc = copy_of(recvcounts, comm.size), d = copy_of(displs, comm.size)](
                        comm_object& c, type_object& s, type_object& r) {
                      return allgatherv(sendbuf, sendcount, s, recvbuf, rc.data(), d.data(), r, c);
                    }, request);
}

status alltoall_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                     type_object& recvtype, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return alltoall(sendbuf, sendcount, s, recvbuf, recvcount, r, c);
                    }, request);
}

template <typename C, typename D>
status alltoallv_init(const void* sendbuf, const C* sendcounts, const D* sdispls, type_object& sendtype,
                      void* recvbuf, const C* recvcounts, const D* rdispls, type_object& recvtype,
                      comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
      });
      !st.is_ok())
    return st;
  const int ns = sendbuf == gen::in_place ? 0 : comm.size;  // in place: the send arrays are ignored
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=, sc = copy_of(sendcounts, ns), sd = copy_of(sdispls, ns), rc = copy_of(recvcounts, comm.size),
                     rd = copy_of(rdispls, comm.size)](comm_object& c, type_object& s, type_object& r) {
                      return alltoallv(sendbuf, sc.data(), sd.data(), s, recvbuf, rc.data(), rd.data(), r, c);
                    }, request);
}

status scan_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op,
                 comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] { return scan(sendbuf, recvbuf, count, t, op, comm); }); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return scan(sendbuf, recvbuf, count, tt, op, c);
                    }, request);
}

status exscan_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& t, handle_t op,
                   comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] { return exscan(sendbuf, recvbuf, count, t, op, comm); }); !st.is_ok()) return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return exscan(sendbuf, recvbuf, count, tt, op, c);
                    }, request);
}

template <typename C>
status reduce_scatter_init(const void* sendbuf, void* recvbuf, const C* recvcounts, type_object& t,
                           handle_t op, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return reduce_scatter(sendbuf, recvbuf, recvcounts, t, op, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=, rc = copy_of(recvcounts, comm.size)](comm_object& c, type_object& tt, type_object&) {
                      return reduce_scatter(sendbuf, recvbuf, rc.data(), tt, op, c);
                    }, request);
}

status reduce_scatter_block_init(const void* sendbuf, void* recvbuf, std::int64_t recvcount, type_object& t,
                                 handle_t op, comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return reduce_scatter_block(sendbuf, recvbuf, recvcount, t, op, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, t.handle, t.handle}, info,
                    [=](comm_object& c, type_object& tt, type_object&) {
                      return reduce_scatter_block(sendbuf, recvbuf, recvcount, tt, op, c);
                    }, request);
}

// The persistent forms of MPI_Alltoallw and of the neighbourhood collectives (D48): `_init` checks
// every argument as the blocking routine does (the topology too) and keeps copies of the arrays
// (counts, displacements, datatype handles: the binding may have passed converted copies that do
// not outlive the call); each MPI_Start finds the communicator and datatypes again by handle and
// runs the blocking routine.

template <typename C, typename D>
status alltoallw_init(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                      void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                      comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
      });
      !st.is_ok())
    return st;
  const int n = comm.size, ns = sendbuf == gen::in_place ? 0 : n;  // in place: no send arrays
  return persistent_on(comm.handle, info,
                       [=, sc = copy_of(sendcounts, ns), sd = copy_of(sdispls, ns), stypes = handles_of(sendtypes, ns),
                        rc = copy_of(recvcounts, n), rd = copy_of(rdispls, n),
                        rtypes = handles_of(recvtypes, n)](comm_object& c) {
                         return alltoallw(sendbuf, sc.data(), sd.data(), as_array(stypes), recvbuf, rc.data(),
                                          rd.data(), as_array(rtypes), c);
                       }, request);
}

status neighbor_allgather_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                               std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t info,
                               handle_t& request) {
  if (status st = checks_only([&] {
        return neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return neighbor_allgather(sendbuf, sendcount, s, recvbuf, recvcount, r, c);
                    }, request);
}

template <typename C, typename D>
status neighbor_allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                                const C* recvcounts, const D* displs, type_object& recvtype,
                                comm_object& comm, handle_t info, handle_t& request) {
  if (status st = checks_only([&] {
        return neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
      });
      !st.is_ok())
    return st;
  int in = 0, out = 0;
  (void)degrees(comm, in, out);
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=, rc = copy_of(recvcounts, in), d = copy_of(displs, in)](comm_object& c, type_object& s,
                                                                                  type_object& r) {
                      return neighbor_allgatherv(sendbuf, sendcount, s, recvbuf, rc.data(), d.data(), r, c);
                    }, request);
}

status neighbor_alltoall_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                              std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t info,
                              handle_t& request) {
  if (status st = checks_only([&] {
        return neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      });
      !st.is_ok())
    return st;
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=](comm_object& c, type_object& s, type_object& r) {
                      return neighbor_alltoall(sendbuf, sendcount, s, recvbuf, recvcount, r, c);
                    }, request);
}

template <typename C, typename D>
status neighbor_alltoallv_init(const void* sendbuf, const C* sendcounts, const D* sdispls,
                               type_object& sendtype, void* recvbuf, const C* recvcounts,
                               const D* rdispls, type_object& recvtype, comm_object& comm, handle_t info,
                               handle_t& request) {
  if (status st = checks_only([&] {
        return neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                  comm);
      });
      !st.is_ok())
    return st;
  int in = 0, out = 0;
  (void)degrees(comm, in, out);
  return persistent({comm.handle, sendtype.handle, recvtype.handle}, info,
                    [=, sc = copy_of(sendcounts, out), sd = copy_of(sdispls, out), rc = copy_of(recvcounts, in),
                     rd = copy_of(rdispls, in)](comm_object& c, type_object& s, type_object& r) {
                      return neighbor_alltoallv(sendbuf, sc.data(), sd.data(), s, recvbuf, rc.data(), rd.data(),
                                                r, c);
                    }, request);
}

template <typename C>
status neighbor_alltoallw_init(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                               handle_array sendtypes, void* recvbuf, const C* recvcounts,
                               const aint* rdispls, handle_array recvtypes, comm_object& comm, handle_t info,
                               handle_t& request) {
  if (status st = checks_only([&] {
        return neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                  comm);
      });
      !st.is_ok())
    return st;
  int in = 0, out = 0;
  (void)degrees(comm, in, out);
  return persistent_on(comm.handle, info,
                       [=, sc = copy_of(sendcounts, out), sd = copy_of(sdispls, out),
                        stypes = handles_of(sendtypes, out), rc = copy_of(recvcounts, in),
                        rd = copy_of(rdispls, in), rtypes = handles_of(recvtypes, in)](comm_object& c) {
                         return neighbor_alltoallw(sendbuf, sc.data(), sd.data(), as_array(stypes), recvbuf,
                                                   rc.data(), rd.data(), as_array(rtypes), c);
                       }, request);
}


// The v- and w-collectives for their two kinds of arrays: int counts and displacements (the
// routines), MPI_Count counts and MPI_Aint displacements (their large-count forms, D115).
template status alltoallw(const void* sendbuf, const int* sendcounts, const int* sdispls, handle_array sendtypes,
                 void* recvbuf, const int* recvcounts, const int* rdispls, handle_array recvtypes,
                 comm_object& comm);
template status alltoallw(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls, handle_array sendtypes,
                 void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls, handle_array recvtypes,
                 comm_object& comm);
template status neighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                           const int* recvcounts, const int* displs, type_object& recvtype,
                           comm_object& comm);
template status neighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                           const std::int64_t* recvcounts, const aint* displs, type_object& recvtype,
                           comm_object& comm);
template status neighbor_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                          type_object& sendtype, void* recvbuf, const int* recvcounts,
                          const int* rdispls, type_object& recvtype, comm_object& comm);
template status neighbor_alltoallv(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls,
                          type_object& sendtype, void* recvbuf, const std::int64_t* recvcounts,
                          const aint* rdispls, type_object& recvtype, comm_object& comm);
template status neighbor_alltoallw(const void* sendbuf, const int* sendcounts, const aint* sdispls,
                          handle_array sendtypes, void* recvbuf, const int* recvcounts,
                          const aint* rdispls, handle_array recvtypes, comm_object& comm);
template status neighbor_alltoallw(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls,
                          handle_array sendtypes, void* recvbuf, const std::int64_t* recvcounts,
                          const aint* rdispls, handle_array recvtypes, comm_object& comm);
template status gatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
               const int* recvcounts, const int* displs, type_object& recvtype, int root, comm_object& comm);
template status gatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
               const std::int64_t* recvcounts, const aint* displs, type_object& recvtype, int root, comm_object& comm);
template status scatterv(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm);
template status scatterv(const void* sendbuf, const std::int64_t* sendcounts, const aint* displs, type_object& sendtype,
                void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm);
template status allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                  const int* recvcounts, const int* displs, type_object& recvtype, comm_object& comm);
template status allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                  const std::int64_t* recvcounts, const aint* displs, type_object& recvtype, comm_object& comm);
template status alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                 void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype,
                 comm_object& comm);
template status alltoallv(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls, type_object& sendtype,
                 void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls, type_object& recvtype,
                 comm_object& comm);
template status reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& datatype,
                      handle_t op, comm_object& comm);
template status reduce_scatter(const void* sendbuf, void* recvbuf, const std::int64_t* recvcounts, type_object& datatype,
                      handle_t op, comm_object& comm);
template status igatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                const int* recvcounts, const int* displs, type_object& recvtype, int root,
                comm_object& comm, handle_t& request);
template status igatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                const std::int64_t* recvcounts, const aint* displs, type_object& recvtype, int root,
                comm_object& comm, handle_t& request);
template status iscatterv(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                 void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                 handle_t& request);
template status iscatterv(const void* sendbuf, const std::int64_t* sendcounts, const aint* displs, type_object& sendtype,
                 void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                 handle_t& request);
template status iallgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                   const int* recvcounts, const int* displs, type_object& recvtype, comm_object& comm,
                   handle_t& request);
template status iallgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                   const std::int64_t* recvcounts, const aint* displs, type_object& recvtype, comm_object& comm,
                   handle_t& request);
template status ialltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                  void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype,
                  comm_object& comm, handle_t& request);
template status ialltoallv(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls, type_object& sendtype,
                  void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls, type_object& recvtype,
                  comm_object& comm, handle_t& request);
template status ialltoallw(const void* sendbuf, const int* sendcounts, const int* sdispls, handle_array sendtypes,
                  void* recvbuf, const int* recvcounts, const int* rdispls, handle_array recvtypes,
                  comm_object& comm, handle_t& request);
template status ialltoallw(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls, handle_array sendtypes,
                  void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls, handle_array recvtypes,
                  comm_object& comm, handle_t& request);
template status ineighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                            const int* recvcounts, const int* displs, type_object& recvtype,
                            comm_object& comm, handle_t& request);
template status ineighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                            const std::int64_t* recvcounts, const aint* displs, type_object& recvtype,
                            comm_object& comm, handle_t& request);
template status ineighbor_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                           type_object& sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                           type_object& recvtype, comm_object& comm, handle_t& request);
template status ineighbor_alltoallv(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls,
                           type_object& sendtype, void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls,
                           type_object& recvtype, comm_object& comm, handle_t& request);
template status ineighbor_alltoallw(const void* sendbuf, const int* sendcounts, const aint* sdispls,
                           handle_array sendtypes, void* recvbuf, const int* recvcounts, const aint* rdispls,
                           handle_array recvtypes, comm_object& comm, handle_t& request);
template status ineighbor_alltoallw(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls,
                           handle_array sendtypes, void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls,
                           handle_array recvtypes, comm_object& comm, handle_t& request);
template status ireduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& datatype,
                       handle_t op, comm_object& comm, handle_t& request);
template status ireduce_scatter(const void* sendbuf, void* recvbuf, const std::int64_t* recvcounts, type_object& datatype,
                       handle_t op, comm_object& comm, handle_t& request);
template status gatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                    const int* recvcounts, const int* displs, type_object& recvtype, int root,
                    comm_object& comm, handle_t info, handle_t& request);
template status gatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                    const std::int64_t* recvcounts, const aint* displs, type_object& recvtype, int root,
                    comm_object& comm, handle_t info, handle_t& request);
template status scatterv_init(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                     void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                     handle_t info, handle_t& request);
template status scatterv_init(const void* sendbuf, const std::int64_t* sendcounts, const aint* displs, type_object& sendtype,
                     void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                     handle_t info, handle_t& request);
template status allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                       const int* recvcounts, const int* displs, type_object& recvtype, comm_object& comm,
                       handle_t info, handle_t& request);
template status allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                       const std::int64_t* recvcounts, const aint* displs, type_object& recvtype, comm_object& comm,
                       handle_t info, handle_t& request);
template status alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                      void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype,
                      comm_object& comm, handle_t info, handle_t& request);
template status alltoallv_init(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls, type_object& sendtype,
                      void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls, type_object& recvtype,
                      comm_object& comm, handle_t info, handle_t& request);
template status alltoallw_init(const void* sendbuf, const int* sendcounts, const int* sdispls, handle_array sendtypes,
                      void* recvbuf, const int* recvcounts, const int* rdispls, handle_array recvtypes,
                      comm_object& comm, handle_t info, handle_t& request);
template status alltoallw_init(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls, handle_array sendtypes,
                      void* recvbuf, const std::int64_t* recvcounts, const aint* rdispls, handle_array recvtypes,
                      comm_object& comm, handle_t info, handle_t& request);
template status neighbor_allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                                const int* recvcounts, const int* displs, type_object& recvtype,
                                comm_object& comm, handle_t info, handle_t& request);
template status neighbor_allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                                const std::int64_t* recvcounts, const aint* displs, type_object& recvtype,
                                comm_object& comm, handle_t info, handle_t& request);
template status neighbor_alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls,
                               type_object& sendtype, void* recvbuf, const int* recvcounts,
                               const int* rdispls, type_object& recvtype, comm_object& comm, handle_t info,
                               handle_t& request);
template status neighbor_alltoallv_init(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls,
                               type_object& sendtype, void* recvbuf, const std::int64_t* recvcounts,
                               const aint* rdispls, type_object& recvtype, comm_object& comm, handle_t info,
                               handle_t& request);
template status neighbor_alltoallw_init(const void* sendbuf, const int* sendcounts, const aint* sdispls,
                               handle_array sendtypes, void* recvbuf, const int* recvcounts,
                               const aint* rdispls, handle_array recvtypes, comm_object& comm, handle_t info,
                               handle_t& request);
template status neighbor_alltoallw_init(const void* sendbuf, const std::int64_t* sendcounts, const aint* sdispls,
                               handle_array sendtypes, void* recvbuf, const std::int64_t* recvcounts,
                               const aint* rdispls, handle_array recvtypes, comm_object& comm, handle_t info,
                               handle_t& request);
template status reduce_scatter_init(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& datatype,
                           handle_t op, comm_object& comm, handle_t info, handle_t& request);
template status reduce_scatter_init(const void* sendbuf, void* recvbuf, const std::int64_t* recvcounts, type_object& datatype,
                           handle_t op, comm_object& comm, handle_t info, handle_t& request);

}  // namespace api
}  // namespace mpiattr
