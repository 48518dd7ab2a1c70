/* R6_type_caching.c: caching on datatypes, every rank.
 *
 * MPI-4.1 §8.7.4: set/get/delete on datatypes (derived and predefined), the delete callback on
 * replace and delete; §6.1.10: MPI_TYPE_DUP runs the copy callbacks (MPI_TYPE_DUP_FN copies,
 * MPI_TYPE_NULL_COPY_FN does not, user callbacks with flag 0/1) with the old type's handle;
 * §8.7.4: MPI_TYPE_FREE runs the delete callbacks. The delete callbacks belong to the free call,
 * also when another datatype built from the freed one still exists: §6.1.9 says such datatypes
 * are not affected by the free, and nothing lets the freed datatype's attributes outlive the
 * call (the handle is MPI_DATATYPE_NULL afterwards, so nothing can reach them). The derived
 * datatypes MPI_TYPE_GET_CONTENTS returns are the program's to free, and freeing them deletes no
 * attribute of the datatypes they name (§6, decoding a datatype); a predefined datatype cannot be
 * freed, and the failed free leaves its attributes (D24, D132).
 */
#include "host_check.h"

#include <stdint.h>

struct call { MPI_Datatype type; int key; void *value; void *extra; };
#define MAXLOG 32
static struct call copy_log[MAXLOG], del_log[MAXLOG];
static int ncopy, ndel;
static int extra_c, extra_d;

static int copy_plus_one(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    if (ncopy < MAXLOG)
        copy_log[ncopy] = (struct call){t, key, in, extra};
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_flag0(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    if (ncopy < MAXLOG)
        copy_log[ncopy] = (struct call){t, key, in, extra};
    ncopy++;
    *flag = 0;
    return MPI_SUCCESS;
}

static int record_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    if (ndel < MAXLOG)
        del_log[ndel] = (struct call){t, key, value, extra};
    ndel++;
    return MPI_SUCCESS;
}

static int tdup, tnull, tplus, tzero;

static int get(MPI_Datatype t, int key, int *flag, intptr_t *val)
{
    void *v = NULL;
    *flag = -1;
    int rc = MPI_Type_get_attr(t, key, &v, flag);
    *val = (intptr_t)v;
    return rc;
}

/* set/get/replace/delete on one datatype; checks "R4_type_<tag>_..." */
static void basic(MPI_Datatype t, const char *tag, int rank)
{
    char name[128];
    int f, rc;
    intptr_t v;
#define NAME(what) (snprintf(name, sizeof name, "R4_type_%s_%s", tag, what), name)
    rc = get(t, tdup, &f, &v);
    CHECK(NAME("get_unset_flag_false"), rc == MPI_SUCCESS && f == 0);
    ndel = 0;
    rc = MPI_Type_set_attr(t, tdup, (void *)(intptr_t)(10 + rank));
    rc |= get(t, tdup, &f, &v);
    CHECK(NAME("set_get_round_trip"), rc == MPI_SUCCESS && f == 1 && v == 10 + rank && ndel == 0);
    rc = MPI_Type_set_attr(t, tdup, (void *)(intptr_t)(20 + rank));
    CHECK(NAME("replace_runs_delete_callback_on_old_value"),
          rc == MPI_SUCCESS && ndel == 1 && del_log[0].type == t && del_log[0].key == tdup &&
              (intptr_t)del_log[0].value == 10 + rank && del_log[0].extra == &extra_d);
    rc = get(t, tdup, &f, &v);
    CHECK(NAME("replace_stores_new_value"), rc == MPI_SUCCESS && f == 1 && v == 20 + rank);
    ndel = 0;
    rc = MPI_Type_delete_attr(t, tdup);
    CHECK(NAME("delete_runs_delete_callback"),
          rc == MPI_SUCCESS && ndel == 1 && (intptr_t)del_log[0].value == 20 + rank &&
              del_log[0].type == t);
    rc = get(t, tdup, &f, &v);
    CHECK(NAME("get_after_delete_flag_false"), rc == MPI_SUCCESS && f == 0);
#undef NAME
}


