/* R4.1, R4.3, R4.5: a callback that returns an error makes the calling
 * routine fail.
 *   copy callback error   -> MPI_Comm_dup / _dup_with_info / _idup fail
 *   delete callback error -> MPI_Comm_delete_attr, the replacing
 *                            MPI_Comm_set_attr, MPI_Comm_free,
 *                            MPI_Type_delete_attr, MPI_Win_delete_attr,
 *                            MPI_Attr_delete fail
 * Only "the call failed" (rc != MPI_SUCCESS) is printed: the standard fixes
 * no error class for a callback's failure, and does not say what state the
 * objects are left in, so cleanup ignores return codes.
 */
#include "diff_util.h"

static int failing = 1; /* callbacks fail while this is set */

static int comm_copy(MPI_Comm o, int k, void *x, void *in, void *out, int *flag)
{
    (void)o; (void)k; (void)x;
    *(void **)out = in;
    *flag = 1;
    return failing ? MPI_ERR_OTHER : MPI_SUCCESS;
}
static int comm_del(MPI_Comm o, int k, void *v, void *x) { (void)o; (void)k; (void)v; (void)x; return failing ? MPI_ERR_OTHER : MPI_SUCCESS; }
static int type_del(MPI_Datatype o, int k, void *v, void *x) { (void)o; (void)k; (void)v; (void)x; return failing ? MPI_ERR_OTHER : MPI_SUCCESS; }
static int win_del(MPI_Win o, int k, void *v, void *x) { (void)o; (void)k; (void)v; (void)x; return failing ? MPI_ERR_OTHER : MPI_SUCCESS; }

int main(int argc, char **argv)
{
    static int wbuf[4];
    MPI_Comm base, newcomm, victim;
    MPI_Request req;
    MPI_Datatype type;
    MPI_Win win;
    int kcopy, kdel, ktype, kwin, rc, rc2;

    diff_init(&argc, &argv);
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &base));
    CHECK(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_create_keyval(comm_copy, MPI_COMM_NULL_DELETE_FN, &kcopy, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &kdel, NULL));
    CHECK(MPI_Comm_set_attr(base, kcopy, (void *)(MPI_Aint)1));

    /* R4.5: copy callback errors. */
    newcomm = MPI_COMM_NULL;
    rc = MPI_Comm_dup(base, &newcomm);
    fact("R4_5 Comm_dup with failing copy cb fails", rc != MPI_SUCCESS);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&newcomm);

    newcomm = MPI_COMM_NULL;
    rc = MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &newcomm);
    fact("R4_5 Comm_dup_with_info with failing copy cb fails", rc != MPI_SUCCESS);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&newcomm);

    newcomm = MPI_COMM_NULL;
    rc = MPI_Comm_idup(base, &newcomm, &req);
    rc2 = (rc == MPI_SUCCESS) ? MPI_Wait(&req, MPI_STATUS_IGNORE) : MPI_SUCCESS;
    fact("R4_5 Comm_idup (or its MPI_Wait) with failing copy cb fails", rc != MPI_SUCCESS || rc2 != MPI_SUCCESS);
    if (rc == MPI_SUCCESS && rc2 == MPI_SUCCESS)
        MPI_Comm_free(&newcomm);

    /* Control: the same dup succeeds once the callback succeeds. */
    failing = 0;
    rc = MPI_Comm_dup(base, &newcomm);
    fact_err("R4_5 Comm_dup with succeeding copy cb rc", rc);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&newcomm);
    failing = 1;

    /* R4.3 / R4.1: delete callback errors on the communicator. */
    CHECK(MPI_Comm_set_attr(base, kdel, (void *)(MPI_Aint)2));
    fact("R4_3 Comm_delete_attr with failing delete cb fails", MPI_Comm_delete_attr(base, kdel) != MPI_SUCCESS);
    fact("R4_1 Comm_set_attr replacing with failing delete cb fails", MPI_Comm_set_attr(base, kdel, (void *)(MPI_Aint)3) != MPI_SUCCESS);
    fact("R5_4 Attr_delete with failing delete cb fails", MPI_Attr_delete(base, kdel) != MPI_SUCCESS);
    failing = 0;
    MPI_Comm_delete_attr(base, kdel); /* cleanup; the state after the failures is not fixed */
    failing = 1;

    /* R4.5: MPI_Comm_free with a failing delete callback fails. */
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &victim));
    CHECK(MPI_Comm_set_errhandler(victim, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_set_attr(victim, kdel, (void *)(MPI_Aint)4));
    fact("R4_5 Comm_free with failing delete cb fails", MPI_Comm_free(&victim) != MPI_SUCCESS);
    failing = 0;
    if (victim != MPI_COMM_NULL)
        MPI_Comm_free(&victim);
    failing = 1;

    /* R4.3 for the other kinds. */
    CHECK(MPI_Type_contiguous(2, MPI_INT, &type));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del, &ktype, NULL));
    CHECK(MPI_Type_set_attr(type, ktype, (void *)(MPI_Aint)5));
    fact("R4_3 Type_delete_attr with failing delete cb fails", MPI_Type_delete_attr(type, ktype) != MPI_SUCCESS);
    fact("R4_1 Type_set_attr replacing with failing delete cb fails", MPI_Type_set_attr(type, ktype, (void *)(MPI_Aint)6) != MPI_SUCCESS);
    failing = 0;
    MPI_Type_delete_attr(type, ktype);
    CHECK(MPI_Type_free(&type));
    failing = 1;

    CHECK(MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &kwin, NULL));
    CHECK(MPI_Win_set_attr(win, kwin, (void *)(MPI_Aint)7));
    fact("R4_3 Win_delete_attr with failing delete cb fails", MPI_Win_delete_attr(win, kwin) != MPI_SUCCESS);
    fact("R4_1 Win_set_attr replacing with failing delete cb fails", MPI_Win_set_attr(win, kwin, (void *)(MPI_Aint)8) != MPI_SUCCESS);
    failing = 0;
    MPI_Win_delete_attr(win, kwin);
    CHECK(MPI_Win_free(&win));

    CHECK(MPI_Comm_free(&base));
    CHECK(MPI_Comm_free_keyval(&kcopy));
    CHECK(MPI_Comm_free_keyval(&kdel));
    CHECK(MPI_Type_free_keyval(&ktype));
    CHECK(MPI_Win_free_keyval(&kwin));
    return diff_finish();
}
