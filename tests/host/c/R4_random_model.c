/* R4_random_model.c: ~3000 random caching operations per rank, checked against a model.
 *
 * Each rank, with a fixed seed derived from its rank, creates and frees keyvals of the
 * communicator and datatype kinds (copy callback MPI_XXX_DUP_FN, MPI_XXX_NULL_COPY_FN, or a user
 * callback returning flag 1 (value + 1) or flag 0; delete callback MPI_XXX_NULL_DELETE_FN or a
 * user one), sets, gets and deletes attributes, duplicates and frees communicators and
 * datatypes. A table in the program says what must be stored where and how many times each
 * user callback must have run; every result, every callback argument and every count is
 * compared with it (MPI-4.1 §8.7.2-§8.7.4: set/get/delete, delete on replace; §8.7.2, §6.1.10:
 * copy callbacks on MPI_COMM_DUP and MPI_TYPE_DUP; §8.4.3, §8.7.4: delete callbacks on
 * MPI_COMM_FREE and MPI_TYPE_FREE; §8.7.2: a freed key's attributes keep their callbacks, and
 * MPI_XXX_FREE_KEYVAL sets MPI_KEYVAL_INVALID).
 *
 * Every operation is local: the communicators are MPI_COMM_WORLD (attributes only, never
 * duplicated here) and MPI_COMM_SELF and duplicates of it, so ranks need not agree on the random
 * sequence. A datatype is freed only once no MPI_Type_dup copy of it remains: freeing one with
 * live dependents is R6_type_caching.c's business (both hosts defer its delete callbacks).
 * Only valid calls are made (bad input is R3_bad_input.c's business).
 *
 * R4_RANDOM_TRACE=<rank> in the environment prints that rank's operations on stderr.
 */
#include "host_check.h"

#include <stdint.h>

#define NOPS 3000
#define MAXK 400 /* keyval records, never reused */
#define MAXC 14  /* communicator slots: 0 WORLD, 1 SELF, the rest duplicates */
#define MAXT 20  /* datatype slots: 0 MPI_INT, the rest created */
#define LIVEK 20 /* keyvals held by the program, per kind */

enum { KCOMM, KTYPE };
enum { C_DUPFN, C_NULLFN, C_USER1, C_USER0 };
enum { D_NULLFN, D_USER };

struct keyrec {
    int handle, kind, copymode, delmode, user_live, nattrs;
    long exp_copy, got_copy, exp_del, got_del;
};

struct obj {
    int live, predefined, parent, nchildren;
    MPI_Comm comm;
    MPI_Datatype type;
    unsigned char has[MAXK];
    intptr_t val[MAXK];
};

static struct keyrec keys[MAXK];
static int nkeys;
static struct obj comms[MAXC], types[MAXT];
/* error counters, per kind (KCOMM, KTYPE) */
static long bad_callback_args[2], rc_errors[2], get_errors[2], dup_errors[2], count_errors[2],
    invalid_errors[2];
static long ops_by_kind[16];
static int cur_op;
static char first_error[256];
static int trace; /* R4_RANDOM_TRACE=1 in the environment: every operation on stderr */

#define TRACE(...) (trace ? fprintf(stderr, __VA_ARGS__) : 0)

static void note(long *counter, const char *fmt, long a, long b)
{
    if (!first_error[0]) {
        char what[160];
        snprintf(what, sizeof what, fmt, a, b);
        snprintf(first_error, sizeof first_error, "op %d: %s", cur_op, what);
    }
    (*counter)++;
}

/* ---- xorshift64*: the same sequence everywhere ---- */
static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}
static int rnd_below(int n) { return n > 0 ? (int)(rnd() % (uint32_t)n) : 0; }

static intptr_t next_value = 1000;

static int comm_slot(MPI_Comm c)
{
    for (int i = 0; i < MAXC; i++)
        if (comms[i].live && comms[i].comm == c)
            return i;
    return -1;
}

static int type_slot(MPI_Datatype t)
{
    for (int i = 0; i < MAXT; i++)
        if (types[i].live && types[i].type == t)
            return i;
    return -1;
}

