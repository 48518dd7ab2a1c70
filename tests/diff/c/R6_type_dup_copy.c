/* R6.1, R6.2, R6.5: MPI_Type_dup copies attributes through the copy
 * callbacks: MPI_TYPE_DUP_FN copies the value, MPI_TYPE_NULL_COPY_FN drops it,
 * a user callback decides with its flag (0 or 1) and attribute_val_out.
 * Freeing the duplicate runs the delete callbacks of the copied attributes
 * only; freeing the original afterwards runs its own.
 */
#include "diff_util.h"

static MPI_Datatype orig;
static int kdup, knull, kuser1, kuser0;
static int copy_calls, copy_bad_args, del_calls;
static int xstate;

static int user_copy(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag)
{
    copy_calls++;
    if (old != orig || extra != (void *)&xstate || (key != kuser1 && key != kuser0))
        copy_bad_args++;
    *flag = (key == kuser1);
    if (*flag)
        *(void **)out = (void *)((MPI_Aint)in * 2);
    return MPI_SUCCESS;
}

static int count_del(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t; (void)key; (void)val; (void)extra;
    del_calls++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Datatype dup;
    void *v;
    int flag, size;

    diff_init(&argc, &argv);
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &orig));
    CHECK(MPI_Type_commit(&orig));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_del, &kdup, NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_del, &knull, NULL));
    CHECK(MPI_Type_create_keyval(user_copy, count_del, &kuser1, &xstate));
    CHECK(MPI_Type_create_keyval(user_copy, count_del, &kuser0, &xstate));
    CHECK(MPI_Type_set_attr(orig, kdup, (void *)(MPI_Aint)10));
    CHECK(MPI_Type_set_attr(orig, knull, (void *)(MPI_Aint)20));
    CHECK(MPI_Type_set_attr(orig, kuser1, (void *)(MPI_Aint)30));
    CHECK(MPI_Type_set_attr(orig, kuser0, (void *)(MPI_Aint)40));

    fact_err("R6_1 MPI_Type_dup rc", MPI_Type_dup(orig, &dup));
    CHECK(MPI_Type_size(dup, &size));
    fact("R6_1 dup has the same size (8 bytes for 2 ints)", size == 2 * (int)sizeof(int));
    fact("R6_2 user copy cb calls", copy_calls);
    fact("R6_2 user copy cb got oldtype, keyval, extra_state", copy_bad_args == 0);

    v = NULL; flag = -1;
    CHECK(MPI_Type_get_attr(dup, kdup, &v, &flag));
    fact("R6_5 TYPE_DUP_FN flag", flag);
    fact("R6_5 TYPE_DUP_FN value", flag == 1 ? (long)(MPI_Aint)v : -1);
    flag = -1;
    CHECK(MPI_Type_get_attr(dup, knull, &v, &flag));
    fact("R6_5 TYPE_NULL_COPY_FN flag", flag);
    v = NULL; flag = -1;
    CHECK(MPI_Type_get_attr(dup, kuser1, &v, &flag));
    fact("R6_2 user flag=1 copied flag", flag);
    fact("R6_2 user flag=1 value is attribute_val_out", flag == 1 ? (long)(MPI_Aint)v : -1);
    flag = -1;
    CHECK(MPI_Type_get_attr(dup, kuser0, &v, &flag));
    fact("R6_2 user flag=0 copied flag", flag);

    /* The original keeps all four. */
    v = NULL;
    CHECK(MPI_Type_get_attr(orig, kuser1, &v, &flag));
    fact("R6_2 original keeps its value", flag ? (long)(MPI_Aint)v : -1);

    del_calls = 0;
    CHECK(MPI_Type_free(&dup));
    fact("R4_4 free of dup delete cb calls", del_calls);
    del_calls = 0;
    CHECK(MPI_Type_free(&orig));
    fact("R4_4 free of original delete cb calls", del_calls);

    CHECK(MPI_Type_free_keyval(&kdup));
    CHECK(MPI_Type_free_keyval(&knull));
    CHECK(MPI_Type_free_keyval(&kuser1));
    CHECK(MPI_Type_free_keyval(&kuser0));
    return diff_finish();
}
