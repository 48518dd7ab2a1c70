/* R1.5, R3.3: a keyval used with an object of another kind.
 *
 * The standard only ADVISES high-quality implementations to raise an error
 * here (R1.5 [A]); the project decision is MPI_ERR_KEYVAL (R3.3 [I]). Peers
 * that accept the call are recorded in divergences.toml against that advice.
 * Whatever a peer does, the attribute is cleaned up so the program ends in
 * a known state.
 */
#include "diff_util.h"

int main(int argc, char **argv)
{
    static int wbuf[4];
    MPI_Datatype type;
    MPI_Win win;
    int ck, tk, wk, flag, x = 1;
    void *v;

    diff_init(&argc, &argv);
    CHECK(MPI_Type_contiguous(2, MPI_INT, &type));
    CHECK(MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL));

    /* Comm keyval on a datatype. */
    fact_err("R1_5 Type_set_attr with comm keyval", MPI_Type_set_attr(type, ck, &x));
    flag = -1;
    fact_err("R1_5 Type_get_attr with comm keyval", MPI_Type_get_attr(type, ck, &v, &flag));
    fact("R1_5 Type_get_attr with comm keyval flag is not 1", flag != 1);
    fact_err("R1_5 Type_delete_attr with comm keyval", MPI_Type_delete_attr(type, ck));

    /* Type keyval on a communicator (also through the MPI-1 routine). */
    fact_err("R1_5 Comm_set_attr with type keyval", MPI_Comm_set_attr(MPI_COMM_SELF, tk, &x));
    flag = -1;
    fact_err("R1_5 Comm_get_attr with type keyval", MPI_Comm_get_attr(MPI_COMM_SELF, tk, &v, &flag));
    fact("R1_5 Comm_get_attr with type keyval flag is not 1", flag != 1);
    fact_err("R1_5 Comm_delete_attr with type keyval", MPI_Comm_delete_attr(MPI_COMM_SELF, tk));
    fact_err("R1_5 Attr_put with win keyval", MPI_Attr_put(MPI_COMM_SELF, wk, &x));
    MPI_Comm_delete_attr(MPI_COMM_SELF, wk); /* cleanup if it was accepted */

    /* Win keyval on a datatype, comm keyval on a window. */
    fact_err("R1_5 Type_set_attr with win keyval", MPI_Type_set_attr(type, wk, &x));
    MPI_Type_delete_attr(type, wk);
    fact_err("R1_5 Win_set_attr with comm keyval", MPI_Win_set_attr(win, ck, &x));
    MPI_Win_delete_attr(win, ck);

    /* Freeing a keyval with the wrong kind's free routine. */
    {
        int copy = ck;
        int rc = MPI_Type_free_keyval(&copy);
        fact_err("R1_5 Type_free_keyval of comm keyval", rc);
        if (rc == MPI_SUCCESS) /* the peer freed it: do not free it again */
            ck = MPI_KEYVAL_INVALID;
    }

    if (ck != MPI_KEYVAL_INVALID)
        CHECK(MPI_Comm_free_keyval(&ck));
    CHECK(MPI_Type_free_keyval(&tk));
    CHECK(MPI_Win_free_keyval(&wk));
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Type_free(&type));
    return diff_finish();
}
