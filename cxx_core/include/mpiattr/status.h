// mpiattr/status.h: how the core reports failure. A status is an MPI error class (0 = success);
// the sentence saying what exactly went wrong is kept per thread until the binding turns the
// status into an error code (errors.h), so the success path carries a single int.
#pragma once
#include <cstdarg>
#include <cstddef>

#include "mpiattr/gen/constants.h"

namespace mpiattr {

class [[nodiscard]] status {
 public:
  constexpr status() = default;
  constexpr explicit status(int error_class) : class_(error_class) {}
  static constexpr status ok() { return status(); }
  constexpr bool is_ok() const { return class_ == 0; }
  constexpr int error_class() const { return class_; }

 private:
  int class_ = 0;
};

// Fails with `error_class` and remembers the printf-style detail for MPI_Error_string.
[[gnu::format(printf, 2, 3)]] status fail(int error_class, const char* fmt, ...);

// Fails with an error code a user callback returned (R4.5): the call fails with that code's
// class, and MPI_Error_string names the callback.
status callback_failed(int user_code, const char* what);

// Out of memory (docs/decisions.md D61): call inside a catch block. std::bad_alloc gives
// MPI_ERR_NO_MEM, saying how much memory for `what` could not be allocated and how much; any other exception
// MPI_ERR_INTERN. Allocates nothing, so it cannot fail in turn.
status from_exception(const char* doing) noexcept;

// Out of memory without an exception (docs/decisions.md D61): MPI_ERR_NO_MEM, saying that `bytes`
// (0: an unknown size) for `what` could not be allocated and that nothing was changed.
status out_of_memory(std::size_t bytes, const char* what) noexcept;

// An entry point's body (returning its error code) run so that no exception leaves the entry
// point (D61): one it throws becomes from_exception's status, which raise(status) raises on the
// error handler the body chose, returning the code. The call objects of the standalone and host
// entry points (bindings_c/c_glue.h, runtime_host/host_glue.h) wrap it as call::guarded.
template <typename Body, typename Raise>
inline __attribute__((always_inline)) int guarded(Body&& body, Raise&& raise) {
  status st;
  try {
    return body();
  } catch (...) {
    st = from_exception("its work");
  }
  return raise(st);
}

// A core call inside an entry point (D65): an exception it throws (std::bad_alloc: out of memory)
// becomes from_exception's status, returned like any failure, so that the entry point still writes
// its outputs as a failed call leaves them (the null handles: the core publishes no object before
// everything it needs is allocated). guarded() around the whole body stays for the binding's own
// allocations (an array converted before the call).
template <typename Core>
inline __attribute__((always_inline)) status caught(Core&& core) noexcept {
  try {
    return core();
  } catch (...) {
    return from_exception("its work");
  }
}

namespace detail {
// The detail of the last fail() on this thread, and the user code of callback_failed().
const char* last_detail();
int last_user_code();
void clear_last();
}  // namespace detail

}  // namespace mpiattr
