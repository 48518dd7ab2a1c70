/* R6_intercomm.c: caching on an intercommunicator.
 *
 * MPI-4.1 §8.6.2, §8.7.1: attributes can be cached on intercommunicators like on any
 * communicator; MPI_COMM_DUP of an intercommunicator runs the copy callbacks (with the
 * intercommunicator's handle) and gives an intercommunicator; MPI_INTERCOMM_CREATE and
 * MPI_INTERCOMM_MERGE are constructors that propagate no cached information (§8.4.2, §8.6.2);
 * MPI_COMM_FREE of an intercommunicator runs its delete callbacks (§8.4.3, §8.7.2).
 * MPI_COMM_WORLD is split in two halves (ranks below size/2 and the others).
 */
#include "host_check.h"

#include <stdint.h>

static int copies, deletes;
static MPI_Comm copy_from = MPI_COMM_NULL, deleted_on = MPI_COMM_NULL;
static int deletes_elsewhere; /* while freeing deleted_on: calls with another handle */
static MPI_Comm copied_from = MPI_COMM_NULL; /* while duplicating it: */
static int copies_from_it, copies_elsewhere;

static int copy_plus_one(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    copies++;
    copy_from = comm;
    if (copied_from != MPI_COMM_NULL)
        *(comm == copied_from ? &copies_from_it : &copies_elsewhere) += 1;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    if (deleted_on != MPI_COMM_NULL && comm != deleted_on)
        deletes_elsewhere++;
    else
        deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, rc, f, is_inter = 0;
    void *v;
    MPI_Comm local = MPI_COMM_NULL, inter = MPI_COMM_NULL, dup = MPI_COMM_NULL,
             merged = MPI_COMM_NULL;
    int kdup, kuser, knull;

    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int two_halves = size >= 2;
    int low = rank < size / 2;

    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kdup, NULL);
    MPI_Comm_create_keyval(copy_plus_one, count_delete, &kuser, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &knull, NULL);

    rc = MPI_ERR_OTHER;
    if (two_halves) {
        MPI_Comm_split(MPI_COMM_WORLD, low, rank, &local);
        /* local leader: local rank 0; remote leader: world rank 0 or size/2 */
        MPI_Comm_set_attr(local, kdup, (void *)(intptr_t)5);
        MPI_Comm_set_attr(local, kuser, (void *)(intptr_t)6);
        copies = 0;
        rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 77, &inter);
    }
    CHECK("R6_intercomm_create_succeeds", rc == MPI_SUCCESS && inter != MPI_COMM_NULL);
    CHECK("R6_intercomm_create_runs_no_copy_callback", two_halves && copies == 0);
    if (inter != MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        MPI_Comm_test_inter(inter, &is_inter);
    }
    CHECK("R6_intercomm_is_inter", is_inter == 1);
    MPI_Comm target = inter != MPI_COMM_NULL ? inter : MPI_COMM_SELF; /* keep calls valid */

    int f2 = -1;
    f = -1;
    rc = MPI_Comm_get_attr(target, kdup, &v, &f);
    rc |= MPI_Comm_get_attr(target, kuser, &v, &f2);
    CHECK("R6_intercomm_create_copies_nothing_from_local_comm",
          rc == MPI_SUCCESS && f == 0 && f2 == 0);

    /* set / get / replace / delete on the intercommunicator */
    rc = MPI_Comm_set_attr(target, kdup, (void *)(intptr_t)(100 + rank));
    rc |= MPI_Comm_set_attr(target, kuser, (void *)(intptr_t)(200 + rank));
    rc |= MPI_Comm_set_attr(target, knull, (void *)(intptr_t)(300 + rank));
    CHECK("R4_intercomm_set_succeeds", rc == MPI_SUCCESS);
    int ok = 1;
    f = -1;
    ok &= MPI_Comm_get_attr(target, kdup, &v, &f) == MPI_SUCCESS && f == 1 &&
          (intptr_t)v == 100 + rank;
    f = -1;
    ok &= MPI_Comm_get_attr(target, kuser, &v, &f) == MPI_SUCCESS && f == 1 &&
          (intptr_t)v == 200 + rank;
    CHECK("R4_intercomm_get_returns_values", ok);
    deletes = 0;
    rc = MPI_Comm_set_attr(target, knull, (void *)(intptr_t)(400 + rank));
    CHECK("R4_intercomm_replace_runs_delete_callback", rc == MPI_SUCCESS && deletes == 1);
    deletes = 0;
    rc = MPI_Comm_delete_attr(target, knull);
    f = -1;
    rc |= MPI_Comm_get_attr(target, knull, &v, &f);
    CHECK("R4_intercomm_delete_runs_delete_callback", rc == MPI_SUCCESS && deletes == 1 && f == 0);
    MPI_Comm_set_attr(target, knull, (void *)(intptr_t)(300 + rank));

    /* dup: an intercommunicator with the copies */
    copies = 0;
    copied_from = inter;
    copies_from_it = copies_elsewhere = 0;
    rc = MPI_ERR_OTHER;
    if (inter != MPI_COMM_NULL)
        rc = MPI_Comm_dup(inter, &dup);
    copied_from = MPI_COMM_NULL;
    is_inter = 0;
    if (dup != MPI_COMM_NULL)
        MPI_Comm_test_inter(dup, &is_inter);
    CHECK("R6_intercomm_dup_is_inter", rc == MPI_SUCCESS && is_inter == 1);
    CHECK("R6_intercomm_dup_copy_callback_gets_intercomm",
          inter != MPI_COMM_NULL && copies_from_it == 1);
    CHECK("R6_intercomm_dup_runs_no_copy_callback_on_other_handles", copies_elsewhere == 0);
    MPI_Comm dtarget = dup != MPI_COMM_NULL ? dup : MPI_COMM_SELF;
    ok = dup != MPI_COMM_NULL;
    f = -1;
    ok &= MPI_Comm_get_attr(dtarget, kdup, &v, &f) == MPI_SUCCESS && f == 1 &&
          (intptr_t)v == 100 + rank;
    f = -1;
    ok &= MPI_Comm_get_attr(dtarget, kuser, &v, &f) == MPI_SUCCESS && f == 1 &&
          (intptr_t)v == 201 + rank;
    f = -1;
    ok &= MPI_Comm_get_attr(dtarget, knull, &v, &f) == MPI_SUCCESS && f == 0;
    CHECK("R6_intercomm_dup_copies_attributes", ok);

    /* merge: a new intracommunicator with no attributes, no callbacks */
    copies = 0;
    rc = MPI_ERR_OTHER;
    if (inter != MPI_COMM_NULL)
        rc = MPI_Intercomm_merge(inter, !low, &merged);
    CHECK("R6_intercomm_merge_succeeds", rc == MPI_SUCCESS && merged != MPI_COMM_NULL);
    ok = merged != MPI_COMM_NULL && copies == 0;
    if (merged != MPI_COMM_NULL) {
        int keys[3] = {kdup, kuser, knull};
        for (int i = 0; i < 3; i++) {
            f = -1;
            ok &= MPI_Comm_get_attr(merged, keys[i], &v, &f) == MPI_SUCCESS && f == 0;
        }
    }
    CHECK("R6_intercomm_merge_carries_no_attributes", ok);

    /* free: delete callbacks with the freed handle, in the call, and on nothing else */
    deletes = 0;
    deletes_elsewhere = 0;
    deleted_on = merged;
    if (merged != MPI_COMM_NULL)
        MPI_Comm_free(&merged);
    CHECK("R4_intercomm_merge_free_runs_no_delete_callback", deletes == 0 && deletes_elsewhere == 0);
    deletes = 0;
    deleted_on = dup;
    rc = MPI_ERR_OTHER;
    if (dup != MPI_COMM_NULL)
        rc = MPI_Comm_free(&dup);
    CHECK("R4_intercomm_dup_free_runs_delete_callbacks", rc == MPI_SUCCESS && deletes == 2);
    deletes = 0;
    deleted_on = inter;
    rc = MPI_ERR_OTHER;
    if (inter != MPI_COMM_NULL)
        rc = MPI_Comm_free(&inter);
    CHECK("R4_intercomm_free_runs_delete_callbacks",
          rc == MPI_SUCCESS && deletes == 3 && inter == MPI_COMM_NULL);
    INFO("R4_intercomm_frees_delete_callbacks_on_other_handles", deletes_elsewhere);
    CHECK("R4_intercomm_frees_run_no_delete_callback_on_other_handles", deletes_elsewhere == 0);
    deleted_on = MPI_COMM_NULL;

    /* the local communicator kept its own attribute all along */
    f = -1;
    rc = MPI_ERR_OTHER;
    if (local != MPI_COMM_NULL)
        rc = MPI_Comm_get_attr(local, kdup, &v, &f);
    CHECK("R4_local_comm_keeps_its_attributes", rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 5);
    f = -1;
    rc = MPI_ERR_OTHER;
    if (local != MPI_COMM_NULL)
        rc = MPI_Comm_get_attr(local, kuser, &v, &f);
    CHECK("R4_local_comm_user_attribute_unchanged", rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 6);
    if (local != MPI_COMM_NULL)
        MPI_Comm_free(&local);

    MPI_Comm_free_keyval(&kdup);
    MPI_Comm_free_keyval(&kuser);
    MPI_Comm_free_keyval(&knull);
    report();
    MPI_Finalize();
    return 0;
}
