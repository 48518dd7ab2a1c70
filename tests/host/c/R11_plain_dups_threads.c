/* R11_plain_dups_threads.c: at MPI_THREAD_MULTIPLE, threads on every rank duplicate and free
 * datatypes and communicators whose attributes are all copied by MPI_XXX_DUP_FN and have no
 * delete callback, while the main thread frees one of those keyvals.
 *
 * MPI-4.1 §12.6.1: at MPI_THREAD_MULTIPLE concurrent calls behave as if executed in some order.
 * §8.7.2 and §6.1.10: a dup copies every attribute whose copy callback says so (MPI_XXX_DUP_FN:
 * the same value); §8.7.3: a keyval freed while attributes use it stays valid for them until
 * they are all gone, and a new keyval has no attribute on any object.
 *
 * Each object carries two plain attributes: one under a keyval that lives through the test
 * (kkeep: every copy must read its source's value) and one under a keyval the main thread frees
 * while the threads work (kgone). mpiattr over a host copies and clears such attributes without
 * its record table's lock, or in one hold of it (docs/decisions.md D32), and counts the
 * attributes of a freed keyval by a census that runs concurrently (D20): a copy the census missed
 * would let the freed keyval's index be reused while an attribute still sits under it. So,
 * afterwards, the kept objects are freed one by one, and before each free new keyvals are
 * created: none may show an attribute on any object still alive.
 *
 * If MPI_THREAD_MULTIPLE is not provided, every check is recorded as passed and the FACT
 * thread_multiple_provided says 0.
 */
#include "host_check.h"
#include "comm_turns.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#define NT 3
#define TYPE_DUPS 3000 /* per thread: datatypes are local, so many */
#define COMM_DUPS 6    /* per thread: communicators are collective, so few */
#define KEEP 4         /* objects each thread keeps of each kind */
#define NEW_KEYVALS 4

static int ktkeep = MPI_KEYVAL_INVALID, ktgone = MPI_KEYVAL_INVALID;
static int kckeep = MPI_KEYVAL_INVALID, kcgone = MPI_KEYVAL_INVALID;
static atomic_int gone_freed;
static atomic_long work_started;

struct pstate {
    int t;
    int errors, bad_values;
    int ntypes, ncomms;
    MPI_Datatype types[KEEP];
    intptr_t type_value[KEEP];
    MPI_Comm comms[KEEP];
    intptr_t comm_value[KEEP];
    MPI_Datatype tbase;
    MPI_Comm cbase;
};
static struct pstate pstates[NT];

static unsigned pnext(unsigned *r)
{
    *r = *r * 1103515245u + 12345u;
    return (*r >> 16) & 0x7FFF;
}

static intptr_t base_value(int t) { return (intptr_t)(t + 1) << 20; }

static void *plain_worker(void *arg)
{
    struct pstate *s = arg;
    unsigned r = 4242u + 31u * (unsigned)s->t; /* the same on every rank (communicators) */
    for (int i = 0; i < TYPE_DUPS; i++) {
        atomic_fetch_add(&work_started, 1);
        MPI_Datatype src = s->tbase;
        intptr_t want = base_value(s->t);
        unsigned pick = pnext(&r);
        if (s->ntypes > 0 && pick % 2 == 0) {
            int j = (int)(pick / 2 % (unsigned)s->ntypes);
            src = s->types[j];
            want = s->type_value[j];
        }
        MPI_Datatype d = MPI_DATATYPE_NULL;
        void *v = NULL;
        int f = 0;
        if (MPI_Type_dup(src, &d) != MPI_SUCCESS || d == MPI_DATATYPE_NULL) {
            s->errors++;
        } else {
            if (MPI_Type_get_attr(d, ktkeep, &v, &f) != MPI_SUCCESS || !f ||
                (intptr_t)v != want)
                s->bad_values++;
            if (s->ntypes < KEEP && pnext(&r) % 97 == 0) {
                s->types[s->ntypes] = d;
                s->type_value[s->ntypes] = want;
                s->ntypes++;
            } else if (MPI_Type_free(&d) != MPI_SUCCESS) {
                s->errors++;
            }
        }
        /* a communicator dup now and then, the same on every rank (collective); in turns over
         * MPICH (comm_turns.h): slot k * NT + t for this thread's k-th dup */
        if (i % (TYPE_DUPS / COMM_DUPS) == 0) {
            MPI_Comm c = MPI_COMM_NULL, csrc = s->ncomms > 0 && pick % 3 == 0 ? s->comms[0] : s->cbase;
            intptr_t cwant = csrc == s->cbase ? base_value(s->t) : s->comm_value[0];
            hc_turn_begin(i / (TYPE_DUPS / COMM_DUPS) * NT + s->t);
            const int rc = MPI_Comm_dup(csrc, &c);
            hc_turn_end();
            if (rc != MPI_SUCCESS || c == MPI_COMM_NULL) {
                s->errors++;
                continue;
            }
            f = 0;
            if (MPI_Comm_get_attr(c, kckeep, &v, &f) != MPI_SUCCESS || !f || (intptr_t)v != cwant)
                s->bad_values++;
            if (s->ncomms < KEEP && pick % 2 == 0) {
                s->comms[s->ncomms] = c;
                s->comm_value[s->ncomms] = cwant;
                s->ncomms++;
            } else if (MPI_Comm_free(&c) != MPI_SUCCESS) {
                s->errors++;
            }
        }
    }
    return NULL;
}

/* Whether any of NEW_KEYVALS new keyvals of each kind shows an attribute on an object still alive
 * (the bases and what the threads kept): counts such sightings. */
