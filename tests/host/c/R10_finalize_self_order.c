/* R10_finalize_self_order.c: MPI_Finalize deletes the attributes of MPI_COMM_SELF first.
 *
 * MPI-4.1 §12.2.4 ("Allowing User Functions at MPI Finalization"): the first thing MPI_FINALIZE
 * does is the equivalent of freeing MPI_COMM_SELF, which runs the delete callbacks of its
 * attributes in the reverse of the order in which they were set, before any other part of MPI is
 * affected: MPI_FINALIZED returns false inside those callbacks and the rest of MPI still works
 * (here: MPI_COMM_WORLD's attributes are still readable, MPI_Comm_rank works). A set_attr that
 * replaces a value is a delete followed by a new store (§8.7.2), so the replaced attribute counts
 * as the most recently set and is deleted first.
 *
 * Attributes on MPI_COMM_WORLD: whether finalize deletes them is not required by the standard
 * (§12.2.2 frees no other object); it is recorded as a FACT, and if it does, it must come after
 * all of MPI_COMM_SELF's; an attribute a MPI_COMM_WORLD delete callback then sets on
 * MPI_COMM_SELF, freed by then, is refused or deleted, not left with a delete callback that never
 * runs (D133).
 *
 * The checks on what happened inside MPI_Finalize are made after it, by local_report().
 */
#include "host_check.h"

#include <stdint.h>

enum { NK = 6 };
static int kself[NK], kworld;
static int seq;                    /* deletions seen during MPI_Finalize */
static int in_finalize;
static int order[16];              /* values seen, in order */
static int finalized_inside[16];   /* MPI_Finalized flag inside each callback */
static int world_attr_visible[16]; /* MPI_COMM_WORLD's attribute readable inside each */
static int rank_works[16];
static int world_deleted_at = -1;  /* seq at which the MPI_COMM_WORLD attribute went */
static int pre_finalize_deletes;
static intptr_t pre_finalize_value;
static int self_handle_ok = 1;

static int self_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    if (!in_finalize) { /* the replace before finalize */
        pre_finalize_deletes++;
        pre_finalize_value = (intptr_t)value;
        return MPI_SUCCESS;
    }
    if (comm != MPI_COMM_SELF)
        self_handle_ok = 0;
    if (seq < 16) {
        int fin = -1, f = -1, r = -1;
        void *v = NULL;
        order[seq] = (int)(intptr_t)value;
        MPI_Finalized(&fin);
        finalized_inside[seq] = fin;
        world_attr_visible[seq] =
            MPI_Comm_get_attr(MPI_COMM_WORLD, kworld, &v, &f) == MPI_SUCCESS && f == 1 &&
            (intptr_t)v == 999;
        rank_works[seq] = MPI_Comm_rank(MPI_COMM_WORLD, &r) == MPI_SUCCESS && r >= 0;
    }
    seq++;
    return MPI_SUCCESS;
}

static int klate, late_set_rc = MPI_SUCCESS, late_set_tried, late_deleted;

static int late_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    late_deleted++;
    return MPI_SUCCESS;
}

static int world_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    if (in_finalize && world_deleted_at < 0)
        world_deleted_at = seq;
    if (in_finalize && !late_set_tried) {
        /* MPI_COMM_SELF has been freed by now (§12.2.4): an attribute put on it here is either
         * refused or deleted, never left for nobody (D133). */
        late_set_tried = 1;
        late_set_rc = MPI_Comm_set_attr(MPI_COMM_SELF, klate, (void *)(intptr_t)777);
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, rc;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    for (int i = 0; i < NK; i++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &kself[i], NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, world_delete, &kworld, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, late_delete, &klate, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kworld, (void *)(intptr_t)999);

    /* set in an order unrelated to creation: values are 100 + key index */
    const int set_order[NK] = {3, 1, 5, 0, 4, 2};
    rc = MPI_SUCCESS;
    for (int i = 0; i < NK; i++)
        rc |= MPI_Comm_set_attr(MPI_COMM_SELF, kself[set_order[i]],
                                (void *)(intptr_t)(100 + set_order[i]));
    /* replace key 1's value: it becomes the most recently set, value 111 */
    rc |= MPI_Comm_set_attr(MPI_COMM_SELF, kself[1], (void *)(intptr_t)111);
    CHECK("R10_setup_succeeds", rc == MPI_SUCCESS);
    CHECK("R4_replace_on_self_deletes_old_value",
          pre_finalize_deletes == 1 && pre_finalize_value == 101);
    /* free the keys now: the attributes keep their callbacks (§8.7.2) */
    for (int i = 0; i < NK; i++)
        MPI_Comm_free_keyval(&kself[i]);

    report();
    in_finalize = 1;
    MPI_Finalize();

    /* expected deletion order: 111 (replaced, newest), then reverse of the set order */
    /* the never-replaced ones, in the order seen (whatever happened to 111) */
    const int expect_plain[NK - 1] = {102, 104, 100, 105, 103};
    int plain_seen[NK], np = 0, plain_ok;
    for (int i = 0; i < seq && i < 16; i++)
        if (order[i] != 111 && np < NK)
            plain_seen[np++] = order[i];
    plain_ok = np == NK - 1;
    for (int i = 0; i < np && i < NK - 1; i++)
        plain_ok &= plain_seen[i] == expect_plain[i];
    int fin_ok = seq > 0, vis_ok = seq > 0, rank_ok = seq > 0;
    for (int i = 0; i < seq && i < 16; i++) {
        fin_ok &= finalized_inside[i] == 0;
        vis_ok &= world_attr_visible[i];
        rank_ok &= rank_works[i];
    }
    int fin_after = -1;
    MPI_Finalized(&fin_after);

    CHECK("R10_finalize_runs_every_self_delete_callback_once", seq == NK);
    CHECK("R10_finalize_self_delete_callbacks_get_MPI_COMM_SELF", seq > 0 && self_handle_ok);
    CHECK("R10_finalize_deletes_self_attributes_in_reverse_order_of_setting", plain_ok);
    CHECK("R10_finalize_replaced_attribute_deleted_first", seq > 0 && order[0] == 111);
    CHECK("R10_finalized_false_inside_self_delete_callbacks", fin_ok);
    CHECK("R10_world_attributes_intact_during_self_deletion", vis_ok);
    CHECK("R10_mpi_usable_inside_self_delete_callbacks", rank_ok);
    CHECK("R10_world_attribute_deleted_after_self_attributes",
          world_deleted_at < 0 || world_deleted_at == NK);
    CHECK("R10_finalized_true_after_finalize", fin_after == 1);
    CHECK("R10_1_D133_self_attribute_set_during_world_deletion_is_refused_or_deleted",
          !late_set_tried || late_set_rc != MPI_SUCCESS || late_deleted == 1);
    /* every rank prints these (local_report); the runner requires equal values for a FACT */
    FACT("world_attribute_deleted_at_finalize", world_deleted_at >= 0);
    char text[128], name[64];
    snprintf(text, sizeof text, "%d,%d,%d,%d,%d,%d", order[0], order[1], order[2], order[3],
             order[4], order[5]);
    snprintf(name, sizeof name, "rank%d_self_deletion_order", rank);
    INFO_S(name, text);
    local_report();
    return 0;
}
