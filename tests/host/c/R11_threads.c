/* R11_threads.c: caching from 4 threads per rank at MPI_THREAD_MULTIPLE.
 *
 * MPI-4.1 §12.6.1 (MPI and threads): at MPI_THREAD_MULTIPLE all MPI calls are thread-safe and
 * concurrent calls behave as if executed in some order; §20.3.8: the same callback may run
 * concurrently in several threads. Each thread: creates and frees keyvals of its own, duplicates
 * its own communicator (one thread per communicator: base[t] is duplicated only by thread t, on
 * every rank, so the collective calls match), then sets, gets and deletes thousands of times on
 * it and on MPI_COMM_WORLD (with a key of its own, created by the main thread: keyvals shared
 * between threads, one object, different keys) and checks every value and callback count.
 * A keyval shared by all threads (kshared) counts its callbacks atomically.
 *
 * Then (R2.2, MPI-4.1 §8.7.2: a key freed while attributes use it is really freed only once they
 * are all gone) a keyval shared by 3 threads is freed by the main thread at some moment while the
 * threads duplicate and free communicators carrying its attribute: see keyval_freed_during_dups.
 *
 * If MPI_THREAD_MULTIPLE is not provided, every check is recorded as passed and the FACT
 * thread_multiple_provided says 0. No windows here: Open MPI's osc/pt2pt refuses them at
 * MPI_THREAD_MULTIPLE.
 */
#include "host_check.h"
#include "comm_turns.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#define NT 4
#define ITERS 1500
#define NOWN 4

static MPI_Comm base[NT];
static int kworld[NT], kshared;
static atomic_long shared_copies, shared_deletes;

struct tstate {
    int t, rank;
    long own_deletes, own_copies;       /* counted by the callbacks (extra_state) */
    long expect_deletes, expect_copies; /* what the thread expects */
    long world_deletes, expect_world_deletes;
    long expect_shared_deletes, expect_shared_copies;
    int value_errors, rc_errors, torn_reads, dup_errors;
    char first[160];
};

static void fail(struct tstate *s, int *counter, const char *what, int i)
{
    if (!s->first[0])
        snprintf(s->first, sizeof s->first, "thread %d iteration %d: %s", s->t, i, what);
    (*counter)++;
}

static int own_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    ((struct tstate *)extra)->own_copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int own_delete(MPI_Comm c, int k, void *v, void *extra)
{
    ((struct tstate *)extra)->own_deletes++;
    return MPI_SUCCESS;
}

static int world_delete(MPI_Comm c, int k, void *v, void *extra)
{
    ((struct tstate *)extra)->world_deletes++;
    return MPI_SUCCESS;
}

static int shared_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    atomic_fetch_add(&shared_copies, 1);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int shared_delete(MPI_Comm c, int k, void *v, void *extra)
{
    atomic_fetch_add(&shared_deletes, 1);
    return MPI_SUCCESS;
}

static struct tstate states[NT];

