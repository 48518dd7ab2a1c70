// MPICH's C++ bindings over host mode (built into libmpiattr_mpich only; docs/host.md).
//
// MPICH's MPI::Comm::Create_keyval (and Datatype::, Win::) creates the keyval through the C name
// MPI_Comm_create_keyval, which host mode serves, with the user's C++ functions cast to C types,
// and then calls MPII_Keyval_set_proxy(keyval, copy_proxy, delete_proxy): the host calls those
// proxies, which call the C++ functions with MPI:: objects. MPICH's own MPII_Keyval_set_proxy
// ignores a keyval of mpiattr's (docs/host-entry-points.md §4), so the C++ functions would be
// called as C functions. This definition takes the call instead: for an mpiattr keyval the core
// calls the callbacks through MPICH's proxies from then on (language::cxx in host mode); any
// other keyval goes on to MPICH's.
#include <dlfcn.h>

#include <mutex>
#include <new>

#include "host_glue.h"

namespace mpiattr::host {
namespace {

// MPICH's attribute types (mpir_attr_generic.h): how the proxy reads the value.
enum mpich_attr_type : int { kAttrPtr = 0 };
using copy_proxy = int (*)(MPI_Comm_copy_attr_function* fn, int handle, int keyval, void* extra,
                           int attr_type, void* value, void** copy, int* flag);
using delete_proxy = int (*)(MPI_Comm_delete_attr_function* fn, int handle, int keyval,
                             int attr_type, void* value, void* extra);
struct proxies {
  copy_proxy copy;
  delete_proxy del;
};

int proxy_copy(const callbacks& cbs, object_kind, std::uintptr_t old, int keyval,
               attribute_value in, const aint* stored, attribute_value* out, bool* keep) {
  auto* p = static_cast<const proxies*>(cbs.lang_state);
  void* copy = nullptr;
  int flag = 0;
  const int rc = p->copy(reinterpret_cast<MPI_Comm_copy_attr_function*>(cbs.copy),
                         static_cast<int>(old), keyval, reinterpret_cast<void*>(cbs.extra_state),
                         kAttrPtr, in.as_c(stored), &copy, &flag);
  if (rc == MPI_SUCCESS) {
    *keep = flag != 0;
    *out = attribute_value::from_c(copy);
  }
  return rc;
}

int proxy_delete(const callbacks& cbs, object_kind, std::uintptr_t obj, int keyval,
                 attribute_value v, const aint* stored) {
  auto* p = static_cast<const proxies*>(cbs.lang_state);
  return p->del(reinterpret_cast<MPI_Comm_delete_attr_function*>(cbs.del), static_cast<int>(obj),
                keyval, kAttrPtr, v.as_c(stored), reinterpret_cast<void*>(cbs.extra_state));
}

// The pairs of proxies MPICH registers: one per object kind (static functions of libmpichcxx), so
// a keyval's state is one of a few entries here, and registering allocates nothing (D61: no
// exception may leave MPII_Keyval_set_proxy). Entries are written once, under the lock, and never
// change.
constexpr int kPairs = 8;
proxies g_pairs[kPairs];
int g_npairs = 0;
std::mutex g_pairs_mu;

const proxies* shared_pair(copy_proxy copy, delete_proxy del) {
  std::lock_guard lock(g_pairs_mu);
  for (int i = 0; i < g_npairs; ++i)
    if (g_pairs[i].copy == copy && g_pairs[i].del == del) return &g_pairs[i];
  if (g_npairs == kPairs) return nullptr;
  g_pairs[g_npairs] = {copy, del};
  return &g_pairs[g_npairs++];
}

int no_memory_copy(MPI_Comm_copy_attr_function*, int, int, void*, int, void*, void**, int*) {
  return MPI_ERR_NO_MEM;
}
int no_memory_delete(MPI_Comm_delete_attr_function*, int, int, int, void*, void*) { return MPI_ERR_NO_MEM; }
proxies g_no_memory = {no_memory_copy, no_memory_delete};

void proxy_release(callbacks& cbs) {
  const auto* p = static_cast<const proxies*>(cbs.lang_state);
  const auto at = reinterpret_cast<std::uintptr_t>(p), first = reinterpret_cast<std::uintptr_t>(g_pairs);
  if (at - first >= sizeof g_pairs && p != &g_no_memory) delete p;  // (one of more than kPairs pairs)
  cbs.lang_state = nullptr;
}

// The C++ functions are never MPICH's predefined C callbacks: nothing to recognise.
const predefined_callback no_predefined[] = {{nullptr, predefined_callback::null_copy}};
const std::size_t no_predefined_count = 0;
const predefined_set g_none(no_predefined, &no_predefined_count);
const language_binding g_proxy_binding = {proxy_copy, proxy_delete, proxy_release, &g_none};

[[maybe_unused]] const bool registered = [] {
  register_language(language::cxx, &g_proxy_binding);
  return true;
}();

}  // namespace
}  // namespace mpiattr::host

extern "C" MPIATTR_EXPORT void MPII_Keyval_set_proxy(int keyval, mpiattr::host::copy_proxy copy,
                                                     mpiattr::host::delete_proxy del) {
  using namespace mpiattr::host;
  if (!owned(keyval)) {
    using set_proxy = void (*)(int, copy_proxy, delete_proxy);
    static const auto mpich = reinterpret_cast<set_proxy>(dlsym(RTLD_NEXT, "MPII_Keyval_set_proxy"));
    if (mpich != nullptr) mpich(keyval, copy, del);
    return;
  }
  const proxies* shared = shared_pair(copy, del);
  // (More than kPairs pairs, which MPICH never registers: a pair of the keyval's own. Out of memory
  // then, the keyval must not keep C callbacks, which would call the C++ functions as C ones: its
  // callbacks fail with MPI_ERR_NO_MEM instead, since this routine cannot fail.)
  proxies* p = shared ? const_cast<proxies*>(shared) : new (std::nothrow) proxies{copy, del};
  if (p == nullptr) p = &g_no_memory;
  if (!mpiattr::keyvals().rebind(keyval, mpiattr::language::cxx, p).is_ok()) {
    if (!shared && p != &g_no_memory) delete p;
  } else {
    mpiattr::report::keyval_from_cxx(keyval);  // (MPIATTR_REPORT: MPICH's MPI::Comm::Create_keyval)
  }
}
