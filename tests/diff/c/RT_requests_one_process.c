/* Requests on one process (MPI-4.1 §4.6, §4.7, §4.8, §4.9, §7.12, §14.2; D44): persistent sends and
 * receives (inactive, started, restarted, freed), buffered mode with an attached buffer,
 * cancelling a receive, MPI_Test_cancelled and MPI_Status_set_cancelled, MPI_Request_get_status,
 * MPI_Waitsome / MPI_Testsome, generalized requests and when their callbacks run, matched probes
 * and receives (MPI_PROC_NULL's MPI_MESSAGE_NO_PROC), nonblocking collectives (MPI_Ialltoallw and
 * the neighbourhood ones on a periodic ring of one process and a graph with one self edge, D48).
 * The MPI-4 routines (MPI_Isendrecv, persistent collectives, partitioned communication) print their
 * lines only where
 * MPI_VERSION is 4: elsewhere each such line says "no MPI 4" (divergences.toml: Open MPI 4.1).
 */
#include <string.h>

#include "diff_util.h"

/* A send whose receive comes later (MPI_Send could wait for it, RT_messages_to_self.c). */
static void send_ahead(const int *buf, int count, int tag)
{
    MPI_Request r;
    MPI_Isend(buf, count, MPI_INT, 0, tag, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
}

/* A collective's return class and the receive buffer after it. */
static void show(const char *label, int rc, const int *a, int n)
{
    printf("%s: %s", label, errclass_name(rc));
    for (int i = 0; i < n; ++i)
        printf(" %d", a[i]);
    printf("\n");
}

static void reset(int *a, int n)
{
    for (int i = 0; i < n; ++i)
        a[i] = -1;
}

static int count_of(const MPI_Status *st)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    return n;
}

