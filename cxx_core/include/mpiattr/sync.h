// mpiattr/sync.h: synchronisation that costs nothing unless threads may call MPI concurrently.
//
// Under MPI_THREAD_SINGLE, FUNNELED and SERIALIZED no two MPI calls overlap (the application
// orders them, R11.1), so mutexes and atomic read-modify-writes are pure overhead; MPICH skips
// them too. The level is fixed by MPI_Init_thread before any object exists, and stays until
// the process ends, so a lock taken before a change can never be released after one. Lock-free
// reads (seqlock, handle tables) are the same at every level.
#pragma once
#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
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

// Per-thread places without thread_local (D119): reaching a thread_local of a shared library costs
// a call of __tls_get_addr. A table of 2^Bits places, each found from the thread's pointer (its
// TCB's address: one load from %fs, unique among live threads) and owned by one thread from its
// claim() until it ends, when a pthread key's destructor `ended` (the user's: it gives back what
// the place held, then calls release()) runs with the place. A thread whose place another live
// thread owns gets none: the user takes its way without. Place has `std::atomic<std::uintptr_t>
// owner` (0: nobody's); only the owner uses the rest of it. claim() and release() are called
// under a lock of the user's, which orders the changes of owner.
template <typename Place, unsigned Bits>
class thread_places {
 public:
  static std::uintptr_t self() { return reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer()); }
  // The calling thread's place, if it owns it.
  Place* own() {
    const std::uintptr_t me = self();
    Place& p = places_[place_of(me)];
    return p.owner.load(std::memory_order_relaxed) == me ? &p : nullptr;
  }
  // The calling thread's place, claimed if nobody owns it; null if another thread does, or if the
  // key that frees it when the thread ends cannot be set.
  template <void (*Ended)(void*)>
  Place* claim() {
    static const pthread_key_t* key = [] {
      static pthread_key_t k;
      return pthread_key_create(&k, Ended) == 0 ? &k : nullptr;
    }();
    const std::uintptr_t me = self();
    Place& p = places_[place_of(me)];
    const std::uintptr_t owner = p.owner.load(std::memory_order_relaxed);
    if (owner == me) return &p;
    if (owner != 0 || key == nullptr || pthread_setspecific(*key, &p) != 0) return nullptr;
    p.owner.store(me, std::memory_order_relaxed);
    return &p;
  }
  // From the destructor: whether the place is still the ending thread's (then it frees it).
  static bool release(Place& p) {
    if (p.owner.load(std::memory_order_relaxed) != self()) return false;
    p.owner.store(0, std::memory_order_relaxed);
    return true;
  }
  Place* begin() { return places_; }
  Place* end() { return places_ + (std::size_t{1} << Bits); }

 private:
  static std::size_t place_of(std::uintptr_t t) {
    return static_cast<std::size_t>((t * 0x9E3779B97F4A7C15ull) >> (64 - Bits));
  }
  Place places_[std::size_t{1} << Bits];
};

}  // namespace mpiattr::sync
