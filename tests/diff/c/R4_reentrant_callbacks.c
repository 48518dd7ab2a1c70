/* R4.8, R2.2: callbacks that call caching routines themselves.
 *
 *  - a delete callback that frees its OWN keyval (common cleanup idiom),
 *    triggered by delete_attr and by freeing the object (comm and type);
 *  - a copy callback that reads ANOTHER attribute of the old communicator
 *    and derives the new value from it;
 *  - a delete callback that sets an attribute on a DIFFERENT communicator
 *    while its own communicator is being freed.
 * The standard does not forbid calling MPI from callbacks (R4.8 leaves it
 * open); none of these touches the attribute list being processed, which
 * is what Open MPI documents as forbidden.
 */
#include "diff_util.h"

static int kself, kother, kcopy, klog, tkself;
static int inner_rc_free = -1, inner_rc_get = -1, inner_flag = -1, inner_rc_set = -1;
static MPI_Comm logcomm;

static int del_frees_own_key(MPI_Comm c, int key, void *v, void *x)
{
    (void)c; (void)v; (void)x;
    if (key == kself)
        inner_rc_free = MPI_Comm_free_keyval(&kself);
    return MPI_SUCCESS;
}

static int type_del_frees_own_key(MPI_Datatype t, int key, void *v, void *x)
{
    (void)t; (void)v; (void)x;
    if (key == tkself)
        inner_rc_free = MPI_Type_free_keyval(&tkself);
    return MPI_SUCCESS;
}

