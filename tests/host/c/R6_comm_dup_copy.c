/* R6_comm_dup_copy.c: MPI_Comm_dup, MPI_Comm_dup_with_info and MPI_Comm_idup run copy callbacks;
 * MPI_Comm_free runs delete callbacks, at the call, with the freed communicator's handle.
 *
 * MPI-4.1 §8.7.2, §8.4.2: for each attribute of the old communicator its copy callback runs with
 * the old communicator's handle, the key and extra_state; flag = 1 puts attribute_val_out on the
 * new communicator, flag = 0 leaves it off. MPI_COMM_DUP_FN copies the value, MPI_COMM_NULL_COPY_FN
 * copies nothing. MPI_COMM_DUP_WITH_INFO is MPI_COMM_DUP plus hints; MPI_COMM_IDUP behaves as if
 * the dup happened at the call, so attributes changed after it are not copied. MPI-4.1 §8.4.3,
 * §8.7.2: MPI_COMM_FREE runs the delete callback of every attribute, and a key freed while in use
 * keeps its callbacks until its last attribute goes (§8.7.2, MPI_COMM_FREE_KEYVAL).
 */
#include "host_check.h"

#include <stdint.h>

#define MAXLOG 64
struct call { MPI_Comm comm; int key; void *value; void *extra; };
static struct call copy_log[MAXLOG], del_log[MAXLOG];
static int ncopy, ndel;
static int extra_a, extra_b, extra_d;

static int copy_plus_1000(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    if (ncopy < MAXLOG)
        copy_log[ncopy] = (struct call){comm, key, in, extra};
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1000);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_flag0(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    if (ncopy < MAXLOG)
        copy_log[ncopy] = (struct call){comm, key, in, extra};
    ncopy++;
    *flag = 0;
    return MPI_SUCCESS;
}

static int record_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    if (ndel < MAXLOG)
        del_log[ndel] = (struct call){comm, key, value, extra};
    ndel++;
    return MPI_SUCCESS;
}

static int kdup, knull, kplus, kzero;

static int get_int(MPI_Comm c, int key, int *flag, intptr_t *value)
{
    void *v = NULL;
    *flag = -1;
    int rc = MPI_Comm_get_attr(c, key, &v, flag);
    *value = (intptr_t)v;
    return rc;
}

/* base carries: kdup = 1+rank, knull = 2+rank, kplus = 3+rank, kzero = 4+rank */
static void check_copy(MPI_Comm base, MPI_Comm nc, const char *how, int rank, int rc_dup)
{
    char name[128];
    int f, rc = MPI_SUCCESS;
    intptr_t v;
#define NAME(what) (snprintf(name, sizeof name, "R6_%s_%s", how, what), name)
    CHECK(NAME("succeeds"), rc_dup == MPI_SUCCESS && nc != MPI_COMM_NULL && nc != base);
    int cmp = -1;
    if (nc != MPI_COMM_NULL)
        MPI_Comm_compare(base, nc, &cmp);
    CHECK(NAME("result_is_congruent"), cmp == MPI_CONGRUENT);
    /* the two user copy callbacks ran, once each, with the old communicator's handle */
    int plus = -1, zero = -1;
    for (int i = 0; i < ncopy && i < MAXLOG; i++) {
        if (copy_log[i].key == kplus)
            plus = i;
        if (copy_log[i].key == kzero)
            zero = i;
    }
    CHECK(NAME("runs_each_user_copy_callback_once"), ncopy == 2 && plus >= 0 && zero >= 0);
    CHECK(NAME("copy_callback_gets_old_comm_handle"),
          plus >= 0 && zero >= 0 && copy_log[plus].comm == base && copy_log[zero].comm == base);
    CHECK(NAME("copy_callback_gets_value_and_extra_state"),
          plus >= 0 && zero >= 0 && (intptr_t)copy_log[plus].value == 3 + rank &&
              copy_log[plus].extra == &extra_a && (intptr_t)copy_log[zero].value == 4 + rank &&
              copy_log[zero].extra == &extra_b);
    if (nc == MPI_COMM_NULL)
        nc = MPI_COMM_SELF; /* keep the remaining checks safe; they fail below */
    rc |= get_int(nc, kdup, &f, &v);
    CHECK(NAME("COMM_DUP_FN_copies_value"), rc == MPI_SUCCESS && f == 1 && v == 1 + rank);
    rc |= get_int(nc, knull, &f, &v);
    CHECK(NAME("COMM_NULL_COPY_FN_copies_nothing"), rc == MPI_SUCCESS && f == 0);
    rc |= get_int(nc, kplus, &f, &v);
    CHECK(NAME("user_copy_flag1_stores_value_out"), rc == MPI_SUCCESS && f == 1 &&
                                                        v == 3 + rank + 1000);
    rc |= get_int(nc, kzero, &f, &v);
    CHECK(NAME("user_copy_flag0_copies_nothing"), rc == MPI_SUCCESS && f == 0);
    /* the old communicator is unchanged */
    int ok = 1;
    rc = get_int(base, kplus, &f, &v);
    ok &= rc == MPI_SUCCESS && f == 1 && v == 3 + rank;
    rc = get_int(base, kzero, &f, &v);
    ok &= rc == MPI_SUCCESS && f == 1 && v == 4 + rank;
    CHECK(NAME("old_comm_keeps_its_attributes"), ok);
#undef NAME
}

