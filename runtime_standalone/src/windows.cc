// Windows on the standalone runtime, and the memory of MPI_Alloc_mem and MPI_Free_mem.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "mpiattr/alloc.h"
#include "runtime_internal.h"

namespace mpiattr {
namespace {

status make_window(void* base, aint size, int disp_unit, int flavor, bool owns, comm_object& comm,
                   handle_t info, handle_t& win) {
  if (size < 0) return fail(MPI_ERR_SIZE, "window size %ld is negative", static_cast<long>(size));
  if (disp_unit <= 0) return fail(MPI_ERR_DISP, "disp_unit %d is not positive", disp_unit);
  unpublished<win_object> w;
  w.obj->base = base;
  w.obj->size = size;
  w.obj->disp_unit = disp_unit;
  w.obj->flavor = flavor;
  w.obj->model = MPI_WIN_UNIFIED;  // one process: public and private copies are the same memory
  w.obj->owns_memory = owns;
  if (status st = rt().life->win_create(comm, *w.obj); !st.is_ok()) return st;
  // R8.3: cached at creation, constant for the window's life.
  predefined_values& p = w.obj->predefined_attrs;
  p.set(keyval_registry::index_of(MPI_WIN_BASE), attribute_value::from_c(base));
  p.set(keyval_registry::index_of(MPI_WIN_SIZE), attribute_value::from_fortran_aint(size));
  set_int(p, MPI_WIN_DISP_UNIT, disp_unit);
  set_int(p, MPI_WIN_CREATE_FLAVOR, flavor);
  set_int(p, MPI_WIN_MODEL, w.obj->model);
  w.obj->cold().errhandler.store(builtin_eh(h::errors_are_fatal));
  auto hints = pairs_of(info);  // a window keeps its hints (D29, D46); (out of memory here: nothing made yet, D65)
  if (rt().wins.insert(w.obj) == 0) return fail(MPI_ERR_INTERN, "too many windows");
  try {  // its RMA state, under the handle it now has
    std::lock_guard lock(rma_mutex());
    rma_of(*w.obj).hints = std::move(hints);
  } catch (...) {  // out of memory (D65): the window is unpublished again (and deleted by `w`)
    rt().wins.erase(w.obj);
    return from_exception("the window's RMA state");
  }
  report::object_made(object_kind::win, w.obj->handle);  // (MPIATTR_REPORT names where, D60)
  win = w.release()->handle;
  return status::ok();
}

}  // namespace

namespace api {

// ---- windows and memory ----

status win_create(void* base, aint size, int disp_unit, handle_t info, comm_object& comm, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  // A window of size bytes at NULL (or MPI_IN_PLACE): every access would fault (D149).
  if (size > 0 && (base == nullptr || base == gen::in_place))
    return fail(MPI_ERR_BUFFER, "base is %s, with a window of %ld bytes", base == nullptr ? "NULL" : "MPI_IN_PLACE",
                static_cast<long>(size));
  return make_window(base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, false, comm, info, win);
}

namespace {
status allocate(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr, int flavor,
                handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (size < 0) return fail(MPI_ERR_SIZE, "window size %ld is negative", static_cast<long>(size));
  void* mem = alloc::bytes(size > 0 ? static_cast<std::size_t>(size) : 1);  // (the test switch's, D61)
  if (mem == nullptr)
    return fail(MPI_ERR_NO_MEM, "out of memory: %ld bytes for the window's memory could not be allocated; "
                "nothing was changed (docs/decisions.md D65)", static_cast<long>(size));
  status st;
  try {
    st = make_window(mem, size, disp_unit, flavor, true, comm, info, win);
  } catch (...) {  // out of memory (D65): no window, and its memory goes
    st = from_exception("the window");
  }
  if (!st.is_ok()) {
    std::free(mem);
    return st;
  }
  std::memcpy(baseptr, &mem, sizeof mem);
  return status::ok();
}
}  // namespace

status win_allocate(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr, handle_t& win) {
  return allocate(size, disp_unit, info, comm, baseptr, MPI_WIN_FLAVOR_ALLOCATE, win);
}

// One process: its memory is the whole shared window (MPI-4.1 §13.2.3).
status win_allocate_shared(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr,
                           handle_t& win) {
  return allocate(size, disp_unit, info, comm, baseptr, MPI_WIN_FLAVOR_SHARED, win);
}

status win_create_dynamic(handle_t info, comm_object& comm, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  // R8.3: MPI_WIN_BASE is MPI_BOTTOM and MPI_WIN_SIZE 0 for dynamic windows.
  return make_window(gen::bottom, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, false, comm, info, win);
}

// A window in a lock or PSCW epoch is not freed (MPI-4.1 §13.2.5); a fence epoch ends with it.
status win_free(handle_t& win) {
  if (win_object* w = rt().wins.lookup(win); w != nullptr) {
    std::lock_guard lock(rma_mutex());
    const rma_state& s = rma_of(*w);
    if (s.lock_type != 0 || s.lock_all || s.access || s.exposure)
      return fail(MPI_ERR_RMA_SYNC, "the window is in a lock or PSCW epoch: end it before MPI_Win_free");
  }
  return free_attr_object(rt().wins, win, [](win_object& w) {
    rma_forget(w);
    rt().life->win_release(w);
  }, MPI_ERR_WIN, "window");
}

status win_get_group(win_object&, handle_t& group) { return new_group(1, group); }

// Any window but a dynamic one: the process's own memory is the segment (MPI-4.1 §13.2.3 lets
// MPI_Win_shared_query take windows of every flavor; D46).
status win_shared_query(win_object& win, int rank, aint& size, int& disp_unit, void* baseptr) {
  if (rank != 0 && rank != MPI_PROC_NULL)
    return fail(MPI_ERR_RANK, "rank %d is not a rank of a one-process window", rank);
  if (win.flavor == MPI_WIN_FLAVOR_DYNAMIC)
    return fail(MPI_ERR_RMA_FLAVOR, "a dynamic window has no segment to query");
  void* base = win.base;
  std::memcpy(baseptr, &base, sizeof base);
  size = win.size;
  disp_unit = win.disp_unit;
  return status::ok();
}

// Memory of a dynamic window: regions that do not overlap (MPI-4.1 §13.2.4).
status win_attach(win_object& win, void* base, aint size) {
  if (win.flavor != MPI_WIN_FLAVOR_DYNAMIC)
    return fail(MPI_ERR_RMA_FLAVOR, "memory is attached to dynamic windows only (MPI_Win_create_dynamic)");
  if (size < 0) return fail(MPI_ERR_SIZE, "size %ld is negative", static_cast<long>(size));
  if (size > 0 && base == nullptr) return fail(MPI_ERR_ARG, "base is a NULL pointer");
  char* b = static_cast<char*>(base);
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  for (const auto& [at, n] : s.attached)
    if (b < at + n && at < b + size)
      return fail(MPI_ERR_RMA_ATTACH, "the memory overlaps memory already attached to the window");
  s.attached.emplace_back(b, size);
  return status::ok();
}

status win_detach(win_object& win, const void* base) {
  if (win.flavor != MPI_WIN_FLAVOR_DYNAMIC)
    return fail(MPI_ERR_RMA_FLAVOR, "memory is detached from dynamic windows only");
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  for (auto it = s.attached.begin(); it != s.attached.end(); ++it)
    if (it->first == base) {
      s.attached.erase(it);
      return status::ok();
    }
  return fail(MPI_ERR_RMA_ATTACH, "no memory attached to the window starts at that address");
}

// The hints given at creation and by MPI_Win_set_info, in a new info (D29: kept, and ignored).
status win_get_info(win_object& win, handle_t& info_used) {
  hint_list hints;
  {
    std::lock_guard lock(rma_mutex());
    hints = rma_of(win).hints;
  }
  return new_info(std::move(hints), info_used);
}

status win_set_info(win_object& win, handle_t info) {
  if (status st = check_info(info); !st.is_ok()) return st;
  auto given = pairs_of(info);
  std::lock_guard lock(rma_mutex());
  auto& kept = rma_of(win).hints;
  kept = merged_hints(kept, std::move(given));  // (out of memory: the hints as they were, D65)
  return status::ok();
}

status alloc_mem(aint size, handle_t info, void* baseptr) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (size < 0) return fail(MPI_ERR_SIZE, "size %ld is negative", static_cast<long>(size));
  void* mem = alloc::bytes(size > 0 ? static_cast<std::size_t>(size) : 1);  // (the test switch's, D61)
  if (mem == nullptr)
    return fail(MPI_ERR_NO_MEM, "out of memory: %ld bytes could not be allocated (docs/decisions.md D65)",
                static_cast<long>(size));
  std::memcpy(baseptr, &mem, sizeof mem);
  return status::ok();
}

status free_mem(void* base) {
  std::free(base);
  return status::ok();
}


status win_set_name(win_object& win, const char* name) { return set_object_name(win, name); }

status win_get_name(win_object* win, char* name, int& resultlen) {
  return get_object_name(win, "MPI_WIN_NULL", name, resultlen);
}

}  // namespace api
}  // namespace mpiattr
