/* The collectives of MPI-4.1 §7 on one process, as programs written for MPICH and Open MPI call
 * them in a one-process run: each moves the process's own block (gathers and scatters at the
 * displacement given, with datatype conversion between the two sides' types), MPI_IN_PLACE leaves
 * the buffer alone, the scans and reduce-scatters copy, and a user-defined operation is created,
 * used and freed (its function combines nothing when there is one contribution).
 */
#include "diff_util.h"

static int user_calls;
static void my_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    user_calls++;
    for (int i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD;
    int s[4] = {1, 2, 3, 4}, r[8];
    int rc;
#define CLEAR() for (int i = 0; i < 8; ++i) r[i] = -1

    CLEAR();
    rc = MPI_Gather(s, 2, MPI_INT, r, 2, MPI_INT, 0, w);
    fact("gather, rc is success", rc == MPI_SUCCESS);
    fact("gather, block", r[0] == 1 && r[1] == 2 && r[2] == -1);
    CLEAR();
    int counts[1] = {3}, displs[1] = {2};
    MPI_Gatherv(s, 3, MPI_INT, r, counts, displs, MPI_INT, 0, w);
    fact("gatherv, at displs[0]", r[1] == -1 && r[2] == 1 && r[4] == 3 && r[5] == -1);
    CLEAR();
    MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, 0, w);
    fact("scatter, block", r[0] == 1 && r[1] == 2 && r[2] == -1);
    CLEAR();
    int sdispl[1] = {1};
    MPI_Scatterv(s, counts, sdispl, MPI_INT, r, 3, MPI_INT, 0, w);
    fact("scatterv, from displs[0]", r[0] == 2 && r[2] == 4 && r[3] == -1);
    CLEAR();
    MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, w);
    fact("allgather, block", r[0] == 1 && r[1] == -1);
    CLEAR();
    MPI_Allgatherv(s, 3, MPI_INT, r, counts, displs, MPI_INT, w);
    fact("allgatherv, at displs[0]", r[2] == 1 && r[4] == 3);
    CLEAR();
    MPI_Alltoall(s, 4, MPI_INT, r, 4, MPI_INT, w);
    fact("alltoall, block", r[0] == 1 && r[3] == 4 && r[4] == -1);
    CLEAR();
    int rdispl[1] = {4};
    MPI_Alltoallv(s, counts, sdispl, MPI_INT, r, counts, rdispl, MPI_INT, w);
    fact("alltoallv, displacements on both sides", r[3] == -1 && r[4] == 2 && r[6] == 4);

    /* Datatypes may differ on the two sides when the signatures agree. */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    CLEAR();
    MPI_Gather(s, 4, MPI_INT, r, 2, pair, 0, w);
    fact("gather 4 ints as 2 pairs", r[0] == 1 && r[3] == 4);
    MPI_Type_free(&pair);

    /* MPI_IN_PLACE */
    int inplace[2] = {7, 8};
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 2, MPI_INT, w);
    fact("allgather in place keeps the buffer", inplace[0] == 7 && inplace[1] == 8);
    MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, inplace, 2, MPI_INT, 0, w);
    fact("gather in place keeps the buffer", inplace[0] == 7 && inplace[1] == 8);
    /* The datatype MPI_IN_PLACE makes ignored (MPI-4.1 §7.5) is ignored by the nonblocking forms
     * too, as by the blocking ones: MPI_DATATYPE_NULL there is no error (mpi4py 4's suite passes
     * it; docs/decisions.md D116; the persistent forms, which Open MPI 4.1 lacks:
     * c_D44_in_place_ignores_the_datatype). */
    MPI_Request q;
    int vc[1] = {2}, vd[1] = {0};
