// mpiattr/alloc.h: every allocation mpiattr makes, and the test switch that makes one of them fail
// (docs/decisions.md D61).
//
// Out of memory is an error, never an abort: each routine that allocates catches std::bad_alloc
// at its entry point and returns MPI_ERR_NO_MEM, having changed nothing. To test that, every
// allocation mpiattr's own code makes goes through one place: operator new (all its throwing and
// nothrow forms, plain and aligned) is replaced *inside each mpiattr library only* (alloc.cc
// defines it with hidden visibility, so the program's, the host MPI's and the other libraries'
// allocations never see it; the memory comes from the process's real operator new, and is freed
// by the ordinary operator delete), and the core's malloc calls use alloc::bytes. The switch,
// off unless a test sets it, makes the Nth of these allocations fail (or the Nth and every later
// one), so that a test can fail the 1st, 2nd, ... allocation of an operation in turn.
#pragma once
#include <atomic>
#include <cstddef>

namespace mpiattr::alloc {

namespace detail {
extern std::atomic<long> g_fail_at;  // 0: the switch is off
bool counted_failure() noexcept;      // the switch is on: counts this allocation
}  // namespace detail

// Whether the allocation about to be made must fail (one load when the switch is off).
inline bool should_fail() noexcept {
  if (detail::g_fail_at.load(std::memory_order_relaxed) == 0) [[likely]] return false;
  return detail::counted_failure();
}

// The size of this thread's last allocation that failed (0: none yet), for the message.
std::size_t last_failed_bytes() noexcept;

// std::malloc, or nullptr when the switch says this allocation fails.
void* bytes(std::size_t n) noexcept;

}  // namespace mpiattr::alloc

// The test interface (exported from libmpiattr and the host libraries; declared in no public
// header): arms the switch so that the `fail_at`th allocation from now fails, and with
// `persistent` every later one too (fail_at 0 turns it off); returns the number of allocations
// counted since the previous call. A test reaches it through dlsym(RTLD_DEFAULT, ...), so that the
// same program runs over a host MPI.
extern "C" __attribute__((visibility("default"))) long mpiattr_test_fail_allocation(long fail_at, int persistent);
