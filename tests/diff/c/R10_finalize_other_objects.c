/* R10.3: MPI_Finalize does not free objects other than MPI_COMM_SELF
 * (§12.2.2), so attributes left on other communicators (including
 * MPI_COMM_WORLD) and on datatypes get no delete callback at finalize. The
 * consequence for callbacks is the project's inference (R10.3 [I]).
 * MPI_COMM_SELF's attribute is deleted as usual (R10.1), as a control.
 *
 * No window is left alive: MPICH 4.0 (ch4:ucx) aborts in MPI_Finalize when
 * a window is still allocated, which would hide everything else.
 */
#include "diff_util.h"

static int self_calls, world_calls, dup_calls, type_calls;

static int comm_del(MPI_Comm c, int k, void *v, void *x)
{
    (void)c; (void)k; (void)x;
    switch ((int)(MPI_Aint)v) {
    case 1: self_calls++; break;
    case 2: world_calls++; break;
    default: dup_calls++; break;
    }
    return MPI_SUCCESS;
}
static int type_del(MPI_Datatype t, int k, void *v, void *x) { (void)t; (void)k; (void)v; (void)x; type_calls++; return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    MPI_Comm dup;
    MPI_Datatype type;
    int kc, kt;

    diff_init(&argc, &argv);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &kc, NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del, &kt, NULL));
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Type_contiguous(2, MPI_INT, &type));
    CHECK(MPI_Type_commit(&type));
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, kc, (void *)(MPI_Aint)1));
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, kc, (void *)(MPI_Aint)2));
    CHECK(MPI_Comm_set_attr(dup, kc, (void *)(MPI_Aint)3));
    CHECK(MPI_Type_set_attr(type, kt, (void *)(MPI_Aint)4));

    MPI_Finalize();
    fact("R10_1 MPI_COMM_SELF attribute deleted at finalize", self_calls);
    fact("R10_3 MPI_COMM_WORLD attribute deleted at finalize", world_calls);
    fact("R10_3 unfreed dup comm attribute deleted at finalize", dup_calls);
    fact("R10_3 unfreed datatype attribute deleted at finalize", type_calls);
    return 0;
}
