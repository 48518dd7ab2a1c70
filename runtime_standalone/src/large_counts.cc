// The entries of the large-count forms MPI_X_c (MPI-4.1 §19.2) that take the large types
// themselves (spec/large_count.toml [large_count.core], docs/decisions.md D47): the answers the
// int entries cannot give. The other forms narrow their inputs around the routines' own entries.
#include <cstdint>

#include "runtime_internal.h"

namespace mpiattr::api {

// A datatype's size is kept as an MPI_Aint (object.h), so its size is exact however large.
status type_size_c(type_object& t, std::int64_t& size) {
  size = t.size;
  return status::ok();
}

status pack_size_c(std::int64_t incount, type_object& t, comm_object&, std::int64_t& size) {
  if (incount < 0) return fail(MPI_ERR_COUNT, "count %lld is negative", static_cast<long long>(incount));
  if (t.size > 0 && incount > INT64_MAX / t.size)
    return fail(MPI_ERR_VALUE_TOO_LARGE, "the packed size of %lld elements of %lld bytes does not fit in an MPI_Count",
                static_cast<long long>(incount), static_cast<long long>(t.size));
  size = incount * t.size;
  return status::ok();
}

// The elements a status's byte count makes: MPI_UNDEFINED where it is no whole number of them.
status get_count_c(const msg_status& st, type_object& t, std::int64_t& count) {
  if (t.size == 0)
    count = st.bytes == 0 ? 0 : MPI_UNDEFINED;
  else
    count = st.bytes % t.size == 0 ? st.bytes / t.size : MPI_UNDEFINED;
  return status::ok();
}

}  // namespace mpiattr::api