/* ---- callbacks: count, and check the arguments against the model (before it changes) ---- */
static int check_args(struct obj *o, struct keyrec *r, int key, void *value)
{
    int ki = (int)(r - keys);
    return o && key == r->handle && o->has[ki] && o->val[ki] == (intptr_t)value;
}

static int comm_copy(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    struct keyrec *r = extra;
    int s = comm_slot(c);
    r->got_copy++;
    if (!check_args(s >= 0 ? &comms[s] : NULL, r, key, in))
        note(&bad_callback_args[KCOMM], "comm copy callback arguments (slot %ld, key %ld)", s,
             (long)(r - keys));
    *flag = r->copymode == C_USER1;
    if (*flag)
        *(void **)out = (void *)((intptr_t)in + 1);
    return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm c, int key, void *value, void *extra)
{
    struct keyrec *r = extra;
    int s = comm_slot(c);
    r->got_del++;
    if (!check_args(s >= 0 ? &comms[s] : NULL, r, key, value))
        note(&bad_callback_args[KCOMM], "comm delete callback arguments (slot %ld, key %ld)", s,
             (long)(r - keys));
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    struct keyrec *r = extra;
    int s = type_slot(t);
    r->got_copy++;
    if (!check_args(s >= 0 ? &types[s] : NULL, r, key, in))
        note(&bad_callback_args[KTYPE], "type copy callback arguments (slot %ld, key %ld)", s,
             (long)(r - keys));
    *flag = r->copymode == C_USER1;
    if (*flag)
        *(void **)out = (void *)((intptr_t)in + 1);
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    struct keyrec *r = extra;
    int s = type_slot(t);
    r->got_del++;
    if (!check_args(s >= 0 ? &types[s] : NULL, r, key, value))
        note(&bad_callback_args[KTYPE], "type delete callback arguments (slot %ld, key %ld)", s,
             (long)(r - keys));
    return MPI_SUCCESS;
}

/* ---- model helpers ---- */
static struct obj *objects(int kind) { return kind == KCOMM ? comms : types; }
static int nslots(int kind) { return kind == KCOMM ? MAXC : MAXT; }

static int pick_live_key(int kind)
{
    int cand[MAXK], n = 0;
    for (int i = 0; i < nkeys; i++)
        if (keys[i].kind == kind && keys[i].user_live)
            cand[n++] = i;
    return n ? cand[rnd_below(n)] : -1;
}

static int count_live_keys(int kind)
{
    int n = 0;
    for (int i = 0; i < nkeys; i++)
        n += keys[i].kind == kind && keys[i].user_live;
    return n;
}

static int pick_obj(int kind, int created_only, int leaf_only)
{
    int cand[MAXT + MAXC], n = 0;
    struct obj *o = objects(kind);
    for (int i = 0; i < nslots(kind); i++)
        if (o[i].live && (!created_only || !o[i].predefined) && (!leaf_only || o[i].nchildren == 0))
            cand[n++] = i;
    return n ? cand[rnd_below(n)] : -1;
}

static int free_slot(int kind)
{
    struct obj *o = objects(kind);
    for (int i = 0; i < nslots(kind); i++)
        if (!o[i].live)
            return i;
    return -1;
}

static int obj_set(int kind, int s, int k, void *v)
{
    return kind == KCOMM ? MPI_Comm_set_attr(comms[s].comm, keys[k].handle, v)
                         : MPI_Type_set_attr(types[s].type, keys[k].handle, v);
}

static int obj_get(int kind, int s, int k, void *v, int *f)
{
    return kind == KCOMM ? MPI_Comm_get_attr(comms[s].comm, keys[k].handle, v, f)
                         : MPI_Type_get_attr(types[s].type, keys[k].handle, v, f);
}

static int obj_delete(int kind, int s, int k)
{
    return kind == KCOMM ? MPI_Comm_delete_attr(comms[s].comm, keys[k].handle)
                         : MPI_Type_delete_attr(types[s].type, keys[k].handle);
}

