/* R8_comm_world_predefined.c: the predefined attributes of MPI_COMM_WORLD.
 *
 * MPI-4.1 §10.1.2: MPI_TAG_UB, MPI_HOST, MPI_IO and MPI_WTIME_IS_GLOBAL are attached to
 * MPI_COMM_WORLD at initialisation (MPI_WTIME_IS_GLOBAL may be absent; its key is still valid);
 * C gets a pointer to int. MPI_TAG_UB is at least 32767 and the same on every process, as are
 * MPI_HOST (a rank or MPI_PROC_NULL) and MPI_WTIME_IS_GLOBAL (0 or 1). MPI_IO is MPI_ANY_SOURCE,
 * MPI_PROC_NULL or a rank. MPI-4.1 §12.10.1, §12.10.3: MPI_UNIVERSE_SIZE and MPI_APPNUM may be
 * unset; §10.5.1: MPI_LASTUSEDCODE is at least MPI_ERR_LASTCODE. Users cannot change or delete
 * them (§10.1.2: erroneous): a set or delete must fail and leave the value as it was; the
 * standard names no error class, so the class each host returns is only recorded (INFO).
 *
 * The found flags and values are FACT lines: hostrun.py compares those of host+mpiattr with
 * those of the host alone. At MPI_Finalize, a delete callback of a MPI_COMM_WORLD attribute cannot
 * leave an attribute on MPI_COMM_SELF, which finalize has freed (D133).
 */
#include "host_check.h"

#include <stdint.h>

struct key { int key; const char *name; };

/* MPI_Finalize frees MPI_COMM_SELF first (§12.2.4), here with no attribute on it: a delete
 * callback of MPI_COMM_WORLD's that then sets one on MPI_COMM_SELF is refused, or the attribute is
 * deleted; none is left whose delete callback never runs (D133). Checked after MPI_Finalize. */
static int klate = MPI_KEYVAL_INVALID, kworld = MPI_KEYVAL_INVALID;
static int in_finalize, late_tried, late_rc = MPI_SUCCESS, late_deleted;

static int late_delete(MPI_Comm c, int key, void *value, void *extra)
{
    (void)c; (void)key; (void)value; (void)extra;
    late_deleted++;
    return MPI_SUCCESS;
}

