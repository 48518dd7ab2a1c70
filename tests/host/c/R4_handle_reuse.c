/* R4_handle_reuse.c: objects freed and made again in a loop, as a program's dup + free loop or a
 * library's scratch communicators do. Both hosts hand a freed handle out again for the next
 * object (MPICH reuses its index, Open MPI its memory): whatever an implementation keeps for the
 * freed object must not reach the new one.
 *
 * MPI-4.1 §8.7.2, §8.4.2, §5.1.10: a dup copies each attribute through its copy callback
 * (MPI_COMM_DUP_FN / MPI_TYPE_DUP_FN copy the value); an object made otherwise carries no
 * attribute. §8.4.3, §6.1.9: a free deletes every attribute, running its delete callback once.
 * So after any number of frees and dups, each object carries exactly what was copied or set on it.
 *
 * The program mixes plain attributes (MPI_XXX_DUP_FN, MPI_XXX_NULL_DELETE_FN) with attributes
 * whose callbacks count their calls, and keeps more objects alive at once than an implementation
 * would sensibly keep spare records for (mpiattr keeps 64 per kind, docs/decisions.md D32).
 */
#include "host_check.h"

#include <stdint.h>

#define MANY 100 /* objects alive at once */

static long ncopy, ndel;
static int comm_copy_count(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)x;
    ncopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int comm_del_count(MPI_Comm c, int k, void *v, void *x)
{
    (void)c; (void)k; (void)v; (void)x;
    ndel++;
    return MPI_SUCCESS;
}
static int type_copy_count(MPI_Datatype t, int k, void *x, void *in, void *out, int *flag)
{
    (void)t; (void)k; (void)x;
    ncopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int type_del_count(MPI_Datatype t, int k, void *v, void *x)
{
    (void)t; (void)k; (void)v; (void)x;
    ndel++;
    return MPI_SUCCESS;
}

/* The value under key on c, or -1 when there is none (-2 on an error). */
static intptr_t comm_value(MPI_Comm c, int key)
{
    void *v = NULL;
    int flag = -1;
    if (MPI_Comm_get_attr(c, key, &v, &flag) != MPI_SUCCESS || (flag != 0 && flag != 1))
        return -2;
    return flag ? (intptr_t)v : -1;
}
static intptr_t type_value(MPI_Datatype t, int key)
{
    void *v = NULL;
    int flag = -1;
    if (MPI_Type_get_attr(t, key, &v, &flag) != MPI_SUCCESS || (flag != 0 && flag != 1))
        return -2;
    return flag ? (intptr_t)v : -1;
}

static void communicators(int rank)
{
    int kp, kq, ku;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kp, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kq, NULL);
    MPI_Comm_create_keyval(comm_copy_count, comm_del_count, &ku, NULL);
    MPI_Comm base, counted;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_attr(base, kp, (void *)(intptr_t)(10 + rank));
    MPI_Comm_dup(MPI_COMM_WORLD, &counted);
    MPI_Comm_set_attr(counted, kp, (void *)(intptr_t)(20 + rank));
    MPI_Comm_set_attr(counted, ku, (void *)(intptr_t)(30 + rank));

    /* One at a time: a dup of base, changed and freed; then an object with no attribute, which
     * gets the freed handle back on both hosts, then one with a first attribute set on it. */
    int copied = 0, replaced = 0, bare = 0, first = 0, second = 0, reused = 0;
    for (int i = 0; i < 40; i++) {
        MPI_Comm d, e, f;
        MPI_Comm_dup(base, &d);
        copied += comm_value(d, kp) == 10 + rank && comm_value(d, kq) == -1;
        MPI_Comm_set_attr(d, kq, (void *)(intptr_t)(100 + i));
        MPI_Comm_set_attr(d, kp, (void *)(intptr_t)(200 + i));
        replaced += comm_value(d, kp) == 200 + i && comm_value(d, kq) == 100 + i;
        MPI_Comm gone = d;
        MPI_Comm_free(&d);
        MPI_Comm_dup(MPI_COMM_WORLD, &e);
        reused += e == gone;
        bare += comm_value(e, kp) == -1 && comm_value(e, kq) == -1;
        MPI_Comm_set_attr(e, kq, (void *)(intptr_t)(300 + i));
        first += comm_value(e, kq) == 300 + i && comm_value(e, kp) == -1;
        MPI_Comm_dup(e, &f);
        second += comm_value(f, kq) == 300 + i && comm_value(f, kp) == -1;
        MPI_Comm_free(&f);
        MPI_Comm_free(&e);
    }
    CHECK("R6_1_comm_dup_after_frees_copies_exactly_the_source", copied == 40);
    CHECK("R4_1_comm_set_on_a_dup_after_frees", replaced == 40);
    CHECK("R4_4_comm_reused_handle_carries_nothing_of_the_freed", bare == 40);
    CHECK("R4_1_comm_first_attribute_on_a_reused_handle", first == 40);
    CHECK("R6_1_comm_dup_of_a_reused_handle_copies_its_own", second == 40);
    INFO("comm_handles_reused_of_40", reused);

    /* Below MPI_THREAD_MULTIPLE mpiattr's fast free leaves a record's plain attributes in place
     * while it sleeps, and the next dup to the handle copies over them (docs/decisions.md D90):
     * a dup onto a handle whose last object had the same, fewer or more plain attributes carries
     * exactly the source's values. */
    MPI_Comm both;
    MPI_Comm_dup(MPI_COMM_WORLD, &both);
    MPI_Comm_set_attr(both, kp, (void *)(intptr_t)(40 + rank));
    MPI_Comm_set_attr(both, kq, (void *)(intptr_t)(50 + rank));
    int over = 0;
    for (int i = 0; i < 10; i++) {
        MPI_Comm d, e;
        MPI_Comm_dup(base, &d);
        over += comm_value(d, kp) == 10 + rank && comm_value(d, kq) == -1;
        MPI_Comm_free(&d);
        MPI_Comm_dup(both, &e);
        over += comm_value(e, kp) == 40 + rank && comm_value(e, kq) == 50 + rank;
        MPI_Comm_free(&e);
        MPI_Comm_dup(base, &d);
        over += comm_value(d, kp) == 10 + rank && comm_value(d, kq) == -1;
        MPI_Comm_free(&d);
    }
    MPI_Comm_free(&both);
    CHECK("D90_comm_dup_onto_a_freed_objects_plain_attributes_copies_exactly_the_source", over == 30);

    /* Attributes with callbacks: each copy and each delete runs once. */
    ncopy = ndel = 0;
    int counted_ok = 0;
    for (int i = 0; i < 20; i++) {
        MPI_Comm d;
        MPI_Comm_dup(counted, &d);
        counted_ok += comm_value(d, ku) == 30 + rank && comm_value(d, kp) == 20 + rank;
        MPI_Comm_free(&d);
    }
    CHECK("R6_1_comm_dup_with_callbacks_after_frees", counted_ok == 20);
    CHECK("R4_4_comm_callbacks_run_once_per_dup_and_free", ncopy == 20 && ndel == 20);

    /* Many alive at once, freed, then as many made again, bare and by dup. */
    MPI_Comm many[MANY];
    int alive = 0, fresh_bare = 0, fresh_dup = 0;
    for (int i = 0; i < MANY; i++) {
        MPI_Comm_dup(base, &many[i]);
        MPI_Comm_set_attr(many[i], kq, (void *)(intptr_t)(1000 + i));
    }
    for (int i = 0; i < MANY; i++)
        alive += comm_value(many[i], kp) == 10 + rank && comm_value(many[i], kq) == 1000 + i;
    for (int i = 0; i < MANY; i++)
        MPI_Comm_free(&many[i]);
    for (int i = 0; i < MANY; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &many[i]);
    for (int i = 0; i < MANY; i++)
        fresh_bare += comm_value(many[i], kp) == -1 && comm_value(many[i], kq) == -1;
    for (int i = 0; i < MANY; i++)
        MPI_Comm_free(&many[i]);
    for (int i = 0; i < MANY; i++)
        MPI_Comm_dup(base, &many[i]);
    for (int i = 0; i < MANY; i++)
        fresh_dup += comm_value(many[i], kp) == 10 + rank && comm_value(many[i], kq) == -1;
    for (int i = 0; i < MANY; i++)
        MPI_Comm_free(&many[i]);
    CHECK("R6_1_comm_many_dups_alive_at_once", alive == MANY);
    CHECK("R4_4_comm_many_reused_handles_carry_nothing", fresh_bare == MANY);
    CHECK("R6_1_comm_many_dups_on_reused_handles_copy_exactly", fresh_dup == MANY);

    ncopy = ndel = 0;
    MPI_Comm_free(&counted);
    CHECK("R4_4_comm_free_runs_the_delete_callback", ndel == 1);
    MPI_Comm_free(&base);
    MPI_Comm_free_keyval(&kp);
    MPI_Comm_free_keyval(&kq);
    MPI_Comm_free_keyval(&ku);
}

