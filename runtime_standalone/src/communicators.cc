// Communicators and groups on the standalone runtime's one process.
#include <cstring>
#include <mutex>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

// A new communicator inherits its parent's error handler (MPI-4.1 §10.3).
status publish_comm(unpublished<comm_object>& c, const comm_object& parent, handle_t& out) {
  comm_object* o = c.obj;
  o->cold().errhandler.store(parent.cold().errhandler.load(std::memory_order_acquire), std::memory_order_relaxed);
  if (rt().comms.insert(o) == 0) return fail(MPI_ERR_INTERN, "too many communicators");
  report::object_made(object_kind::comm, o->handle);  // (MPIATTR_REPORT names where, D60)
  c.release();
  out = o->handle;
  return status::ok();
}

// A dup; with_info, the copy's hints are info's instead of comm's (MPI-4.1 §8.4.2).
status dup_comm(comm_object& comm, handle_t& newcomm, bool with_info = false, handle_t info = h::info_null) {
  unpublished<comm_object> fresh;
  try {
    if (status st = rt().life->comm_dup(comm, *fresh.obj); !st.is_ok()) return st;
    if (with_info) comm_hints_replace(*fresh.obj, info);
  } catch (...) {  // out of memory (D61): what was made goes, before any attribute is copied
    rt().life->comm_release(*fresh.obj);
    newcomm = h::comm_null;
    return from_exception("the duplicate's topology and hints");
  }
  dup_in_progress building(comm, *fresh.obj);
  if (status st = copy_all(comm, *fresh.obj); !st.is_ok()) {
    rt().life->comm_release(*fresh.obj);
    newcomm = h::comm_null;  // no half-built communicator (R4.5)
    return st;
  }
  status st = publish_comm(fresh, comm, newcomm);
  if (!st.is_ok()) {
    (void)delete_all(*fresh.obj);  // the copies made go, their delete callbacks run (D10)
    rt().life->comm_release(*fresh.obj);  // its topology and hints go with it
    newcomm = h::comm_null;
  }
  return st;
}


}  // namespace

status new_group(int size, handle_t& out) {
  if (size == 0) {
    out = h::group_empty;
    return status::ok();
  }
  auto* g = new group_object;
  g->size = size;
  return insert_new(rt().groups, g, out, "groups");
}

