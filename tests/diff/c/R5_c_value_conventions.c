/* R5.1-R5.3, R7.4 example 1 (C part): C value conventions.
 *
 * set passes the VALUE (a void*); get passes the ADDRESS of a void* and
 * receives that same pointer back, never a copy of what it points to. A copy
 * callback receives the value in attribute_val_in and the ADDRESS of the new
 * attribute in attribute_val_out (so it stores through a void**).
 */
#include "diff_util.h"

struct foo {
    int a;
    double b;
};

static int copy_in_was_value, extra_seen;

/* Stores (in + 1000) as the new attribute; `in` is an int smuggled in the
 * pointer, or a pointer to set_val (then the new value is the same pointer). */
static int comm_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)key;
    extra_seen = (extra == (void *)&extra_seen);
    copy_in_was_value = 1;
    *(void **)out = (void *)((MPI_Aint)in + 1000);
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)key; (void)extra;
    *(void **)out = in; /* same as MPI_TYPE_DUP_FN */
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int k1, k2, k3, kc, kt, flag;
    int set_val = 3;
    struct foo set_struct = {5, 2.5};
    int *ip = NULL;
    struct foo *sp = NULL;
    void *vp = NULL;
    MPI_Comm comm, dup;
    MPI_Datatype type, tdup;

    diff_init(&argc, &argv);
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));

    /* R7.4 example 1, C side. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k1, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
    CHECK(MPI_Comm_set_attr(comm, k1, &set_val));
    CHECK(MPI_Comm_set_attr(comm, k2, &set_struct));
    CHECK(MPI_Comm_set_attr(comm, k3, (void *)(MPI_Aint)17));

    CHECK(MPI_Comm_get_attr(comm, k1, &ip, &flag));
    fact("R5_2 get into int* returns &set_val", flag && ip == &set_val);
    fact("R5_2 dereferenced value is 3", flag ? *ip : -1);
    set_val = 4; /* MPI keeps the pointer, not a copy of the int */
    CHECK(MPI_Comm_get_attr(comm, k1, &ip, &flag));
    fact("R5_1 value is not copied (sees later store 4)", flag ? *ip : -1);
    CHECK(MPI_Comm_get_attr(comm, k2, &sp, &flag));
    fact("R5_2 get into struct foo* returns &set_struct", flag && sp == &set_struct);
    CHECK(MPI_Comm_get_attr(comm, k3, &vp, &flag));
    fact("R5_1 int smuggled in void* reads back 17", flag ? (long)(MPI_Aint)vp : -1);

    /* R5.3: copy callback conventions. */
    CHECK(MPI_Comm_create_keyval(comm_copy, MPI_COMM_NULL_DELETE_FN, &kc, &extra_seen));
    CHECK(MPI_Comm_set_attr(comm, kc, (void *)(MPI_Aint)5));
    CHECK(MPI_Comm_dup(comm, &dup));
    fact("R5_3 copy cb called", copy_in_was_value);
    fact("R5_3 copy cb got extra_state", extra_seen);
    vp = NULL;
    CHECK(MPI_Comm_get_attr(dup, kc, &vp, &flag));
    fact("R5_3 new attribute is what the callback stored (1005)", flag ? (long)(MPI_Aint)vp : -1);
    CHECK(MPI_Comm_get_attr(comm, kc, &vp, &flag));
    fact("R5_3 old attribute unchanged (5)", flag ? (long)(MPI_Aint)vp : -1);
    CHECK(MPI_Comm_get_attr(dup, k1, &ip, &flag));
    fact("R6_2 NULL_COPY_FN key absent on dup", flag);

    CHECK(MPI_Type_contiguous(3, MPI_INT, &type));
    CHECK(MPI_Type_create_keyval(type_copy, MPI_TYPE_NULL_DELETE_FN, &kt, NULL));
    CHECK(MPI_Type_set_attr(type, kt, &set_struct));
    CHECK(MPI_Type_dup(type, &tdup));
    sp = NULL;
    CHECK(MPI_Type_get_attr(tdup, kt, &sp, &flag));
    fact("R5_3 type copy cb stored pointer through void**", flag && sp == &set_struct);

    CHECK(MPI_Type_free(&tdup));
    CHECK(MPI_Type_free(&type));
    CHECK(MPI_Type_free_keyval(&kt));
    CHECK(MPI_Comm_free(&dup));
    CHECK(MPI_Comm_free(&comm));
    CHECK(MPI_Comm_free_keyval(&k1));
    CHECK(MPI_Comm_free_keyval(&k2));
    CHECK(MPI_Comm_free_keyval(&k3));
    CHECK(MPI_Comm_free_keyval(&kc));
    return diff_finish();
}