/* Free nc (a copy of base): kdup and kplus have record_delete as delete callback; both must run
 * inside MPI_Comm_free, with the freed communicator's handle, key, value and extra_state. */
static void check_free(MPI_Comm nc, const char *how, int rank)
{
    char name[128];
    MPI_Comm saved = nc;
    int rc = MPI_ERR_COMM;
#define NAME(what) (snprintf(name, sizeof name, "R4_%s_%s", how, what), name)
    ndel = 0;
    if (nc != MPI_COMM_NULL)
        rc = MPI_Comm_free(&nc);
    CHECK(NAME("free_succeeds_and_nulls_handle"), rc == MPI_SUCCESS && nc == MPI_COMM_NULL);
    int sawdup = 0, sawplus = 0, handle_ok = 1;
    for (int i = 0; i < ndel && i < MAXLOG; i++) {
        handle_ok &= del_log[i].comm == saved;
        sawdup += del_log[i].key == kdup && (intptr_t)del_log[i].value == 1 + rank &&
                  del_log[i].extra == &extra_d;
        sawplus += del_log[i].key == kplus && (intptr_t)del_log[i].value == 3 + rank + 1000 &&
                   del_log[i].extra == &extra_a;
    }
    CHECK(NAME("free_runs_delete_callbacks_in_the_call"), ndel == 2 && sawdup == 1 && sawplus == 1);
    CHECK(NAME("free_delete_callback_gets_freed_comm_handle"), ndel > 0 && handle_ok);
#undef NAME
}

