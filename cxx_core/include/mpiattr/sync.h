// mpiattr/sync.h: synchronisation that costs nothing unless threads may call MPI concurrently.
//
// Under MPI_THREAD_SINGLE, FUNNELED and SERIALIZED no two MPI calls overlap (the application
// orders them, R11.1), so mutexes and atomic read-modify-writes are pure overhead; MPICH skips
// them too. The level is fixed by MPI_Init_thread before any object exists, and stays until
// the process ends, so a lock taken before a change can never be released after one. Lock-free
// reads (seqlock, handle tables) are the same at every level.
#pragma once
#include <atomic>
#include <mutex>
#include <thread>

namespace mpiattr::sync {

// True when MPI_THREAD_MULTIPLE was provided (and before MPI is initialised: the safe default).
extern constinit bool g_concurrent;
inline bool concurrent() { return g_concurrent; }
void set_concurrent(bool on);  // MPI_Init_thread only

class mutex {
 public:
  constexpr mutex() = default;
  void lock() {
    if (concurrent()) mu_.lock();
  }
  void unlock() {
    if (concurrent()) mu_.unlock();
  }

 private:
  std::mutex mu_;
};

// One step of a short wait for another thread: a pause, and from the 64th step on a yield of the
// processor, so that a thread preempted on an oversubscribed node gets to run.
inline void backoff(unsigned& spins) {
  if (++spins >= 64) {
    std::this_thread::yield();
    return;
  }
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// A lock for short critical sections that never block (an attribute store's writers, who run no
// callback under it, R11.1): taking it is one exchange, releasing it one store, where a mutex pair
// is two calls and two read-modify-writes. A waiter spins briefly, then yields the processor, so
// that a holder preempted on an oversubscribed node gets to run. Like mutex, it does nothing
// below MPI_THREAD_MULTIPLE.
class spinlock {
 public:
  constexpr spinlock() = default;
  void lock() {
    if (!concurrent()) return;
    if (!held_.exchange(true, std::memory_order_acquire)) [[likely]] return;
    lock_contended();
  }
  void unlock() {
    if (concurrent()) held_.store(false, std::memory_order_release);
  }
  // lock() when the lock is free; false, taking nothing, when another thread holds it.
  bool try_lock() { return !concurrent() || !held_.exchange(true, std::memory_order_acquire); }

 private:
  [[gnu::noinline]] void lock_contended() {
    for (unsigned spins = 0;;) {
      while (held_.load(std::memory_order_relaxed)) backoff(spins);
      if (!held_.exchange(true, std::memory_order_acquire)) return;
    }
  }
  std::atomic<bool> held_{false};
};

template <typename T>
inline T fetch_add(std::atomic<T>& a, T v, std::memory_order order = std::memory_order_acq_rel) {
  if (concurrent()) return a.fetch_add(v, order);
  T old = a.load(std::memory_order_relaxed);
  a.store(old + v, std::memory_order_relaxed);
  return old;
}

template <typename T>
inline bool compare_exchange(std::atomic<T>& a, T& expected, T desired) {
  if (concurrent()) return a.compare_exchange_strong(expected, desired, std::memory_order_acq_rel);
  T cur = a.load(std::memory_order_relaxed);
  if (cur != expected) {
    expected = cur;
    return false;
  }
  a.store(desired, std::memory_order_release);
  return true;
}

}  // namespace mpiattr::sync