#define NB(what, call)                                                     \
    rc = (call);                                                           \
    fact(what ", rc is success", rc == MPI_SUCCESS);                       \
    if (rc == MPI_SUCCESS) MPI_Wait(&q, MPI_STATUS_IGNORE);
    NB("igather in place, sendtype MPI_DATATYPE_NULL",
       MPI_Igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 2, MPI_INT, 0, w, &q));
    NB("igatherv in place, sendtype MPI_DATATYPE_NULL",
       MPI_Igatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, vc, vd, MPI_INT, 0, w, &q));
    NB("iscatter in place, recvtype MPI_DATATYPE_NULL",
       MPI_Iscatter(inplace, 2, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, w, &q));
    NB("iscatterv in place, recvtype MPI_DATATYPE_NULL",
       MPI_Iscatterv(inplace, vc, vd, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, w, &q));
    NB("iallgather in place, sendtype MPI_DATATYPE_NULL",
       MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 2, MPI_INT, w, &q));
    NB("iallgatherv in place, sendtype MPI_DATATYPE_NULL",
       MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, vc, vd, MPI_INT, w, &q));
    NB("ialltoall in place, sendtype MPI_DATATYPE_NULL",
       MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 2, MPI_INT, w, &q));
    NB("ialltoallv in place, sendtype MPI_DATATYPE_NULL",
       MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, inplace, vc, vd, MPI_INT, w, &q));
    fact("the in-place forms keep the buffer", inplace[0] == 7 && inplace[1] == 8);

    /* A wrong datatype in a routine that has a communicator is that communicator's error (MPI-4.1
     * §9.3; docs/decisions.md D4): MPI_COMM_WORLD's handler returns it, where MPI_COMM_SELF's,
     * never set here, would end the process (D116). */
    int cls = -1;
    rc = MPI_Gather(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_INT, 0, w);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    fact("gather, sendtype MPI_DATATYPE_NULL: MPI_ERR_TYPE through the communicator's handler",
         cls == MPI_ERR_TYPE);
    cls = -1;
    rc = MPI_Reduce(s, r, 1, MPI_INT, MPI_OP_NULL, 0, w);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    fact("reduce, MPI_OP_NULL: MPI_ERR_OP through the communicator's handler", cls == MPI_ERR_OP);

    /* Scans and reduce-scatters. */
    CLEAR();
    MPI_Scan(s, r, 4, MPI_INT, MPI_SUM, w);
    fact("scan copies", r[0] == 1 && r[3] == 4 && r[4] == -1);
    rc = MPI_Exscan(s, r, 4, MPI_INT, MPI_SUM, w);
    fact("exscan, rc is success", rc == MPI_SUCCESS);
    CLEAR();
    int rcounts[1] = {3};
    MPI_Reduce_scatter(s, r, rcounts, MPI_INT, MPI_SUM, w);
    fact("reduce_scatter, the process's share", r[0] == 1 && r[2] == 3 && r[3] == -1);
    CLEAR();
    MPI_Reduce_scatter_block(s, r, 2, MPI_INT, MPI_MAX, w);
    fact("reduce_scatter_block, the process's share", r[0] == 1 && r[1] == 2 && r[2] == -1);

    /* A user-defined operation. */
    MPI_Op op;
    rc = MPI_Op_create(my_sum, 1, &op);
    fact("op_create, rc is success", rc == MPI_SUCCESS);
    CLEAR();
    rc = MPI_Allreduce(s, r, 4, MPI_INT, op, w);
    fact("allreduce with a user op, rc is success", rc == MPI_SUCCESS);
    fact("allreduce with a user op on one process, the values", r[0] == 1 && r[3] == 4);
    fact("the user function combined nothing", user_calls);

    /* D148: a derived datatype not committed, and MPI_IN_PLACE as the buffer a reduction writes,
     * are errors (both hosts agree on each class); nothing is written. */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    CLEAR();
    printf("uncommitted, bcast: %s\n", errclass_name(MPI_Bcast(r, 1, two, 0, w)));
    printf("uncommitted, gather's send side: %s\n", errclass_name(MPI_Gather(s, 1, two, r, 2, MPI_INT, 0, w)));
    printf("uncommitted, allgather: %s\n", errclass_name(MPI_Allgather(s, 1, two, r, 1, two, w)));
    printf("uncommitted, alltoall: %s\n", errclass_name(MPI_Alltoall(s, 1, two, r, 1, two, w)));
    printf("uncommitted, allreduce with a user op: %s\n", errclass_name(MPI_Allreduce(s, r, 1, two, op, w)));
    printf("uncommitted, reduce with a user op: %s\n", errclass_name(MPI_Reduce(s, r, 1, two, op, 0, w)));
    printf("recvbuf MPI_IN_PLACE, allreduce: %s\n",
           errclass_name(MPI_Allreduce(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w)));
    fact("uncommitted and in-place errors wrote nothing", r[0] == -1 && r[1] == -1 && r[2] == -1);
    fact("nor called the user function", user_calls);
    MPI_Type_free(&two);
    rc = MPI_Op_free(&op);
    fact("op_free, rc is success", rc == MPI_SUCCESS);
    fact("op_free sets MPI_OP_NULL", op == MPI_OP_NULL);
    MPI_Finalize();
    return 0;
}