int main(int argc, char **argv)
{
    int rank, rc, f;
    intptr_t v;
    MPI_Comm base, nc;
    MPI_Request req;
    MPI_Info info;

    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, record_delete, &kdup, &extra_d);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL);
    MPI_Comm_create_keyval(copy_plus_1000, record_delete, &kplus, &extra_a);
    MPI_Comm_create_keyval(copy_flag0, MPI_COMM_NULL_DELETE_FN, &kzero, &extra_b);

    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN);
    MPI_Comm_set_attr(base, kdup, (void *)(intptr_t)(1 + rank));
    MPI_Comm_set_attr(base, knull, (void *)(intptr_t)(2 + rank));
    MPI_Comm_set_attr(base, kplus, (void *)(intptr_t)(3 + rank));
    MPI_Comm_set_attr(base, kzero, (void *)(intptr_t)(4 + rank));

    /* ---- MPI_Comm_dup ---- */
    ncopy = 0;
    nc = MPI_COMM_NULL;
    rc = MPI_Comm_dup(base, &nc);
    check_copy(base, nc, "dup", rank, rc);
    check_free(nc, "dup", rank);

    /* ---- MPI_Comm_dup_with_info, with a real info object ---- */
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    MPI_Info_set(info, "hostcheck_private_hint", "1");
    ncopy = 0;
    nc = MPI_COMM_NULL;
    rc = MPI_Comm_dup_with_info(base, info, &nc);
    MPI_Info_free(&info);
    check_copy(base, nc, "dup_with_info", rank, rc);
    check_free(nc, "dup_with_info", rank);

    /* ---- MPI_Comm_idup: copies as of the call ---- */
    int kafter;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kafter, NULL);
    ncopy = 0;
    nc = MPI_COMM_NULL;
    rc = MPI_Comm_idup(base, &nc, &req);
    /* changes after the call are not copied: a new attribute, and a changed one */
    MPI_Comm_set_attr(base, kafter, (void *)(intptr_t)99);
    MPI_Comm_set_attr(base, kdup, (void *)(intptr_t)97); /* the copy must keep 1 + rank */
    int rcw = rc == MPI_SUCCESS ? MPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
    check_copy(base, nc, "idup", rank, rcw);
    MPI_Comm_set_attr(base, kdup, (void *)(intptr_t)(1 + rank));
    rc = MPI_SUCCESS;
    if (nc != MPI_COMM_NULL)
        rc = get_int(nc, kafter, &f, &v);
    CHECK("R6_idup_attribute_set_after_the_call_not_copied",
          nc != MPI_COMM_NULL && rc == MPI_SUCCESS && f == 0);
    MPI_Comm_delete_attr(base, kafter);
    MPI_Comm_free_keyval(&kafter);
    check_free(nc, "idup", rank);

    /* ---- dup of a dup: copies of copies ---- */
    MPI_Comm nc2 = MPI_COMM_NULL;
    nc = MPI_COMM_NULL;
    MPI_Comm_dup(base, &nc);
    ncopy = 0;
    rc = MPI_Comm_dup(nc, &nc2);
    int ok = rc == MPI_SUCCESS && nc2 != MPI_COMM_NULL;
    if (ok) {
        ok &= get_int(nc2, kdup, &f, &v) == MPI_SUCCESS && f == 1 && v == 1 + rank;
        ok &= get_int(nc2, kplus, &f, &v) == MPI_SUCCESS && f == 1 && v == 3 + rank + 2000;
        ok &= ncopy == 1 && copy_log[0].comm == nc; /* only kplus is left to copy by a user fn */
    }
    CHECK("R6_dup_of_dup_copies_the_copies", ok);
    if (nc2 != MPI_COMM_NULL)
        MPI_Comm_free(&nc2);
    if (nc != MPI_COMM_NULL)
        MPI_Comm_free(&nc);

    /* ---- a freed key keeps its callbacks while an attribute uses it (§8.7.2) ---- */
    int kgone, kgone_saved;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &kgone, &extra_d);
    kgone_saved = kgone;
    nc = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    MPI_Comm_set_attr(nc, kgone, (void *)(intptr_t)(77 + rank));
    rc = MPI_Comm_free_keyval(&kgone);
    CHECK("R2_free_keyval_in_use_sets_invalid", rc == MPI_SUCCESS && kgone == MPI_KEYVAL_INVALID);
    /* the key still exists while its attribute does: a saved copy of the handle reads it (D6) */
    void *kgone_value = NULL;
    int kgone_flag = 0;
    rc = MPI_Comm_get_attr(nc, kgone_saved, &kgone_value, &kgone_flag);
    CHECK("R2_freed_keyval_get_while_in_use",
          rc == MPI_SUCCESS && kgone_flag && (intptr_t)kgone_value == 77 + rank);
    ndel = 0;
    rc = MPI_Comm_free(&nc);
    CHECK("R2_freed_keyval_delete_callback_runs_at_comm_free",
          rc == MPI_SUCCESS && ndel == 1 && del_log[0].key == kgone_saved &&
              (intptr_t)del_log[0].value == 77 + rank);

    /* ---- free of the base: its own four attributes, two with a delete callback ---- */
    ndel = 0;
    MPI_Comm saved = base;
    rc = MPI_Comm_free(&base);
    int handle_ok = ndel > 0;
    for (int i = 0; i < ndel && i < MAXLOG; i++)
        handle_ok &= del_log[i].comm == saved;
    CHECK("R4_base_free_runs_delete_callbacks", rc == MPI_SUCCESS && ndel == 2 && handle_ok);

    MPI_Comm_free_keyval(&kdup);
    MPI_Comm_free_keyval(&knull);
    MPI_Comm_free_keyval(&kplus);
    MPI_Comm_free_keyval(&kzero);
    report();
    MPI_Finalize();
    return 0;
}
