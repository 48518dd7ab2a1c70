/* R8_win_caching.c: caching on windows of the three flavors, every rank.
 *
 * MPI-4.1 §8.7.3: set/get/delete of user attributes on windows, the delete callback on replace
 * and delete, MPI_WIN_FREE runs the delete callbacks (with the window's handle). MPI-4.1 §13.2.6
 * (Table "window attributes"): every window caches MPI_WIN_BASE (C: the base address itself),
 * MPI_WIN_SIZE (C: MPI_Aint*), MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL (C:
 * int*), equal to the creation arguments; §13.2.4: a dynamic window has base MPI_BOTTOM, size 0
 * and displacement unit 1. Sizes and displacement units differ between ranks on purpose.
 *
 * MPI_Init, not MPI_Init_thread(MPI_THREAD_MULTIPLE): Open MPI's osc/pt2pt refuses windows at
 * that level.
 */
#include "host_check.h"

#include <stdint.h>

struct call { MPI_Win win; int key; void *value; };
#define MAXLOG 16
static struct call del_log[MAXLOG];
static int ndel;

static int record_delete(MPI_Win w, int key, void *value, void *extra)
{
    if (ndel < MAXLOG)
        del_log[ndel] = (struct call){w, key, value};
    ndel++;
    return MPI_SUCCESS;
}

static int kw, kw2;

static void one_window(MPI_Win w, const char *flavor_name, void *base, MPI_Aint size, int disp,
                       int flavor, int rank)
{
    char name[128];
    int rc, f;
    void *v;
#define NAME(what) (snprintf(name, sizeof name, "R8_win_%s_%s", flavor_name, what), name)
    /* ---- predefined attributes ---- */
    void *gbase = (void *)1;
    f = -1;
    rc = MPI_Win_get_attr(w, MPI_WIN_BASE, &gbase, &f);
    CHECK(NAME("base_is_creation_base"), rc == MPI_SUCCESS && f == 1 && gbase == base);
    MPI_Aint *gsize = NULL;
    f = -1;
    rc = MPI_Win_get_attr(w, MPI_WIN_SIZE, &gsize, &f);
    CHECK(NAME("size_is_creation_size"), rc == MPI_SUCCESS && f == 1 && gsize && *gsize == size);
    int *gdisp = NULL;
    f = -1;
    rc = MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &gdisp, &f);
    CHECK(NAME("disp_unit_is_creation_disp_unit"),
          rc == MPI_SUCCESS && f == 1 && gdisp && *gdisp == disp);
    int *gflavor = NULL;
    f = -1;
    rc = MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &gflavor, &f);
    CHECK(NAME("create_flavor"), rc == MPI_SUCCESS && f == 1 && gflavor && *gflavor == flavor);
    int *gmodel = NULL;
    f = -1;
    rc = MPI_Win_get_attr(w, MPI_WIN_MODEL, &gmodel, &f);
    CHECK(NAME("model_is_unified_or_separate"),
          rc == MPI_SUCCESS && f == 1 && gmodel &&
              (*gmodel == MPI_WIN_UNIFIED || *gmodel == MPI_WIN_SEPARATE));
    FACT(NAME("model_is_unified"), gmodel && *gmodel == MPI_WIN_UNIFIED);

    /* ---- user attributes ---- */
    f = -1;
    rc = MPI_Win_get_attr(w, kw, &v, &f);
    CHECK(NAME("get_unset_flag_false"), rc == MPI_SUCCESS && f == 0);
    ndel = 0;
    rc = MPI_Win_set_attr(w, kw, (void *)(intptr_t)(10 + rank));
    f = -1;
    rc |= MPI_Win_get_attr(w, kw, &v, &f);
    CHECK(NAME("set_get_round_trip"), rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 10 + rank &&
                                          ndel == 0);
    rc = MPI_Win_set_attr(w, kw, base);
    CHECK(NAME("replace_runs_delete_callback_on_old_value"),
          rc == MPI_SUCCESS && ndel == 1 && del_log[0].win == w && del_log[0].key == kw &&
              (intptr_t)del_log[0].value == 10 + rank);
    f = -1;
    rc = MPI_Win_get_attr(w, kw, &v, &f);
    CHECK(NAME("replace_stores_pointer_value"), rc == MPI_SUCCESS && f == 1 && v == base);
    ndel = 0;
    rc = MPI_Win_delete_attr(w, kw);
    f = -1;
    rc |= MPI_Win_get_attr(w, kw, &v, &f);
    CHECK(NAME("delete_runs_delete_callback"),
          rc == MPI_SUCCESS && f == 0 && ndel == 1 && del_log[0].value == base);
    /* predefined attributes are still there after user attributes come and go */
    gdisp = NULL;
    f = -1;
    rc = MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &gdisp, &f);
    CHECK(NAME("predefined_unaffected_by_user_attributes"),
          rc == MPI_SUCCESS && f == 1 && gdisp && *gdisp == disp);

    /* two attributes left for MPI_Win_free */
    MPI_Win_set_attr(w, kw, (void *)(intptr_t)(20 + rank));
    MPI_Win_set_attr(w, kw2, (void *)(intptr_t)(30 + rank));
