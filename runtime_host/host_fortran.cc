// Fortran callbacks in host mode: the core calls them as the standalone Fortran binding does
// (bindings_fortran/f_callbacks.h), with the Fortran handle the host's c2f gives. A program passes
// the host's predefined Fortran callbacks (mpi_comm_dup_fn_, ...): their addresses are looked up
// in the host's libraries so that the core recognises them (D16).
#include "host_fortran.h"

#include <mutex>

#include "f_callbacks.h"

namespace mpiattr::host {
namespace {

MPI_Fint host_fint(object_kind kind, std::uintptr_t h) {
  switch (kind) {
    case object_kind::comm: return PMPI_Comm_c2f(from_native<MPI_Comm>(h));
    case object_kind::type: return PMPI_Type_c2f(from_native<MPI_Datatype>(h));
    case object_kind::win: return PMPI_Win_c2f(from_native<MPI_Win>(h));
    default: return 0;
  }
}

// The host's Fortran predefined callbacks, found when mpiattr starts.
constexpr std::size_t kMaxPredefined = 32;
predefined_callback g_fortran_predefined[kMaxPredefined];
std::size_t g_fortran_predefined_count = 0;

}  // namespace

void find_fortran_predefined() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < fortran_predefined_name_count && i < kMaxPredefined; ++i)
      if (void* f = dlsym(RTLD_DEFAULT, fortran_predefined_names[i].link_name))
        g_fortran_predefined[g_fortran_predefined_count++] = {reinterpret_cast<fnptr>(f),
                                                              fortran_predefined_names[i].behaviour};
  });
}

namespace {
const predefined_set g_f_predefined(g_fortran_predefined, &g_fortran_predefined_count);
const language_binding g_mpi2 = {fbind::mpi2_copy<host_fint>, fbind::mpi2_delete<host_fint>, nullptr,
                                  &g_f_predefined};
const language_binding g_mpi1 = {fbind::mpi1_copy<host_fint>, fbind::mpi1_delete<host_fint>, nullptr,
                                  &g_f_predefined};
}  // namespace

void register_fortran() {
  find_fortran_predefined();
  register_language(language::fortran_mpi2, &g_mpi2);
  register_language(language::fortran_mpi1, &g_mpi1);
}

}  // namespace mpiattr::host