/* compare every user-held key of the object with the model */
static void verify_obj(int kind, int s, long *counter)
{
    struct obj *o = &objects(kind)[s];
    for (int k = 0; k < nkeys; k++) {
        if (keys[k].kind != kind || !keys[k].user_live)
            continue;
        void *v = NULL;
        int f = -1;
        int rc = obj_get(kind, s, k, &v, &f);
        if (rc != MPI_SUCCESS)
            note(&rc_errors[kind], "get failed (slot %ld key %ld)", s, k);
        else if (f != (int)o->has[k] || (f == 1 && (intptr_t)v != o->val[k]))
            note(counter, "get differs from the model (slot %ld key %ld)", s, k);
    }
}

/* the model's part of freeing object s: delete callbacks due, attributes gone */
static void model_drop_all(struct obj *o)
{
    for (int k = 0; k < nkeys; k++)
        if (o->has[k]) {
            if (keys[k].delmode == D_USER)
                keys[k].exp_del++;
            keys[k].nattrs--;
            o->has[k] = 0;
        }
}

/* the model's part of duplicating from -> to */
static void model_copy(struct obj *from, struct obj *to)
{
    memset(to->has, 0, sizeof to->has);
    for (int k = 0; k < nkeys; k++) {
        if (!from->has[k])
            continue;
        int m = keys[k].copymode;
        if (m == C_USER1 || m == C_USER0)
            keys[k].exp_copy++;
        if (m == C_DUPFN || m == C_USER1) {
            to->has[k] = 1;
            to->val[k] = from->val[k] + (m == C_USER1);
            keys[k].nattrs++;
        }
    }
}

static void check_counts(void)
{
    for (int k = 0; k < nkeys; k++)
        if (keys[k].got_copy != keys[k].exp_copy || keys[k].got_del != keys[k].exp_del) {
            note(&count_errors[keys[k].kind], "callback counts of key %ld differ (copies %ld)", k,
                 keys[k].got_copy - keys[k].exp_copy);
            TRACE("op %d: key %d: copies %ld (model %ld), deletes %ld (model %ld)\n", cur_op, k,
                  keys[k].got_copy, keys[k].exp_copy, keys[k].got_del, keys[k].exp_del);
            /* resynchronise so that one miss is reported once */
            keys[k].exp_copy = keys[k].got_copy;
            keys[k].exp_del = keys[k].got_del;
        }
}

/* ---- operations ---- */
static void op_create_key(void)
{
    int kind = rnd_below(2);
    if (nkeys >= MAXK || count_live_keys(kind) >= LIVEK)
        return;
    struct keyrec *r = &keys[nkeys];
    r->kind = kind;
    r->copymode = rnd_below(4);
    r->delmode = rnd_below(3) ? D_USER : D_NULLFN;
    int rc;
    if (kind == KCOMM) {
        MPI_Comm_copy_attr_function *cf = r->copymode == C_DUPFN    ? MPI_COMM_DUP_FN
                                          : r->copymode == C_NULLFN ? MPI_COMM_NULL_COPY_FN
                                                                    : comm_copy;
        rc = MPI_Comm_create_keyval(cf, r->delmode == D_USER ? comm_delete : MPI_COMM_NULL_DELETE_FN,
                                    &r->handle, r);
    } else {
        MPI_Type_copy_attr_function *cf = r->copymode == C_DUPFN    ? MPI_TYPE_DUP_FN
                                          : r->copymode == C_NULLFN ? MPI_TYPE_NULL_COPY_FN
                                                                    : type_copy;
        rc = MPI_Type_create_keyval(cf, r->delmode == D_USER ? type_delete : MPI_TYPE_NULL_DELETE_FN,
                                    &r->handle, r);
    }
    if (rc != MPI_SUCCESS || r->handle == MPI_KEYVAL_INVALID) {
        note(&rc_errors[kind], "create keyval failed (kind %ld, rc %ld)", kind, rc);
        return;
    }
    r->user_live = 1;
    TRACE("op %d: create %s key %d copy %d delete %d\n", cur_op, kind == KCOMM ? "comm" : "type",
          nkeys, r->copymode, r->delmode);
    nkeys++;
    ops_by_kind[0]++;
}

