/* R8.3, R7.5: predefined window attributes, for windows made by
 * MPI_Win_create, MPI_Win_allocate and MPI_Win_create_dynamic.
 *   MPI_WIN_BASE          void*: the base address itself (MPI_BOTTOM for dynamic)
 *   MPI_WIN_SIZE          MPI_Aint*: the size (0 for dynamic)
 *   MPI_WIN_DISP_UNIT     int*: the displacement unit
 *   MPI_WIN_CREATE_FLAVOR int*: MPI_WIN_FLAVOR_CREATE / _ALLOCATE / _DYNAMIC
 *   MPI_WIN_MODEL         int*: MPI_WIN_SEPARATE or MPI_WIN_UNIFIED (which
 *                         one is not fixed, so only validity is printed)
 * Values stay constant for the lifetime of the window: read twice.
 * The displacement unit of a dynamic window is not checked (only that the
 * attribute is present).
 */
#include "diff_util.h"

static void check_win(const char *how, MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    char label[128];
    void *b = NULL;
    MPI_Aint *sz = NULL;
    int *du = NULL, *fl = NULL, *model = NULL;
    int f_base = -1, f_size = -1, f_du = -1, f_fl = -1, f_model = -1;

    CHECK(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &f_base));
    CHECK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &f_size));
    CHECK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &f_du));
    CHECK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &f_fl));
    CHECK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &f_model));

    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_BASE present", how);
    fact(label, f_base);
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_BASE is the base pointer itself", how);
    fact(label, f_base == 1 && b == base);
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_SIZE present", how);
    fact(label, f_size);
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_SIZE (MPI_Aint*) value", how);
    fact(label, f_size == 1 && sz ? (long)*sz : -1);
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_SIZE matches", how);
    fact(label, f_size == 1 && sz && *sz == size);
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_DISP_UNIT present", how);
    fact(label, f_du);
    if (disp_unit > 0) { /* not fixed for dynamic windows */
        snprintf(label, sizeof label, "R8_3 %s MPI_WIN_DISP_UNIT (int*) value", how);
        fact(label, f_du == 1 && du ? *du : -1);
        snprintf(label, sizeof label, "R8_3 %s MPI_WIN_DISP_UNIT matches", how);
        fact(label, f_du == 1 && du && *du == disp_unit);
    }
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_CREATE_FLAVOR matches", how);
    fact(label, f_fl == 1 && fl && *fl == flavor);
    snprintf(label, sizeof label, "R8_3 %s MPI_WIN_MODEL valid", how);
    fact(label, f_model == 1 && model && (*model == MPI_WIN_SEPARATE || *model == MPI_WIN_UNIFIED));

    /* Constant for the window's lifetime: a second read agrees. */
    {
        void *b2 = NULL;
        int *fl2 = NULL, f2 = -1, f3 = -1;
        CHECK(MPI_Win_get_attr(win, MPI_WIN_BASE, &b2, &f2));
        CHECK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl2, &f3));
        snprintf(label, sizeof label, "R8_3 %s second read agrees", how);
        fact(label, f2 == 1 && f3 == 1 && b2 == b && fl2 && fl && *fl2 == *fl);
    }
}

int main(int argc, char **argv)
{
    static double buf[8];
    void *abase = NULL;
    MPI_Win win;

    diff_init(&argc, &argv);

    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    check_win("Win_create", win, buf, (MPI_Aint)sizeof buf, (int)sizeof(double), MPI_WIN_FLAVOR_CREATE);
    CHECK(MPI_Win_free(&win));

    CHECK(MPI_Win_allocate(40, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &abase, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    check_win("Win_allocate", win, abase, 40, 4, MPI_WIN_FLAVOR_ALLOCATE);
    CHECK(MPI_Win_free(&win));

    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    check_win("Win_create_dynamic", win, MPI_BOTTOM, 0, -1, MPI_WIN_FLAVOR_DYNAMIC);
    CHECK(MPI_Win_free(&win));

    return diff_finish();
}
