/* R5_deprecated_mpi1.c: the MPI-1 caching routines, alone and mixed with the MPI-2 ones.
 *
 * MPI-4.1 §17.1 (deprecated since MPI-2.0, not removed): MPI_KEYVAL_CREATE, MPI_KEYVAL_FREE,
 * MPI_ATTR_PUT, MPI_ATTR_GET, MPI_ATTR_DELETE and MPI_DUP_FN / MPI_NULL_COPY_FN /
 * MPI_NULL_DELETE_FN have the same definitions as MPI_COMM_CREATE_KEYVAL, MPI_COMM_FREE_KEYVAL,
 * MPI_COMM_SET_ATTR, MPI_COMM_GET_ATTR, MPI_COMM_DELETE_ATTR and the MPI_COMM_* callbacks; in C
 * MPI_Attr_put/get behave exactly like MPI_Comm_set_attr/get_attr (§20.3.7), so a key made by
 * either routine works with both families, and the copy callback of an MPI-1 key runs on
 * MPI_COMM_DUP.
 *
 * Build with -Wno-deprecated-declarations.
 */
#include "host_check.h"

#include <stdint.h>

static int copies, deletes;
static MPI_Comm last_copy_comm = MPI_COMM_NULL, last_delete_comm = MPI_COMM_NULL;
static void *last_delete_value;

/* MPI_Copy_function and MPI_Delete_function (MPI-1 prototypes) */
static int mpi1_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    copies++;
    last_copy_comm = comm;
    *(void **)out = (void *)((intptr_t)in * 2);
    *flag = 1;
    return MPI_SUCCESS;
}