/* D125: 40 keyvals, so that a datatype's attributes lie in every part of its store (the hot
 * part's first slots, the cold part's, and a chunk beyond), set in five patterns (a few; more
 * than a few, all copied by MPI_TYPE_DUP_FN, within the first chunk and beyond it; all; a few
 * scattered), key 7 copied by a user callback, keys 7 and 38 with a delete callback (the others
 * are what a dup copies wholesale: MPI_TYPE_DUP_FN, no delete callback): a dup and a dup of the dup hold
 * exactly what their original holds, after deletions too, and the frees run each delete once. */
#define NMANY 40
static int many_keys[NMANY];
static int many_deleted;
static int count_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    (void)t, (void)key, (void)value, (void)extra;
    many_deleted++;
    return MPI_SUCCESS;
}
/* Whether t holds exactly the keys whose bit is set in `present` (key i with value base + i, the
 * user-copied key 7 with base + 7 + plus). */
static int holds_exactly(MPI_Datatype t, unsigned long long present, intptr_t base, int plus)
{
    int ok = 1;
    for (int i = 0; i < NMANY; i++) {
        int f = -1;
        intptr_t v = 0;
        ok &= get(t, many_keys[i], &f, &v) == MPI_SUCCESS;
        const int want = (int)((present >> i) & 1ull);
        ok &= f == want && (!want || v == base + i + (i == 7 ? plus : 0));
    }
    return ok;
}
static int many_round(unsigned long long present, intptr_t base)
{
    MPI_Datatype t, d, e;
    int ok = 1, n = 0;
    MPI_Type_contiguous(3, MPI_INT, &t);
    for (int i = 0; i < NMANY; i++)
        if ((present >> i) & 1ull) {
            ok &= MPI_Type_set_attr(t, many_keys[i], (void *)(base + i)) == MPI_SUCCESS;
            n++;
        }
    ok &= MPI_Type_dup(t, &d) == MPI_SUCCESS && MPI_Type_dup(d, &e) == MPI_SUCCESS;
    ok &= holds_exactly(t, present, base, 0) && holds_exactly(d, present, base, 1) && holds_exactly(e, present, base, 2);
    /* every third key goes, then a dup of what is left */
    unsigned long long left = present;
    for (int i = 0; i < NMANY; i += 3)
        if ((present >> i) & 1ull) {
            ok &= MPI_Type_delete_attr(d, many_keys[i]) == MPI_SUCCESS;
            left &= ~(1ull << i);
        }
    MPI_Datatype g;
    ok &= MPI_Type_dup(d, &g) == MPI_SUCCESS && holds_exactly(g, left, base, 2) && holds_exactly(d, left, base, 1);
    /* the frees: one delete callback per attribute under a counted key (7 and 38) */
    many_deleted = 0;
    const unsigned long long counted = (1ull << 7) | (1ull << 38);
    const int kept = __builtin_popcountll(left & counted), all = __builtin_popcountll(present & counted);
    MPI_Type_free(&g);
    MPI_Type_free(&e);
    MPI_Type_free(&d);
    MPI_Type_free(&t);
    return ok && n > 0 && many_deleted == kept + all + all + kept;
}

