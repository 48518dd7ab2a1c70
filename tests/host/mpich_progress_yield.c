/* tests/host/mpich_progress_yield.c: a test-harness shim, preloaded into MPICH's ranks by the
 * host tests (hostrun.py, HOSTRUN_MPICH_YIELD), that makes a waiting rank give up its core.
 *
 * Debian's MPICH 4.0.2 (ch4:ucx) waits by polling: its progress loop calls ucp_worker_progress()
 * and never yields. The host tests run 4 ranks on a 2-core machine, so a rank that waits for
 * another keeps a core until the scheduler's time slice ends, and every collective step costs
 * a slice: a program of a few hundred collectives took 5-6 s, and the MPICH host tests were
 * most of the suite's time. Yielding when UCX reports no progress lets the rank that has work
 * run at once (the same program: 0.5 s). Only the order in which ranks are scheduled changes:
 * MPICH's code and results are its own. Where MPICH does not use UCX the shim is never called.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <string.h>

typedef unsigned (*progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker) {
  static progress_fn real;
  if (!real) {
    void *sym = dlsym(RTLD_NEXT, "ucp_worker_progress");
    memcpy(&real, &sym, sizeof real); /* object to function pointer without a cast */
  }
  unsigned events = real(worker);
  if (events == 0) sched_yield();
  return events;
}
