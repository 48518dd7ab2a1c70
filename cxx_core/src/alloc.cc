// mpiattr's own operator new and the allocation-failure switch (alloc.h, docs/decisions.md D61).
#include "mpiattr/alloc.h"

#include <dlfcn.h>

#include <cstdlib>
#include <new>

namespace mpiattr::alloc {
namespace detail {
std::atomic<long> g_fail_at{0};
namespace {
std::atomic<long> g_count{0};
std::atomic<bool> g_persistent{false};
}  // namespace

bool counted_failure() noexcept {
  const long at = g_fail_at.load(std::memory_order_relaxed);
  if (at == 0) return false;  // (turned off since the caller looked)
  const long n = g_count.fetch_add(1, std::memory_order_relaxed) + 1;
  return n == at || (n > at && g_persistent.load(std::memory_order_relaxed));
}
}  // namespace detail

namespace {
thread_local std::size_t t_failed_bytes = 0;
// Remembers a failed allocation's size; returns nullptr.
void* failed(std::size_t n) noexcept {
  t_failed_bytes = n;
  return nullptr;
}
// operator new's failure: remembered, then std::bad_alloc.
[[noreturn]] void throw_failed(std::size_t n) {
  t_failed_bytes = n;
  throw std::bad_alloc();
}
}  // namespace

std::size_t last_failed_bytes() noexcept { return t_failed_bytes; }

void* bytes(std::size_t n) noexcept {
  if (should_fail()) return failed(n);
  void* p = std::malloc(n);
  return p != nullptr ? p : failed(n);
}

namespace {
// The process's operator new (the C++ library's, or a sanitizer's): ours is hidden, so the
// dynamic linker's default scope never finds it.
template <typename Fn>
Fn real(const char* symbol) {
  void* p = dlsym(RTLD_DEFAULT, symbol);
  if (p == nullptr) std::abort();  // (the C++ runtime is loaded: it is what linked this library)
  return reinterpret_cast<Fn>(p);
}
using plain_fn = void* (*)(std::size_t);
using aligned_fn = void* (*)(std::size_t, std::align_val_t);
}  // namespace

}  // namespace mpiattr::alloc

extern "C" long mpiattr_test_fail_allocation(long fail_at, int persistent) {
  using namespace mpiattr::alloc::detail;
  g_fail_at.store(0, std::memory_order_relaxed);
  const long counted = g_count.exchange(0, std::memory_order_relaxed);
  g_persistent.store(persistent != 0, std::memory_order_relaxed);
  g_fail_at.store(fail_at < 0 ? 0 : fail_at, std::memory_order_relaxed);
  return counted;
}

// operator new, for this library only (hidden: see alloc.h). operator delete is the process's.
using mpiattr::alloc::real;
using mpiattr::alloc::should_fail;
void* operator new(std::size_t n) {
  static const auto f = real<mpiattr::alloc::plain_fn>("_Znwm");
  if (should_fail()) mpiattr::alloc::throw_failed(n);
  try {
    return f(n);
  } catch (const std::bad_alloc&) {
    mpiattr::alloc::throw_failed(n);
  }
}
void* operator new[](std::size_t n) {
  static const auto f = real<mpiattr::alloc::plain_fn>("_Znam");
  if (should_fail()) mpiattr::alloc::throw_failed(n);
  try {
    return f(n);
  } catch (const std::bad_alloc&) {
    mpiattr::alloc::throw_failed(n);
  }
}
void* operator new(std::size_t n, std::align_val_t a) {
  static const auto f = real<mpiattr::alloc::aligned_fn>("_ZnwmSt11align_val_t");
  if (should_fail()) mpiattr::alloc::throw_failed(n);
  try {
    return f(n, a);
  } catch (const std::bad_alloc&) {
    mpiattr::alloc::throw_failed(n);
  }
}
void* operator new[](std::size_t n, std::align_val_t a) {
  static const auto f = real<mpiattr::alloc::aligned_fn>("_ZnamSt11align_val_t");
  if (should_fail()) mpiattr::alloc::throw_failed(n);
  try {
    return f(n, a);
  } catch (const std::bad_alloc&) {
    mpiattr::alloc::throw_failed(n);
  }
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return operator new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return operator new[](n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return operator new(n, a);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return operator new[](n, a);
  } catch (...) {
    return nullptr;
  }
}
asm(".hidden _Znwm\n\t.hidden _Znam\n\t.hidden _ZnwmSt11align_val_t\n\t.hidden _ZnamSt11align_val_t\n\t"
    ".hidden _ZnwmRKSt9nothrow_t\n\t.hidden _ZnamRKSt9nothrow_t\n\t"
    ".hidden _ZnwmSt11align_val_tRKSt9nothrow_t\n\t.hidden _ZnamSt11align_val_tRKSt9nothrow_t");
