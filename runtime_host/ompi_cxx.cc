// Open MPI's C++ bindings over host mode (built into libmpiattr_openmpi only; docs/host.md).
//
// Open MPI 4.1's MPI::Comm::Create_keyval (and Datatype::, Win::), inline in its headers, calls
// MPI::Comm::do_create_keyval in libmpi_cxx, which creates the keyval through
// ompi_cxx_attr_create_keyval_comm (_type, _win), called through its PLT, with two C functions of
// libmpi_cxx's (ompi_mpi_cxx_comm_copy_attr_intercept and ..._delete_attr_intercept, which build
// the MPI:: object and call the user's C++ function) and their data (malloc'ed, passed both as the
// extra state and as the data Open MPI frees with the keyval). libmpi_cxx's own definition creates
// the keyval inside the host (ompi_attr_create_keyval), where mpiattr never saw it: before D136
// its attributes were the host's (docs/host-entry-points.md §4). This definition takes the call:
// the keyval is mpiattr's, created as by MPI_Comm_create_keyval with the intercepts as its C
// callbacks (their signature is the C callbacks'; the seventh argument Open MPI's attribute code
// passes them, the new object, is read by none of the three copy intercepts: objdump -d), and the
// data is freed with the keyval record. A call with flags or with data other than the extra state
// (not what Open MPI 4.1 passes) goes on to libmpi_cxx's definition.
#include <dlfcn.h>

#include <cstdlib>

#include "host_glue.h"

namespace {

void free_state(void* state) { std::free(state); }

template <typename Copy, typename Delete>
int create_cxx_keyval(const char* name, int (*create)(Copy*, Delete*, int*, void*), Copy* copy_fn,
                      Delete* delete_fn, int* keyval, void* extra_state, int flags,
                      void* bindings_extra_state) {
  if (flags != 0 || (bindings_extra_state != nullptr && bindings_extra_state != extra_state)) {
    using host_fn = int (*)(Copy*, Delete*, int*, void*, int, void*);
    const auto host = reinterpret_cast<host_fn>(dlsym(RTLD_NEXT, name));
    return host != nullptr ? host(copy_fn, delete_fn, keyval, extra_state, flags, bindings_extra_state)
                           : MPI_ERR_INTERN;
  }
  // mpiattr's MPI_XXX_create_keyval: its errors are raised there, on the handler the host uses for
  // its own errors with no object (D56). libmpi_cxx would raise a failure again, and its inline
  // Create_keyval would give the program the error code as a keyval: a failure returns success
  // with MPI_KEYVAL_INVALID, which is what the C++ caller gets (D136).
  if (create(copy_fn, delete_fn, keyval, extra_state) != MPI_SUCCESS) {
    if (bindings_extra_state != nullptr) std::free(bindings_extra_state);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
  }
  if (bindings_extra_state != nullptr) mpiattr::ccallbacks::set_release(*keyval, free_state);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" MPIATTR_EXPORT int ompi_cxx_attr_create_keyval_comm(MPI_Comm_copy_attr_function* copy_fn,
                                                               MPI_Comm_delete_attr_function* delete_fn,
                                                               int* keyval, void* extra_state, int flags,
                                                               void* bindings_extra_state) {
  return create_cxx_keyval("ompi_cxx_attr_create_keyval_comm", MPI_Comm_create_keyval, copy_fn, delete_fn,
                           keyval, extra_state, flags, bindings_extra_state);
}

extern "C" MPIATTR_EXPORT int ompi_cxx_attr_create_keyval_type(MPI_Type_copy_attr_function* copy_fn,
                                                               MPI_Type_delete_attr_function* delete_fn,
                                                               int* keyval, void* extra_state, int flags,
                                                               void* bindings_extra_state) {
  return create_cxx_keyval("ompi_cxx_attr_create_keyval_type", MPI_Type_create_keyval, copy_fn, delete_fn,
                           keyval, extra_state, flags, bindings_extra_state);
}

extern "C" MPIATTR_EXPORT int ompi_cxx_attr_create_keyval_win(MPI_Win_copy_attr_function* copy_fn,
                                                              MPI_Win_delete_attr_function* delete_fn,
                                                              int* keyval, void* extra_state, int flags,
                                                              void* bindings_extra_state) {
  return create_cxx_keyval("ompi_cxx_attr_create_keyval_win", MPI_Win_create_keyval, copy_fn, delete_fn,
                           keyval, extra_state, flags, bindings_extra_state);
}