static void op_free_key(void)
{
    int k = pick_live_key(rnd_below(2));
    if (k < 0)
        return;
    int h = keys[k].handle;
    int rc = keys[k].kind == KCOMM ? MPI_Comm_free_keyval(&h) : MPI_Type_free_keyval(&h);
    if (rc != MPI_SUCCESS)
        note(&rc_errors[keys[k].kind], "free keyval failed (key %ld rc %ld)", k, rc);
    if (h != MPI_KEYVAL_INVALID)
        note(&invalid_errors[keys[k].kind], "free keyval did not set MPI_KEYVAL_INVALID (key %ld)", k, 0);
    keys[k].user_live = 0; /* its attributes stay, with their callbacks */
    TRACE("op %d: free key %d (%d attributes)\n", cur_op, k, keys[k].nattrs);
    ops_by_kind[1]++;
}

static void op_set(void)
{
    int kind = rnd_below(2), k = pick_live_key(kind), s = pick_obj(kind, 0, 0);
    if (k < 0 || s < 0)
        return;
    struct obj *o = &objects(kind)[s];
    intptr_t v = next_value += 10;
    int rc = obj_set(kind, s, k, (void *)v);
    if (rc != MPI_SUCCESS) {
        note(&rc_errors[kind], "set failed (slot %ld key %ld)", s, k);
        return;
    }
    if (o->has[k]) {
        if (keys[k].delmode == D_USER)
            keys[k].exp_del++;
    } else {
        keys[k].nattrs++;
    }
    TRACE("op %d: set %s slot %d key %d = %ld%s\n", cur_op, kind == KCOMM ? "comm" : "type", s, k,
          (long)v, o->has[k] ? " (replace)" : "");
    o->has[k] = 1;
    o->val[k] = v;
    ops_by_kind[2]++;
}

static void op_get(void)
{
    int kind = rnd_below(2), k = pick_live_key(kind), s = pick_obj(kind, 0, 0);
    if (k < 0 || s < 0)
        return;
    struct obj *o = &objects(kind)[s];
    void *v = NULL;
    int f = -1;
    int rc = obj_get(kind, s, k, &v, &f);
    if (rc != MPI_SUCCESS)
        note(&rc_errors[kind], "get failed (slot %ld key %ld)", s, k);
    else if (f != (int)o->has[k] || (f == 1 && (intptr_t)v != o->val[k]))
        note(&get_errors[kind], "get differs from the model (slot %ld key %ld)", s, k);
    ops_by_kind[3]++;
}

static void op_delete(void)
{
    int kind = rnd_below(2), s = pick_obj(kind, 0, 0);
    if (s < 0)
        return;
    struct obj *o = &objects(kind)[s];
    int cand[MAXK], n = 0;
    for (int k = 0; k < nkeys; k++)
        if (o->has[k] && keys[k].user_live && keys[k].kind == kind)
            cand[n++] = k;
    if (!n)
        return;
    int k = cand[rnd_below(n)];
    int rc = obj_delete(kind, s, k);
    if (rc != MPI_SUCCESS) {
        note(&rc_errors[kind], "delete failed (slot %ld key %ld)", s, k);
        return;
    }
    TRACE("op %d: delete %s slot %d key %d\n", cur_op, kind == KCOMM ? "comm" : "type", s, k);
    if (keys[k].delmode == D_USER)
        keys[k].exp_del++;
    keys[k].nattrs--;
    o->has[k] = 0;
    ops_by_kind[4]++;
}

static void op_dup_comm(void)
{
    int to = free_slot(KCOMM);
    int cand[MAXC], n = 0;
    for (int i = 1; i < MAXC; i++) /* MPI_COMM_SELF and its duplicates, never WORLD */
        if (comms[i].live)
            cand[n++] = i;
    if (to < 0 || !n)
        return;
    int from = cand[rnd_below(n)];
    MPI_Comm nc = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(comms[from].comm, &nc);
    if (rc != MPI_SUCCESS || nc == MPI_COMM_NULL) {
        note(&rc_errors[KCOMM], "comm dup failed (slot %ld rc %ld)", from, rc);
        return;
    }
    TRACE("op %d: dup comm slot %d -> %d\n", cur_op, from, to);
    model_copy(&comms[from], &comms[to]);
    comms[to].live = 1;
    comms[to].predefined = 0;
    comms[to].comm = nc;
    verify_obj(KCOMM, to, &dup_errors[KCOMM]);
    ops_by_kind[5]++;
}

