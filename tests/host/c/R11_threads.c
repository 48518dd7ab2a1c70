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
 * If MPI_THREAD_MULTIPLE is not provided, every check is recorded as passed and the FACT
 * thread_multiple_provided says 0. No windows here: Open MPI's osc/pt2pt refuses them at
 * MPI_THREAD_MULTIPLE.
 */
#include "host_check.h"

#include <pthread.h>
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
    if (MPI_Comm_dup(base[t], &mine) != MPI_SUCCESS) {
        fail(s, &s->dup_errors, "dup of base", -1);
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
            rc = MPI_Comm_dup(mine, &d2);
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

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int ran = provided == MPI_THREAD_MULTIPLE;
    FACT("thread_multiple_provided", ran);

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
    report();
    MPI_Finalize();
    return 0;
}