static int world_delete(MPI_Comm c, int key, void *value, void *extra)
{
    (void)c; (void)key; (void)value; (void)extra;
    if (in_finalize && !late_tried) {
        late_tried = 1;
        late_rc = MPI_Comm_set_attr(MPI_COMM_SELF, klate, (void *)(intptr_t)7);
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, rc, f;
    char name[128];
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const struct key keys[] = {
        {MPI_TAG_UB, "MPI_TAG_UB"},         {MPI_HOST, "MPI_HOST"},
        {MPI_IO, "MPI_IO"},                 {MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL"},
        {MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE"}, {MPI_APPNUM, "MPI_APPNUM"},
        {MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE"},
    };
    enum { NK = sizeof keys / sizeof keys[0] };
    int found[NK], value[NK];

    for (int i = 0; i < NK; i++) {
        int *p = NULL;
        f = -1;
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, keys[i].key, &p, &f);
        found[i] = rc == MPI_SUCCESS && f == 1 && p != NULL;
        value[i] = found[i] ? *p : 0;
        snprintf(name, sizeof name, "R8_get_%s_succeeds", keys[i].name);
        CHECK(name, rc == MPI_SUCCESS && (f == 0 || (f == 1 && p != NULL)));
        snprintf(name, sizeof name, "%s_found", keys[i].name);
        FACT(name, found[i]);
        snprintf(name, sizeof name, "%s_value", keys[i].name);
        FACT(name, value[i]);
    }
    enum { TAG_UB, HOST, IO, WTIME, UNIVERSE, APPNUM, LASTUSED };

    CHECK("R8_MPI_TAG_UB_attached", found[TAG_UB]);
    CHECK("R8_MPI_TAG_UB_at_least_32767", found[TAG_UB] && value[TAG_UB] >= 32767);
    CHECK("R8_MPI_HOST_attached", found[HOST]);
    CHECK("R8_MPI_HOST_is_proc_null_or_rank",
          found[HOST] && (value[HOST] == MPI_PROC_NULL || (value[HOST] >= 0 && value[HOST] < size)));
    CHECK("R8_MPI_IO_attached", found[IO]);
    CHECK("R8_MPI_IO_is_any_source_proc_null_or_rank",
          found[IO] && (value[IO] == MPI_ANY_SOURCE || value[IO] == MPI_PROC_NULL ||
                        (value[IO] >= 0 && value[IO] < size)));
    CHECK("R8_MPI_WTIME_IS_GLOBAL_0_or_1_if_set",
          !found[WTIME] || value[WTIME] == 0 || value[WTIME] == 1);
    CHECK("R8_MPI_UNIVERSE_SIZE_positive_if_set", !found[UNIVERSE] || value[UNIVERSE] >= 1);
    CHECK("R8_MPI_APPNUM_0_if_set", !found[APPNUM] || value[APPNUM] == 0);
    CHECK("R8_MPI_LASTUSEDCODE_attached", found[LASTUSED]);
    CHECK("R8_MPI_LASTUSEDCODE_at_least_MPI_ERR_LASTCODE",
          found[LASTUSED] && value[LASTUSED] >= MPI_ERR_LASTCODE);

    /* the same on every process: TAG_UB, HOST, WTIME_IS_GLOBAL, UNIVERSE_SIZE (and found flags) */
    int same_idx[] = {TAG_UB, HOST, WTIME, UNIVERSE};
    for (int j = 0; j < 4; j++) {
        int i = same_idx[j];
        int mine[2] = {found[i], value[i]}, lo[2], hi[2];
        MPI_Allreduce(mine, lo, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(mine, hi, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        snprintf(name, sizeof name, "R8_%s_same_on_all_processes", keys[i].name);
        CHECK(name, lo[0] == hi[0] && lo[1] == hi[1]);
    }

    /* MPI-1 MPI_Attr_get answers the same */
    int *p = NULL;
    f = -1;
    rc = MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &f);
    CHECK("R8_Attr_get_MPI_TAG_UB_same", rc == MPI_SUCCESS && f == 1 && p && *p == value[TAG_UB]);

    /* set and delete of predefined keys fail and change nothing */
    static int bogus = 12345;
    for (int i = 0; i < NK; i++) {
        int *q = NULL;
        rc = MPI_Comm_set_attr(MPI_COMM_WORLD, keys[i].key, &bogus);
        snprintf(name, sizeof name, "R8_set_%s_fails", keys[i].name);
        CHECK(name, rc != MPI_SUCCESS);
        snprintf(name, sizeof name, "set_%s_class", keys[i].name);
        INFO_CLASS(name, rc);
        rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, keys[i].key);
        snprintf(name, sizeof name, "R8_delete_%s_fails", keys[i].name);
        CHECK(name, rc != MPI_SUCCESS);
        snprintf(name, sizeof name, "delete_%s_class", keys[i].name);
        INFO_CLASS(name, rc);
        f = -1;
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, keys[i].key, &q, &f);
        snprintf(name, sizeof name, "R8_%s_unchanged_after_set_and_delete", keys[i].name);
        CHECK(name, rc == MPI_SUCCESS && (f == 1) == found[i] &&
                        (!found[i] || (q != &bogus && q && *q == value[i])));
    }
    /* freeing a predefined key fails; the variable and the attribute stay */
    int k = MPI_TAG_UB;
    rc = MPI_Comm_free_keyval(&k);
    CHECK("R8_free_keyval_MPI_TAG_UB_fails", rc != MPI_SUCCESS);
    INFO_CLASS("free_keyval_MPI_TAG_UB_class", rc);
    p = NULL;
    f = -1;
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &f);
    CHECK("R8_MPI_TAG_UB_readable_after_free_keyval_attempt",
          rc == MPI_SUCCESS && f == 1 && p && *p == value[TAG_UB]);

    /* not required by the standard; recorded: what a duplicate and MPI_COMM_SELF answer */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    f = -1;
    MPI_Comm_get_attr(dup, MPI_TAG_UB, &p, &f);
    FACT("dup_of_world_MPI_TAG_UB_found", f == 1);
    f = -1;
    MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &p, &f);
    FACT("self_MPI_TAG_UB_found", f == 1);
    MPI_Comm_free(&dup);

    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, late_delete, &klate, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, world_delete, &kworld, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kworld, (void *)(intptr_t)1);
    report();
    in_finalize = 1;
    MPI_Finalize();
    CHECK("R10_1_D133_self_without_attributes_refuses_or_deletes_a_set_from_world_deletion",
          !late_tried || late_rc != MPI_SUCCESS || late_deleted == 1);
    local_report();
    return 0;
}
