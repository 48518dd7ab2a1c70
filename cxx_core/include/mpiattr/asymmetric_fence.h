// mpiattr/asymmetric_fence.h: a fence whose cost falls on one side. The dup and free of plain
// attributes at MPI_THREAD_MULTIPLE mark what they change (a host record busy, D32; a standalone
// dup's new object in its thread's slot, a free's object dropping, D73) and then read whether a
// census of lazy counting has begun (D20); the census marks that it has begun and then reads the
// marks. Each side needs its store ordered before its load (a store-load fence), or both could
// miss the other. The dups and frees run all the time, a census only when a used keyval is freed:
// so they order theirs with a compiler barrier alone (light), and the census with membarrier(2),
// which makes every running thread of the process execute a full fence (heavy). Linux 4.14 on;
// where the kernel refuses, enable() says so and the dups and frees take locks instead
// (docs/decisions.md D32, D73).
#pragma once
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace mpiattr::asymmetric {

inline constinit bool g_enabled = false;

// Registers the process for heavy fences, once, at MPI_THREAD_MULTIPLE; whether it may use them.
inline bool enable() {
  if (!g_enabled)
    g_enabled = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  return g_enabled;
}
inline bool enabled() { return g_enabled; }

inline void light() { std::atomic_signal_fence(std::memory_order_seq_cst); }
// (Without enable(), no thread has made a light fence: nothing to order.)
inline void heavy() {
  if (g_enabled) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

}  // namespace mpiattr::asymmetric
