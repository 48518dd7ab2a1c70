// The Fortran language binding of the core: how Fortran callbacks and error handlers are called
// (R1.6, R7.6), registered for the three Fortran creator languages:
//   fortran_mpi2  keyvals of MPI_XXX_CREATE_KEYVAL: values and extra_state INTEGER(KIND=MPI_ADDRESS_KIND)
//   fortran_f08   the same routines from mpi_f08: the same conventions, the object passed as a
//                 TYPE(MPI_Comm) (one INTEGER, MPI_VAL, by reference: the same bytes)
//   fortran_mpi1  keyvals of MPI_KEYVAL_CREATE: everything INTEGER (R7.1: a value reaches the
//                 callback as its low part, and what the callback returns is sign-extended)
// Whatever language set a value, a Fortran callback sees it as a Fortran get would (R7.3, R7.6): a
// C-set value as its address, a value set by MPI_ATTR_PUT sign-extended. Arguments are passed by
// reference to copies, so a callback cannot change the stored value or extra_state (R1.4).
#include "f_glue.h"

#include <cstring>

#include "f_callbacks.h"

MPI_Fint mpiattr_f08_status_ignore[8];
MPI_Fint mpiattr_f08_statuses_ignore[8];
MPI_Fint mpiattr_f08_bottom;
MPI_Fint mpiattr_f08_in_place;
MPI_Fint mpiattr_f08_buffer_automatic;
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_status_ignore, MPIATTR_STATUS_IGNORE)[8];
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_statuses_ignore, MPIATTR_STATUSES_IGNORE)[8];
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_bottom, MPIATTR_BOTTOM);
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_in_place, MPIATTR_IN_PLACE);
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_buffer_automatic, MPIATTR_BUFFER_AUTOMATIC);
MPI_Fint mpiattr_f08_unweighted[1];
MPI_Fint mpiattr_f08_weights_empty[1];
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_unweighted, MPIATTR_UNWEIGHTED)[1];
MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_weights_empty, MPIATTR_WEIGHTS_EMPTY)[1];
// The IGNOREs as C sees them (mpi.h; these override c_glue.cc's stand-ins).
MPIATTR_EXPORT MPI_Fint* MPI_F_STATUS_IGNORE = MPIATTR_FC_GLOBAL_(mpiattr_status_ignore, MPIATTR_STATUS_IGNORE);
MPIATTR_EXPORT MPI_Fint* MPI_F_STATUSES_IGNORE = MPIATTR_FC_GLOBAL_(mpiattr_statuses_ignore, MPIATTR_STATUSES_IGNORE);
MPIATTR_EXPORT MPI_F08_status* MPI_F08_STATUS_IGNORE = reinterpret_cast<MPI_F08_status*>(mpiattr_f08_status_ignore);
MPIATTR_EXPORT MPI_F08_status* MPI_F08_STATUSES_IGNORE = reinterpret_cast<MPI_F08_status*>(mpiattr_f08_statuses_ignore);

namespace mpiattr::fbind {

std::string from_fortran(const char* s, std::size_t len) {
  while (len > 0 && s[len - 1] == ' ') --len;
  return std::string(s, len);
}

std::string from_fortran_info(const char* s, std::size_t len) {
  std::size_t first = 0;
  while (first < len && s[first] == ' ') ++first;
  return from_fortran(s + first, len - first);
}

void to_fortran(const char* src, char* dst, std::size_t len) {
  std::size_t n = std::min(std::strlen(src), len);
  std::memcpy(dst, src, n);
  std::memset(dst + n, ' ', len - n);
}

namespace {

// Standalone, a Fortran handle is the handle itself (D1).
MPI_Fint same_handle(object_kind, std::uintptr_t h) { return static_cast<MPI_Fint>(h); }

// COMM_ERRHANDLER_FUNCTION(COMM, ERROR_CODE) / WIN_ERRHANDLER_FUNCTION(WIN, ERROR_CODE) /
// FILE_ERRHANDLER_FUNCTION(FILE, ERROR_CODE) (standalone, the file is MPI_FILE_NULL).
void f_errhandler(const errhandler_object& eh, object_kind, handle_t obj, int code) {
  MPI_Fint f_obj = static_cast<MPI_Fint>(obj), f_code = code;
  reinterpret_cast<void (*)(MPI_Fint*, MPI_Fint*)>(eh.fn)(&f_obj, &f_code);
}

const predefined_set f_predefined(predefined_callbacks, &predefined_callback_count);
const language_binding mpi2_binding = {mpi2_copy<same_handle>, mpi2_delete<same_handle>, nullptr, &f_predefined};
const language_binding mpi1_binding = {mpi1_copy<same_handle>, mpi1_delete<same_handle>, nullptr, &f_predefined};

[[maybe_unused]] const bool registered = [] {
  register_language(language::fortran_mpi2, &mpi2_binding);
  register_language(language::fortran_f08, &mpi2_binding);
  register_language(language::fortran_mpi1, &mpi1_binding);
  register_errhandler_invoker(language::fortran_mpi2, f_errhandler);
  register_errhandler_invoker(language::fortran_f08, f_errhandler);
  return true;
}();

}  // namespace
}  // namespace mpiattr::fbind