static void op_free_comm(void)
{
    int s = pick_obj(KCOMM, 1, 0);
    if (s < 0)
        return;
    MPI_Comm c = comms[s].comm;
    int rc = MPI_Comm_free(&c); /* callbacks see the slot still live, with its attributes */
    if (rc != MPI_SUCCESS)
        note(&rc_errors[KCOMM], "comm free failed (slot %ld rc %ld)", s, rc);
    if (c != MPI_COMM_NULL)
        note(&invalid_errors[KCOMM], "comm free did not set MPI_COMM_NULL (slot %ld)", s, 0);
    TRACE("op %d: free comm slot %d\n", cur_op, s);
    model_drop_all(&comms[s]);
    comms[s].live = 0;
    ops_by_kind[6]++;
}

static void op_create_type(void)
{
    int to = free_slot(KTYPE);
    if (to < 0)
        return;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_Type_contiguous(1 + rnd_below(4), MPI_INT, &t);
    if (rc != MPI_SUCCESS) {
        note(&rc_errors[KTYPE], "type contiguous failed (rc %ld)", rc, 0);
        return;
    }
    memset(types[to].has, 0, sizeof types[to].has);
    types[to].live = 1;
    types[to].predefined = 0;
    types[to].parent = -1;
    types[to].nchildren = 0;
    types[to].type = t;
    TRACE("op %d: create type slot %d\n", cur_op, to);
    ops_by_kind[7]++;
}

static void op_dup_type(void)
{
    int to = free_slot(KTYPE), from = pick_obj(KTYPE, 0, 0);
    if (to < 0 || from < 0)
        return;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_Type_dup(types[from].type, &t);
    if (rc != MPI_SUCCESS || t == MPI_DATATYPE_NULL) {
        note(&rc_errors[KTYPE], "type dup failed (slot %ld rc %ld)", from, rc);
        return;
    }
    TRACE("op %d: dup type slot %d -> %d\n", cur_op, from, to);
    model_copy(&types[from], &types[to]);
    types[to].live = 1;
    types[to].predefined = 0;
    types[to].type = t;
    types[to].nchildren = 0;
    types[to].parent = from;
    types[from].nchildren++;
    verify_obj(KTYPE, to, &dup_errors[KTYPE]);
    ops_by_kind[8]++;
}

static void op_free_type(void)
{
    int s = pick_obj(KTYPE, 1, 1);
    if (s < 0)
        return;
    MPI_Datatype t = types[s].type;
    int rc = MPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        note(&rc_errors[KTYPE], "type free failed (slot %ld rc %ld)", s, rc);
    if (t != MPI_DATATYPE_NULL)
        note(&invalid_errors[KTYPE], "type free did not set MPI_DATATYPE_NULL (slot %ld)", s, 0);
    TRACE("op %d: free type slot %d\n", cur_op, s);
    model_drop_all(&types[s]);
    types[s].live = 0;
    if (types[s].parent >= 0)
        types[types[s].parent].nchildren--;
    ops_by_kind[9]++;
}

