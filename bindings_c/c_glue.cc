// The C language binding of the core: how C callbacks and C error handlers are called (R1.6, R5).
#include "c_glue.h"

#include <new>


#include "c_callbacks.h"

namespace mpiattr::cbind {
namespace {

void c_errhandler(const errhandler_object& eh, object_kind kind, handle_t obj, int code) {
  if (eh.for_file) {  // standalone, MPI_FILE_NULL is the only file
    MPI_File f = to_c<MPI_File>(obj);
    reinterpret_cast<MPI_File_errhandler_function*>(eh.fn)(&f, &code);
  } else if (eh.for_session) {  // D49
    MPI_Session s = to_c<MPI_Session>(obj);
    reinterpret_cast<MPI_Session_errhandler_function*>(eh.fn)(&s, &code);
  } else if (kind == object_kind::win) {
    MPI_Win w = to_c<MPI_Win>(obj);
    reinterpret_cast<MPI_Win_errhandler_function*>(eh.fn)(&w, &code);
  } else {
    MPI_Comm c = to_c<MPI_Comm>(obj);
    reinterpret_cast<MPI_Comm_errhandler_function*>(eh.fn)(&c, &code);
  }
}

const predefined_set c_predefined(predefined_callbacks, &predefined_callback_count);
const language_binding c_binding = {ccallbacks::copy, ccallbacks::del, ccallbacks::release,
                                    &c_predefined};

[[maybe_unused]] const bool registered = [] {
  register_language(language::c, &c_binding);
  register_errhandler_invoker(language::c, c_errhandler);
  return true;
}();

}  // namespace
}  // namespace mpiattr::cbind

// For the MPI:: glue (bindings_cxx/cxx_glue.cc): free a keyval's C++ callback state with the
// keyval record (c_callbacks.h). Not part of the MPI interface.
extern "C" MPIATTR_EXPORT int mpiattr_keyval_set_release(int keyval,
                                                         mpiattr::ccallbacks::state_release fn) {
  try {  // (allocates nothing today; still, no exception leaves an extern "C" function: D65)
    return mpiattr::ccallbacks::set_release(keyval, fn);
  } catch (const std::bad_alloc&) {
    return MPI_ERR_NO_MEM;
  } catch (...) {
    return MPI_ERR_INTERN;
  }
}

// For the MPI:: glue: the memory of a keyval's C++ callback state, freed with free() (c_callbacks.h
// keyval_state_alloc; docs/decisions.md D64). Not part of the MPI interface.
extern "C" MPIATTR_EXPORT void* mpiattr_keyval_state_alloc(std::size_t bytes, const char* routine, int* code) {
  return mpiattr::ccallbacks::keyval_state_alloc<mpiattr::cbind::call>(bytes, routine, code);
}

// MPI_F_STATUS_IGNORE and the like (mpi.h): the Fortran bindings define them as their
// MPI_STATUS_IGNORE's and MPI_STATUSES_IGNORE's addresses (f_glue.cc). A library built without
// them (no Fortran compiler) has no Fortran status, and these weak definitions stand in: addresses
// no C status has.
namespace {
MPI_Fint no_fortran_status_ignore[4][MPI_F_STATUS_SIZE];
}
extern "C" {
[[gnu::weak]] MPIATTR_EXPORT MPI_Fint* MPI_F_STATUS_IGNORE = no_fortran_status_ignore[0];
[[gnu::weak]] MPIATTR_EXPORT MPI_Fint* MPI_F_STATUSES_IGNORE = no_fortran_status_ignore[1];
[[gnu::weak]] MPIATTR_EXPORT MPI_F08_status* MPI_F08_STATUS_IGNORE =
    reinterpret_cast<MPI_F08_status*>(no_fortran_status_ignore[2]);
[[gnu::weak]] MPIATTR_EXPORT MPI_F08_status* MPI_F08_STATUSES_IGNORE =
    reinterpret_cast<MPI_F08_status*>(no_fortran_status_ignore[3]);
}
