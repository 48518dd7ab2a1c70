// bindings_fortran/f_callbacks.h: how the core calls Fortran copy and delete callbacks (R1.6, R7),
// for the standalone Fortran binding (f_glue.cc) and host mode (runtime_host/host_fortran.cc).
// ToFint(kind, handle) gives the Fortran INTEGER handle of the object the core passes
// (attr_object::app_handle): the handle itself standalone (D1), the host's c2f in host mode.
// Included after an mpi.h (mpiattr's or the host's) and callbacks.h.
#pragma once
#include <cstdint>
#include <type_traits>

namespace mpiattr::fbind {

using to_fint = MPI_Fint (*)(object_kind kind, std::uintptr_t handle);

// The three MPI-2 copy (and delete) callback types have the same Fortran signature.
static_assert(std::is_same_v<f_MPI_Comm_copy_attr_function, f_MPI_Type_copy_attr_function> &&
              std::is_same_v<f_MPI_Comm_copy_attr_function, f_MPI_Win_copy_attr_function>);
static_assert(std::is_same_v<f_MPI_Comm_delete_attr_function, f_MPI_Type_delete_attr_function> &&
              std::is_same_v<f_MPI_Comm_delete_attr_function, f_MPI_Win_delete_attr_function>);

// COMM_COPY_ATTR_FUNCTION(OLDCOMM, COMM_KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT,
// FLAG, IERROR); any non-zero FLAG counts as .TRUE.
template <to_fint ToFint>
int mpi2_copy(const callbacks& cbs, object_kind kind, std::uintptr_t old, int keyval, attribute_value in,
              const aint*, attribute_value* out, bool* keep) {
  MPI_Fint f_old = ToFint(kind, old), f_key = keyval, flag = MPIATTR_F_FALSE, ierr = MPI_SUCCESS;
  MPI_Aint extra = cbs.extra_state, val_in = in.as_fortran_aint(), val_out = 0;
  reinterpret_cast<f_MPI_Comm_copy_attr_function*>(cbs.copy)(&f_old, &f_key, &extra, &val_in, &val_out, &flag, &ierr);
  if (ierr == MPI_SUCCESS) {
    *keep = flag != 0;
    *out = attribute_value::from_fortran_aint(val_out);
  }
  return ierr;
}

template <to_fint ToFint>
int mpi2_delete(const callbacks& cbs, object_kind kind, std::uintptr_t obj, int keyval, attribute_value v, const aint*) {
  MPI_Fint f_obj = ToFint(kind, obj), f_key = keyval, ierr = MPI_SUCCESS;
  MPI_Aint extra = cbs.extra_state, val = v.as_fortran_aint();
  reinterpret_cast<f_MPI_Comm_delete_attr_function*>(cbs.del)(&f_obj, &f_key, &val, &extra, &ierr);
  return ierr;
}

// COPY_FUNCTION(OLDCOMM, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT, FLAG, IERR): all
// INTEGER (R7.1). extra_state was sign-extended from an INTEGER, so its low part is the original.
template <to_fint ToFint>
int mpi1_copy(const callbacks& cbs, object_kind kind, std::uintptr_t old, int keyval, attribute_value in,
              const aint*, attribute_value* out, bool* keep) {
  MPI_Fint f_old = ToFint(kind, old), f_key = keyval, flag = MPIATTR_F_FALSE, ierr = MPI_SUCCESS;
  MPI_Fint extra = static_cast<MPI_Fint>(cbs.extra_state), val_in = in.as_fortran_int(), val_out = 0;
  reinterpret_cast<f_MPI_Copy_function*>(cbs.copy)(&f_old, &f_key, &extra, &val_in, &val_out, &flag, &ierr);
  if (ierr == MPI_SUCCESS) {
    *keep = flag != 0;
    *out = attribute_value::from_fortran_int(val_out);
  }
  return ierr;
}

template <to_fint ToFint>
int mpi1_delete(const callbacks& cbs, object_kind kind, std::uintptr_t obj, int keyval, attribute_value v, const aint*) {
  MPI_Fint f_obj = ToFint(kind, obj), f_key = keyval, ierr = MPI_SUCCESS;
  MPI_Fint extra = static_cast<MPI_Fint>(cbs.extra_state), val = v.as_fortran_int();
  reinterpret_cast<f_MPI_Delete_function*>(cbs.del)(&f_obj, &f_key, &val, &extra, &ierr);
  return ierr;
}

}  // namespace mpiattr::fbind