namespace api {

// ---- communicators ----

status comm_size(comm_object& comm, int& size) {
  size = comm.size;
  return status::ok();
}

status comm_rank(comm_object& comm, int& rank) {
  rank = comm.rank;
  return status::ok();
}

status comm_compare(comm_object& a, comm_object& b, int& result) {
  result = (&a == &b) ? MPI_IDENT : MPI_CONGRUENT;
  return status::ok();
}

status comm_test_inter(comm_object&, bool& flag) {
  flag = false;
  return status::ok();
}

status comm_group(comm_object& comm, handle_t& group) { return new_group(comm.size, group); }

status comm_dup(comm_object& comm, handle_t& newcomm) { return dup_comm(comm, newcomm); }

status comm_dup_with_info(comm_object& comm, handle_t info, handle_t& newcomm) {
  if (status st = check_info(info); !st.is_ok()) return st;
  return dup_comm(comm, newcomm, true, info);  // R6.4
}

// The nonblocking dups: the request first (out of memory for it after the dup would leave a
// communicator behind a failed call, D65), then the dup, whose copy callbacks run now, on this
// thread (R6.3); the request is already complete.
status idup(comm_object& comm, handle_t& newcomm, handle_t& request, bool with_info, handle_t info) {
  const handle_t r = completed_request();
  if (r == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  status st;
  try {
    st = dup_comm(comm, newcomm, with_info, info);
  } catch (...) {  // (before its first copy callback, D61)
    st = from_exception("the duplicate");
  }
  if (!st.is_ok()) {
    newcomm = h::comm_null;
    handle_t gone = r;
    (void)request_free(gone);
    return st;
  }
  request = r;
  return status::ok();
}

status comm_idup(comm_object& comm, handle_t& newcomm, handle_t& request) {
  return idup(comm, newcomm, request, false, h::info_null);
}

status comm_idup_with_info(comm_object& comm, handle_t info, handle_t& newcomm, handle_t& request) {
  if (status st = check_info(info); !st.is_ok()) return st;
  return idup(comm, newcomm, request, true, info);  // R6.4
}

status comm_split(comm_object& comm, int color, int, handle_t& newcomm) {
  if (color < 0 && color != MPI_UNDEFINED)
    return fail(MPI_ERR_ARG, "color %d is negative and not MPI_UNDEFINED", color);
  if (color == MPI_UNDEFINED) {
    newcomm = h::comm_null;
    return status::ok();
  }
  unpublished<comm_object> fresh;
  if (status st = rt().life->comm_derive(comm, true, *fresh.obj); !st.is_ok()) return st;
  return publish_comm(fresh, comm, newcomm);  // no attributes are copied (R6.1)
}

status comm_create(comm_object& comm, group_object& group, handle_t& newcomm) {
  if (group.size == 0) {
    newcomm = h::comm_null;
    return status::ok();
  }
  unpublished<comm_object> fresh;
  if (status st = rt().life->comm_derive(comm, true, *fresh.obj); !st.is_ok()) return st;
  return publish_comm(fresh, comm, newcomm);  // no attributes are copied (R6.1)
}

// MPI_Comm_split_type on one process (MPI-4.1 §7.4.2, D116). MPI_COMM_TYPE_SHARED: the process.
// MPI_COMM_TYPE_HW_UNGUIDED: a strict subset of the communicator, which one process has not:
// MPI_COMM_NULL. MPI_COMM_TYPE_HW_GUIDED and _RESOURCE_GUIDED: the process, for the resource the
// info names that this runtime knows ("mpi_hw_resource_type" "mpi_shared_memory", which every
// implementation knows; for _RESOURCE_GUIDED also "mpi_pset_name", a process set); MPI_COMM_NULL
// for MPI_INFO_NULL, no such key, or a value it does not know.
status comm_split_type(comm_object& comm, int split_type, int key, handle_t info, handle_t& newcomm) {
  if (status st = check_info(info); !st.is_ok()) return st;
  bool member = false;
  switch (split_type) {
    case MPI_UNDEFINED: break;
    case MPI_COMM_TYPE_SHARED: member = true; break;
    case MPI_COMM_TYPE_HW_UNGUIDED: break;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
      for (const auto& [k, v] : pairs_of(info))
        member = member || (k == "mpi_hw_resource_type" && v == "mpi_shared_memory") ||
                 (split_type == MPI_COMM_TYPE_RESOURCE_GUIDED && k == "mpi_pset_name" && known_pset(v.c_str()));
      break;
    default:
      return fail(MPI_ERR_ARG, "split_type %d is not MPI_UNDEFINED or an MPI_COMM_TYPE_* constant", split_type);
  }
  return comm_split(comm, member ? 0 : MPI_UNDEFINED, key, newcomm);
}

status comm_create_group(comm_object& comm, group_object& group, int tag, handle_t& newcomm) {
  if (tag < 0) return fail(MPI_ERR_TAG, "tag %d is negative", tag);
  return comm_create(comm, group, newcomm);
}

status comm_free(handle_t& comm) {
  return free_attr_object(rt().comms, comm, [](comm_object& c) { rt().life->comm_release(c); },
                          MPI_ERR_COMM, "communicator");
}

status comm_disconnect(handle_t& comm) { return comm_free(comm); }

// No process started this one through MPI_Comm_spawn (MPI-4.1 §12).
status comm_get_parent(handle_t& parent) {
  parent = h::comm_null;
  return status::ok();
}

status comm_set_name(comm_object& comm, const char* name) { return set_object_name(comm, name); }

status comm_get_name(comm_object* comm, char* name, int& resultlen) {
  return get_object_name(comm, "MPI_COMM_NULL", name, resultlen);
}

// ---- groups ----

status group_size(group_object& g, int& size) {
  size = g.size;
  return status::ok();
}

status group_rank(group_object& g, int& rank) {
  rank = g.size ? 0 : MPI_UNDEFINED;
  return status::ok();
}

status group_compare(group_object& a, group_object& b, int& result) {
  result = (a.size == b.size) ? MPI_IDENT : MPI_UNEQUAL;
  return status::ok();
}

static status check_ranks(group_object& g, int n, const int* ranks) {
  if (n < 0 || n > g.size) return fail(MPI_ERR_ARG, "n = %d is not between 0 and the group size %d", n, g.size);
  if (n > 0 && ranks == nullptr) return fail(MPI_ERR_ARG, "ranks is NULL");
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= g.size)
      return fail(MPI_ERR_RANK, "ranks[%d] = %d is not a rank of the group", i, ranks[i]);
  return status::ok();
}

status group_incl(group_object& g, int n, const int* ranks, handle_t& newgroup) {
  if (status st = check_ranks(g, n, ranks); !st.is_ok()) return st;
  return new_group(n, newgroup);
}

status group_excl(group_object& g, int n, const int* ranks, handle_t& newgroup) {
  if (status st = check_ranks(g, n, ranks); !st.is_ok()) return st;
  return new_group(g.size - n, newgroup);
}

status group_range_incl(group_object& g, int n, int (*ranges)[3], handle_t& newgroup) {
  if (n < 0) return fail(MPI_ERR_ARG, "n = %d is negative", n);
  if (n > 0 && ranges == nullptr) return fail(MPI_ERR_ARG, "ranges is NULL");
  int members = 0;
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return fail(MPI_ERR_ARG, "ranges[%d] has stride 0", i);
    if (first < 0 || first >= g.size || last < 0 || last >= g.size)
      return fail(MPI_ERR_RANK, "ranges[%d] = {%d, %d, %d} leaves the group", i, first, last, stride);
    members = 1;
  }
  return new_group(members, newgroup);
}

