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

void proxy_release(callbacks& cbs) {
  delete static_cast<proxies*>(cbs.lang_state);
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
  auto* p = new proxies{copy, del};
  if (!mpiattr::keyvals().rebind(keyval, mpiattr::language::cxx, p).is_ok())
    delete p;
  else
    mpiattr::report::keyval_from_cxx(keyval);  // (MPIATTR_REPORT: MPICH's MPI::Comm::Create_keyval)
}