static void *worker(void *arg)
{
    struct tstate *s = arg;
    const int t = s->t;
    int own[NOWN], own_set[NOWN] = {0}, rc, f;
    void *v;
    MPI_Comm mine = MPI_COMM_NULL;

    for (int j = 0; j < NOWN; j++)
        if (MPI_Comm_create_keyval(own_copy, own_delete, &own[j], s) != MPI_SUCCESS)
            fail(s, &s->rc_errors, "create_keyval", -1);
    /* turns over MPICH (comm_turns.h): slot k * NT + t for this thread's k-th dup */
    hc_turn_begin(t);
    rc = MPI_Comm_dup(base[t], &mine);
    hc_turn_end();
    if (rc != MPI_SUCCESS) {
        fail(s, &s->dup_errors, "dup of base", -1);
        for (int k = 1; k <= ITERS / 500; k++) { /* pass on this thread's later turns */
            hc_turn_begin(k * NT + t);
            hc_turn_end();
        }
        return NULL;
    }
    MPI_Comm_set_errhandler(mine, MPI_ERRORS_RETURN);

    int world_set = 0, shared_set = 0;
    for (int i = 0; i < ITERS; i++) {
        intptr_t val = ((intptr_t)t << 24) | i;
        int j = i % NOWN;
        /* own key on own communicator */
        if (own_set[j])
            s->expect_deletes++;
        rc = MPI_Comm_set_attr(mine, own[j], (void *)val);
        own_set[j] = 1;
        f = -1;
        rc |= MPI_Comm_get_attr(mine, own[j], &v, &f);
        if (rc != MPI_SUCCESS)
            fail(s, &s->rc_errors, "set/get own key", i);
        else if (f != 1 || (intptr_t)v != val)
            fail(s, &s->value_errors, "own key value", i);
        /* own key on MPI_COMM_WORLD, next to the other threads' keys */
        if (world_set)
            s->expect_world_deletes++;
        rc = MPI_Comm_set_attr(MPI_COMM_WORLD, kworld[t], (void *)val);
        world_set = 1;
        f = -1;
        rc |= MPI_Comm_get_attr(MPI_COMM_WORLD, kworld[t], &v, &f);
        if (rc != MPI_SUCCESS)
            fail(s, &s->rc_errors, "set/get world key", i);
        else if (f != 1 || (intptr_t)v != val)
            fail(s, &s->value_errors, "world key value", i);
        /* another thread's key on MPI_COMM_WORLD: unset or a value of that thread */
        int o = (t + 1) % NT;
        f = -1;
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, kworld[o], &v, &f);
        if (rc != MPI_SUCCESS)
            fail(s, &s->rc_errors, "get other thread's world key", i);
        else if (f == 1 && ((intptr_t)v >> 24) != o)
            fail(s, &s->torn_reads, "other thread's world key value", i);
        /* the shared key on this thread's communicator */
        if (shared_set)
            s->expect_shared_deletes++;
        rc = MPI_Comm_set_attr(mine, kshared, (void *)(val + 7));
        shared_set = 1;
        f = -1;
        rc |= MPI_Comm_get_attr(mine, kshared, &v, &f);
        if (rc != MPI_SUCCESS)
            fail(s, &s->rc_errors, "set/get shared key", i);
        else if (f != 1 || (intptr_t)v != val + 7)
            fail(s, &s->value_errors, "shared key value", i);
        /* deletes */
        if (i % 7 == 0) {
            int d = (j + 1) % NOWN;
            if (own_set[d]) {
                s->expect_deletes++;
                own_set[d] = 0;
                rc = MPI_Comm_delete_attr(mine, own[d]);
                f = -1;
                rc |= MPI_Comm_get_attr(mine, own[d], &v, &f);
                if (rc != MPI_SUCCESS)
                    fail(s, &s->rc_errors, "delete own key", i);
                else if (f != 0)
                    fail(s, &s->value_errors, "own key still there after delete", i);
            }
        }
        /* keyval churn: create, use, free */
        if (i % 50 == 0) {
            int tmp;
            long before = s->own_deletes;
            rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, own_delete, &tmp, s);
            rc |= MPI_Comm_set_attr(mine, tmp, (void *)val);
            f = -1;
            rc |= MPI_Comm_get_attr(mine, tmp, &v, &f);
            rc |= MPI_Comm_delete_attr(mine, tmp);
            rc |= MPI_Comm_free_keyval(&tmp);
            if (rc != MPI_SUCCESS || f != 1 || (intptr_t)v != val || tmp != MPI_KEYVAL_INVALID ||
                s->own_deletes != before + 1)
                fail(s, &s->value_errors, "temporary keyval", i);
            s->expect_deletes++;
        }
        /* a nested dup now and then (collective over this thread's communicator) */
        if (i % 500 == 250) {
            MPI_Comm d2 = MPI_COMM_NULL;
            long copies_before = s->own_copies;
            int nset = 0;
            for (int q = 0; q < NOWN; q++)
                nset += own_set[q];
            hc_turn_begin((1 + i / 500) * NT + t);
            rc = MPI_Comm_dup(mine, &d2);
            hc_turn_end();
            if (rc != MPI_SUCCESS || d2 == MPI_COMM_NULL) {
                fail(s, &s->dup_errors, "nested dup", i);
                continue;
            }
            s->expect_copies += nset;
            s->expect_shared_copies++;
            f = -1;
            rc = MPI_Comm_get_attr(d2, own[j], &v, &f);
            if (rc != MPI_SUCCESS || f != 1 || (intptr_t)v != val + 1 ||
                s->own_copies != copies_before + nset)
                fail(s, &s->value_errors, "nested dup copies", i);
            s->expect_deletes += nset;
            s->expect_shared_deletes++;
            if (MPI_Comm_free(&d2) != MPI_SUCCESS)
                fail(s, &s->dup_errors, "free nested dup", i);
        }
    }
    /* free the communicator: the remaining own attributes and the shared one are deleted */
    for (int q = 0; q < NOWN; q++)
        s->expect_deletes += own_set[q];
    s->expect_shared_deletes += shared_set;
    if (MPI_Comm_free(&mine) != MPI_SUCCESS)
        fail(s, &s->dup_errors, "free own communicator", ITERS);
    s->expect_world_deletes += world_set;
    if (MPI_Comm_delete_attr(MPI_COMM_WORLD, kworld[t]) != MPI_SUCCESS)
        fail(s, &s->rc_errors, "delete world key", ITERS);
    for (int j = 0; j < NOWN; j++)
        if (MPI_Comm_free_keyval(&own[j]) != MPI_SUCCESS || own[j] != MPI_KEYVAL_INVALID)
            fail(s, &s->rc_errors, "free_keyval", ITERS);
    return NULL;
}

