// runtime_host/host_fortran.h: what the Fortran entry points of host mode (fortran.cc, from the spec)
// use besides host_glue.h: the Fortran callback types, LOGICAL values, the link names, and the
// host's own Fortran routines for keyvals mpiattr did not create.
#pragma once
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host_glue.h"
#include "callbacks.h"               // the Fortran callback types (from the spec, build tree)
#include "mpiattr/fortran_config.h"  // MPIATTR_F_TRUE / MPIATTR_F_FALSE of this Fortran compiler

// An entry point is defined as mpiattr_f_mpi<s> and under every name the hosts' Fortran libraries
// export for it (docs/host-entry-points.md §3), with s its name after "mpi" (_comm_set_attr, S in
// upper case): mpi_x_, mpi_x__, mpi_x and MPI_X, and the profiling names pmpi_x_, pmpi_x__, pmpi_x
// and PMPI_X, the same routine (MPI-4.1 §16.2.1; MPICH's pmpi_x_ would otherwise create a keyval
// through mpiattr and set and get it inside MPICH, D131). They are strong definitions: whichever
// library comes first in the search order (this one, linked before the host or preloaded) answers.
#define MPIATTR_HOST_F_ALIAS(sym, l) \
  extern "C" MPIATTR_EXPORT __typeof__(mpiattr_f_##l) sym __attribute__((alias("mpiattr_f_" #l)));
#define MPIATTR_HOST_F_NAMES(s, S)                                                                  \
  MPIATTR_HOST_F_ALIAS(mpi##s##_, mpi##s) MPIATTR_HOST_F_ALIAS(mpi##s##__, mpi##s)                 \
  MPIATTR_HOST_F_ALIAS(mpi##s, mpi##s) MPIATTR_HOST_F_ALIAS(MPI##S, mpi##s)                        \
  MPIATTR_HOST_F_ALIAS(pmpi##s##_, mpi##s) MPIATTR_HOST_F_ALIAS(pmpi##s##__, mpi##s)               \
  MPIATTR_HOST_F_ALIAS(pmpi##s, mpi##s) MPIATTR_HOST_F_ALIAS(PMPI##S, mpi##s)
// The mpi_f08 module's link name on both hosts, mpi_x_f08_, and its profiling name: pmpi_x_f08_
// (Open MPI's), pmpir_x_f08_ (MPICH's).
#define MPIATTR_HOST_F08_NAMES(s)                                                                   \
  MPIATTR_HOST_F_ALIAS(mpi##s##_f08_, mpi##s##_f08) MPIATTR_HOST_F_ALIAS(pmpi##s##_f08_, mpi##s##_f08) \
  MPIATTR_HOST_F_ALIAS(pmpir##s##_f08_, mpi##s##_f08)

namespace mpiattr::host {

// The host's own Fortran routine `name` (the next definition after this library's).
template <typename Fn>
Fn host_fortran(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == nullptr) {
    std::fprintf(stderr, "mpiattr: the host MPI has no Fortran routine %s\n", name);
    std::abort();
  }
  return reinterpret_cast<Fn>(f);
}

// The link names of the predefined Fortran callbacks (fortran.cc, from the spec).
struct fortran_predefined_name {
  const char* link_name;
  decltype(predefined_callback::behaviour) behaviour;
};
extern const fortran_predefined_name fortran_predefined_names[];
extern const std::size_t fortran_predefined_name_count;

// Copies a C string into a CHARACTER argument, blank-padded (truncated if it does not fit).
inline void to_fortran(const char* src, char* dst, std::size_t len) {
  std::size_t n = std::strlen(src);
  if (n > len) n = len;
  std::memcpy(dst, src, n);
  std::memset(dst + n, ' ', len - n);
}

}  // namespace mpiattr::host
