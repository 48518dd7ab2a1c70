// bindings_c/large_count.h: what the large-count forms need where the core works in int (or
// MPI_Aint) (MPI-4.1 section 19.2, docs/decisions.md D47): a large input that fits is passed on,
// one that does not is MPI_ERR_COUNT. Shared by the C forms MPI_X_c (bindings_c's generated
// functions.cc) and the mpi_f08 large-count specifics MPI_X_c_f08 (bindings_fortran's, D52).
#pragma once
#include <utility>
#include <vector>

#include "c_glue.h"

namespace mpiattr::cbind {
template <typename To, typename From>
inline bool narrow(From v, To& out) {
  if (!std::in_range<To>(v)) return false;
  out = static_cast<To>(v);
  return true;
}
// Narrows the n elements of `in` (none if NULL): -1, or the index of the first that does not fit.
template <typename To, typename From>
inline long long narrow_array(const From* in, long long n, std::vector<To>& out) {
  if (in == nullptr || n <= 0) return -1;
  out.resize(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i)
    if (!narrow(in[i], out[static_cast<std::size_t>(i)])) return i;
  return -1;
}
[[gnu::cold, gnu::noinline]] inline status too_large(const char* name, long long v, const char* type,
                                                     long long index = -1) {
  if (index >= 0)
    return mpiattr::fail(MPI_ERR_COUNT, "%s[%lld] = %lld does not fit in %s, the type mpiattr's standalone runtime carries this routine out in (docs/decisions.md D47)", name, index, v, type);
  return mpiattr::fail(MPI_ERR_COUNT, "%s = %lld does not fit in %s, the type mpiattr's standalone runtime carries this routine out in (docs/decisions.md D47)", name, v, type);
}
// The element count of the arrays of a v-collective: its communicator's size (0 for an invalid
// handle, which the communicator's own lookup then reports).
inline int comm_size_of(MPI_Comm comm) {
  const comm_object* o = rt().comms.lookup(to_handle(comm));
  return o == nullptr ? 0 : o->size;
}
// The element count of a neighbourhood collective's arrays: the topology's in-degree (the receive
// side's) or out-degree (the send side's); 0 for an invalid handle or a communicator without a
// topology, which the core then reports (D48).
inline int degree_of(MPI_Comm comm, bool in) {
  comm_object* o = rt().comms.lookup(to_handle(comm));
  std::vector<int> sources, destinations;
  if (o == nullptr || !mpiattr::topology_neighbors(*o, sources, destinations).is_ok()) return 0;
  return static_cast<int>(in ? sources.size() : destinations.size());
}
}  // namespace mpiattr::cbind