/* ---- R2.2 under threads: a keyval freed while other threads duplicate what carries it ----
 *
 * The main thread sets one attribute of keyval kdup (a counting copy callback whose copy is the
 * old value + 1, and a counting delete callback) on each of DT communicators, one per thread.
 * Thread t duplicates its communicator, and its own duplicates, DUPS times, keeping some and
 * freeing the others (a fixed sequence, the same on every rank, so the collective calls match);
 * the main thread frees kdup after a number of dups that differs from rank to rank, and thread t
 * waits for that free before its second half of dups, so dups run before, during and after it.
 * Afterwards every communicator is freed.
 *
 * Standard (CHECKs): the free succeeds and sets MPI_KEYVAL_INVALID (§8.7.2); every dup and free
 * succeeds; copy and delete callbacks get values that were stored under the key (§8.7.2); the key
 * lives until its last attribute is gone and every attribute is deleted exactly once, so thread
 * t's delete callbacks number its copies + 1 (its communicator's original attribute).
 * Not the standard (FACTs: a host+mpiattr run must answer as the host alone does): a dup after
 * the free still runs the copy callback (R2.2 [I]); a saved copy of the freed handle still reads
 * the attribute on every surviving communicator while the key lives (docs/decisions.md D6).
 * What a saved handle gives once the last attribute is gone differs between implementations:
 * recorded as INFO only. */
#define DT 3
#define DUPS 8
#define DKEEP 3

static MPI_Comm dbase[DT];
static int kdup = MPI_KEYVAL_INVALID, kdup_saved = MPI_KEYVAL_INVALID;
static atomic_int kdup_freed;
static atomic_long dups_started, dcopies[DT], ddeletes[DT], dbad_values;

struct dstate {
    int t;
    int ndups, errors, d6_bad_reads;
    int nkept;
    MPI_Comm kept[DKEEP];
    intptr_t kept_value[DKEEP];
};
static struct dstate dstates[DT];

/* Values: (t + 1) << 16 | copies-from-the-original. */
static intptr_t dvalue(int t, int depth) { return ((intptr_t)(t + 1) << 16) | depth; }
static int dthread_of(void *v)
{
    intptr_t u = (intptr_t)v;
    int t = (int)(u >> 16) - 1, depth = (int)(u & 0xFFFF);
    return (u >> 16) >= 1 && (u >> 16) <= DT && depth <= DUPS ? t : -1;
}

static int dcopy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    int t = dthread_of(in);
    if (t < 0 || k != kdup_saved)
        atomic_fetch_add(&dbad_values, 1);
    else
        atomic_fetch_add(&dcopies[t], 1);
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int ddelete(MPI_Comm c, int k, void *v, void *extra)
{
    int t = dthread_of(v);
    if (t < 0 || k != kdup_saved)
        atomic_fetch_add(&dbad_values, 1);
    else
        atomic_fetch_add(&ddeletes[t], 1);
    return MPI_SUCCESS;
}

static unsigned dnext(unsigned *r)
{
    *r = *r * 1103515245u + 12345u;
    return (*r >> 16) & 0x7FFF;
}

