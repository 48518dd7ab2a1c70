/* R6.1-R6.5: copy callbacks on MPI_Comm_dup, MPI_Comm_dup_with_info and
 * MPI_Comm_idup (+ MPI_Wait).
 *
 * Four keys on one communicator:
 *   kdup   MPI_COMM_DUP_FN         -> new comm gets the same value
 *   knull  MPI_COMM_NULL_COPY_FN   -> new comm has no attribute
 *   kuser1 user callback, flag 1   -> new comm gets what the callback stored
 *   kuser0 user callback, flag 0   -> new comm has no attribute
 * The user callbacks check that they receive the old communicator, their
 * keyval, their extra_state and the value (R6.2). Freeing the new comm runs
 * delete callbacks only for the copied attributes.
 * R6.3: MPI_Comm_idup copies the attributes as they were at the call;
 * changes between the call and MPI_Wait are not seen by the new comm.
 */
#include "diff_util.h"

static MPI_Comm base;
static int kdup, knull, kuser1, kuser0;
static int copy_calls, copy_bad_args, del_calls;
static int xstate; /* &xstate is the extra_state of the user keys */

static int user_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    copy_calls++;
    if (old != base || extra != (void *)&xstate || (key != kuser1 && key != kuser0))
        copy_bad_args++;
    if (key == kuser1) {
        *(void **)out = (void *)((MPI_Aint)in + 1);
        *flag = 1;
    } else {
        *flag = 0;
    }
    return MPI_SUCCESS;
}

static int count_del(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c; (void)key; (void)val; (void)extra;
    del_calls++;
    return MPI_SUCCESS;
}

/* Print the attributes seen on the new communicator. */
static void report(const char *how, MPI_Comm newcomm)
{
    char label[160];
    void *v;
    int flag;

    snprintf(label, sizeof label, "R6_2 %s user copy cb calls", how);
    fact(label, copy_calls);
    snprintf(label, sizeof label, "R6_2 %s user copy cb got oldcomm, keyval, extra_state", how);
    fact(label, copy_bad_args == 0);

    v = NULL; flag = -1;
    CHECK(MPI_Comm_get_attr(newcomm, kdup, &v, &flag));
    snprintf(label, sizeof label, "R6_5 %s COMM_DUP_FN flag", how);
    fact(label, flag);
    snprintf(label, sizeof label, "R6_5 %s COMM_DUP_FN value", how);
    fact(label, flag == 1 ? (long)(MPI_Aint)v : -1);

    flag = -1;
    CHECK(MPI_Comm_get_attr(newcomm, knull, &v, &flag));
    snprintf(label, sizeof label, "R6_5 %s COMM_NULL_COPY_FN flag", how);
    fact(label, flag);

    v = NULL; flag = -1;
    CHECK(MPI_Comm_get_attr(newcomm, kuser1, &v, &flag));
    snprintf(label, sizeof label, "R6_2 %s user flag=1 copied flag", how);
    fact(label, flag);
    snprintf(label, sizeof label, "R6_2 %s user flag=1 value is attribute_val_out", how);
    fact(label, flag == 1 ? (long)(MPI_Aint)v : -1);

    flag = -1;
    CHECK(MPI_Comm_get_attr(newcomm, kuser0, &v, &flag));
    snprintf(label, sizeof label, "R6_2 %s user flag=0 copied flag", how);
    fact(label, flag);

    del_calls = 0;
    CHECK(MPI_Comm_free(&newcomm));
    snprintf(label, sizeof label, "R4_4 %s free of new comm delete cb calls", how);
    fact(label, del_calls); /* kdup and kuser1 carry count_del */
    copy_calls = copy_bad_args = 0;
}

int main(int argc, char **argv)
{
    MPI_Comm newcomm;
    MPI_Request req;
    int klate, flag;
    void *v;

    diff_init(&argc, &argv);
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_del, &kdup, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_del, &knull, NULL));
    CHECK(MPI_Comm_create_keyval(user_copy, count_del, &kuser1, &xstate));
    CHECK(MPI_Comm_create_keyval(user_copy, count_del, &kuser0, &xstate));
    CHECK(MPI_Comm_set_attr(base, kdup, (void *)(MPI_Aint)10));
    CHECK(MPI_Comm_set_attr(base, knull, (void *)(MPI_Aint)20));
    CHECK(MPI_Comm_set_attr(base, kuser1, (void *)(MPI_Aint)30));
    CHECK(MPI_Comm_set_attr(base, kuser0, (void *)(MPI_Aint)40));

    fact_err("R6_1 MPI_Comm_dup rc", MPI_Comm_dup(base, &newcomm));
    report("MPI_Comm_dup", newcomm);

    /* MPI_INFO_NULL: mpiattr's runtime has no MPI_Info_create. */
    fact_err("R6_4 MPI_Comm_dup_with_info rc", MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &newcomm));
    report("MPI_Comm_dup_with_info", newcomm);

    fact_err("R6_1 MPI_Comm_idup rc", MPI_Comm_idup(base, &newcomm, &req));
    fact_err("R6_1 MPI_Wait on idup rc", MPI_Wait(&req, MPI_STATUS_IGNORE));
    report("MPI_Comm_idup", newcomm);

    /* R6.3: the dup happens "when the call was made". */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &klate, NULL));
    CHECK(MPI_Comm_idup(base, &newcomm, &req));
    CHECK(MPI_Comm_set_attr(base, klate, (void *)(MPI_Aint)50));   /* new key after the call */
    CHECK(MPI_Comm_set_attr(base, kdup, (void *)(MPI_Aint)11));    /* replaced after the call */
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    flag = -1;
    CHECK(MPI_Comm_get_attr(newcomm, klate, &v, &flag));
    fact("R6_3 idup key set after the call is not on new comm (flag)", flag);
    v = NULL;
    CHECK(MPI_Comm_get_attr(newcomm, kdup, &v, &flag));
    fact("R6_3 idup value replaced after the call, new comm has old value", flag ? (long)(MPI_Aint)v : -1);
    CHECK(MPI_Comm_free(&newcomm));
    copy_calls = 0;

    /* Dup of a dup: attributes copied by DUP_FN are copied again. */
    {
        MPI_Comm d1, d2;
        CHECK(MPI_Comm_dup(base, &d1));
        CHECK(MPI_Comm_dup(d1, &d2));
        v = NULL;
        CHECK(MPI_Comm_get_attr(d2, kdup, &v, &flag));
        fact("R6_5 dup of dup keeps COMM_DUP_FN value", flag ? (long)(MPI_Aint)v : -1);
        CHECK(MPI_Comm_free(&d2));
        CHECK(MPI_Comm_free(&d1));
    }

    CHECK(MPI_Comm_free(&base));
    CHECK(MPI_Comm_free_keyval(&kdup));
    CHECK(MPI_Comm_free_keyval(&knull));
    CHECK(MPI_Comm_free_keyval(&kuser1));
    CHECK(MPI_Comm_free_keyval(&kuser0));
    CHECK(MPI_Comm_free_keyval(&klate));
    return diff_finish();
}
