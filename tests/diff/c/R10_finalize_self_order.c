/* R10.1, R4.1, R2.2: MPI_Finalize first frees MPI_COMM_SELF, running the
 * delete callbacks of its attributes in the REVERSE of the order in which
 * they were set, while MPI_Finalized still returns false.
 *
 * Set order: A=1, B=2, C=3, then A is replaced by 11 (a replacement is a
 * delete plus a new set, so A becomes the newest; its old value is deleted
 * right away, before finalize), then D=4. B's keyval is freed while in use
 * (R2.2: its callback must still run). Expected order at finalize:
 * D(4), A(11), C(3), B(2). Each callback prints its own lines, so the order
 * is the order of the lines: cb #1 is the replacement, #2..#5 finalize.
 */
#include "diff_util.h"

static int ncalls;

static int self_del(MPI_Comm comm, int key, void *val, void *extra)
{
    char label[96];
    int finalized = -1;

    (void)key; (void)extra;
    ncalls++;
    MPI_Finalized(&finalized);
    snprintf(label, sizeof label, "R10_1 delete cb #%d value", ncalls);
    fact(label, (long)(MPI_Aint)val);
    snprintf(label, sizeof label, "R10_1 delete cb #%d comm is MPI_COMM_SELF", ncalls);
    fact(label, comm == MPI_COMM_SELF);
    snprintf(label, sizeof label, "R10_1 delete cb #%d MPI_Finalized", ncalls);
    fact(label, finalized);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int ka, kb, kc, kd, knull, before, finalized = -1;

    diff_init(&argc, &argv);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &ka, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kb, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kc, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kd, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL));

    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, ka, (void *)(MPI_Aint)1));
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, kb, (void *)(MPI_Aint)2));
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, knull, (void *)(MPI_Aint)99));
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, kc, (void *)(MPI_Aint)3));
    printf("R4_1 replacing A before finalize\n");
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, ka, (void *)(MPI_Aint)11)); /* cb #1 prints value 1 */
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, kd, (void *)(MPI_Aint)4));
    CHECK(MPI_Comm_free_keyval(&kb));
    fact("R2_2 freed in-use keyval set to MPI_KEYVAL_INVALID", kb == MPI_KEYVAL_INVALID);

    printf("R10_1 calling MPI_Finalize\n");
    before = ncalls;
    MPI_Finalize();
    MPI_Finalized(&finalized);
    fact("R10_1 delete cb calls during MPI_Finalize", ncalls - before);
    fact("R10_1 MPI_Finalized after MPI_Finalize", finalized);
    return 0;
}
