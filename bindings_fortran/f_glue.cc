// The Fortran language binding of the core: how Fortran callbacks and error handlers are called
// (R1.6, R7.6), registered for both Fortran creator languages:
//   fortran_mpi2  keyvals of MPI_XXX_CREATE_KEYVAL: values and extra_state INTEGER(KIND=MPI_ADDRESS_KIND)
//   fortran_mpi1  keyvals of MPI_KEYVAL_CREATE: everything INTEGER (R7.1: a value reaches the
//                 callback as its low part, and what the callback returns is sign-extended)
// Whatever language set a value, a Fortran callback sees it as a Fortran get would (R7.3, R7.6): a
// C-set value as its address, a value set by MPI_ATTR_PUT sign-extended. Arguments are passed by
// reference to copies, so a callback cannot change the stored value or extra_state (R1.4).
#include "f_glue.h"

#include <cstring>

namespace mpiattr::fbind {

std::string from_fortran(const char* s, std::size_t len) {
  while (len > 0 && s[len - 1] == ' ') --len;
  return std::string(s, len);
}

void to_fortran(const char* src, char* dst, std::size_t len) {
  std::size_t n = std::min(std::strlen(src), len);
  std::memcpy(dst, src, n);
  std::memset(dst + n, ' ', len - n);
}

namespace {

// The three MPI-2 copy (and delete) callback types have the same Fortran signature.
static_assert(std::is_same_v<f_MPI_Comm_copy_attr_function, f_MPI_Type_copy_attr_function> &&
              std::is_same_v<f_MPI_Comm_copy_attr_function, f_MPI_Win_copy_attr_function>);
static_assert(std::is_same_v<f_MPI_Comm_delete_attr_function, f_MPI_Type_delete_attr_function> &&
              std::is_same_v<f_MPI_Comm_delete_attr_function, f_MPI_Win_delete_attr_function>);

// COMM_COPY_ATTR_FUNCTION(OLDCOMM, COMM_KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT,
// FLAG, IERROR); any non-zero FLAG counts as .TRUE.
int mpi2_copy(const callbacks& cbs, object_kind, std::uintptr_t old, int keyval, attribute_value in,
              const aint*, attribute_value* out, bool* keep) {
  MPI_Fint f_old = static_cast<MPI_Fint>(old), f_key = keyval, flag = MPIATTR_F_FALSE, ierr = MPI_SUCCESS;
  MPI_Aint extra = cbs.extra_state, val_in = in.as_fortran_aint(), val_out = 0;
  reinterpret_cast<f_MPI_Comm_copy_attr_function*>(cbs.copy)(&f_old, &f_key, &extra, &val_in, &val_out, &flag, &ierr);
  if (ierr == MPI_SUCCESS) {
    *keep = flag != 0;
    *out = attribute_value::from_fortran_aint(val_out);
  }
  return ierr;
}

int mpi2_delete(const callbacks& cbs, object_kind, std::uintptr_t obj, int keyval, attribute_value v, const aint*) {
  MPI_Fint f_obj = static_cast<MPI_Fint>(obj), f_key = keyval, ierr = MPI_SUCCESS;
  MPI_Aint extra = cbs.extra_state, val = v.as_fortran_aint();
  reinterpret_cast<f_MPI_Comm_delete_attr_function*>(cbs.del)(&f_obj, &f_key, &val, &extra, &ierr);
  return ierr;
}

// COPY_FUNCTION(OLDCOMM, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT, FLAG, IERR): all
// INTEGER (R7.1). extra_state was sign-extended from an INTEGER, so its low part is the original.
int mpi1_copy(const callbacks& cbs, object_kind, std::uintptr_t old, int keyval, attribute_value in,
              const aint*, attribute_value* out, bool* keep) {
  MPI_Fint f_old = static_cast<MPI_Fint>(old), f_key = keyval, flag = MPIATTR_F_FALSE, ierr = MPI_SUCCESS;
  MPI_Fint extra = static_cast<MPI_Fint>(cbs.extra_state), val_in = in.as_fortran_int(), val_out = 0;
  reinterpret_cast<f_MPI_Copy_function*>(cbs.copy)(&f_old, &f_key, &extra, &val_in, &val_out, &flag, &ierr);
  if (ierr == MPI_SUCCESS) {
    *keep = flag != 0;
    *out = attribute_value::from_fortran_int(val_out);
  }
  return ierr;
}

int mpi1_delete(const callbacks& cbs, object_kind, std::uintptr_t obj, int keyval, attribute_value v, const aint*) {
  MPI_Fint f_obj = static_cast<MPI_Fint>(obj), f_key = keyval, ierr = MPI_SUCCESS;
  MPI_Fint extra = static_cast<MPI_Fint>(cbs.extra_state), val = v.as_fortran_int();
  reinterpret_cast<f_MPI_Delete_function*>(cbs.del)(&f_obj, &f_key, &val, &extra, &ierr);
  return ierr;
}

// COMM_ERRHANDLER_FUNCTION(COMM, ERROR_CODE) / WIN_ERRHANDLER_FUNCTION(WIN, ERROR_CODE).
void f_errhandler(const errhandler_object& eh, object_kind, handle_t obj, int code) {
  MPI_Fint f_obj = static_cast<MPI_Fint>(obj), f_code = code;
  reinterpret_cast<void (*)(MPI_Fint*, MPI_Fint*)>(eh.fn)(&f_obj, &f_code);
}

const predefined_set f_predefined(predefined_callbacks, &predefined_callback_count);
const language_binding mpi2_binding = {mpi2_copy, mpi2_delete, nullptr, &f_predefined};
const language_binding mpi1_binding = {mpi1_copy, mpi1_delete, nullptr, &f_predefined};

[[maybe_unused]] const bool registered = [] {
  register_language(language::fortran_mpi2, &mpi2_binding);
  register_language(language::fortran_mpi1, &mpi1_binding);
  register_errhandler_invoker(language::fortran_mpi2, f_errhandler);
  return true;
}();

}  // namespace
}  // namespace mpiattr::fbind