static int mpi1_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    deletes++;
    last_delete_comm = comm;
    last_delete_value = value;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, rc, f;
    void *v;
    MPI_Comm base, dup;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN);

    int k1 = MPI_KEYVAL_INVALID, k2 = MPI_KEYVAL_INVALID, k3 = MPI_KEYVAL_INVALID, k4;
    rc = MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k1, NULL);
    rc |= MPI_Keyval_create(MPI_NULL_COPY_FN, mpi1_delete, &k2, NULL);
    rc |= MPI_Keyval_create(mpi1_copy, mpi1_delete, &k3, NULL);
    CHECK("R5_Keyval_create_succeeds", rc == MPI_SUCCESS && k1 != MPI_KEYVAL_INVALID &&
                                           k2 != MPI_KEYVAL_INVALID && k3 != MPI_KEYVAL_INVALID &&
                                           k1 != k2 && k2 != k3 && k1 != k3);

    /* MPI_Attr_put / MPI_Attr_get / MPI_Attr_delete */
    f = -1;
    rc = MPI_Attr_get(base, k1, &v, &f);
    CHECK("R5_Attr_get_unset_flag_false", rc == MPI_SUCCESS && f == 0);
    rc = MPI_Attr_put(base, k1, (void *)(intptr_t)(10 + rank));
    rc |= MPI_Attr_put(base, k2, (void *)(intptr_t)(20 + rank));
    rc |= MPI_Attr_put(base, k3, (void *)(intptr_t)(30 + rank));
    CHECK("R5_Attr_put_succeeds", rc == MPI_SUCCESS);
    f = -1;
    rc = MPI_Attr_get(base, k1, &v, &f);
    CHECK("R5_Attr_get_round_trip", rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 10 + rank);
    deletes = 0;
    rc = MPI_Attr_put(base, k2, (void *)(intptr_t)(21 + rank));
    CHECK("R5_Attr_put_replace_runs_delete_callback",
          rc == MPI_SUCCESS && deletes == 1 && last_delete_comm == base &&
              (intptr_t)last_delete_value == 20 + rank);

    /* MPI_Comm_dup runs the MPI-1 copy callbacks (MPI_DUP_FN, MPI_NULL_COPY_FN, user) */
    copies = 0;
    rc = MPI_Comm_dup(base, &dup);
    CHECK("R5_dup_runs_mpi1_user_copy_callback", rc == MPI_SUCCESS && copies == 1 &&
                                                     last_copy_comm == base);
    int ok = 1;
    f = -1;
    ok &= MPI_Attr_get(dup, k1, &v, &f) == MPI_SUCCESS && f == 1 && (intptr_t)v == 10 + rank;
    CHECK("R5_MPI_DUP_FN_copies", ok);
    f = -1;
    rc = MPI_Attr_get(dup, k2, &v, &f);
    CHECK("R5_MPI_NULL_COPY_FN_copies_nothing", rc == MPI_SUCCESS && f == 0);
    f = -1;
    rc = MPI_Attr_get(dup, k3, &v, &f);
    CHECK("R5_mpi1_user_copy_value_out", rc == MPI_SUCCESS && f == 1 &&
                                             (intptr_t)v == 2 * (30 + rank));
    deletes = 0;
    MPI_Comm saved = dup;
    rc = MPI_Comm_free(&dup);
    CHECK("R5_comm_free_runs_mpi1_delete_callback",
          rc == MPI_SUCCESS && deletes == 1 && last_delete_comm == saved &&
              (intptr_t)last_delete_value == 2 * (30 + rank));

    /* MPI_Attr_delete */
    deletes = 0;
    rc = MPI_Attr_delete(base, k2);
    f = -1;
    rc |= MPI_Attr_get(base, k2, &v, &f);
    CHECK("R5_Attr_delete_runs_delete_callback",
          rc == MPI_SUCCESS && f == 0 && deletes == 1 && (intptr_t)last_delete_value == 21 + rank);

    /* mixing: MPI-1 key with MPI-2 routines */
    rc = MPI_Comm_set_attr(base, k2, (void *)(intptr_t)(40 + rank));
    f = -1;
    rc |= MPI_Attr_get(base, k2, &v, &f);
    CHECK("R5_Comm_set_attr_then_Attr_get", rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 40 + rank);
    f = -1;
    rc = MPI_Comm_get_attr(base, k3, &v, &f);
    CHECK("R5_Attr_put_then_Comm_get_attr", rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 30 + rank);
    deletes = 0;
    rc = MPI_Comm_delete_attr(base, k2);
    CHECK("R5_Comm_delete_attr_on_mpi1_key_runs_mpi1_delete",
          rc == MPI_SUCCESS && deletes == 1 && (intptr_t)last_delete_value == 40 + rank);

    /* mixing: MPI-2 key with MPI-1 routines */
    rc = MPI_Comm_create_keyval(MPI_COMM_DUP_FN, mpi1_delete, &k4, NULL);
    rc |= MPI_Attr_put(base, k4, (void *)(intptr_t)(50 + rank));
    f = -1;
    rc |= MPI_Comm_get_attr(base, k4, &v, &f);
    CHECK("R5_Attr_put_on_mpi2_key", rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 50 + rank);
    deletes = 0;
    rc = MPI_Attr_delete(base, k4);
    f = -1;
    rc |= MPI_Attr_get(base, k4, &v, &f);
    CHECK("R5_Attr_delete_on_mpi2_key", rc == MPI_SUCCESS && f == 0 && deletes == 1);

    /* MPI_Keyval_free sets MPI_KEYVAL_INVALID; keys are freed by either family */
    rc = MPI_Keyval_free(&k1);
    CHECK("R5_Keyval_free_sets_invalid", rc == MPI_SUCCESS && k1 == MPI_KEYVAL_INVALID);
    rc = MPI_Comm_free_keyval(&k2);
    CHECK("R5_Comm_free_keyval_of_mpi1_key", rc == MPI_SUCCESS && k2 == MPI_KEYVAL_INVALID);
    rc = MPI_Keyval_free(&k4);
    CHECK("R5_Keyval_free_of_mpi2_key", rc == MPI_SUCCESS && k4 == MPI_KEYVAL_INVALID);

    /* an MPI-1 key freed while in use keeps its delete callback (base still holds k3) */
    rc = MPI_Keyval_free(&k3);
    deletes = 0;
    saved = base;
    rc |= MPI_Comm_free(&base);
    CHECK("R5_freed_mpi1_key_delete_callback_runs_at_comm_free",
          rc == MPI_SUCCESS && deletes == 1 && last_delete_comm == saved &&
              (intptr_t)last_delete_value == 30 + rank);

    /* MPI-1 routines on MPI_COMM_WORLD and MPI_COMM_SELF */
    int k5;
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k5, NULL);
    rc = MPI_Attr_put(MPI_COMM_WORLD, k5, (void *)(intptr_t)(60 + rank));
    rc |= MPI_Attr_put(MPI_COMM_SELF, k5, (void *)(intptr_t)(70 + rank));
    void *vw = NULL, *vs = NULL;
    int fw = -1, fs = -1;
    rc |= MPI_Attr_get(MPI_COMM_WORLD, k5, &vw, &fw);
    rc |= MPI_Attr_get(MPI_COMM_SELF, k5, &vs, &fs);
    CHECK("R5_Attr_put_world_and_self", rc == MPI_SUCCESS && fw == 1 && fs == 1 &&
                                            (intptr_t)vw == 60 + rank && (intptr_t)vs == 70 + rank);
    MPI_Attr_delete(MPI_COMM_WORLD, k5);
    MPI_Attr_delete(MPI_COMM_SELF, k5);
    MPI_Keyval_free(&k5);

    report();
    MPI_Finalize();
    return 0;
}