int main(int argc, char **argv)
{
    int rank, rc, f;
    intptr_t v;
    MPI_Datatype t, t2, t3, saved;

    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, record_delete, &tdup, &extra_d);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete, &tnull, &extra_d);
    MPI_Type_create_keyval(copy_plus_one, record_delete, &tplus, &extra_c);
    MPI_Type_create_keyval(copy_flag0, MPI_TYPE_NULL_DELETE_FN, &tzero, &extra_c);

    /* ---- set/get/delete on a derived datatype and on a predefined one ---- */
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
    basic(t, "derived", rank);
    basic(MPI_INT, "predefined", rank);
    basic(MPI_DOUBLE, "predefined2", rank);

    /* ---- two keys set in the reverse of their creation order: each replace and delete finds
     * its own attribute ---- */
    {
        int ka, kb, ok = 1;
        MPI_Datatype tt;
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete, &ka, &extra_d);
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete, &kb, &extra_d);
        MPI_Type_contiguous(2, MPI_INT, &tt);
        ok &= MPI_Type_set_attr(tt, kb, (void *)(intptr_t)1) == MPI_SUCCESS;
        ok &= MPI_Type_set_attr(tt, ka, (void *)(intptr_t)2) == MPI_SUCCESS;
        ndel = 0;
        ok &= MPI_Type_set_attr(tt, ka, (void *)(intptr_t)3) == MPI_SUCCESS;
        CHECK("R4_type_replace_key_set_after_a_newer_key_runs_delete_callback",
              ok && ndel == 1 && (intptr_t)del_log[0].value == 2 && del_log[0].key == ka);
        ndel = 0;
        rc = MPI_Type_delete_attr(tt, ka);
        rc |= get(tt, ka, &f, &v);
        CHECK("R4_type_delete_key_set_after_a_newer_key_removes_it",
              rc == MPI_SUCCESS && f == 0 && ndel == 1 && (intptr_t)del_log[0].value == 3);
        rc = get(tt, kb, &f, &v);
        CHECK("R4_type_other_key_untouched", rc == MPI_SUCCESS && f == 1 && v == 1);
        ndel = 0;
        MPI_Type_free(&tt);
        CHECK("R4_type_free_deletes_exactly_the_remaining_attribute",
              ndel == 1 && (intptr_t)del_log[0].value == 1);
        MPI_Type_free_keyval(&ka);
        MPI_Type_free_keyval(&kb);
    }

    /* ---- MPI_Type_dup ---- */
    MPI_Type_set_attr(t, tdup, (void *)(intptr_t)(100 + rank));
    MPI_Type_set_attr(t, tnull, (void *)(intptr_t)(200 + rank));
    MPI_Type_set_attr(t, tplus, (void *)(intptr_t)(300 + rank));
    MPI_Type_set_attr(t, tzero, (void *)(intptr_t)(400 + rank));
    ncopy = 0;
    t2 = MPI_DATATYPE_NULL;
    rc = MPI_Type_dup(t, &t2);
    CHECK("R6_type_dup_succeeds", rc == MPI_SUCCESS && t2 != MPI_DATATYPE_NULL && t2 != t);
    int plus = -1, zero = -1;
    for (int i = 0; i < ncopy && i < MAXLOG; i++) {
        if (copy_log[i].key == tplus)
            plus = i;
        if (copy_log[i].key == tzero)
            zero = i;
    }
    CHECK("R6_type_dup_runs_user_copy_callbacks_once", ncopy == 2 && plus >= 0 && zero >= 0);
    CHECK("R6_type_dup_copy_callback_gets_old_type",
          plus >= 0 && zero >= 0 && copy_log[plus].type == t && copy_log[zero].type == t &&
              (intptr_t)copy_log[plus].value == 300 + rank && copy_log[plus].extra == &extra_c);
    MPI_Datatype d = t2 != MPI_DATATYPE_NULL ? t2 : MPI_INT;
    rc = get(d, tdup, &f, &v);
    CHECK("R6_type_dup_TYPE_DUP_FN_copies", rc == MPI_SUCCESS && f == 1 && v == 100 + rank);
    rc = get(d, tnull, &f, &v);
    CHECK("R6_type_dup_TYPE_NULL_COPY_FN_copies_nothing", rc == MPI_SUCCESS && f == 0);
    rc = get(d, tplus, &f, &v);
    CHECK("R6_type_dup_user_flag1_stores_value_out", rc == MPI_SUCCESS && f == 1 && v == 301 + rank);
    rc = get(d, tzero, &f, &v);
    CHECK("R6_type_dup_user_flag0_copies_nothing", rc == MPI_SUCCESS && f == 0);

    /* free the dup (nothing built from it): its two delete callbacks, at the call */
    ndel = 0;
    saved = t2;
    rc = MPI_ERR_TYPE;
    if (t2 != MPI_DATATYPE_NULL)
        rc = MPI_Type_free(&t2);
    int handle_ok = ndel > 0;
    for (int i = 0; i < ndel && i < MAXLOG; i++)
        handle_ok &= del_log[i].type == saved;
    CHECK("R4_type_free_of_dup_runs_delete_callbacks_at_the_call",
          rc == MPI_SUCCESS && t2 == MPI_DATATYPE_NULL && ndel == 2 && handle_ok);

    /* free the original (its dup is gone): three delete callbacks (tdup, tnull, tplus) */
    ndel = 0;
    saved = t;
    rc = MPI_Type_free(&t);
    handle_ok = ndel > 0;
    for (int i = 0; i < ndel && i < MAXLOG; i++)
        handle_ok &= del_log[i].type == saved;
    CHECK("R4_type_free_runs_delete_callbacks_at_the_call",
          rc == MPI_SUCCESS && t == MPI_DATATYPE_NULL && ndel == 3 && handle_ok);

    /* ---- free while a datatype built from it exists (MPI_Type_contiguous(2, t)) ---- */
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_set_attr(t, tnull, (void *)(intptr_t)(500 + rank));
    MPI_Type_contiguous(2, t, &t3);
    MPI_Type_commit(&t3);
    ndel = 0;
    saved = t;
    rc = MPI_Type_free(&t);
    int at_call = ndel;
    CHECK("R4_type_free_with_dependent_runs_delete_callback_at_the_call",
          rc == MPI_SUCCESS && at_call == 1 && del_log[0].type == saved &&
              (intptr_t)del_log[0].value == 500 + rank);
    int sz = -1;
    MPI_Type_size(t3, &sz);
    CHECK("R4_type_free_with_dependent_leaves_dependent_intact", sz == 8 * (int)sizeof(int));
    MPI_Type_free(&t3);
    CHECK("R4_type_free_with_dependent_deletes_exactly_once", ndel == 1);
    INFO("R4_type_free_with_dependent_deletes_at_the_call", at_call);

    /* ---- free while a MPI_Type_dup copy of it exists ---- */
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_set_attr(t, tnull, (void *)(intptr_t)(600 + rank));
    MPI_Type_dup(t, &t2);
    ndel = 0;
    saved = t;
    rc = MPI_Type_free(&t);
    at_call = ndel;
    CHECK("R4_type_free_with_live_dup_runs_delete_callback_at_the_call",
          rc == MPI_SUCCESS && at_call == 1 && del_log[0].type == saved &&
              (intptr_t)del_log[0].value == 600 + rank);
    MPI_Type_free(&t2);
    CHECK("R4_type_free_with_live_dup_deletes_exactly_once", ndel == 1);

    /* ---- D132: the derived datatypes MPI_Type_get_contents returns are new datatype objects
     * the program frees (MPI-4.1 §6, decoding a datatype): freeing them deletes none of the constituents' attributes
     * (MPICH gives back the constituent's own handle with a reference of its own) ---- */
    {
        MPI_Datatype base, outer, dup_t, got[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
        int ints[4];
        MPI_Aint addrs[4];
        intptr_t val = 0;
        MPI_Type_vector(2, 1, 3, MPI_INT, &base);
        MPI_Type_set_attr(base, tnull, (void *)(intptr_t)(800 + rank));
        MPI_Type_contiguous(4, base, &outer);
        MPI_Type_dup(base, &dup_t); /* (tnull: the duplicate gets no attribute) */
        ndel = 0;
        int ok = MPI_Type_get_contents(outer, 1, 0, 1, ints, addrs, &got[0]) == MPI_SUCCESS;
        ok &= MPI_Type_free(&got[0]) == MPI_SUCCESS;
        ok &= MPI_Type_get_contents(dup_t, 0, 0, 1, ints, addrs, &got[1]) == MPI_SUCCESS;
        ok &= MPI_Type_free(&got[1]) == MPI_SUCCESS;
        rc = get(base, tnull, &f, &val);
        CHECK("R4_4_D132_freeing_get_contents_datatypes_keeps_the_constituents_attributes",
              ok && rc == MPI_SUCCESS && f == 1 && val == 800 + rank && ndel == 0);
        MPI_Type_free(&outer);
        MPI_Type_free(&dup_t);
        saved = base;
        rc = MPI_Type_free(&base);
        CHECK("R4_4_D132_constituent_free_after_get_contents_deletes_once",
              rc == MPI_SUCCESS && ndel == 1 && del_log[0].type == saved && (intptr_t)del_log[0].value == 800 + rank);
        /* The handle values given again carry nothing. */
        int inherited = 0;
        for (int i = 0; i < 4; i++) {
            MPI_Type_vector(2, 1, 3 + i, MPI_INT, &t);
            get(t, tnull, &f, &val);
            inherited += f != 0;
            MPI_Type_free(&t);
        }
        CHECK("R4_4_D132_handles_after_get_contents_carry_no_attribute", inherited == 0 && ndel == 1);
    }

    /* ---- D132: a datatype the host names predefined (MPI_Type_get_envelope: MPI_COMBINER_NAMED,
     * or one of the predefined datatypes MPI_Type_create_f90_* return) cannot be freed; the failed free
     * deletes none of its attributes ---- */
    {
        MPI_Datatype pre[3];
        int npre = 0, kept = 0, refused = 0;
#if defined(MPICH)
        pre[npre++] = MPI_UB; /* (removed in MPI-3.0; still in MPICH's mpi.h) */
        pre[npre++] = MPI_LB;
#elif defined(OPEN_MPI)
        pre[npre++] = MPI_2COMPLEX;
#endif
#if !defined(MPICH) /* MPICH alone frees it, then fails an assertion in MPI_Finalize */
        MPI_Type_create_f90_integer(9, &pre[npre++]);
#endif
        for (int i = 0; i < npre; i++) {
            intptr_t val = 0;
            MPI_Datatype p = pre[i];
            MPI_Type_set_attr(pre[i], tnull, (void *)(intptr_t)(900 + i));
            ndel = 0;
            rc = MPI_Type_free(&p);
            int cls = MPI_SUCCESS;
            MPI_Error_class(rc, &cls);
            refused += rc != MPI_SUCCESS && cls == MPI_ERR_TYPE;
            get(pre[i], tnull, &f, &val);
            kept += f == 1 && val == 900 + i && ndel == 0;
            MPI_Type_delete_attr(pre[i], tnull);
        }
        CHECK("R4_5_D132_free_of_a_host_predefined_datatype_is_refused", refused == npre);
        CHECK("R4_5_D132_refused_free_keeps_the_predefined_datatypes_attributes", kept == npre);
    }

    /* ---- a freed type keyval keeps its callbacks while in use ---- */
    int tk, tk_saved;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, record_delete, &tk, &extra_d);
    tk_saved = tk;
    MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Type_set_attr(t, tk, (void *)(intptr_t)(700 + rank));
    rc = MPI_Type_free_keyval(&tk);
    CHECK("R2_type_free_keyval_sets_invalid", rc == MPI_SUCCESS && tk == MPI_KEYVAL_INVALID);
    ndel = 0;
    MPI_Type_free(&t);
    CHECK("R2_type_freed_keyval_delete_callback_runs_at_type_free",
          ndel == 1 && del_log[0].key == tk_saved && (intptr_t)del_log[0].value == 700 + rank);

    /* ---- D125: attributes in every part of the store ---- */
    for (int i = 0; i < NMANY; i++)
        MPI_Type_create_keyval(i == 7 ? copy_plus_one : MPI_TYPE_DUP_FN,
                               i == 7 || i == 38 ? count_delete : MPI_TYPE_NULL_DELETE_FN, &many_keys[i], NULL);
    ncopy = 0;
    CHECK("R6_2_D125_type_a_few_attributes_around_the_hot_part_survive_dup_and_free",
          many_round(0x3Cull, 1000 + 100 * rank)); /* keys 2-5 */
    CHECK("R6_2_D125_type_eleven_plain_attributes_survive_dup_and_free", many_round(0xF7Full, 2000 + 100 * rank));
    CHECK("R6_2_D125_type_thirty_eight_plain_attributes_survive_dup_and_free",
          many_round(((1ull << NMANY) - 1) & ~((1ull << 7) | (1ull << 38)), 5000 + 100 * rank));
    CHECK("R6_2_D125_type_forty_attributes_survive_dup_and_free", many_round((1ull << NMANY) - 1, 3000 + 100 * rank));
    CHECK("R6_2_D125_type_attributes_hot_cold_and_beyond_survive_dup_and_free",
          many_round((1ull << 1) | (1ull << 7) | (1ull << 20) | (1ull << 39), 4000 + 100 * rank));
    for (int i = 0; i < NMANY; i++)
        MPI_Type_free_keyval(&many_keys[i]);

    MPI_Type_free_keyval(&tdup);
    MPI_Type_free_keyval(&tnull);
    MPI_Type_free_keyval(&tplus);
    MPI_Type_free_keyval(&tzero);
    report();
    MPI_Finalize();
    return 0;
}
