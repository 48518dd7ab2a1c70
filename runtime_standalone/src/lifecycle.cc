// The standalone lifecycle (lifecycle.h), g_runtime, the keyval census and delete_attributes.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

std::atomic<std::uint64_t> g_next_context{16};

// ---- the standalone lifecycle: one process, nothing underneath ----
class standalone final : public lifecycle {
 public:
  // A dup keeps the topology and the hints (MPI-4.1 §8.4.2); split and create derive one
  // without (D42, D45).
  status comm_dup(const comm_object& old, comm_object& fresh) override {
    if (status st = comm_derive(old, true, fresh); !st.is_ok()) return st;
    topology_copy(old, fresh);
    comm_hints_copy(old, fresh);
    return status::ok();
  }
  status comm_derive(const comm_object& parent, bool, comm_object& fresh) override {
    fresh.size = parent.size;
    fresh.rank = parent.rank;
    fresh.context = g_next_context.fetch_add(1);
    fresh.sessions_model = parent.sessions_model;  // (R8.2, D124)
    p2p::buffer_comm_derived(parent, fresh);  // derived from a session's communicator (D55)
    return status::ok();
  }
  void comm_release(comm_object& comm) override {
    topology_drop(comm);
    comm_hints_drop(comm);
    p2p::buffer_comm_released(comm);
  }
  status type_dup(const type_object& old, type_object& fresh) override {
    fresh.size = old.size;
    fresh.lb = old.lb;
    fresh.extent = old.extent;
    fresh.committed = old.committed;
    fresh.map = old.map;
    fresh.align = old.align;
    fresh.basic = old.basic;
    fresh.marks = old.marks;
    // What MPI_Type_get_contents says of the dup (D62): old's envelope shared, not rebuilt.
    fresh.env = old.env;
    fresh.dups = old.dups + 1;
    fresh.dup_named = old.dups != 0 ? old.dup_named : old.predefined ? old.handle : 0;
    fresh.dup_committed = old.committed;
    return status::ok();
  }
  void type_release(type_object&) override {}  // its envelope goes with the object (D62)
  status win_create(const comm_object&, win_object&) override { return status::ok(); }
  void win_release(win_object& w) override {
    if (w.owns_memory) std::free(w.base);
  }
  world_attributes world() const override {
    // MPI_TAG_UB: the largest tag; MPI_HOST: no host process; MPI_IO: every process can do I/O;
    // clocks are trivially synchronised in one process; universe of 1; appnum 0 (R8.2).
    return {2147483647, MPI_PROC_NULL, MPI_ANY_SOURCE, 1, 1, 0, true, true};
  }
};

// An object as a message names it: a predefined one by its name, a created one by its handle
// (and the name the program gave it, if any).
std::string describe(attr_object& o) {
  std::string name;
  {
    std::lock_guard lock(o.attrs.mutex());
    name = o.cold().name;
  }
  char text[MPI_MAX_OBJECT_NAME + 64];
  if (o.predefined && !name.empty())
    std::snprintf(text, sizeof text, "%s %s", kind_name(o.kind), name.c_str());
  else if (!name.empty())
    std::snprintf(text, sizeof text, "%s 0x%x (\"%s\")", kind_name(o.kind), o.handle, name.c_str());
  else
    std::snprintf(text, sizeof text, "%s 0x%x", kind_name(o.kind), o.handle);
  return text;
}

}  // namespace

constinit never_destroyed<runtime> g_runtime;

lifecycle& standalone_lifecycle() {
  static standalone s;
  return s;
}

namespace {
// The lazy keyval counts' census (keyval.h): attributes under keyval index `index` on every
// object of `kind`, published or being built by a dup (a dup publishes its object before it
// leaves the dups in progress, so that each object is found in one place or the other).
template <typename T>
void census_in(object_table<T>& table, std::uint32_t index) {
  auto visit = [&](T* o) { census_one(*o, index); };
  table.for_each(visit);
  table.for_each_predefined(visit);
}
}  // namespace
void census(object_kind kind, std::uint32_t index) {
  census_in_construction(kind, index);
  switch (kind) {
    case object_kind::comm: census_in(rt().comms, index); break;
    case object_kind::type: census_in(rt().types, index); break;
    case object_kind::win: census_in(rt().wins, index); break;
    default: break;
  }
}

// delete_all for a free or MPI_Finalize, whose message names, when a delete callback fails, the
// object, the attribute's keyval and the code the callback returned (D8). The code the call
// returns is the callback's, as delete_all left it.
status delete_attributes(attr_object& o) {
  status st = delete_all(o);
  if (st.is_ok()) return st;  // (before the thread-local read: a free's usual path, D72)
  const int user_code = detail::last_user_code();
  if (user_code == 0) return st;  // not a callback's failure: the message stands
  // The attribute whose callback failed: delete_all deletes newest first and stops there, and no
  // attribute can be set on the object meanwhile (D9), so it is the newest one the object has.
  std::vector<attr_store::entry> left;
  {
    std::lock_guard lock(o.attrs.mutex());
    left = o.attrs.snapshot_newest_first();
  }
  if (left.empty()) return st;
  const keyval_record& r = *keyvals().at(left.front().index);
  char what[MPI_MAX_OBJECT_NAME + 160];
  std::snprintf(what, sizeof what, "the delete callback of keyval 0x%x%s, on %s,",
                static_cast<unsigned>(r.handle),
                r.live_handle.load(std::memory_order_relaxed) == 0 ? " (freed by the program)" : "",
                describe(o).c_str());
  return callback_failed(user_code, what);
}

}  // namespace mpiattr