static void op_verify(void)
{
    int kind = rnd_below(2), s = pick_obj(kind, 0, 0);
    if (s >= 0)
        verify_obj(kind, s, &get_errors[kind]);
    ops_by_kind[10]++;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    trace = getenv("R4_RANDOM_TRACE") != NULL && rank == atoi(getenv("R4_RANDOM_TRACE"));
    rng_state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(rank + 1) * 0x100000001B3ULL;

    comms[0] = (struct obj){.live = 1, .predefined = 1, .parent = -1, .comm = MPI_COMM_WORLD};
    comms[1] = (struct obj){.live = 1, .predefined = 1, .parent = -1, .comm = MPI_COMM_SELF};
    types[0] = (struct obj){.live = 1, .predefined = 1, .parent = -1, .type = MPI_INT};

    for (cur_op = 0; cur_op < NOPS; cur_op++) {
        int r = rnd_below(100);
        if (r < 6)
            op_create_key();
        else if (r < 9)
            op_free_key();
        else if (r < 39)
            op_set();
        else if (r < 57)
            op_get();
        else if (r < 69)
            op_delete();
        else if (r < 75)
            op_dup_comm();
        else if (r < 79)
            op_free_comm();
        else if (r < 84)
            op_create_type();
        else if (r < 89)
            op_dup_type();
        else if (r < 94)
            op_free_type();
        else
            op_verify();
        check_counts();
    }

    /* wind down: free created objects (datatypes leaves first), delete what can be deleted on
     * the predefined objects, free the keys; then every count must match */
    for (int s = 2; s < MAXC; s++)
        if (comms[s].live) {
            MPI_Comm c = comms[s].comm;
            if (MPI_Comm_free(&c) != MPI_SUCCESS)
                note(&rc_errors[KCOMM], "final comm free (slot %ld)", s, 0);
            model_drop_all(&comms[s]);
            comms[s].live = 0;
        }
    for (int again = 1; again;) {
        again = 0;
        for (int s = 1; s < MAXT; s++)
            if (types[s].live && types[s].nchildren == 0) {
                MPI_Datatype t = types[s].type;
                if (MPI_Type_free(&t) != MPI_SUCCESS)
                    note(&rc_errors[KTYPE], "final type free (slot %ld)", s, 0);
                model_drop_all(&types[s]);
                types[s].live = 0;
                if (types[s].parent >= 0)
                    types[types[s].parent].nchildren--;
                again = 1;
            }
    }
    for (int k = 0; k < nkeys; k++) {
        if (!keys[k].user_live)
            continue;
        struct obj *o = objects(keys[k].kind);
        int n = keys[k].kind == KCOMM ? 2 : 1;
        for (int s = 0; s < n; s++)
            if (o[s].has[k]) {
                if (obj_delete(keys[k].kind, s, k) != MPI_SUCCESS)
                    note(&rc_errors[keys[k].kind], "final delete (slot %ld key %ld)", s, k);
                if (keys[k].delmode == D_USER)
                    keys[k].exp_del++;
                keys[k].nattrs--;
                o[s].has[k] = 0;
            }
        int h = keys[k].handle;
        if ((keys[k].kind == KCOMM ? MPI_Comm_free_keyval(&h) : MPI_Type_free_keyval(&h)) !=
            MPI_SUCCESS)
            note(&rc_errors[keys[k].kind], "final free keyval (key %ld)", k, 0);
        keys[k].user_live = 0;
    }
    cur_op = NOPS;
    check_counts();

    if (first_error[0])
        fprintf(stderr, "rank %d: first error: %s\n", rank, first_error);
    for (int kind = 0; kind < 2; kind++) {
        const char *kn = kind == KCOMM ? "comm" : "type";
        char name[96];
#define RCHECK(rule, what, cond)                                                                  \
    (snprintf(name, sizeof name, "%s_random_%s_%s", rule, kn, what), CHECK(name, cond))
        RCHECK("R4", "calls_succeed", rc_errors[kind] == 0);
        RCHECK("R4", "get_matches_model", get_errors[kind] == 0);
        RCHECK("R6", "dup_result_matches_model", dup_errors[kind] == 0);
        RCHECK("R4", "callback_counts_match_model", count_errors[kind] == 0);
        RCHECK("R4", "callback_arguments_match_model", bad_callback_args[kind] == 0);
        RCHECK("R2", "free_sets_null_handles", invalid_errors[kind] == 0);
#undef RCHECK
    }
    long total = 0;
    for (int i = 0; i < 11; i++)
        total += ops_by_kind[i];
    CHECK("R4_random_enough_operations_ran", total > NOPS * 3 / 4 && ops_by_kind[5] > 20 &&
                                                 ops_by_kind[8] > 20 && ops_by_kind[1] > 10);
    INFO("rank0_operations_done", total);
    INFO("rank0_keyvals_created", nkeys);
    INFO("rank0_comm_dups", ops_by_kind[5]);
    INFO("rank0_type_dups", ops_by_kind[8]);
    long copies = 0, dels = 0;
    for (int k = 0; k < nkeys; k++) {
        copies += keys[k].got_copy;
        dels += keys[k].got_del;
    }
    INFO("rank0_copy_callbacks", copies);
    INFO("rank0_delete_callbacks", dels);
    report();
    MPI_Finalize();
    return 0;
}