// Every group of one process is empty or holds that process, as its rank 0 (D45).
status group_range_excl(group_object& g, int n, int (*ranges)[3], handle_t& newgroup) {
  if (n < 0) return fail(MPI_ERR_ARG, "n = %d is negative", n);
  if (n > 0 && ranges == nullptr) return fail(MPI_ERR_ARG, "ranges is NULL");
  int excluded = 0;
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return fail(MPI_ERR_ARG, "ranges[%d] has stride 0", i);
    if (first < 0 || first >= g.size || last < 0 || last >= g.size)
      return fail(MPI_ERR_RANK, "ranges[%d] = {%d, %d, %d} leaves the group", i, first, last, stride);
    if (excluded) return fail(MPI_ERR_RANK, "ranges[%d] = {%d, %d, %d} excludes rank %d again", i, first, last, stride, first);
    excluded = 1;
  }
  return new_group(g.size - excluded, newgroup);
}

status group_union(group_object& a, group_object& b, handle_t& newgroup) {
  return new_group(std::max(a.size, b.size), newgroup);
}

status group_intersection(group_object& a, group_object& b, handle_t& newgroup) {
  return new_group(std::min(a.size, b.size), newgroup);
}

status group_difference(group_object& a, group_object& b, handle_t& newgroup) {
  return new_group(b.size ? 0 : a.size, newgroup);
}

// MPI_PROC_NULL translates to itself; the process is rank 0 of group2, or absent (MPI_UNDEFINED).
status group_translate_ranks(group_object& a, int n, const int* ranks1, group_object& b, int* ranks2) {
  if (n < 0) return fail(MPI_ERR_ARG, "n = %d is negative", n);
  if (n > 0 && (ranks1 == nullptr || ranks2 == nullptr)) return fail(MPI_ERR_ARG, "ranks1 or ranks2 is NULL");
  for (int i = 0; i < n; ++i)
    if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a.size))
      return fail(MPI_ERR_RANK, "ranks1[%d] = %d is not a rank of group1 (size %d) nor MPI_PROC_NULL", i,
                  ranks1[i], a.size);
  for (int i = 0; i < n; ++i)
    ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : b.size ? 0 : MPI_UNDEFINED;
  return status::ok();
}

status group_free(handle_t& group) {
  runtime& r = rt();
  group_object* g = r.groups.lookup(group);
  if (g == nullptr) return fail(MPI_ERR_GROUP, "group handle 0x%x is null or not valid", group);
  if (!g->predefined) {
    r.groups.erase(g);
    delete g;
  }
  group = h::group_null;
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