static void *dup_worker(void *arg)
{
    struct dstate *s = arg;
    const int t = s->t;
    unsigned r = 12345u + 7919u * (unsigned)t; /* the same on every rank */
    for (int i = 0; i < DUPS; i++) {
        if (i == DUPS / 2)
            while (!atomic_load(&kdup_freed))
                sched_yield();
        MPI_Comm src = dbase[t];
        intptr_t src_value = dvalue(t, 0);
        unsigned pick = dnext(&r);
        if (s->nkept > 0 && pick % 3 != 0) {
            int j = (int)(pick / 3 % (unsigned)s->nkept);
            src = s->kept[j];
            src_value = s->kept_value[j];
        }
        MPI_Comm d = MPI_COMM_NULL;
        hc_turn_begin(i * DT + t); /* over MPICH only (comm_turns.h) */
        atomic_fetch_add(&dups_started, 1);
        const int rc = MPI_Comm_dup(src, &d);
        hc_turn_end();
        if (rc != MPI_SUCCESS || d == MPI_COMM_NULL) {
            s->errors++;
            continue;
        }
        s->ndups++;
        /* through the saved handle: the live key before the free, the freed one after (D6) */
        void *v = NULL;
        int f = -1;
        if (MPI_Comm_get_attr(d, kdup_saved, &v, &f) != MPI_SUCCESS || f != 1 ||
            (intptr_t)v != src_value + 1)
            s->d6_bad_reads++;
        if (s->nkept < DKEEP && dnext(&r) % 2 == 0) {
            s->kept[s->nkept] = d;
            s->kept_value[s->nkept] = src_value + 1;
            s->nkept++;
        } else if (MPI_Comm_free(&d) != MPI_SUCCESS) {
            s->errors++;
        }
    }
    return NULL;
}

static void keyval_freed_during_dups(int ran, int rank)
{
    int started = 0, free_ok = 0, errors = 0, d6_reads = 1, copies_match_dups = 1;
    int deletes_match = 1;
    pthread_t tid[DT];
    long total_copies = 0;
    if (ran) {
        MPI_Comm_create_keyval(dcopy, ddelete, &kdup, NULL);
        kdup_saved = kdup;
        for (int t = 0; t < DT; t++) {
            dstates[t].t = t;
            MPI_Comm_dup(MPI_COMM_WORLD, &dbase[t]);
            if (MPI_Comm_set_attr(dbase[t], kdup, (void *)dvalue(t, 0)) != MPI_SUCCESS)
                errors++;
        }
        hc_turns_start();
        for (int t = 0; t < DT; t++)
            started += pthread_create(&tid[t], NULL, dup_worker, &dstates[t]) == 0;
        /* free after 0 .. DT * DUPS / 2 - 1 dups have begun, depending on the rank */
        const long free_after = (long)((rank * 7 + 5) % (DT * DUPS / 2));
        while (started == DT && atomic_load(&dups_started) < free_after)
            sched_yield();
        int rc = MPI_Comm_free_keyval(&kdup);
        free_ok = rc == MPI_SUCCESS && kdup == MPI_KEYVAL_INVALID;
        atomic_store(&kdup_freed, 1);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);

        /* the survivors read their values through the saved handle (D6) */
        for (int t = 0; t < DT; t++) {
            struct dstate *s = &dstates[t];
            void *v = NULL;
            int f = -1;
            if (MPI_Comm_get_attr(dbase[t], kdup_saved, &v, &f) != MPI_SUCCESS || f != 1 ||
                (intptr_t)v != dvalue(t, 0))
                s->d6_bad_reads++;
            for (int j = 0; j < s->nkept; j++) {
                f = -1;
                if (MPI_Comm_get_attr(s->kept[j], kdup_saved, &v, &f) != MPI_SUCCESS || f != 1 ||
                    (intptr_t)v != s->kept_value[j])
                    s->d6_bad_reads++;
            }
        }
        /* free everything, in the same order on every rank (collective) */
        for (int t = 0; t < DT; t++) {
            struct dstate *s = &dstates[t];
            for (int j = s->nkept - 1; j >= 0; j--)
                if (MPI_Comm_free(&s->kept[j]) != MPI_SUCCESS)
                    s->errors++;
            if (MPI_Comm_free(&dbase[t]) != MPI_SUCCESS)
                s->errors++;
        }
        for (int t = 0; t < DT; t++) {
            struct dstate *s = &dstates[t];
            long c = atomic_load(&dcopies[t]), d = atomic_load(&ddeletes[t]);
            errors += s->errors;
            d6_reads &= s->d6_bad_reads == 0;
            copies_match_dups &= c == s->ndups;
            deletes_match &= d == c + 1;
            total_copies += c;
            if (d != c + 1 || c != s->ndups || s->errors || s->d6_bad_reads)
                fprintf(stderr,
                        "rank %d: keyval freed during dups, thread %d: %d dups, %ld copy "
                        "callbacks, %ld delete callbacks, %d errors, %d bad reads through the "
                        "freed handle\n",
                        rank, t, s->ndups, c, d, s->errors, s->d6_bad_reads);
        }
        /* the last attribute is gone: what the saved handle gives now (differs by MPI) */
        MPI_Comm probe;
        void *v = NULL;
        int f = -1;
        MPI_Comm_dup(MPI_COMM_WORLD, &probe);
        INFO_CLASS("R2_2_keyval_freed_during_concurrent_dups_saved_handle_after_last_attribute",
                   MPI_Comm_get_attr(probe, kdup_saved, &v, &f));
        MPI_Comm_free(&probe);
        INFO("rank0_keyval_freed_during_concurrent_dups_copies", total_copies);
    }
    CHECK("R2_2_keyval_freed_during_concurrent_dups_threads_started", !ran || started == DT);
    CHECK("R2_2_keyval_freed_during_concurrent_dups_free_keyval_succeeds", !ran || free_ok);
    CHECK("R2_2_keyval_freed_during_concurrent_dups_dups_and_frees_succeed", !ran || errors == 0);
    CHECK("R2_2_keyval_freed_during_concurrent_dups_callbacks_get_stored_values",
          !ran || atomic_load(&dbad_values) == 0);
    CHECK("R2_2_keyval_freed_during_concurrent_dups_deletes_equal_copies_plus_one",
          !ran || deletes_match);
    /* the FACTs hold on every rank: combined here, printed by rank 0 */
    int mine[2] = {copies_match_dups, d6_reads}, all[2] = {0, 0};
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    FACT("R2_2_keyval_freed_during_concurrent_dups_every_dup_runs_the_copy_callback",
         ran && all[0]);
    FACT("R2_2_D6_keyval_freed_during_concurrent_dups_saved_handle_reads_survivors",
         ran && all[1]);
}