#undef NAME
}

static void free_window(MPI_Win *w, const char *flavor_name, int rank)
{
    char name[128];
    MPI_Win saved = *w;
    ndel = 0;
    int rc = MPI_Win_free(w);
    int s20 = 0, s30 = 0, handle_ok = ndel > 0;
    for (int i = 0; i < ndel && i < MAXLOG; i++) {
        handle_ok &= del_log[i].win == saved;
        s20 += del_log[i].key == kw && (intptr_t)del_log[i].value == 20 + rank;
        s30 += del_log[i].key == kw2 && (intptr_t)del_log[i].value == 30 + rank;
    }
    snprintf(name, sizeof name, "R4_win_%s_free_runs_delete_callbacks", flavor_name);
    CHECK(name, rc == MPI_SUCCESS && ndel == 2 && s20 == 1 && s30 == 1);
    snprintf(name, sizeof name, "R4_win_%s_free_delete_callback_gets_window_handle", flavor_name);
    CHECK(name, handle_ok);
    snprintf(name, sizeof name, "R4_win_%s_free_nulls_handle", flavor_name);
    CHECK(name, *w == MPI_WIN_NULL);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Win w;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, record_delete, &kw, NULL);
    MPI_Win_create_keyval(MPI_WIN_DUP_FN, record_delete, &kw2, NULL);

    /* MPI_Win_create over a buffer of (rank + 1) * 64 bytes, disp unit 4 or 8 */
    MPI_Aint size = (MPI_Aint)(rank + 1) * 64;
    int disp = rank % 2 ? 8 : 4;
    void *buf = malloc((size_t)size);
    int rc = MPI_Win_create(buf, size, disp, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    CHECK("R8_win_create_succeeds", rc == MPI_SUCCESS);
    one_window(w, "create", buf, size, disp, MPI_WIN_FLAVOR_CREATE, rank);
    /* an attribute on one window is not on another */
    MPI_Win w2;
    MPI_Win_create(buf, size, disp, MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    int f = -1;
    void *v;
    rc = MPI_Win_get_attr(w2, kw, &v, &f);
    CHECK("R4_win_attribute_belongs_to_one_window", rc == MPI_SUCCESS && f == 0);
    /* an older key set after a newer one: its replace and delete find it */
    int ka, kb;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, record_delete, &ka, NULL);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, record_delete, &kb, NULL);
    rc = MPI_Win_set_attr(w2, kb, (void *)(intptr_t)1);
    rc |= MPI_Win_set_attr(w2, ka, (void *)(intptr_t)2);
    ndel = 0;
    rc |= MPI_Win_set_attr(w2, ka, (void *)(intptr_t)3);
    CHECK("R4_win_replace_key_set_after_a_newer_key_runs_delete_callback",
          rc == MPI_SUCCESS && ndel == 1 && (intptr_t)del_log[0].value == 2);
    ndel = 0;
    rc = MPI_Win_delete_attr(w2, ka);
    f = -1;
    rc |= MPI_Win_get_attr(w2, ka, &v, &f);
    CHECK("R4_win_delete_key_set_after_a_newer_key_removes_it",
          rc == MPI_SUCCESS && f == 0 && ndel == 1 && (intptr_t)del_log[0].value == 3);
    MPI_Win_delete_attr(w2, kb);
    MPI_Win_free_keyval(&ka);
    MPI_Win_free_keyval(&kb);
    MPI_Win_free(&w2);
    free_window(&w, "create", rank);
    free(buf);

    /* MPI_Win_allocate: the base is the memory MPI allocated */
    void *base = NULL;
    size = (MPI_Aint)(rank + 2) * 32;
    disp = rank % 2 ? 2 : 16;
    rc = MPI_Win_allocate(size, disp, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
    CHECK("R8_win_allocate_succeeds", rc == MPI_SUCCESS && base != NULL);
    one_window(w, "allocate", base, size, disp, MPI_WIN_FLAVOR_ALLOCATE, rank);
    free_window(&w, "allocate", rank);

    /* MPI_Win_create_dynamic: base MPI_BOTTOM, size 0, disp unit 1 */
    rc = MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    CHECK("R8_win_create_dynamic_succeeds", rc == MPI_SUCCESS);
    one_window(w, "dynamic", MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, rank);
    free_window(&w, "dynamic", rank);

    MPI_Win_free_keyval(&kw);
    MPI_Win_free_keyval(&kw2);
    CHECK("R2_win_free_keyval_sets_invalid", kw == MPI_KEYVAL_INVALID && kw2 == MPI_KEYVAL_INVALID);
    report();
    MPI_Finalize();
    return 0;
}