/* Generalized requests: each callback logs its letter (query q, free f, cancel c0 / c1). */
static char glog[32];
static void glog_add(const char *s) { strncat(glog, s, sizeof glog - strlen(glog) - 1); }
static int g_query(void *extra, MPI_Status *st)
{
    glog_add("q");
    st->MPI_SOURCE = 0;
    st->MPI_TAG = *(int *)extra;
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}
static int g_free(void *extra)
{
    (void)extra;
    glog_add("f");
    return MPI_SUCCESS;
}
static int g_cancel(void *extra, int complete)
{
    (void)extra;
    glog_add(complete ? "c1" : "c0");
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Status st;
    int flag, rc;

    /* ---- persistent requests (§4.9) ---- */
    int out = 0, in = -1;
    MPI_Request send, recv;
    MPI_Send_init(&out, 1, MPI_INT, 0, 3, w, &send);
    MPI_Recv_init(&in, 1, MPI_INT, 0, 3, w, &recv);
    st.MPI_SOURCE = 99;
    st.MPI_TAG = 99;
    rc = MPI_Wait(&recv, &st);
    fact_err("wait on an inactive request, rc", rc);
    fact("wait on an inactive request, request kept", recv != MPI_REQUEST_NULL);
    fact("wait on an inactive request, empty status source is MPI_ANY_SOURCE", st.MPI_SOURCE == MPI_ANY_SOURCE);
    fact("wait on an inactive request, empty status tag is MPI_ANY_TAG", st.MPI_TAG == MPI_ANY_TAG);
    fact("wait on an inactive request, empty status count", count_of(&st));
    flag = -1;
    MPI_Test(&send, &flag, &st);
    fact("test on an inactive request, flag", flag);
    for (int round = 1; round <= 2; ++round) {  /* a persistent request is started again */
        out = 100 * round;
        MPI_Start(&recv);  /* posted before the send */
        flag = -1;
        MPI_Test(&recv, &flag, MPI_STATUS_IGNORE);
        printf("round %d, receive started before the send, test flag: %d\n", round, flag);
        MPI_Start(&send);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        MPI_Wait(&recv, &st);
        printf("round %d, received: %d\n", round, in);
        printf("round %d, status tag: %d\n", round, st.MPI_TAG);
        printf("round %d, requests kept: %d\n", round, send != MPI_REQUEST_NULL && recv != MPI_REQUEST_NULL);
    }
    MPI_Request both[2] = {send, recv};
    out = 7;
    MPI_Startall(2, both);
    MPI_Status sts[2];
    rc = MPI_Waitall(2, both, sts);
    fact_err("startall send and receive, waitall rc", rc);
    fact("startall send and receive, received", in);
    fact("startall send and receive, receive's count", count_of(&sts[1]));
    MPI_Request_free(&both[0]);
    MPI_Request_free(&both[1]);
    fact("request_free of inactive persistent requests gives MPI_REQUEST_NULL",
         both[0] == MPI_REQUEST_NULL && both[1] == MPI_REQUEST_NULL);

    /* A persistent synchronous send completes when the receive takes its message. */
    int ss = 5, sr = 0;
    MPI_Request ssend;
    MPI_Ssend_init(&ss, 1, MPI_INT, 0, 4, w, &ssend);
    MPI_Start(&ssend);
    MPI_Recv(&sr, 1, MPI_INT, 0, 4, w, MPI_STATUS_IGNORE);
    rc = MPI_Wait(&ssend, MPI_STATUS_IGNORE);
    fact_err("ssend_init, wait after the receive, rc", rc);
    fact("ssend_init, received", sr);
    MPI_Request_free(&ssend);

    /* ---- buffered mode (§4.6) ---- */
    int packed = 0;
    MPI_Pack_size(4, MPI_INT, w, &packed);
    int bufsize = packed + MPI_BSEND_OVERHEAD;
    char *buffer = malloc((size_t)bufsize);
    rc = MPI_Buffer_attach(buffer, bufsize);
    fact_err("buffer_attach rc", rc);
    int b4[4] = {1, 2, 3, 4}, r4[4] = {0, 0, 0, 0};
    rc = MPI_Bsend(b4, 4, MPI_INT, 0, 8, w);
    fact_err("bsend of what the buffer holds, rc", rc);
    MPI_Recv(r4, 4, MPI_INT, 0, 8, w, &st);
    fact("bsend, received", r4[0] * 1000 + r4[1] * 100 + r4[2] * 10 + r4[3]);
    int big[64] = {0};
    rc = MPI_Bsend(big, 64, MPI_INT, 0, 9, w);
    fact_err("bsend of more than the buffer holds, rc", rc);
    MPI_Request ib;
    rc = MPI_Ibsend(b4, 2, MPI_INT, 0, 10, w, &ib);
    fact_err("ibsend rc", rc);
    MPI_Wait(&ib, MPI_STATUS_IGNORE);
    MPI_Recv(r4, 2, MPI_INT, 0, 10, w, &st);
    fact("ibsend, count received", count_of(&st));
    void *detached = NULL;
    int detached_size = -1;
    rc = MPI_Buffer_detach(&detached, &detached_size);
    fact_err("buffer_detach rc", rc);
    fact("buffer_detach gives the buffer back", detached == (void *)buffer);
    fact("buffer_detach gives its size", detached_size == bufsize);
    free(buffer);

    /* ---- cancel, test_cancelled, status_set_cancelled (§4.8.4) ---- */
    int never = 0;
    MPI_Request rq;
    MPI_Irecv(&never, 1, MPI_INT, 0, 77, w, &rq);
    rc = MPI_Cancel(&rq);
    fact_err("cancel of a posted receive, rc", rc);
    rc = MPI_Wait(&rq, &st);
    fact_err("cancel of a posted receive, wait rc", rc);
    flag = -1;
    MPI_Test_cancelled(&st, &flag);
    fact("cancel of a posted receive, test_cancelled", flag);
    MPI_Status made;
    memset(&made, 0, sizeof made);
    MPI_Status_set_cancelled(&made, 1);
    MPI_Test_cancelled(&made, &flag);
    fact("status_set_cancelled 1, test_cancelled", flag);
    MPI_Status_set_cancelled(&made, 0);
    MPI_Test_cancelled(&made, &flag);
    fact("status_set_cancelled 0, test_cancelled", flag);

    /* ---- request_get_status (§4.7.6): the status, the request kept ---- */
    int gv = 0, gs = 31;
    MPI_Irecv(&gv, 1, MPI_INT, 0, 12, w, &rq);
    flag = -1;
    MPI_Request_get_status(rq, &flag, &st);
    fact("request_get_status before the send, flag", flag);
    send_ahead(&gs, 1, 12);
    MPI_Request_get_status(rq, &flag, &st);
    fact("request_get_status after the send, flag", flag);
    fact("request_get_status after the send, tag", st.MPI_TAG);
    fact("request_get_status after the send, request kept", rq != MPI_REQUEST_NULL);
    MPI_Wait(&rq, &st);
    fact("then wait, received", gv);
    MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
    fact("request_get_status of MPI_REQUEST_NULL, flag", flag);

    /* ---- waitsome / testsome (§4.7.5) ---- */
    int v[3] = {0, 0, 0}, s2 = 2, s3 = 3;
    MPI_Request three[3];
    for (int i = 0; i < 3; ++i)
        MPI_Irecv(&v[i], 1, MPI_INT, 0, 20 + i, w, &three[i]);
    int outcount = -1, idx[3] = {-1, -1, -1};
    MPI_Status some[3];
    MPI_Testsome(3, three, &outcount, idx, some);
    fact("testsome with nothing sent, outcount", outcount);
    send_ahead(&s3, 1, 22);
    send_ahead(&s2, 1, 21);
    MPI_Testsome(3, three, &outcount, idx, some);
    fact("testsome after two sends, outcount", outcount);
    fact("testsome after two sends, indices", idx[0] * 10 + idx[1]);
    fact("testsome after two sends, tags", some[0].MPI_TAG * 100 + some[1].MPI_TAG);
    fact("testsome after two sends, completed ones are MPI_REQUEST_NULL",
         three[1] == MPI_REQUEST_NULL && three[2] == MPI_REQUEST_NULL && three[0] != MPI_REQUEST_NULL);
    int s1 = 1;
    send_ahead(&s1, 1, 20);
    MPI_Waitsome(3, three, &outcount, idx, some);
    fact("waitsome, outcount", outcount);
    fact("waitsome, index", idx[0]);
    fact("waitsome, received", v[0] * 100 + v[1] * 10 + v[2]);
    MPI_Waitsome(3, three, &outcount, idx, some);
    fact("waitsome with no active request, outcount is MPI_UNDEFINED", outcount == MPI_UNDEFINED);

    /* ---- generalized requests (§14.2) ---- */
    int gtag = 42;
    MPI_Request g;
    MPI_Grequest_start(g_query, g_free, g_cancel, &gtag, &g);
    flag = -1;
    MPI_Test(&g, &flag, &st);
    fact("grequest before complete, test flag", flag);
    printf("grequest before complete, callbacks: [%s]\n", glog);
    MPI_Cancel(&g);
    printf("grequest cancelled before complete, callbacks: [%s]\n", glog);
    glog[0] = '\0';
    MPI_Grequest_complete(g);
    printf("grequest_complete, callbacks: [%s]\n", glog);
    rc = MPI_Wait(&g, &st);
    fact_err("grequest wait rc", rc);
    printf("grequest wait, callbacks: [%s]\n", glog);
    fact("grequest wait, status tag from query_fn", st.MPI_TAG);
    fact("grequest wait, request freed", g == MPI_REQUEST_NULL);
    glog[0] = '\0';
    MPI_Grequest_start(g_query, g_free, g_cancel, &gtag, &g);
    MPI_Request gcopy = g;
    MPI_Request_free(&g);
    printf("grequest freed before complete, callbacks: [%s]\n", glog);
    MPI_Grequest_complete(gcopy);
    printf("grequest freed, then complete, callbacks: [%s]\n", glog);

    /* ---- matched probe and receive (§4.8.2, §4.8.3) ---- */
    /* (The sends' requests are waited for after the receive: MPICH 4.0.2 with UCX aborts in
     * MPI_Mrecv when the sending MPI_Isend's request was freed.) */
    int m4[4] = {9, 8, 7, 6}, mr[4] = {0, 0, 0, 0};
    MPI_Request msend;
    MPI_Isend(m4, 4, MPI_INT, 0, 30, w, &msend);
    MPI_Message msg;
    rc = MPI_Mprobe(0, 30, w, &msg, &st);
    fact_err("mprobe rc", rc);
    fact("mprobe, count", count_of(&st));
    flag = -1;
    MPI_Iprobe(0, 30, w, &flag, MPI_STATUS_IGNORE);
    fact("after mprobe, iprobe sees the message", flag);
    rc = MPI_Mrecv(mr, 4, MPI_INT, &msg, &st);
    fact_err("mrecv rc", rc);
    fact("mrecv, received", mr[0] * 1000 + mr[3]);
    fact("mrecv, message becomes MPI_MESSAGE_NULL", msg == MPI_MESSAGE_NULL);
    MPI_Wait(&msend, MPI_STATUS_IGNORE);
    MPI_Improbe(0, 31, w, &flag, &msg, &st);
    fact("improbe with nothing sent, flag", flag);
    MPI_Improbe(MPI_PROC_NULL, 31, w, &flag, &msg, &st);
    fact("improbe of MPI_PROC_NULL, flag", flag);
    fact("improbe of MPI_PROC_NULL, message is MPI_MESSAGE_NO_PROC", msg == MPI_MESSAGE_NO_PROC);
    rc = MPI_Mrecv(mr, 4, MPI_INT, &msg, &st);
    fact_err("mrecv of MPI_MESSAGE_NO_PROC, rc", rc);
    fact("mrecv of MPI_MESSAGE_NO_PROC, source is MPI_PROC_NULL", st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Isend(m4, 2, MPI_INT, 0, 32, w, &msend);
    MPI_Improbe(0, 32, w, &flag, &msg, &st);
    fact("improbe, flag", flag);
    MPI_Imrecv(mr, 4, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    MPI_Wait(&msend, MPI_STATUS_IGNORE);
    fact("imrecv, tag", st.MPI_TAG);
    fact("imrecv, count", count_of(&st));

    /* ---- nonblocking collectives (§7.12) ---- */
    MPI_Request c;
    rc = MPI_Ibarrier(w, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    fact_err("ibarrier rc", rc);
    int x[3] = {1, 2, 3}, y[3] = {0, 0, 0};
    MPI_Iallreduce(x, y, 3, MPI_INT, MPI_SUM, w, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    fact("iallreduce", y[0] * 100 + y[1] * 10 + y[2]);
    y[0] = y[1] = y[2] = 0;
    int counts[1] = {2}, displs[1] = {1};
    MPI_Iscatterv(x, counts, displs, MPI_INT, y, 2, MPI_INT, 0, w, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    fact("iscatterv from displacement 1", y[0] * 10 + y[1]);
    MPI_Ialltoall(x, 1, MPI_INT, y, 1, MPI_INT, w, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    fact("ialltoall", y[0]);
    rc = MPI_Ireduce(x, y, 3, MPI_INT, MPI_MAX, 1, w, &c);
    fact_err("ireduce with root 1, rc", rc);

    /* MPI_Ialltoallw and the nonblocking neighbourhood collectives (§7.12, §9.7): on a periodic
     * ring of one process the block from below is the one sent up; a distributed graph with one
     * self edge receives what it sends. */
    int ws[4] = {-1, 70, 80, 90}, wr[4];
    int wsc[1] = {2}, wsd[1] = {(int)sizeof(int)}, wrc[1] = {2}, wrd[1] = {(int)sizeof(int)};
    MPI_Datatype wty[1] = {MPI_INT};
    reset(wr, 4);
    rc = MPI_Ialltoallw(ws, wsc, wsd, wty, wr, wrc, wrd, wty, w, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("ialltoallw", rc, wr, 4);
    int dims[1] = {1}, periods[1] = {1}, self[1] = {0};
    int *volatile unweighted = MPI_UNWEIGHTED; /* a variable: GCC 12 warns of the constant */
    MPI_Comm ring, dist;
    MPI_Cart_create(w, 1, dims, periods, 0, &ring);
    MPI_Dist_graph_create_adjacent(w, 1, self, unweighted, 1, self, unweighted, MPI_INFO_NULL, 0, &dist);
    int ns[4] = {10, 11, 12, 13}, nr[4];
    reset(nr, 4);
    rc = MPI_Ineighbor_alltoall(ns, 1, MPI_INT, nr, 1, MPI_INT, ring, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("ineighbor_alltoall on the ring", rc, nr, 4);
    reset(nr, 4);
    rc = MPI_Ineighbor_allgather(ns + 1, 2, MPI_INT, nr + 1, 2, MPI_INT, dist, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("ineighbor_allgather on the graph", rc, nr, 4);
    int vc[1] = {3}, vd[1] = {1};
    reset(nr, 4);
    rc = MPI_Ineighbor_allgatherv(ns, 3, MPI_INT, nr, vc, vd, MPI_INT, dist, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("ineighbor_allgatherv on the graph", rc, nr, 4);
    int asc[1] = {2}, asd[1] = {2}, arc[1] = {2}, ard[1] = {0};
    reset(nr, 4);
    rc = MPI_Ineighbor_alltoallv(ns, asc, asd, MPI_INT, nr, arc, ard, MPI_INT, dist, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("ineighbor_alltoallv on the graph", rc, nr, 4);
    int bsc[1] = {1}, brc[1] = {1};
    MPI_Aint bsd[1] = {3 * sizeof(int)}, brd[1] = {2 * sizeof(int)};
    reset(nr, 4);
    rc = MPI_Ineighbor_alltoallw(ns, bsc, bsd, wty, nr, brc, brd, wty, dist, &c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("ineighbor_alltoallw on the graph", rc, nr, 4);

#if MPI_VERSION >= 4
    /* ---- MPI-4: isendrecv, persistent collectives, partitioned communication ---- */
    int sv = 55, rv = 0;
    MPI_Isendrecv(&sv, 1, MPI_INT, 0, 40, &rv, 1, MPI_INT, 0, 40, w, &c);
    MPI_Wait(&c, &st);
    fact("isendrecv, received", rv);
    int rep = 66;
    MPI_Isendrecv_replace(&rep, 1, MPI_INT, 0, 41, 0, 41, w, &c);
    MPI_Wait(&c, &st);
    fact("isendrecv_replace, value and tag", rep * 100 + st.MPI_TAG);
    int px = 3, py = 0;
    MPI_Allreduce_init(&px, &py, 1, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &c);
    MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    px = 4;
    MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    fact("allreduce_init started twice, second result", py);
    MPI_Request_free(&c);
    /* The persistent forms of MPI_Alltoallw and the neighbourhood collectives: each start sends
     * what the buffer holds then. */
    reset(wr, 4);
    MPI_Alltoallw_init(ws, wsc, wsd, wty, wr, wrc, wrd, wty, w, MPI_INFO_NULL, &c);
    MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    ws[2] = 81;
    rc = MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("alltoallw_init started twice", rc, wr, 4);
    MPI_Request_free(&c);
    int one = 5;
    reset(nr, 4);
    MPI_Neighbor_allgather_init(&one, 1, MPI_INT, nr, 1, MPI_INT, ring, MPI_INFO_NULL, &c);
    MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    one = 6;
    rc = MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("neighbor_allgather_init on the ring, started twice", rc, nr, 4);
    MPI_Request_free(&c);
    reset(nr, 4);
    MPI_Neighbor_alltoall_init(ns, 2, MPI_INT, nr, 2, MPI_INT, ring, MPI_INFO_NULL, &c);
    rc = MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("neighbor_alltoall_init on the ring", rc, nr, 4);
    MPI_Request_free(&c);
    reset(nr, 4);
    MPI_Neighbor_allgatherv_init(ns + 1, 3, MPI_INT, nr, vc, vd, MPI_INT, dist, MPI_INFO_NULL, &c);
    rc = MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("neighbor_allgatherv_init on the graph", rc, nr, 4);
    MPI_Request_free(&c);
    reset(nr, 4);
    MPI_Neighbor_alltoallv_init(ns, asc, asd, MPI_INT, nr, arc, vd, MPI_INT, dist, MPI_INFO_NULL, &c);
    rc = MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("neighbor_alltoallv_init on the graph", rc, nr, 4);
    MPI_Request_free(&c);
    reset(nr, 4);
    MPI_Neighbor_alltoallw_init(ns, bsc, brd, wty, nr, brc, bsd, wty, dist, MPI_INFO_NULL, &c);
    rc = MPI_Start(&c);
    MPI_Wait(&c, MPI_STATUS_IGNORE);
    show("neighbor_alltoallw_init on the graph", rc, nr, 4);
    MPI_Request_free(&c);
    int part_out[4] = {1, 2, 3, 4}, part_in[4] = {0, 0, 0, 0};
    MPI_Request ps, pr;
    MPI_Psend_init(part_out, 2, 2, MPI_INT, 0, 50, w, MPI_INFO_NULL, &ps);
    MPI_Precv_init(part_in, 2, 2, MPI_INT, 0, 50, w, MPI_INFO_NULL, &pr);
    MPI_Start(&pr);
    MPI_Start(&ps);
    MPI_Pready(1, ps);
    flag = -1;
    MPI_Parrived(pr, 0, &flag);
    fact("partitioned, one partition of two ready, partition 0 arrived", flag);
    MPI_Pready(0, ps);
    MPI_Wait(&ps, MPI_STATUS_IGNORE);
    MPI_Wait(&pr, MPI_STATUS_IGNORE);
    fact("partitioned, received", part_in[0] * 1000 + part_in[1] * 100 + part_in[2] * 10 + part_in[3]);
    MPI_Request_free(&ps);
    MPI_Request_free(&pr);
#else
    const char *mpi4[] = {"isendrecv, received", "isendrecv_replace, value and tag",
                          "allreduce_init started twice, second result",
                          "alltoallw_init started twice",
                          "neighbor_allgather_init on the ring, started twice",
                          "neighbor_alltoall_init on the ring", "neighbor_allgatherv_init on the graph",
                          "neighbor_alltoallv_init on the graph", "neighbor_alltoallw_init on the graph",
                          "partitioned, one partition of two ready, partition 0 arrived",
                          "partitioned, received"};
    for (unsigned i = 0; i < sizeof mpi4 / sizeof mpi4[0]; ++i)
        printf("%s: no MPI 4\n", mpi4[i]);
#endif
    MPI_Comm_free(&ring);
    MPI_Comm_free(&dist);
    return diff_finish();
}