int main(int argc, char **argv)
{
    int rank;
    const int ran = hc_init_thread_multiple(&argc, &argv, &rank);

    int started = 0;
    pthread_t tid[NT];
    if (ran) {
        MPI_Comm_create_keyval(shared_copy, shared_delete, &kshared, NULL);
        for (int t = 0; t < NT; t++) {
            states[t].t = t;
            states[t].rank = rank;
            MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, world_delete, &kworld[t], &states[t]);
            MPI_Comm_dup(MPI_COMM_WORLD, &base[t]);
        }
        hc_turns_start();
        for (int t = 0; t < NT; t++)
            started += pthread_create(&tid[t], NULL, worker, &states[t]) == 0;
        for (int t = 0; t < NT; t++)
            pthread_join(tid[t], NULL);
    }

    int values = 1, rcs = 1, torn = 1, dups = 1, own_del = 1, own_copy = 1, world_del = 1;
    long exp_shared_del = 0, exp_shared_copy = 0;
    for (int t = 0; ran && t < NT; t++) {
        struct tstate *s = &states[t];
        values &= s->value_errors == 0;
        rcs &= s->rc_errors == 0;
        torn &= s->torn_reads == 0;
        dups &= s->dup_errors == 0;
        own_del &= s->own_deletes == s->expect_deletes;
        own_copy &= s->own_copies == s->expect_copies;
        world_del &= s->world_deletes == s->expect_world_deletes;
        exp_shared_del += s->expect_shared_deletes;
        exp_shared_copy += s->expect_shared_copies;
        if (s->first[0])
            fprintf(stderr, "rank %d: first error: %s\n", rank, s->first);
    }
    CHECK("R11_threads_started", !ran || started == NT);
    CHECK("R11_threads_calls_succeed", !ran || rcs);
    CHECK("R11_threads_values_read_back", !ran || values);
    CHECK("R11_threads_no_torn_reads_of_other_threads_keys", !ran || torn);
    CHECK("R11_threads_dup_and_free_per_thread_comm", !ran || dups);
    CHECK("R11_threads_own_delete_callback_counts", !ran || own_del);
    CHECK("R11_threads_own_copy_callback_counts", !ran || own_copy);
    CHECK("R11_threads_world_key_delete_callback_counts", !ran || world_del);
    CHECK("R11_threads_shared_key_delete_callback_count",
          !ran || atomic_load(&shared_deletes) == exp_shared_del);
    CHECK("R11_threads_shared_key_copy_callback_count",
          !ran || atomic_load(&shared_copies) == exp_shared_copy);
    if (ran) {
        INFO("rank0_shared_key_delete_callbacks", (long)atomic_load(&shared_deletes));
        for (int t = 0; t < NT; t++)
            MPI_Comm_free(&base[t]);
        for (int t = 0; t < NT; t++)
            MPI_Comm_free_keyval(&kworld[t]);
        MPI_Comm_free_keyval(&kshared);
    }
    keyval_freed_during_dups(ran, rank);
    report();
    MPI_Finalize();
    return 0;
}