static void datatypes(int rank)
{
    int kp, kq, ku;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kp, NULL);
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kq, NULL);
    MPI_Type_create_keyval(type_copy_count, type_del_count, &ku, NULL);
    MPI_Datatype base, counted;
    MPI_Type_contiguous(2, MPI_INT, &base);
    MPI_Type_set_attr(base, kp, (void *)(intptr_t)(10 + rank));
    MPI_Type_contiguous(3, MPI_INT, &counted);
    MPI_Type_set_attr(counted, kp, (void *)(intptr_t)(20 + rank));
    MPI_Type_set_attr(counted, ku, (void *)(intptr_t)(30 + rank));

    int copied = 0, replaced = 0, bare = 0, first = 0, second = 0, reused = 0;
    for (int i = 0; i < 200; i++) {
        MPI_Datatype d, e, f;
        MPI_Type_dup(base, &d);
        copied += type_value(d, kp) == 10 + rank && type_value(d, kq) == -1;
        MPI_Type_set_attr(d, kq, (void *)(intptr_t)(100 + i));
        MPI_Type_set_attr(d, kp, (void *)(intptr_t)(200 + i));
        replaced += type_value(d, kp) == 200 + i && type_value(d, kq) == 100 + i;
        MPI_Datatype gone = d;
        MPI_Type_free(&d);
        MPI_Type_contiguous(4, MPI_INT, &e);
        reused += e == gone;
        bare += type_value(e, kp) == -1 && type_value(e, kq) == -1;
        MPI_Type_set_attr(e, kq, (void *)(intptr_t)(300 + i));
        first += type_value(e, kq) == 300 + i && type_value(e, kp) == -1;
        MPI_Type_dup(e, &f);
        second += type_value(f, kq) == 300 + i && type_value(f, kp) == -1;
        MPI_Type_free(&f);
        MPI_Type_free(&e);
    }
    CHECK("R6_1_type_dup_after_frees_copies_exactly_the_source", copied == 200);
    CHECK("R4_1_type_set_on_a_dup_after_frees", replaced == 200);
    CHECK("R4_4_type_reused_handle_carries_nothing_of_the_freed", bare == 200);
    CHECK("R4_1_type_first_attribute_on_a_reused_handle", first == 200);
    CHECK("R6_1_type_dup_of_a_reused_handle_copies_its_own", second == 200);
    INFO("type_handles_reused_of_200", reused);

    /* As for communicators (D90), and with more plain attributes than a slot-by-slot copy takes. */
    MPI_Datatype both, wide;
    MPI_Type_contiguous(6, MPI_INT, &both);
    MPI_Type_set_attr(both, kp, (void *)(intptr_t)(40 + rank));
    MPI_Type_set_attr(both, kq, (void *)(intptr_t)(50 + rank));
    int kw[8];
    MPI_Type_contiguous(7, MPI_INT, &wide);
    for (int j = 0; j < 8; j++) {
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kw[j], NULL);
        MPI_Type_set_attr(wide, kw[j], (void *)(intptr_t)(60 + j));
    }
    int over = 0;
    for (int i = 0; i < 10; i++) {
        MPI_Datatype d, e, w;
        MPI_Type_dup(base, &d);
        over += type_value(d, kp) == 10 + rank && type_value(d, kq) == -1;
        MPI_Type_free(&d);
        MPI_Type_dup(both, &e);
        over += type_value(e, kp) == 40 + rank && type_value(e, kq) == 50 + rank;
        MPI_Type_free(&e);
        MPI_Type_dup(wide, &w);
        over += type_value(w, kp) == -1 && type_value(w, kw[7]) == 67;
        MPI_Type_free(&w);
        MPI_Type_dup(base, &d);
        over += type_value(d, kp) == 10 + rank && type_value(d, kq) == -1 && type_value(d, kw[0]) == -1;
        MPI_Type_free(&d);
    }
    MPI_Type_free(&both);
    MPI_Type_free(&wide);
    for (int j = 0; j < 8; j++)
        MPI_Type_free_keyval(&kw[j]);
    CHECK("D90_type_dup_onto_a_freed_objects_plain_attributes_copies_exactly_the_source", over == 40);

    ncopy = ndel = 0;
    int counted_ok = 0;
    for (int i = 0; i < 50; i++) {
        MPI_Datatype d;
        MPI_Type_dup(counted, &d);
        counted_ok += type_value(d, ku) == 30 + rank && type_value(d, kp) == 20 + rank;
        MPI_Type_free(&d);
    }
    CHECK("R6_1_type_dup_with_callbacks_after_frees", counted_ok == 50);
    CHECK("R4_4_type_callbacks_run_once_per_dup_and_free", ncopy == 50 && ndel == 50);

    MPI_Datatype many[MANY];
    int alive = 0, fresh_bare = 0, fresh_dup = 0;
    for (int i = 0; i < MANY; i++) {
        MPI_Type_dup(base, &many[i]);
        MPI_Type_set_attr(many[i], kq, (void *)(intptr_t)(1000 + i));
    }
    for (int i = 0; i < MANY; i++)
        alive += type_value(many[i], kp) == 10 + rank && type_value(many[i], kq) == 1000 + i;
    for (int i = 0; i < MANY; i++)
        MPI_Type_free(&many[i]);
    for (int i = 0; i < MANY; i++)
        MPI_Type_contiguous(5, MPI_INT, &many[i]);
    for (int i = 0; i < MANY; i++)
        fresh_bare += type_value(many[i], kp) == -1 && type_value(many[i], kq) == -1;
    for (int i = 0; i < MANY; i++)
        MPI_Type_free(&many[i]);
    for (int i = 0; i < MANY; i++)
        MPI_Type_dup(base, &many[i]);
    for (int i = 0; i < MANY; i++)
        fresh_dup += type_value(many[i], kp) == 10 + rank && type_value(many[i], kq) == -1;
    for (int i = 0; i < MANY; i++)
        MPI_Type_free(&many[i]);
    CHECK("R6_1_type_many_dups_alive_at_once", alive == MANY);
    CHECK("R4_4_type_many_reused_handles_carry_nothing", fresh_bare == MANY);
    CHECK("R6_1_type_many_dups_on_reused_handles_copy_exactly", fresh_dup == MANY);

    ncopy = ndel = 0;
    MPI_Type_free(&counted);
    CHECK("R4_4_type_free_runs_the_delete_callback", ndel == 1);
    MPI_Type_free(&base);
    MPI_Type_free_keyval(&kp);
    MPI_Type_free_keyval(&kq);
    MPI_Type_free_keyval(&ku);
}

int main(int argc, char **argv)
{
    hc_init(&argc, &argv); /* (the _multiple variant: at MPI_THREAD_MULTIPLE) */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    communicators(rank);
    datatypes(rank);
    report();
    MPI_Finalize();
    return 0;
}
