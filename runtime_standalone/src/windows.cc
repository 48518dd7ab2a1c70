// Windows on the standalone runtime, and the memory of MPI_Alloc_mem and MPI_Free_mem.
#include <cstdlib>
#include <cstring>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

status make_window(void* base, aint size, int disp_unit, int flavor, bool owns, comm_object& comm,
                   handle_t& win) {
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
  w.obj->errhandler.store(builtin_eh(h::errors_are_fatal));
  if (rt().wins.insert(w.obj) == 0) return fail(MPI_ERR_INTERN, "too many windows");
  win = w.release()->handle;
  return status::ok();
}

}  // namespace

namespace api {

// ---- windows and memory ----

status win_create(void* base, aint size, int disp_unit, handle_t info, comm_object& comm, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  return make_window(base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, false, comm, win);
}

status win_allocate(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (size < 0) return fail(MPI_ERR_SIZE, "window size %ld is negative", static_cast<long>(size));
  void* mem = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (mem == nullptr) return fail(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", static_cast<long>(size));
  if (status st = make_window(mem, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, true, comm, win); !st.is_ok()) {
    std::free(mem);
    return st;
  }
  std::memcpy(baseptr, &mem, sizeof mem);
  return status::ok();
}

status win_create_dynamic(handle_t info, comm_object& comm, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  // R8.3: MPI_WIN_BASE is MPI_BOTTOM and MPI_WIN_SIZE 0 for dynamic windows.
  return make_window(gen::bottom, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, false, comm, win);
}

status win_free(handle_t& win) {
  return free_attr_object(rt().wins, win, [](win_object& w) { rt().life->win_release(w); },
                          MPI_ERR_WIN, "window");
}

status alloc_mem(aint size, handle_t info, void* baseptr) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (size < 0) return fail(MPI_ERR_SIZE, "size %ld is negative", static_cast<long>(size));
  void* mem = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (mem == nullptr) return fail(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", static_cast<long>(size));
  std::memcpy(baseptr, &mem, sizeof mem);
  return status::ok();
}

status free_mem(void* base) {
  std::free(base);
  return status::ok();
}


status win_set_name(win_object& win, const char* name) {
  std::lock_guard lock(win.attrs.mutex());
  win.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return status::ok();
}

status win_get_name(win_object& win, char* name, int& resultlen) {
  std::lock_guard lock(win.attrs.mutex());
  std::memcpy(name, win.name.c_str(), win.name.size() + 1);
  resultlen = static_cast<int>(win.name.size());
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
