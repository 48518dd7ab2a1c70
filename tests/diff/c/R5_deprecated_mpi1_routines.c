/* R5.4, R6.5, R6.7, R2.1, R9: the deprecated MPI-1 routines
 * MPI_Keyval_create / MPI_Attr_put / MPI_Attr_get / MPI_Attr_delete /
 * MPI_Keyval_free and the callbacks MPI_DUP_FN / MPI_NULL_COPY_FN /
 * MPI_NULL_DELETE_FN (deprecated, not removed: R9).
 *
 * In C they behave exactly like the MPI-2 communicator routines (R5.4), so a
 * value put with one family is read by the other. Copy callbacks of an
 * MPI_Keyval_create keyval run on MPI_Comm_dup (R6.7; the other dup variants
 * are the project's inference R6.7 [I]). Build with
 * -Wno-deprecated-declarations.
 */
#include "diff_util.h"

static int copy_calls, del_calls, del_last;
static int xstate;

/* MPI-1 callback types: MPI_Copy_function / MPI_Delete_function. */
static int old_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)key;
    copy_calls++;
    *flag = (extra == (void *)&xstate);
    *(void **)out = (void *)((MPI_Aint)in + 100);
    return MPI_SUCCESS;
}

static int old_delete(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c; (void)key; (void)extra;
    del_calls++;
    del_last = (int)(MPI_Aint)val;
    return MPI_SUCCESS;
}

static long get_old(MPI_Comm c, int key)
{
    void *v = NULL;
    int flag = -1;
    CHECK(MPI_Attr_get(c, key, &v, &flag));
    return flag == 1 ? (long)(MPI_Aint)v : (flag == 0 ? -1 : -2);
}

static long get_new(MPI_Comm c, int key)
{
    void *v = NULL;
    int flag = -1;
    CHECK(MPI_Comm_get_attr(c, key, &v, &flag));
    return flag == 1 ? (long)(MPI_Aint)v : (flag == 0 ? -1 : -2);
}

int main(int argc, char **argv)
{
    MPI_Comm comm, dup;
    MPI_Request req;
    int kdup, knull, kuser, knew;

    diff_init(&argc, &argv);
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));

    fact_err("R1_1 Keyval_create MPI_DUP_FN rc", MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdup, NULL));
    fact_err("R1_1 Keyval_create MPI_NULL_COPY_FN rc", MPI_Keyval_create(MPI_NULL_COPY_FN, old_delete, &knull, NULL));
    fact_err("R1_1 Keyval_create user callbacks rc", MPI_Keyval_create(old_copy, old_delete, &kuser, &xstate));
    fact("R1_2 Keyval_create keys are valid", kdup != MPI_KEYVAL_INVALID && knull != MPI_KEYVAL_INVALID && kuser != MPI_KEYVAL_INVALID);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knew, NULL));

    fact("R4_2 Attr_get of unset key (-1 = flag 0)", get_old(comm, kdup));
    fact_err("R5_4 Attr_put rc", MPI_Attr_put(comm, kdup, (void *)(MPI_Aint)1));
    CHECK(MPI_Attr_put(comm, knull, (void *)(MPI_Aint)2));
    CHECK(MPI_Attr_put(comm, kuser, (void *)(MPI_Aint)3));
    fact("R5_4 Attr_get reads Attr_put value", get_old(comm, kdup));
    fact("R5_4 Comm_get_attr reads Attr_put value", get_new(comm, kuser));
    CHECK(MPI_Comm_set_attr(comm, knew, (void *)(MPI_Aint)4));
    fact("R5_4 Attr_get reads Comm_set_attr value", get_old(comm, knew));
    CHECK(MPI_Attr_put(comm, knew, (void *)(MPI_Aint)5));
    fact("R5_4 Attr_put on Comm_create_keyval key, read by Comm_get_attr", get_new(comm, knew));

    /* R4.1 through the MPI-1 routine. */
    del_calls = 0;
    CHECK(MPI_Attr_put(comm, kuser, (void *)(MPI_Aint)6));
    fact("R4_1 Attr_put replace delete cb calls", del_calls);
    fact("R4_1 Attr_put replace delete cb got old value", del_last);

    /* R6.7 / R6.5 on the four dup flavours. */
    copy_calls = 0;
    CHECK(MPI_Comm_dup(comm, &dup));
    fact("R6_7 Comm_dup MPI-1 user copy cb calls", copy_calls);
    fact("R6_5 Comm_dup MPI_DUP_FN copies value", get_old(dup, kdup));
    fact("R6_5 Comm_dup MPI_NULL_COPY_FN does not copy (-1)", get_old(dup, knull));
    fact("R6_7 Comm_dup user copy value (106)", get_old(dup, kuser));
    del_calls = 0;
    CHECK(MPI_Comm_free(&dup));
    fact("R4_4 Comm_free of dup MPI-1 delete cb calls", del_calls);

    copy_calls = 0;
    CHECK(MPI_Comm_dup_with_info(comm, MPI_INFO_NULL, &dup));
    fact("R6_7 Comm_dup_with_info MPI-1 user copy cb calls", copy_calls);
    fact("R6_7 Comm_dup_with_info user copy value (106)", get_old(dup, kuser));
    CHECK(MPI_Comm_free(&dup));

    copy_calls = 0;
    CHECK(MPI_Comm_idup(comm, &dup, &req));
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    fact("R6_7 Comm_idup MPI-1 user copy cb calls", copy_calls);
    fact("R6_7 Comm_idup user copy value (106)", get_old(dup, kuser));
    CHECK(MPI_Comm_free(&dup));

    /* R4.3 through MPI_Attr_delete. */
    del_calls = 0;
    fact_err("R5_4 Attr_delete rc", MPI_Attr_delete(comm, kuser));
    fact("R4_3 Attr_delete delete cb calls", del_calls);
    fact("R4_3 Attr_delete delete cb got value", del_last);
    fact("R4_2 Attr_get after Attr_delete (-1 = flag 0)", get_old(comm, kuser));
    fact_err("R5_4 Attr_delete of Comm_set_attr value rc", MPI_Attr_delete(comm, knew));
    fact("R4_2 Comm_get_attr after Attr_delete (-1 = flag 0)", get_new(comm, knew));

    del_calls = 0;
    CHECK(MPI_Comm_free(&comm));
    fact("R4_4 Comm_free MPI-1 delete cb calls", del_calls); /* knull */

    fact_err("R2_1 Keyval_free rc", MPI_Keyval_free(&kdup));
    fact("R2_1 Keyval_free sets MPI_KEYVAL_INVALID", kdup == MPI_KEYVAL_INVALID);
    CHECK(MPI_Keyval_free(&knull));
    CHECK(MPI_Keyval_free(&kuser));
    fact_err("R5_4 Keyval_free of Comm_create_keyval key rc", MPI_Keyval_free(&knew));
    fact("R2_1 Keyval_free of Comm_create_keyval key sets MPI_KEYVAL_INVALID", knew == MPI_KEYVAL_INVALID);
    return diff_finish();
}
