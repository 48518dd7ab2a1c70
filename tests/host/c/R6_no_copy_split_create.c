/* R6_no_copy_split_create.c: communicators made by split and create carry no attributes.
 *
 * MPI-4.1 §8.4.2: MPI_COMM_CREATE, MPI_COMM_CREATE_GROUP, MPI_COMM_SPLIT and
 * MPI_COMM_SPLIT_TYPE do not propagate cached information (only the dup routines do, §8.7.1), so
 * no copy callback runs and the new communicator has no attribute of its parent, for parents
 * MPI_COMM_WORLD and a duplicate of it. Attributes set on the new communicators are theirs alone.
 */
#include "host_check.h"

#include <stdint.h>

static int copies, deletes;
static MPI_Comm watched = MPI_COMM_NULL; /* deletes on this communicator are counted apart */
static int deletes_on_watched;

static int counting_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    deletes++;
    if (watched != MPI_COMM_NULL && comm == watched)
        deletes_on_watched++;
    return MPI_SUCCESS;
}

static int kdup, kuser;

/* No user attribute on c; checks name "R6_<parent>_<how>_<...>". */
static void check_bare(MPI_Comm c, int expect_comm, const char *parent, const char *how,
                       int copies_before)
{
    char name[128];
    void *v;
    int f1 = -1, f2 = -1, rc = MPI_SUCCESS;
    if (c != MPI_COMM_NULL) {
        rc |= MPI_Comm_get_attr(c, kdup, &v, &f1);
        rc |= MPI_Comm_get_attr(c, kuser, &v, &f2);
    }
    snprintf(name, sizeof name, "R6_%s_%s_result_as_expected", parent, how);
    CHECK(name, (c != MPI_COMM_NULL) == expect_comm);
    snprintf(name, sizeof name, "R6_%s_%s_has_no_parent_attributes", parent, how);
    CHECK(name, c == MPI_COMM_NULL || (rc == MPI_SUCCESS && f1 == 0 && f2 == 0));
    snprintf(name, sizeof name, "R6_%s_%s_runs_no_copy_callback", parent, how);
    CHECK(name, copies == copies_before);
}

static void one_parent(MPI_Comm parent, const char *pname, int rank, int size)
{
    char name[128];
    MPI_Comm s = MPI_COMM_NULL, st = MPI_COMM_NULL, cr = MPI_COMM_NULL, cg = MPI_COMM_NULL;
    MPI_Group world_group, even_group;
    int c0, rc;

    MPI_Comm_set_attr(parent, kdup, (void *)(intptr_t)(10 + rank));
    MPI_Comm_set_attr(parent, kuser, (void *)(intptr_t)(20 + rank));

    c0 = copies;
    rc = MPI_Comm_split(parent, rank % 2, size - rank, &s);
    snprintf(name, sizeof name, "R6_%s_split_succeeds", pname);
    CHECK(name, rc == MPI_SUCCESS);
    check_bare(s, 1, pname, "split", c0);

    c0 = copies;
    rc = MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &st);
    snprintf(name, sizeof name, "R6_%s_split_type_succeeds", pname);
    CHECK(name, rc == MPI_SUCCESS);
    check_bare(st, 1, pname, "split_type", c0);

    /* the even ranks of the parent */
    MPI_Comm_group(parent, &world_group);
    int n_even = (size + 1) / 2, evens[64];
    for (int i = 0; i < n_even && i < 64; i++)
        evens[i] = 2 * i;
    MPI_Group_incl(world_group, n_even, evens, &even_group);

    c0 = copies;
    rc = MPI_Comm_create(parent, even_group, &cr);
    snprintf(name, sizeof name, "R6_%s_create_succeeds", pname);
    CHECK(name, rc == MPI_SUCCESS);
    check_bare(cr, rank % 2 == 0, pname, "create", c0);

    c0 = copies;
    rc = MPI_SUCCESS;
    if (rank % 2 == 0) /* collective over the group only */
        rc = MPI_Comm_create_group(parent, even_group, 42, &cg);
    snprintf(name, sizeof name, "R6_%s_create_group_succeeds", pname);
    CHECK(name, rc == MPI_SUCCESS);
    check_bare(cg, rank % 2 == 0, pname, "create_group", c0);

    /* attributes set on a new communicator belong to it alone */
    void *v = NULL;
    int flag = -1;
    rc = MPI_Comm_set_attr(s, kdup, (void *)(intptr_t)(30 + rank));
    rc |= MPI_Comm_get_attr(parent, kdup, &v, &flag);
    snprintf(name, sizeof name, "R6_%s_split_attribute_not_on_parent", pname);
    CHECK(name, rc == MPI_SUCCESS && flag == 1 && (intptr_t)v == 10 + rank);
    v = NULL;
    flag = -1;
    rc = MPI_Comm_get_attr(s, kdup, &v, &flag);
    snprintf(name, sizeof name, "R6_%s_split_attribute_readable", pname);
    CHECK(name, rc == MPI_SUCCESS && flag == 1 && (intptr_t)v == 30 + rank);

    /* freeing the split communicator runs the delete callback of its own attribute */
    MPI_Comm_set_attr(s, kuser, (void *)(intptr_t)(40 + rank)); /* the one delete callback */
    watched = s;
    deletes_on_watched = 0;
    rc = MPI_Comm_free(&s);
    watched = MPI_COMM_NULL;
    snprintf(name, sizeof name, "R6_%s_free_split_runs_its_delete_callback", pname);
    CHECK(name, rc == MPI_SUCCESS && deletes_on_watched == 1);
    MPI_Comm_free(&st);
    if (cr != MPI_COMM_NULL)
        MPI_Comm_free(&cr);
    if (cg != MPI_COMM_NULL)
        MPI_Comm_free(&cg);
    v = NULL;
    flag = -1;
    rc = MPI_Comm_get_attr(parent, kuser, &v, &flag);
    snprintf(name, sizeof name, "R6_%s_parent_attributes_intact", pname);
    CHECK(name, rc == MPI_SUCCESS && flag == 1 && (intptr_t)v == 20 + rank);

    MPI_Group_free(&even_group);
    MPI_Group_free(&world_group);
    MPI_Comm_delete_attr(parent, kdup);
    MPI_Comm_delete_attr(parent, kuser);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, NULL);
    MPI_Comm_create_keyval(counting_copy, counting_delete, &kuser, NULL);

    one_parent(MPI_COMM_WORLD, "world", rank, size);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    one_parent(dup, "dup", rank, size);
    MPI_Comm_free(&dup);

    MPI_Comm_free_keyval(&kdup);
    MPI_Comm_free_keyval(&kuser);
    report();
    MPI_Finalize();
    return 0;
}
