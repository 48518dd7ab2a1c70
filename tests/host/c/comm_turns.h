/* comm_turns.h: communicator creation from several threads of a rank, in turns over MPICH.
 *
 * Include after host_check.h. Used by the MPI_THREAD_MULTIPLE tests whose threads each duplicate
 * communicators of their own (R11_threads.c, R11_plain_dups_threads.c).
 *
 * MPI-4.1 §12.6.1 allows that: threads may call collective routines at the same time on
 * different communicators. Debian's MPICH 4.0.2 can stall for good when they do: its threads
 * allocate context ids under one global mutex, which a waiting thread can lose again and again to
 * another (pmodels/mpich#3794, closed without a fix: "posix mutex monopoly"; a ticket-lock build
 * avoids it). Here it was caught with MPICH
 * alone, no mpiattr in the process: under load, now and then, three threads of rank 0 sat in
 * PMPI_Comm_dup for over two minutes while its main thread waited for them (docs/decisions.md
 * D105). Over MPICH, therefore, and only there, these tests let one thread at a time create a
 * communicator, in an order fixed by the test and the same on every rank:
 *
 *   hc_turns_start()     by the main thread before each group of threads starts (no
 *                        communication); slots count from 0 again;
 *   hc_turn_begin(slot)  before a communicator-creating call: waits until every lower slot is
 *                        done. A thread's slots must increase, and slot s must belong to the
 *                        same thread on every rank (e.g. slot = k * nthreads + t for thread t's
 *                        k-th call), and every slot below the last one must be taken;
 *   hc_turn_end()        after the call, whatever it returned.
 *
 * Everything else the threads do (attribute calls, datatype dups, frees, the keyval free in the
 * main thread) stays concurrent with the creating call, so the caching paths are exercised as
 * before; on Open MPI and standalone mpiattr the creating calls themselves are concurrent too.
 * INFO comm_creation_in_turns records which applied.
 */
#ifndef COMM_TURNS_H
#define COMM_TURNS_H

#include <sched.h>
#include <stdatomic.h>

static atomic_int hc_turn;
static int hc_in_turns = -1; /* -1: not yet known */

static inline void hc_turns_start(void)
{
    if (hc_in_turns < 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        version[0] = '\0';
        MPI_Get_library_version(version, &len);
        hc_in_turns = strncmp(version, "MPICH", 5) == 0;
        INFO("comm_creation_in_turns", hc_in_turns);
    }
    atomic_store(&hc_turn, 0);
}

static inline void hc_turn_begin(int slot)
{
    if (hc_in_turns > 0)
        while (atomic_load(&hc_turn) != slot)
            sched_yield();
}

static inline void hc_turn_end(void)
{
    if (hc_in_turns > 0)
        atomic_fetch_add(&hc_turn, 1);
}

#endif
