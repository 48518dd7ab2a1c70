/* R2.3, R3.1, R3.2: erroneous arguments with MPI_ERRORS_RETURN, printed as
 * error class names.
 *   MPI_KEYVAL_INVALID to set/get/delete_attr (all kinds, and the MPI-1
 *   routines) and to free_keyval            -> MPI_ERR_KEYVAL
 *   MPI_COMM_NULL / MPI_DATATYPE_NULL / MPI_WIN_NULL as the object
 *                                            -> MPI_ERR_COMM / _TYPE / _WIN
 * A failed get must leave flag alone or false; only "flag is not 1" is
 * printed.
 */
#include "diff_util.h"

int main(int argc, char **argv)
{
    static int wbuf[4];
    MPI_Datatype type;
    MPI_Win win;
    int key, inv, flag, ck, tk, wk;
    void *v;

    diff_init(&argc, &argv);
    CHECK(MPI_Type_contiguous(2, MPI_INT, &type));
    CHECK(MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    /* R2.3 / R3.1: MPI_KEYVAL_INVALID. */
    key = MPI_KEYVAL_INVALID;
    fact_err("R2_3 Comm_set_attr MPI_KEYVAL_INVALID", MPI_Comm_set_attr(MPI_COMM_SELF, key, &flag));
    flag = -1;
    fact_err("R2_3 Comm_get_attr MPI_KEYVAL_INVALID", MPI_Comm_get_attr(MPI_COMM_SELF, key, &v, &flag));
    fact("R2_3 Comm_get_attr MPI_KEYVAL_INVALID flag is not 1", flag != 1);
    fact_err("R2_3 Comm_delete_attr MPI_KEYVAL_INVALID", MPI_Comm_delete_attr(MPI_COMM_SELF, key));
    fact_err("R2_3 Type_set_attr MPI_KEYVAL_INVALID", MPI_Type_set_attr(type, key, &flag));
    flag = -1;
    fact_err("R2_3 Type_get_attr MPI_KEYVAL_INVALID", MPI_Type_get_attr(type, key, &v, &flag));
    fact_err("R2_3 Type_delete_attr MPI_KEYVAL_INVALID", MPI_Type_delete_attr(type, key));
    fact_err("R2_3 Win_set_attr MPI_KEYVAL_INVALID", MPI_Win_set_attr(win, key, &flag));
    flag = -1;
    fact_err("R2_3 Win_get_attr MPI_KEYVAL_INVALID", MPI_Win_get_attr(win, key, &v, &flag));
    fact_err("R2_3 Win_delete_attr MPI_KEYVAL_INVALID", MPI_Win_delete_attr(win, key));
    fact_err("R2_3 Attr_put MPI_KEYVAL_INVALID", MPI_Attr_put(MPI_COMM_SELF, key, &flag));
    flag = -1;
    fact_err("R2_3 Attr_get MPI_KEYVAL_INVALID", MPI_Attr_get(MPI_COMM_SELF, key, &v, &flag));
    fact_err("R2_3 Attr_delete MPI_KEYVAL_INVALID", MPI_Attr_delete(MPI_COMM_SELF, key));

    inv = MPI_KEYVAL_INVALID;
    fact_err("R3_1 Comm_free_keyval MPI_KEYVAL_INVALID", MPI_Comm_free_keyval(&inv));
    inv = MPI_KEYVAL_INVALID;
    fact_err("R3_1 Type_free_keyval MPI_KEYVAL_INVALID", MPI_Type_free_keyval(&inv));
    inv = MPI_KEYVAL_INVALID;
    fact_err("R3_1 Win_free_keyval MPI_KEYVAL_INVALID", MPI_Win_free_keyval(&inv));
    inv = MPI_KEYVAL_INVALID;
    fact_err("R3_1 Keyval_free MPI_KEYVAL_INVALID", MPI_Keyval_free(&inv));

    /* R3.2: null object handles with a valid key of the right kind. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL));
    fact_err("R3_2 Comm_set_attr MPI_COMM_NULL", MPI_Comm_set_attr(MPI_COMM_NULL, ck, &flag));
    fact_err("R3_2 Comm_get_attr MPI_COMM_NULL", MPI_Comm_get_attr(MPI_COMM_NULL, ck, &v, &flag));
    fact_err("R3_2 Comm_delete_attr MPI_COMM_NULL", MPI_Comm_delete_attr(MPI_COMM_NULL, ck));
    fact_err("R3_2 Attr_put MPI_COMM_NULL", MPI_Attr_put(MPI_COMM_NULL, ck, &flag));
    fact_err("R3_2 Type_set_attr MPI_DATATYPE_NULL", MPI_Type_set_attr(MPI_DATATYPE_NULL, tk, &flag));
    fact_err("R3_2 Type_get_attr MPI_DATATYPE_NULL", MPI_Type_get_attr(MPI_DATATYPE_NULL, tk, &v, &flag));
    fact_err("R3_2 Type_delete_attr MPI_DATATYPE_NULL", MPI_Type_delete_attr(MPI_DATATYPE_NULL, tk));
    fact_err("R3_2 Win_set_attr MPI_WIN_NULL", MPI_Win_set_attr(MPI_WIN_NULL, wk, &flag));
    fact_err("R3_2 Win_get_attr MPI_WIN_NULL", MPI_Win_get_attr(MPI_WIN_NULL, wk, &v, &flag));
    fact_err("R3_2 Win_delete_attr MPI_WIN_NULL", MPI_Win_delete_attr(MPI_WIN_NULL, wk));

    /* The failed calls changed nothing: the valid keys still work. */
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, ck, (void *)(MPI_Aint)1));
    v = NULL;
    CHECK(MPI_Comm_get_attr(MPI_COMM_SELF, ck, &v, &flag));
    fact("R3_1 valid key still works after errors", flag == 1 && v == (void *)(MPI_Aint)1);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_SELF, ck));

    CHECK(MPI_Comm_free_keyval(&ck));
    CHECK(MPI_Type_free_keyval(&tk));
    CHECK(MPI_Win_free_keyval(&wk));
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Type_free(&type));
    return diff_finish();
}
