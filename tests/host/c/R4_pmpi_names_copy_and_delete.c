/* R4_pmpi_names_copy_and_delete.c: the profiling names copy and delete like the MPI_ names, every
 * rank.
 *
 * MPI-4.1 §16.2.1: each MPI routine can also be called by its PMPI_ name, and it is the same
 * routine. So PMPI_Comm_free, PMPI_Comm_disconnect, PMPI_Type_free and PMPI_Win_free run the
 * delete callbacks of every attribute at the call (§8.4.3, §12.10.4, §8.7.3-§8.7.5),
 * PMPI_Comm_dup and PMPI_Type_dup run the copy callbacks (§8.4.2, §6.1.10), a failing delete
 * callback makes PMPI_Comm_free fail and leaves the communicator and its attributes in place
 * (§8.7.3), and a handle value the MPI library gives again after such a free never carries the
 * freed object's attributes. PMPI_Error_class and PMPI_Error_string know every error code the
 * caching routines return (§10.4). The caching routines' PMPI_ names set, read and delete the
 * same attributes as their MPI_ names, whichever name created the keyval (D131). A tool placed
 * in front of the library reaches these routines through exactly these names.
 */
#include "host_check.h"

#include <stdint.h>

static int ncopy, ndel, fail_deletes;
static void *last_deleted;

static int copy_plus_one(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)key; (void)extra;
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}
static int type_copy_plus_one(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    (void)t; (void)key; (void)extra;
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}
static int count_delete(MPI_Comm c, int key, void *value, void *extra)
{
    (void)c; (void)key; (void)extra;
    if (fail_deletes) {
        fail_deletes--;
        return MPI_ERR_OTHER;
    }
    ndel++;
    last_deleted = value;
    return MPI_SUCCESS;
}
static int type_count_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    (void)t; (void)key; (void)extra;
    ndel++;
    last_deleted = value;
    return MPI_SUCCESS;
}
static int win_count_delete(MPI_Win w, int key, void *value, void *extra)
{
    (void)w; (void)key; (void)extra;
    ndel++;
    last_deleted = value;
    return MPI_SUCCESS;
}

