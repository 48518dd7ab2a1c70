/* Point-to-point on one process (MPI-4.1 §4): messages a process sends to itself, as programs
 * written for MPICH and Open MPI use them in a one-process run. Order of matching (§4.5: messages
 * from one sender with the same communicator match in the order sent), tags and MPI_ANY_TAG,
 * communicators that do not match each other's messages, receives posted before the send,
 * MPI_Probe / MPI_Iprobe / MPI_Get_count, MPI_Sendrecv, MPI_PROC_NULL, a strided datatype sent
 * and received contiguous, a short message into a derived datatype (D142), truncation, and the
 * completion routines Waitall / Waitany / Testall.
 * (A receive no send will ever match is not here: the peers wait forever; mpiattr's answer is in
 * tests/c_api/test_d31_messages_to_self.cc.)
 */
#include "diff_util.h"

/* A send whose receive comes later: MPI_Isend, completed at the end. MPI_Send there would rely on
 * buffering the standard does not promise (MPICH waits for the receive; mpiattr buffers, D31). */
static MPI_Request pending[16];
static int npending;
static void send_ahead(const void *buf, int count, MPI_Datatype t, int tag, MPI_Comm c)
{
    MPI_Isend(buf, count, t, 0, tag, c, &pending[npending++]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Status st;
    int count;

    int a[4] = {1, 2, 3, 4}, b[4] = {0, 0, 0, 0};
    send_ahead(a, 4, MPI_INT, 7, w);
    int rc = MPI_Recv(b, 4, MPI_INT, 0, 7, w, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    fact("send recv, rc is success", rc == MPI_SUCCESS);
    fact("send recv, data", b[0] == 1 && b[3] == 4);
    fact("send recv, status source", st.MPI_SOURCE);
    fact("send recv, status tag", st.MPI_TAG);
    fact("send recv, count", count);

    /* Order: two messages, MPI_ANY_TAG takes the first sent. */
    int one = 11, two = 22, got = 0;
    send_ahead(&one, 1, MPI_INT, 1, w);
    send_ahead(&two, 1, MPI_INT, 2, w);
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, w, &st);
    fact("any tag takes the first sent, value", got);
    fact("any tag takes the first sent, tag", st.MPI_TAG);
    MPI_Recv(&got, 1, MPI_INT, 0, 2, w, &st);
    fact("then tag 2, value", got);

    /* A message sent on a duplicate is not seen on MPI_COMM_WORLD. */
    MPI_Comm dup;
    MPI_Comm_dup(w, &dup);
    send_ahead(&one, 1, MPI_INT, 5, dup);
    int flag = -1;
    MPI_Iprobe(0, 5, w, &flag, &st);
    fact("iprobe on another communicator sees nothing", flag);
    MPI_Probe(0, 5, dup, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    fact("probe on the duplicate, tag", st.MPI_TAG);
    fact("probe on the duplicate, count", count);
    MPI_Recv(&got, 1, MPI_INT, 0, 5, dup, MPI_STATUS_IGNORE);
    fact("recv on the duplicate, value", got);

    /* A receive posted before its send. */
    MPI_Request r;
    got = 0;
    MPI_Irecv(&got, 1, MPI_INT, 0, 9, w, &r);
    flag = -1;
    MPI_Test(&r, &flag, &st);
    fact("posted receive before the send, test", flag);
    MPI_Send(&two, 1, MPI_INT, 0, 9, w);
    MPI_Wait(&r, &st);
    fact("posted receive, completed by the send, value", got);
    fact("posted receive, status tag", st.MPI_TAG);
    fact("posted receive, request is null", r == MPI_REQUEST_NULL);

    /* Isend + Irecv pairs completed by Waitall, Waitany, Testall. */
    int s3[3] = {5, 6, 7}, r3[3] = {0, 0, 0};
    MPI_Request reqs[4];
    MPI_Status sts[4];
    MPI_Irecv(&r3[0], 1, MPI_INT, 0, 30, w, &reqs[0]);
    MPI_Irecv(&r3[1], 2, MPI_INT, 0, 31, w, &reqs[1]);
    MPI_Isend(&s3[0], 1, MPI_INT, 0, 30, w, &reqs[2]);
    MPI_Isend(&s3[1], 2, MPI_INT, 0, 31, w, &reqs[3]);
    rc = MPI_Waitall(4, reqs, sts);
    fact("waitall, rc is success", rc == MPI_SUCCESS);
    fact("waitall, data", r3[0] == 5 && r3[1] == 6 && r3[2] == 7);
    MPI_Get_count(&sts[1], MPI_INT, &count);
    fact("waitall, second receive count", count);
    fact("waitall, second receive tag", sts[1].MPI_TAG);
    fact("waitall, requests null", reqs[0] == MPI_REQUEST_NULL && reqs[3] == MPI_REQUEST_NULL);
    int index = -1;
    reqs[0] = MPI_REQUEST_NULL;
    MPI_Irecv(&got, 1, MPI_INT, 0, 40, w, &reqs[1]);
    send_ahead(&one, 1, MPI_INT, 40, w);
    MPI_Waitany(2, reqs, &index, &st);
    fact("waitany, index", index);
    fact("waitany, value", got);
    MPI_Waitany(2, reqs, &index, &st);
    fact("waitany with no active request, index is MPI_UNDEFINED", index == MPI_UNDEFINED);
    MPI_Irecv(&got, 1, MPI_INT, 0, 41, w, &reqs[0]);
    MPI_Testall(1, reqs, &flag, MPI_STATUSES_IGNORE);
    fact("testall before the send", flag);
    MPI_Send(&two, 1, MPI_INT, 0, 41, w);
    MPI_Testall(1, reqs, &flag, MPI_STATUSES_IGNORE);
    fact("testall after the send", flag);
    fact("testall, value", got);

    /* Sendrecv with itself, and MPI_PROC_NULL. */
    int x = 3, y = 0;
    MPI_Sendrecv(&x, 1, MPI_INT, 0, 50, &y, 1, MPI_INT, 0, 50, w, &st);
    fact("sendrecv, value", y);
    rc = MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 51, w);
    fact("send to MPI_PROC_NULL, rc is success", rc == MPI_SUCCESS);
    y = 99;
    rc = MPI_Recv(&y, 1, MPI_INT, MPI_PROC_NULL, 51, w, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    fact("recv from MPI_PROC_NULL, rc is success", rc == MPI_SUCCESS);
    fact("recv from MPI_PROC_NULL, buffer untouched", y);
    fact("recv from MPI_PROC_NULL, source is MPI_PROC_NULL", st.MPI_SOURCE == MPI_PROC_NULL);
    fact("recv from MPI_PROC_NULL, tag is MPI_ANY_TAG", st.MPI_TAG == MPI_ANY_TAG);
    fact("recv from MPI_PROC_NULL, count", count);

    /* A strided type sent, received contiguous. */
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int strided[5] = {1, -1, 2, -1, 3}, packed[3] = {0, 0, 0};
    send_ahead(strided, 1, vec, 60, w);
    MPI_Recv(packed, 3, MPI_INT, 0, 60, w, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    fact("vector sent, contiguous received", packed[0] == 1 && packed[1] == 2 && packed[2] == 3);
    fact("vector sent, count in ints", count);
    MPI_Get_count(&st, vec, &count);
    fact("vector sent, count in vectors", count);
    MPI_Type_free(&vec);

    /* A short message into a derived datatype fills the receive's first basic elements, the last
     * element partly (MPI-4.1 §3.3.5, D142): 3 ints into 2 of contiguous(2, int) and into 2 of a
     * vector with a gap, received before and after the send. */
    MPI_Datatype pair, gap;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_vector(2, 1, 2, MPI_INT, &gap);
    MPI_Type_commit(&gap);
    int three[3] = {1, 2, 3}, into[4] = {-1, -1, -1, -1}, spread[8];
    MPI_Request rr;
    MPI_Irecv(into, 2, pair, 0, 65, w, &rr);
    MPI_Send(three, 3, MPI_INT, 0, 65, w);
    MPI_Wait(&rr, &st);
    fact("D142 3 ints into 2 pairs posted first, 3rd int", into[2]);
    fact("D142 3 ints into 2 pairs posted first, 4th int kept", into[3]);
    MPI_Get_elements(&st, pair, &count);
    fact("D142 3 ints into 2 pairs, elements", count);
    for (int i = 0; i < 8; ++i) spread[i] = -1;
    send_ahead(three, 3, MPI_INT, 66, w);
    MPI_Recv(spread, 2, gap, 0, 66, w, &st);
    fact("D142 3 ints into 2 gapped vectors, slots 0 1 2", spread[0] * 100 + spread[1] * 10 + spread[2]);
    fact("D142 3 ints into 2 gapped vectors, 3rd int in slot 3", spread[3]);
    fact("D142 3 ints into 2 gapped vectors, slot 5 kept", spread[5]);
    MPI_Type_free(&pair);
    MPI_Type_free(&gap);

    /* Truncation: more sent than the receive holds. */
    send_ahead(a, 4, MPI_INT, 70, w);
    rc = MPI_Recv(b, 2, MPI_INT, 0, 70, w, &st);
    printf("recv of a longer message, class: %s\n", errclass_name(rc));

    /* Send modes: synchronous sends complete once a receive takes the message; a ready send
     * has its receive posted. */
    MPI_Request sr;
    x = 31;
    MPI_Issend(&x, 1, MPI_INT, 0, 80, w, &sr);
    flag = -1;
    MPI_Test(&sr, &flag, MPI_STATUS_IGNORE);
    fact("issend before its receive, test", flag);
    MPI_Recv(&y, 1, MPI_INT, 0, 80, w, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    fact("issend, received value", y);
    fact("issend, request completed", sr == MPI_REQUEST_NULL);
    MPI_Irecv(&y, 1, MPI_INT, 0, 81, w, &r);
    rc = MPI_Ssend(&one, 1, MPI_INT, 0, 81, w);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    fact("ssend into a posted receive, rc is success", rc == MPI_SUCCESS);
    fact("ssend into a posted receive, value", y);
    MPI_Irecv(&y, 1, MPI_INT, 0, 82, w, &r);
    MPI_Rsend(&two, 1, MPI_INT, 0, 82, w);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    fact("rsend into a posted receive, value", y);
    int rep[2] = {5, 6};
    MPI_Sendrecv_replace(rep, 2, MPI_INT, 0, 83, 0, 83, w, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    fact("sendrecv_replace, values", rep[0] == 5 && rep[1] == 6);
    fact("sendrecv_replace, count", count);
    reqs[0] = MPI_REQUEST_NULL;
    MPI_Irecv(&y, 1, MPI_INT, 0, 84, w, &reqs[1]);
    index = -2;
    flag = -1;
    MPI_Testany(2, reqs, &index, &flag, &st);
    fact("testany before the send, flag", flag);
    fact("testany before the send, index is MPI_UNDEFINED", index == MPI_UNDEFINED);
    send_ahead(&one, 1, MPI_INT, 84, w);
    MPI_Testany(2, reqs, &index, &flag, &st);
    fact("testany after the send, flag", flag);
    fact("testany after the send, index", index);
    MPI_Testany(2, reqs, &index, &flag, &st);
    fact("testany with nothing active, flag", flag);

    /* Bad arguments. */
    rc = MPI_Send(&x, 1, MPI_INT, 1, 0, w);
    printf("send to rank 1 of 1, class: %s\n", errclass_name(rc));
    rc = MPI_Send(&x, 1, MPI_INT, 0, -5, w);
    printf("send with tag -5, class: %s\n", errclass_name(rc));

    /* D146: with the null communicator (or window) and a null datatype, the communicator (the
     * window) is the error, as both hosts say; before, mpiattr named the datatype. Errors with no
     * valid communicator go to MPI_COMM_SELF's handler (D4), to MPI_COMM_WORLD's on the hosts. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Request nreq = MPI_REQUEST_NULL;
    int sum = 0, size = 0;
    printf("null comm and datatype, send: %s\n",
           errclass_name(MPI_Send(&x, -1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_NULL)));
    printf("null comm and datatype, recv: %s\n",
           errclass_name(MPI_Recv(&x, -1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_NULL, &st)));
    printf("null comm and datatype, isend: %s\n",
           errclass_name(MPI_Isend(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_NULL, &nreq)));
    printf("null comm and datatype, pack_size: %s\n",
           errclass_name(MPI_Pack_size(1, MPI_DATATYPE_NULL, MPI_COMM_NULL, &size)));
    printf("null comm, datatype and op, reduce: %s\n",
           errclass_name(MPI_Reduce(&x, &sum, 1, MPI_DATATYPE_NULL, MPI_OP_NULL, 0, MPI_COMM_NULL)));
    printf("null window and datatypes, put: %s\n",
           errclass_name(MPI_Put(&x, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_DATATYPE_NULL, MPI_WIN_NULL)));
    printf("null window, datatypes and op, accumulate: %s\n",
           errclass_name(MPI_Accumulate(&x, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_DATATYPE_NULL,
                                        MPI_OP_NULL, MPI_WIN_NULL)));
    fact("null comm and datatype, isend left the request null", nreq == MPI_REQUEST_NULL);

    rc = MPI_Waitall(npending, pending, MPI_STATUSES_IGNORE);
    fact("the sends made ahead complete", rc == MPI_SUCCESS);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