static int new_keyvals_see_attributes(void)
{
    int seen = 0;
    int kt[NEW_KEYVALS], kc[NEW_KEYVALS];
    for (int k = 0; k < NEW_KEYVALS; k++) {
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kt[k], NULL);
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kc[k], NULL);
    }
    for (int t = 0; t < NT; t++) {
        struct pstate *s = &pstates[t];
        for (int k = 0; k < NEW_KEYVALS; k++) {
            void *v = NULL;
            int f = 0;
            MPI_Type_get_attr(s->tbase, kt[k], &v, &f);
            seen += f != 0;
            f = 0;
            MPI_Comm_get_attr(s->cbase, kc[k], &v, &f);
            seen += f != 0;
            for (int j = 0; j < s->ntypes; j++) {
                f = 0;
                MPI_Type_get_attr(s->types[j], kt[k], &v, &f);
                seen += f != 0;
            }
            for (int j = 0; j < s->ncomms; j++) {
                f = 0;
                MPI_Comm_get_attr(s->comms[j], kc[k], &v, &f);
                seen += f != 0;
            }
        }
    }
    for (int k = 0; k < NEW_KEYVALS; k++) {
        MPI_Type_free_keyval(&kt[k]);
        MPI_Comm_free_keyval(&kc[k]);
    }
    return seen;
}

int main(int argc, char **argv)
{
    int rank;
    const int ran = hc_init_thread_multiple(&argc, &argv, &rank);

    int started = 0, free_ok = 0, errors = 0, bad_values = 0, sightings = 0, frees_ok = 1;
    long kept_types = 0, kept_comms = 0;
    if (ran) {
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &ktkeep, NULL);
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &ktgone, NULL);
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kckeep, NULL);
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kcgone, NULL);
        for (int t = 0; t < NT; t++) {
            struct pstate *s = &pstates[t];
            s->t = t;
            MPI_Type_contiguous(t + 2, MPI_INT, &s->tbase);
            MPI_Comm_dup(MPI_COMM_WORLD, &s->cbase);
            errors += MPI_Type_set_attr(s->tbase, ktkeep, (void *)base_value(t)) != MPI_SUCCESS;
            errors += MPI_Type_set_attr(s->tbase, ktgone, (void *)(base_value(t) + 1)) != MPI_SUCCESS;
            errors += MPI_Comm_set_attr(s->cbase, kckeep, (void *)base_value(t)) != MPI_SUCCESS;
            errors += MPI_Comm_set_attr(s->cbase, kcgone, (void *)(base_value(t) + 1)) != MPI_SUCCESS;
        }
        pthread_t tid[NT];
        hc_turns_start();
        for (int t = 0; t < NT; t++)
            started += pthread_create(&tid[t], NULL, plain_worker, &pstates[t]) == 0;
        /* free the keyvals at a moment that differs between ranks */
        const long free_after = (long)((rank * 1777 + 301) % (NT * TYPE_DUPS / 2));
        while (started == NT && atomic_load(&work_started) < free_after)
            sched_yield();
        free_ok = MPI_Type_free_keyval(&ktgone) == MPI_SUCCESS && ktgone == MPI_KEYVAL_INVALID;
        free_ok &= MPI_Comm_free_keyval(&kcgone) == MPI_SUCCESS && kcgone == MPI_KEYVAL_INVALID;
        atomic_store(&gone_freed, 1);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        for (int t = 0; t < NT; t++) {
            errors += pstates[t].errors;
            bad_values += pstates[t].bad_values;
            kept_types += pstates[t].ntypes;
            kept_comms += pstates[t].ncomms;
        }

        /* Free the kept objects one by one (communicators in the same order on every rank);
         * before each free, new keyvals must see nothing anywhere. */
        sightings += new_keyvals_see_attributes();
        for (int t = 0; t < NT; t++) {
            struct pstate *s = &pstates[t];
            while (s->ntypes > 0) {
                frees_ok &= MPI_Type_free(&s->types[--s->ntypes]) == MPI_SUCCESS;
                sightings += new_keyvals_see_attributes();
            }
            while (s->ncomms > 0) {
                frees_ok &= MPI_Comm_free(&s->comms[--s->ncomms]) == MPI_SUCCESS;
                sightings += new_keyvals_see_attributes();
            }
            frees_ok &= MPI_Type_free(&s->tbase) == MPI_SUCCESS;
            sightings += new_keyvals_see_attributes();
            frees_ok &= MPI_Comm_free(&s->cbase) == MPI_SUCCESS;
        }
        MPI_Type_free_keyval(&ktkeep);
        MPI_Comm_free_keyval(&kckeep);
        if (errors || bad_values || sightings || !frees_ok)
            fprintf(stderr, "rank %d: %d errors, %d wrong copies, %d attributes seen under new keyvals\n",
                    rank, errors, bad_values, sightings);
        INFO("rank0_kept_datatypes", kept_types);
        INFO("rank0_kept_communicators", kept_comms);
    }
    CHECK("R11_1_plain_dups_threads_started", !ran || started == NT);
    CHECK("R11_1_plain_dups_free_keyval_during_dups_succeeds", !ran || free_ok);
    CHECK("R11_1_plain_dups_and_frees_succeed", !ran || (errors == 0 && frees_ok));
    CHECK("R11_1_R4_plain_dups_copy_the_source_value", !ran || bad_values == 0);
    CHECK("R2_2_new_keyvals_see_no_attribute_after_keyval_freed_during_plain_dups", !ran || sightings == 0);
    report();
    MPI_Finalize();
    return 0;
}