static int has_attr(MPI_Comm c, int key)
{
    void *v = NULL;
    int flag = -1;
    if (MPI_Comm_get_attr(c, key, &v, &flag) != MPI_SUCCESS)
        return -1;
    return flag;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hc_errors_return();
    int ckey = MPI_KEYVAL_INVALID, tkey = MPI_KEYVAL_INVALID, wkey = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(copy_plus_one, count_delete, &ckey, NULL);
    MPI_Type_create_keyval(type_copy_plus_one, type_count_delete, &tkey, NULL);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_count_delete, &wkey, NULL);

    /* PMPI_Comm_dup copies, PMPI_Comm_free deletes, on communicators made either way. */
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, ckey, (void *)(intptr_t)100);
    ncopy = ndel = 0;
    int rc = PMPI_Comm_dup(a, &b);
    void *v = NULL;
    int flag = 0;
    MPI_Comm_get_attr(b, ckey, &v, &flag);
    CHECK("R6_1_pmpi_comm_dup_runs_copy_callback", rc == MPI_SUCCESS && ncopy == 1 && flag == 1 && v == (void *)(intptr_t)101);
    rc = PMPI_Comm_free(&b);
    CHECK("R4_4_pmpi_comm_free_runs_delete_callback",
          rc == MPI_SUCCESS && b == MPI_COMM_NULL && ndel == 1 && last_deleted == (void *)(intptr_t)101);
    ndel = 0;
    rc = PMPI_Comm_free(&a);
    CHECK("R4_4_pmpi_comm_free_set_attribute_deleted", rc == MPI_SUCCESS && ndel == 1 && last_deleted == (void *)(intptr_t)100);

    /* Handle values given again after a PMPI_ free carry nothing of the freed objects'. */
    int inherited = 0, wrong = 0;
    for (int i = 0; i < 8; i++) {
        MPI_Comm c = MPI_COMM_NULL;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        inherited += has_attr(c, ckey) != 0;
        for (int j = 0; j < 3; j++) { /* set, replace, get: the same value every time */
            MPI_Comm_set_attr(c, ckey, (void *)(intptr_t)(200 + 10 * i + j));
            v = NULL;
            flag = 0;
            MPI_Comm_get_attr(c, ckey, &v, &flag);
            wrong += flag != 1 || v != (void *)(intptr_t)(200 + 10 * i + j);
        }
        PMPI_Comm_free(&c);
    }
    CHECK("R4_4_pmpi_comm_free_reused_handle_has_no_attribute", inherited == 0);
    CHECK("R4_4_pmpi_comm_reused_handle_sets_and_gets_its_own", wrong == 0);

    /* A failing delete callback makes PMPI_Comm_free fail; the communicator and its attribute
     * stay (§8.7.3). */
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
    MPI_Comm_set_attr(a, ckey, (void *)(intptr_t)300);
    MPI_Comm kept = a;
    fail_deletes = 1;
    ndel = 0;
    rc = PMPI_Comm_free(&a);
    CHECK("R4_5_pmpi_comm_free_failing_delete_is_an_error", rc != MPI_SUCCESS);
    v = NULL;
    flag = 0;
    int grc = MPI_Comm_get_attr(kept, ckey, &v, &flag);
    CHECK("R4_5_pmpi_comm_free_failing_delete_keeps_attribute",
          grc == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)300);
    fail_deletes = 0;
    a = kept;
    rc = MPI_Comm_free(&a);
    CHECK("R4_5_pmpi_comm_free_then_free_succeeds", rc == MPI_SUCCESS && ndel == 1);

    /* PMPI_Comm_disconnect deletes too. */
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, ckey, (void *)(intptr_t)400);
    ndel = 0;
    rc = PMPI_Comm_disconnect(&a);
    CHECK("R4_4_pmpi_comm_disconnect_runs_delete_callback",
          rc == MPI_SUCCESS && ndel == 1 && last_deleted == (void *)(intptr_t)400);

    /* Datatypes: PMPI_Type_dup copies, PMPI_Type_free deletes; a new datatype carries nothing. */
    MPI_Datatype t = MPI_DATATYPE_NULL, u = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_set_attr(t, tkey, (void *)(intptr_t)500);
    ncopy = ndel = 0;
    rc = PMPI_Type_dup(t, &u);
    v = NULL;
    flag = 0;
    MPI_Type_get_attr(u, tkey, &v, &flag);
    CHECK("R6_1_pmpi_type_dup_runs_copy_callback", rc == MPI_SUCCESS && ncopy == 1 && flag == 1 && v == (void *)(intptr_t)501);
    rc = PMPI_Type_free(&u);
    CHECK("R4_4_pmpi_type_free_runs_delete_callback", rc == MPI_SUCCESS && ndel == 1 && last_deleted == (void *)(intptr_t)501);
    rc = PMPI_Type_free(&t);
    CHECK("R4_4_pmpi_type_free_set_attribute_deleted", rc == MPI_SUCCESS && ndel == 2 && last_deleted == (void *)(intptr_t)500);
    inherited = 0;
    for (int i = 0; i < 8; i++) {
        MPI_Type_contiguous(2, MPI_INT, &t);
        v = NULL;
        flag = -1;
        MPI_Type_get_attr(t, tkey, &v, &flag);
        inherited += flag != 0;
        MPI_Type_set_attr(t, tkey, (void *)(intptr_t)(600 + i));
        PMPI_Type_free(&t);
    }
    CHECK("R4_4_pmpi_type_free_reused_handle_has_no_attribute", inherited == 0);

    /* Windows: PMPI_Win_free deletes. */
    static int buf[4];
    MPI_Win w = MPI_WIN_NULL;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_set_attr(w, wkey, (void *)(intptr_t)700);
    ndel = 0;
    rc = PMPI_Win_free(&w);
    CHECK("R4_4_pmpi_win_free_runs_delete_callback", rc == MPI_SUCCESS && ndel == 1 && last_deleted == (void *)(intptr_t)700);

    /* The caching routines under their profiling names are the same routines (§16.2.1), so a tool
     * that wraps some of them and forwards to PMPI_ sees the program's keyvals: a keyval created
     * through MPI_Comm_create_keyval is set, read, copied and deleted through the PMPI_ names and
     * the MPI_ names mixed, and so is one created through PMPI_Comm_create_keyval. */
    int pkey = MPI_KEYVAL_INVALID;
    rc = PMPI_Comm_create_keyval(copy_plus_one, count_delete, &pkey, NULL);
    CHECK("R1_1_pmpi_comm_create_keyval", rc == MPI_SUCCESS && pkey != MPI_KEYVAL_INVALID);
    const int keys[2] = {ckey, pkey};
    int mixed_ok = 0;
    for (int i = 0; i < 2; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &a);
        ndel = ncopy = 0;
        int ok = PMPI_Comm_set_attr(a, keys[i], (void *)(intptr_t)800) == MPI_SUCCESS;
        v = NULL;
        flag = 0;
        ok &= MPI_Comm_get_attr(a, keys[i], &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)800;
        ok &= MPI_Comm_set_attr(a, keys[i], (void *)(intptr_t)801) == MPI_SUCCESS && ndel == 1 &&
              last_deleted == (void *)(intptr_t)800;
        v = NULL;
        flag = 0;
        ok &= PMPI_Comm_get_attr(a, keys[i], &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)801;
        ok &= MPI_Comm_dup(a, &b) == MPI_SUCCESS && ncopy == 1;
        v = NULL;
        flag = 0;
        ok &= PMPI_Comm_get_attr(b, keys[i], &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)802;
        ok &= PMPI_Comm_delete_attr(a, keys[i]) == MPI_SUCCESS && ndel == 2 && last_deleted == (void *)(intptr_t)801;
        flag = -1;
        ok &= MPI_Comm_get_attr(a, keys[i], &v, &flag) == MPI_SUCCESS && flag == 0;
        ok &= MPI_Comm_free(&b) == MPI_SUCCESS && ndel == 3 && last_deleted == (void *)(intptr_t)802;
        MPI_Comm_free(&a);
        mixed_ok += ok;
    }
    CHECK("R4_1_pmpi_comm_set_get_delete_attr_mixed_with_mpi_names", mixed_ok == 2);
    rc = PMPI_Comm_free_keyval(&pkey);
    CHECK("R2_1_pmpi_comm_free_keyval", rc == MPI_SUCCESS && pkey == MPI_KEYVAL_INVALID);

    /* The MPI-1 forms (deprecated since MPI-2.0, MPI-4.1 §17.1). */
    ndel = 0;
    int mpi1_ok = PMPI_Attr_put(MPI_COMM_WORLD, ckey, (void *)(intptr_t)810) == MPI_SUCCESS;
    v = NULL;
    flag = 0;
    mpi1_ok &= MPI_Comm_get_attr(MPI_COMM_WORLD, ckey, &v, &flag) == MPI_SUCCESS && flag == 1 &&
               v == (void *)(intptr_t)810;
    MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, (void *)(intptr_t)811);
    v = NULL;
    flag = 0;
    mpi1_ok &= PMPI_Attr_get(MPI_COMM_WORLD, ckey, &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)811;
    mpi1_ok &= PMPI_Attr_delete(MPI_COMM_WORLD, ckey) == MPI_SUCCESS && ndel == 2 && last_deleted == (void *)(intptr_t)811;
    CHECK("R5_1_pmpi_attr_put_get_delete_on_mpi_keyval", mpi1_ok);

    /* Datatypes and windows. */
    MPI_Type_contiguous(3, MPI_INT, &t);
    ndel = 0;
    int tw_ok = PMPI_Type_set_attr(t, tkey, (void *)(intptr_t)820) == MPI_SUCCESS;
    v = NULL;
    flag = 0;
    tw_ok &= MPI_Type_get_attr(t, tkey, &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)820;
    v = NULL;
    flag = 0;
    tw_ok &= PMPI_Type_get_attr(t, tkey, &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)820;
    tw_ok &= PMPI_Type_delete_attr(t, tkey) == MPI_SUCCESS && ndel == 1 && last_deleted == (void *)(intptr_t)820;
    MPI_Type_free(&t);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    tw_ok &= PMPI_Win_set_attr(w, wkey, (void *)(intptr_t)830) == MPI_SUCCESS;
    v = NULL;
    flag = 0;
    tw_ok &= MPI_Win_get_attr(w, wkey, &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)830;
    v = NULL;
    flag = 0;
    tw_ok &= PMPI_Win_get_attr(w, wkey, &v, &flag) == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)830;
    tw_ok &= PMPI_Win_delete_attr(w, wkey) == MPI_SUCCESS && ndel == 2 && last_deleted == (void *)(intptr_t)830;
    MPI_Win_free(&w);
    CHECK("R4_1_pmpi_type_and_win_set_get_delete_attr", tw_ok);

    /* PMPI_Error_class and PMPI_Error_string know the caching routines' codes. */
    rc = MPI_Comm_set_attr(MPI_COMM_NULL, ckey, NULL);
    int cls = -1, pcls = -1, len = 0, plen = 0;
    char text[MPI_MAX_ERROR_STRING] = "", ptext[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(rc, &cls);
    PMPI_Error_class(rc, &pcls);
    MPI_Error_string(rc, text, &len);
    PMPI_Error_string(rc, ptext, &plen);
    CHECK("R3_2_pmpi_error_class_of_caching_code", rc != MPI_SUCCESS && cls == MPI_ERR_COMM && pcls == MPI_ERR_COMM);
    CHECK("R3_2_pmpi_error_string_of_caching_code", len > 0 && plen == len && strcmp(text, ptext) == 0);

    MPI_Comm_free_keyval(&ckey);
    rc = PMPI_Type_free_keyval(&tkey);
    int rc2 = PMPI_Win_free_keyval(&wkey);
    CHECK("R2_1_pmpi_type_and_win_free_keyval", rc == MPI_SUCCESS && rc2 == MPI_SUCCESS &&
          tkey == MPI_KEYVAL_INVALID && wkey == MPI_KEYVAL_INVALID);
    report();
    MPI_Finalize();
    return 0;
}
