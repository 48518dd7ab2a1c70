/* R2.1, R2.2: keyval lifetime.
 *
 * free_keyval sets the caller's variable to MPI_KEYVAL_INVALID (R2.1).
 * Freeing a keyval that is still in use is not erroneous (R2.2): existing
 * attributes keep their value and their callbacks, so a later dup of the
 * object still runs the copy callback and freeing the objects still runs
 * the delete callbacks. The standard says the references are released "via
 * calls to MPI_COMM_DELETE_ATTR" or by freeing the objects (§8.7.2), so
 * delete_attr with a saved copy of the freed key is also exercised. Until
 * then the key still exists, so get_attr through the saved copy reads the
 * attribute (docs/decisions.md D6; set_attr through it is where mpiattr and
 * the peers part: mpiattr refuses it, by decision, so it is not printed).
 */
#include "diff_util.h"

static int copy_calls, del_calls;

static int comm_copy(MPI_Comm o, int k, void *x, void *in, void *out, int *flag)
{
    (void)o; (void)k; (void)x;
    copy_calls++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int comm_del(MPI_Comm o, int k, void *v, void *x) { (void)o; (void)k; (void)v; (void)x; del_calls++; return MPI_SUCCESS; }
static int type_copy(MPI_Datatype o, int k, void *x, void *in, void *out, int *flag)
{
    (void)o; (void)k; (void)x;
    copy_calls++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int type_del(MPI_Datatype o, int k, void *v, void *x) { (void)o; (void)k; (void)v; (void)x; del_calls++; return MPI_SUCCESS; }
static int win_del(MPI_Win o, int k, void *v, void *x) { (void)o; (void)k; (void)v; (void)x; del_calls++; return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    static int wbuf[4];
    MPI_Comm c1, c2, c3;
    MPI_Datatype t1, t2;
    MPI_Win w;
    int key, saved, unused, flag;
    void *got;

    diff_init(&argc, &argv);

    /* R2.1 for every kind, on unused keys. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &unused, NULL));
    fact_err("R2_1 Comm_free_keyval rc", MPI_Comm_free_keyval(&unused));
    fact("R2_1 Comm_free_keyval sets MPI_KEYVAL_INVALID", unused == MPI_KEYVAL_INVALID);
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &unused, NULL));
    fact_err("R2_1 Type_free_keyval rc", MPI_Type_free_keyval(&unused));
    fact("R2_1 Type_free_keyval sets MPI_KEYVAL_INVALID", unused == MPI_KEYVAL_INVALID);
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &unused, NULL));
    fact_err("R2_1 Win_free_keyval rc", MPI_Win_free_keyval(&unused));
    fact("R2_1 Win_free_keyval sets MPI_KEYVAL_INVALID", unused == MPI_KEYVAL_INVALID);
    CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &unused, NULL));
    fact_err("R2_1 Keyval_free rc", MPI_Keyval_free(&unused));
    fact("R2_1 Keyval_free sets MPI_KEYVAL_INVALID", unused == MPI_KEYVAL_INVALID);

    /* R2.2 communicator: free the key while c1 carries an attribute. */
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &c1));
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &c3));
    CHECK(MPI_Comm_create_keyval(comm_copy, comm_del, &key, NULL));
    CHECK(MPI_Comm_set_attr(c1, key, (void *)(MPI_Aint)1));
    CHECK(MPI_Comm_set_attr(c3, key, (void *)(MPI_Aint)3));
    saved = key;
    fact_err("R2_2 comm free_keyval in use rc", MPI_Comm_free_keyval(&key));
    fact("R2_2 comm free_keyval in use sets MPI_KEYVAL_INVALID", key == MPI_KEYVAL_INVALID);
    fact_err("R2_2 comm dup after free_keyval rc", MPI_Comm_dup(c1, &c2));
    fact("R2_2 comm copy cb still runs after free_keyval", copy_calls);
    got = NULL;
    flag = 0;
    fact_err("R2_2 comm get_attr via saved freed key in use rc", MPI_Comm_get_attr(c3, saved, &got, &flag));
    fact("R2_2 comm get_attr via saved freed key in use flag", flag);
    fact("R2_2 comm get_attr via saved freed key in use value", (long)(MPI_Aint)got);
    got = NULL;
    flag = 0;
    fact_err("R2_2 comm get_attr via saved freed key on the dup rc", MPI_Comm_get_attr(c2, saved, &got, &flag));
    fact("R2_2 comm get_attr via saved freed key on the dup flag", flag);
    fact("R2_2 comm get_attr via saved freed key on the dup value", (long)(MPI_Aint)got);
    fact_err("R2_2 comm delete_attr via saved freed key rc", MPI_Comm_delete_attr(c3, saved));
    fact("R2_2 comm delete cb runs on that delete_attr", del_calls);
    del_calls = 0;
    CHECK(MPI_Comm_free(&c2));
    fact("R2_2 comm delete cb still runs on free of the dup", del_calls);
    CHECK(MPI_Comm_free(&c1));
    fact("R2_2 comm delete cb still runs on free of the original (total)", del_calls);
    CHECK(MPI_Comm_free(&c3));

    /* R2.2 datatype. */
    copy_calls = del_calls = 0;
    CHECK(MPI_Type_contiguous(4, MPI_CHAR, &t1));
    CHECK(MPI_Type_create_keyval(type_copy, type_del, &key, NULL));
    CHECK(MPI_Type_set_attr(t1, key, (void *)(MPI_Aint)1));
    saved = key;
    fact_err("R2_2 type free_keyval in use rc", MPI_Type_free_keyval(&key));
    fact_err("R2_2 type dup after free_keyval rc", MPI_Type_dup(t1, &t2));
    fact("R2_2 type copy cb still runs after free_keyval", copy_calls);
    got = NULL;
    flag = 0;
    fact_err("R2_2 type get_attr via saved freed key in use rc", MPI_Type_get_attr(t2, saved, &got, &flag));
    fact("R2_2 type get_attr via saved freed key in use flag", flag);
    fact("R2_2 type get_attr via saved freed key in use value", (long)(MPI_Aint)got);
    CHECK(MPI_Type_free(&t2));
    CHECK(MPI_Type_free(&t1));
    fact("R2_2 type delete cb still runs on both frees", del_calls);

    /* R2.2 window. */
    del_calls = 0;
    CHECK(MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w));
    CHECK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &key, NULL));
    CHECK(MPI_Win_set_attr(w, key, (void *)(MPI_Aint)1));
    fact_err("R2_2 win free_keyval in use rc", MPI_Win_free_keyval(&key));
    CHECK(MPI_Win_free(&w));
    fact("R2_2 win delete cb still runs on Win_free", del_calls);

    /* A new keyval created afterwards is valid and independent. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    fact("R1_2 keyval created after frees is valid", key != MPI_KEYVAL_INVALID);
    CHECK(MPI_Comm_free_keyval(&key));
    return diff_finish();
}