/* New value = value of kother on the old comm + value of this attribute. */
static int copy_reads_other(MPI_Comm old, int key, void *x, void *in, void *out, int *flag)
{
    void *other = NULL;
    (void)key; (void)x;
    inner_rc_get = MPI_Comm_get_attr(old, kother, &other, &inner_flag);
    *(void **)out = (void *)((MPI_Aint)in + (inner_flag ? (MPI_Aint)other : 0));
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_logs_elsewhere(MPI_Comm c, int key, void *v, void *x)
{
    (void)c; (void)key; (void)x;
    inner_rc_set = MPI_Comm_set_attr(logcomm, klog, v);
    return MPI_SUCCESS;
}

/* D9, D135: a copy callback that deletes or replaces ANOTHER attribute of the old communicator
 * (whose delete callback releases the value). That attribute's copy callback, if it runs, must
 * get a live value, never one its delete callback has released (the hosts differ in whether it
 * runs: MPICH copies it before, Open MPI skips it). Values are indices into `released`. */
static int kfirst, ksecond, replace_second, stale_copies, second_copies;
static int released[4];

static int copy_changes_second(MPI_Comm old, int key, void *x, void *in, void *out, int *flag)
{
    (void)key; (void)x; (void)in; (void)out;
    if (replace_second)
        MPI_Comm_set_attr(old, ksecond, (void *)(MPI_Aint)2);
    else
        MPI_Comm_delete_attr(old, ksecond);
    *flag = 0;
    return MPI_SUCCESS;
}

static int copy_second(MPI_Comm old, int key, void *x, void *in, void *out, int *flag)
{
    (void)old; (void)key; (void)x;
    second_copies++;
    if (released[(MPI_Aint)in & 3])
        stale_copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_second(MPI_Comm c, int key, void *v, void *x)
{
    (void)c; (void)key; (void)x;
    released[(MPI_Aint)v & 3] = 1;
    return MPI_SUCCESS;
}

/* D9, D135: a delete callback that replaces an attribute its communicator still holds, during
 * MPI_Comm_free (both hosts accept it; so does mpiattr, which refuses only adding one). */
static int kheld, kreplacer, replace_in_free_rc = -1;

static int del_replaces_held(MPI_Comm c, int key, void *v, void *x)
{
    (void)key; (void)v; (void)x;
    replace_in_free_rc = MPI_Comm_set_attr(c, kheld, (void *)(MPI_Aint)9);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Comm comm, dup;
    MPI_Datatype type;
    int kdel, flag;
    void *v;

    diff_init(&argc, &argv);

    /* Delete callback frees its own keyval: via delete_attr. */
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_frees_own_key, &kself, NULL));
    CHECK(MPI_Comm_set_attr(comm, kself, (void *)(MPI_Aint)1));
    fact_err("R4_8 delete_attr whose cb frees its keyval rc", MPI_Comm_delete_attr(comm, kself));
    fact_err("R4_8 free_keyval inside delete cb rc", inner_rc_free);
    fact("R4_8 keyval variable is MPI_KEYVAL_INVALID", kself == MPI_KEYVAL_INVALID);

    /* ... and via Comm_free. */
    inner_rc_free = -1;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_frees_own_key, &kself, NULL));
    CHECK(MPI_Comm_set_attr(comm, kself, (void *)(MPI_Aint)2));
    fact_err("R4_8 Comm_free whose cb frees its keyval rc", MPI_Comm_free(&comm));
    fact_err("R4_8 free_keyval inside delete cb on Comm_free rc", inner_rc_free);
    fact("R4_8 keyval variable is MPI_KEYVAL_INVALID after Comm_free", kself == MPI_KEYVAL_INVALID);

    /* Same for a datatype. */
    inner_rc_free = -1;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &type));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del_frees_own_key, &tkself, NULL));
    CHECK(MPI_Type_set_attr(type, tkself, (void *)(MPI_Aint)3));
    fact_err("R4_8 Type_free whose cb frees its keyval rc", MPI_Type_free(&type));
    fact_err("R4_8 Type_free_keyval inside delete cb rc", inner_rc_free);
    fact("R4_8 type keyval variable is MPI_KEYVAL_INVALID", tkself == MPI_KEYVAL_INVALID);

    /* Copy callback reads another attribute of the old communicator. */
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kother, NULL));
    CHECK(MPI_Comm_create_keyval(copy_reads_other, MPI_COMM_NULL_DELETE_FN, &kcopy, NULL));
    CHECK(MPI_Comm_set_attr(comm, kother, (void *)(MPI_Aint)100));
    CHECK(MPI_Comm_set_attr(comm, kcopy, (void *)(MPI_Aint)5));
    fact_err("R4_8 dup whose copy cb reads oldcomm rc", MPI_Comm_dup(comm, &dup));
    fact_err("R4_8 get_attr inside copy cb rc", inner_rc_get);
    fact("R4_8 get_attr inside copy cb flag", inner_flag);
    v = NULL;
    CHECK(MPI_Comm_get_attr(dup, kcopy, &v, &flag));
    fact("R4_8 new value computed from other attribute (105)", flag ? (long)(MPI_Aint)v : -1);
    CHECK(MPI_Comm_get_attr(dup, kother, &v, &flag));
    fact("R6_5 NULL_COPY_FN key not on dup", flag);
    CHECK(MPI_Comm_free(&dup));

    /* Delete callback sets an attribute on another communicator. */
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &logcomm));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &klog, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_logs_elsewhere, &kdel, NULL));
    CHECK(MPI_Comm_set_attr(comm, kdel, (void *)(MPI_Aint)7));
    fact_err("R4_8 Comm_free whose cb sets attr on another comm rc", MPI_Comm_free(&comm));
    fact_err("R4_8 set_attr inside delete cb rc", inner_rc_set);
    v = NULL;
    CHECK(MPI_Comm_get_attr(logcomm, klog, &v, &flag));
    fact("R4_8 value recorded on the other comm (7)", flag ? (long)(MPI_Aint)v : -1);

    /* A copy callback deletes, then replaces, another attribute (set after it) of the old comm. */
    CHECK(MPI_Comm_create_keyval(copy_changes_second, MPI_COMM_NULL_DELETE_FN, &kfirst, NULL));
    CHECK(MPI_Comm_create_keyval(copy_second, del_second, &ksecond, NULL));
    for (replace_second = 0; replace_second < 2; replace_second++) {
        released[1] = released[2] = 0;
        stale_copies = second_copies = 0;
        CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));
        CHECK(MPI_Comm_set_attr(comm, kfirst, (void *)(MPI_Aint)3));
        CHECK(MPI_Comm_set_attr(comm, ksecond, (void *)(MPI_Aint)1));
        fact_err(replace_second ? "D135 dup whose copy cb replaces another attr rc"
                                : "D135 dup whose copy cb deletes another attr rc",
                 MPI_Comm_dup(comm, &dup));
        fact(replace_second ? "D135 no copy cb got a value released by a replace"
                            : "D135 no copy cb got a value released by a delete",
             stale_copies == 0);
        CHECK(MPI_Comm_free(&dup));
        CHECK(MPI_Comm_free(&comm));
    }
    CHECK(MPI_Comm_free_keyval(&kfirst));
    CHECK(MPI_Comm_free_keyval(&ksecond));

    /* A delete callback replaces an attribute its own communicator still holds, during the free. */
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comm));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kheld, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_replaces_held, &kreplacer, NULL));
    CHECK(MPI_Comm_set_attr(comm, kheld, (void *)(MPI_Aint)8));
    CHECK(MPI_Comm_set_attr(comm, kreplacer, (void *)(MPI_Aint)1));
    fact_err("D135 Comm_free whose cb replaces an attr of its comm rc", MPI_Comm_free(&comm));
    fact_err("D135 set_attr replacing inside delete cb during free rc", replace_in_free_rc);
    CHECK(MPI_Comm_free_keyval(&kheld));
    CHECK(MPI_Comm_free_keyval(&kreplacer));

    CHECK(MPI_Comm_free(&logcomm));
    CHECK(MPI_Comm_free_keyval(&kother));
    CHECK(MPI_Comm_free_keyval(&kcopy));
    CHECK(MPI_Comm_free_keyval(&klog));
    CHECK(MPI_Comm_free_keyval(&kdel));
    return diff_finish();
}
