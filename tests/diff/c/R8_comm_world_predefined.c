/* R7.5, R8.1, R8.2: predefined attributes on MPI_COMM_WORLD (World Model).
 *
 * Every predefined key is valid (get returns MPI_SUCCESS). In C each
 * attribute is a POINTER TO int. Values are printed only as the properties
 * the standard fixes for a single process:
 *   MPI_TAG_UB          present, >= 32767
 *   MPI_HOST            present (deprecated), MPI_PROC_NULL or rank 0
 *   MPI_IO              present, MPI_ANY_SOURCE, MPI_PROC_NULL or rank 0
 *   MPI_WTIME_IS_GLOBAL may be absent; if present 0 or 1
 *   MPI_UNIVERSE_SIZE / MPI_APPNUM may be absent; key valid
 *   MPI_LASTUSEDCODE    present, >= MPI_ERR_LASTCODE
 * (That MPI_Add_error_class updates MPI_LASTUSEDCODE is not tested:
 * mpiattr's runtime has no MPI_Add_error_class.)
 */
#include "diff_util.h"

/* Get a predefined attribute; returns its flag, stores the int it points to. */
static int get_int_attr(const char *name, int key, int *value)
{
    char label[96];
    int *p = NULL, flag = -1, rc;

    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag);
    snprintf(label, sizeof label, "R8_2 %s key valid (get rc)", name);
    fact_err(label, rc);
    *value = (flag == 1 && p != NULL) ? *p : 0;
    return rc == MPI_SUCCESS && flag == 1 && p != NULL;
}

int main(int argc, char **argv)
{
    int v, present, rank;

    diff_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    present = get_int_attr("MPI_TAG_UB", MPI_TAG_UB, &v);
    fact("R8_2 MPI_TAG_UB present", present);
    fact("R8_2 MPI_TAG_UB >= 32767", present && v >= 32767);

    present = get_int_attr("MPI_HOST", MPI_HOST, &v);
    fact("R8_2 MPI_HOST present", present);
    fact("R8_2 MPI_HOST is MPI_PROC_NULL or a rank", present && (v == MPI_PROC_NULL || v == rank));

    present = get_int_attr("MPI_IO", MPI_IO, &v);
    fact("R8_2 MPI_IO present", present);
    fact("R8_2 MPI_IO is MPI_ANY_SOURCE, MPI_PROC_NULL or own rank",
         present && (v == MPI_ANY_SOURCE || v == MPI_PROC_NULL || v == rank));

    present = get_int_attr("MPI_WTIME_IS_GLOBAL", MPI_WTIME_IS_GLOBAL, &v);
    fact("R8_2 MPI_WTIME_IS_GLOBAL absent or 0 or 1", !present || v == 0 || v == 1);

    present = get_int_attr("MPI_UNIVERSE_SIZE", MPI_UNIVERSE_SIZE, &v);
    fact("R8_2 MPI_UNIVERSE_SIZE absent or >= 1", !present || v >= 1);

    present = get_int_attr("MPI_APPNUM", MPI_APPNUM, &v);
    fact("R8_2 MPI_APPNUM absent or >= 0", !present || v >= 0);

    present = get_int_attr("MPI_LASTUSEDCODE", MPI_LASTUSEDCODE, &v);
    fact("R8_2 MPI_LASTUSEDCODE present", present);
    fact("R8_2 MPI_LASTUSEDCODE >= MPI_ERR_LASTCODE", present && v >= MPI_ERR_LASTCODE);

    /* R8.1: same attributes on the world communicator, read through the
     * deprecated MPI_Attr_get (R5.4): still a pointer to int. */
    {
        int *p = NULL, flag = -1;
        CHECK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag));
        fact("R5_4 Attr_get MPI_TAG_UB gives int* >= 32767", flag == 1 && p != NULL && *p >= 32767);
    }
    return diff_finish();
}
