/* D44: the request routines' errors on the standalone runtime, where the differential test
 * (tests/diff/c/RT_requests_one_process.c) cannot go because the peers crash, hang or disagree:
 * the class, a message that says what was wrong, and nothing started, sent or written. Also the
 * choices D44 makes where the standard leaves them open: a synchronous send still queued is
 * cancelled; a blocking completion call that nothing can complete fails instead of hanging (D31);
 * a persistent collective whose datatype was freed fails at MPI_Start. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

/* Whether a message with this tag is queued on MPI_COMM_WORLD. */
static int queued(int tag) {
  int flag = -1;
  OK(MPI_Iprobe(0, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  return flag;
}

static int frees;
static int bad_query(void *extra, MPI_Status *st) {
  (void)extra;
  (void)st;
  return MPI_ERR_ARG;
}
static int count_free(void *extra) {
  (void)extra;
  ++frees;
  return MPI_SUCCESS;
}
static int no_cancel(void *extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}
static int good_query(void *extra, MPI_Status *st) {
  (void)extra;
  (void)st;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Comm w = MPI_COMM_WORLD;
  OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int flag = -1, v = 0, got = 0;
  MPI_Status st;

  /* ---- persistent requests: start only inactive persistent ones; Startall all or none ---- */
  MPI_Request recv, send, plain;
  OK(MPI_Recv_init(&got, 1, MPI_INT, 0, 1, w, &recv));
  OK(MPI_Send_init(&v, 1, MPI_INT, 0, 1, w, &send));
  OK(MPI_Start(&recv));
  check_error(MPI_Start(&recv), MPI_ERR_REQUEST, "already active");
  OK(MPI_Isend(&v, 1, MPI_INT, 0, 2, w, &plain));
  check_error(MPI_Start(&plain), MPI_ERR_REQUEST, "not a persistent request");
  MPI_Request pair[2] = {send, plain};
  check_error(MPI_Startall(2, pair), MPI_ERR_REQUEST, "not a persistent request");
  CHECK(queued(1) == 0, "MPI_Startall started the good request of a bad array");
  MPI_Request twice[2] = {send, send};
  check_error(MPI_Startall(2, twice), MPI_ERR_REQUEST, "the same request");
  CHECK(queued(1) == 0, "MPI_Startall started a request of a bad array");
  OK(MPI_Request_get_status(send, &flag, &st));
  CHECK(flag == 1 && st.MPI_TAG == MPI_ANY_TAG, "the send is not inactive (empty status)");
  OK(MPI_Wait(&plain, MPI_STATUS_IGNORE));
  OK(MPI_Recv(&got, 1, MPI_INT, 0, 2, w, MPI_STATUS_IGNORE));
  v = 41;
  OK(MPI_Start(&send));
  OK(MPI_Wait(&recv, &st));
  CHECK(got == 41, "the receive started before the failed MPI_Start got %d", got);
  OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
  check_error(MPI_Cancel(&send), MPI_ERR_REQUEST, "inactive persistent request");
  OK(MPI_Request_free(&send));
  OK(MPI_Request_free(&recv));
  /* An active persistent receive no send will match: blocking completion fails (D31), nothing
   * is completed; MPI_Request_free still frees it. */
  OK(MPI_Recv_init(&got, 1, MPI_INT, 0, 3, w, &recv));
  OK(MPI_Start(&recv));
  int outcount = -7, idx[1] = {-7};
  check_error(MPI_Waitsome(1, &recv, &outcount, idx, MPI_STATUSES_IGNORE), MPI_ERR_OTHER,
              "it would wait forever");
  CHECK(outcount == -7 && idx[0] == -7, "MPI_Waitsome wrote outcount %d", outcount);
  OK(MPI_Cancel(&recv));
  OK(MPI_Wait(&recv, &st));
  OK(MPI_Test_cancelled(&st, &flag));
  CHECK(flag == 1, "the cancelled persistent receive's status says not cancelled");
  CHECK(recv != MPI_REQUEST_NULL, "a persistent request was freed by MPI_Wait");
  OK(MPI_Request_free(&recv));

  /* ---- buffered mode ---- */
  check_error(MPI_Bsend(&v, 1, MPI_INT, 0, 4, w), MPI_ERR_BUFFER, "no buffer attached");
  CHECK(queued(4) == 0, "a failed MPI_Bsend queued its message");
  void *addr = &flag;
  int size = -7;
  check_error(MPI_Buffer_detach(&addr, &size), MPI_ERR_BUFFER, "no buffer is attached");
  CHECK(addr == (void *)&flag && size == -7, "a failed MPI_Buffer_detach wrote its outputs");
  static char buffer[MPI_BSEND_OVERHEAD + 16];
  OK(MPI_Buffer_attach(buffer, (int)sizeof buffer));
  check_error(MPI_Buffer_attach(buffer, (int)sizeof buffer), MPI_ERR_BUFFER, "already attached");
  int four[4] = {1, 2, 3, 4};
  OK(MPI_Bsend(four, 4, MPI_INT, 0, 5, w));  /* 16 bytes: the buffer is full */
  check_error(MPI_Bsend(four, 1, MPI_INT, 0, 6, w), MPI_ERR_BUFFER, "of the attached buffer");
  CHECK(queued(6) == 0, "a failed MPI_Bsend queued its message");
  MPI_Request ib = MPI_REQUEST_NULL;
  check_error(MPI_Ibsend(four, 1, MPI_INT, 0, 6, w, &ib), MPI_ERR_BUFFER, "of the attached buffer");
  CHECK(ib == MPI_REQUEST_NULL, "a failed MPI_Ibsend gave a request");
  int four_in[4] = {0, 0, 0, 0};
  OK(MPI_Recv(four_in, 4, MPI_INT, 0, 5, w, MPI_STATUS_IGNORE));  /* its space is free again */
  OK(MPI_Bsend(four, 4, MPI_INT, 0, 6, w));
  OK(MPI_Buffer_detach(&addr, &size));  /* returns at once: the message is queued to self */
  CHECK(addr == (void *)buffer && size == (int)sizeof buffer, "detach gave another buffer or size");
  OK(MPI_Recv(four_in, 4, MPI_INT, 0, 6, w, MPI_STATUS_IGNORE));
  CHECK(four_in[3] == 4, "the message buffered before the detach was lost");

  /* ---- cancel ---- */
  MPI_Request null = MPI_REQUEST_NULL;
  check_error(MPI_Cancel(&null), MPI_ERR_REQUEST, "MPI_REQUEST_NULL");
  MPI_Request ss;
  OK(MPI_Issend(&v, 1, MPI_INT, 0, 7, w, &ss));
  OK(MPI_Cancel(&ss));
  OK(MPI_Wait(&ss, &st));
  OK(MPI_Test_cancelled(&st, &flag));
  CHECK(flag == 1, "a synchronous send still queued was not cancelled");
  CHECK(queued(7) == 0, "a cancelled synchronous send's message is still queued");
  MPI_Request done;
  OK(MPI_Isend(&v, 1, MPI_INT, 0, 8, w, &done));
  OK(MPI_Cancel(&done));  /* complete already: not cancelled */
  OK(MPI_Wait(&done, &st));
  OK(MPI_Test_cancelled(&st, &flag));
  CHECK(flag == 0, "a completed send was cancelled");
  CHECK(queued(8) == 1, "a completed send's message was taken back");
  OK(MPI_Recv(&got, 1, MPI_INT, 0, 8, w, MPI_STATUS_IGNORE));

  /* ---- generalized requests ---- */
  MPI_Request g = MPI_REQUEST_NULL;
  check_error(MPI_Grequest_start(NULL, count_free, no_cancel, NULL, &g), MPI_ERR_ARG, "NULL");
  CHECK(g == MPI_REQUEST_NULL, "a failed MPI_Grequest_start gave a request");
  OK(MPI_Isend(&v, 1, MPI_INT, 0, 9, w, &plain));
  check_error(MPI_Grequest_complete(plain), MPI_ERR_REQUEST, "not a generalized request");
  OK(MPI_Wait(&plain, MPI_STATUS_IGNORE));
  OK(MPI_Recv(&got, 1, MPI_INT, 0, 9, w, MPI_STATUS_IGNORE));
  OK(MPI_Grequest_start(good_query, count_free, no_cancel, NULL, &g));
  OK(MPI_Grequest_complete(g));
  check_error(MPI_Grequest_complete(g), MPI_ERR_REQUEST, "already complete");
  OK(MPI_Wait(&g, MPI_STATUS_IGNORE));
  CHECK(frees == 1, "free_fn ran %d times, expected once", frees);
  OK(MPI_Grequest_start(bad_query, count_free, no_cancel, NULL, &g));
  OK(MPI_Grequest_complete(g));
  int rc = MPI_Wait(&g, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_ERR_ARG, "MPI_Wait returned %d, not query_fn's code (R4.5)", rc);
  CHECK(frees == 2, "free_fn did not run after a failing query_fn");
  CHECK(g == MPI_REQUEST_NULL, "the generalized request is not freed");

  /* ---- matched probes ---- */
  MPI_Message m = MPI_MESSAGE_NULL;
  check_error(MPI_Mrecv(&got, 1, MPI_INT, &m, &st), MPI_ERR_REQUEST, "not a message");
  check_error(MPI_Mprobe(0, 10, w, &m, &st), MPI_ERR_OTHER, "it would wait forever");
  CHECK(m == MPI_MESSAGE_NULL, "a failed MPI_Mprobe gave a message");
  OK(MPI_Isend(four, 4, MPI_INT, 0, 11, w, &plain));
  OK(MPI_Mprobe(0, 11, w, &m, &st));
  check_error(MPI_Mrecv(&got, 1, MPI_INT, &m, &st), MPI_ERR_TRUNCATE, "more than");
  CHECK(m == MPI_MESSAGE_NULL, "a truncated matched receive left its message");
  OK(MPI_Wait(&plain, MPI_STATUS_IGNORE));

  /* ---- partitioned ---- */
  MPI_Request ps = MPI_REQUEST_NULL, pr;
  check_error(MPI_Psend_init(four, 2, 2, MPI_INT, MPI_PROC_NULL, 12, w, MPI_INFO_NULL, &ps),
              MPI_ERR_RANK, "MPI_PROC_NULL");
  CHECK(ps == MPI_REQUEST_NULL, "a failed MPI_Psend_init gave a request");
  OK(MPI_Psend_init(four, 2, 2, MPI_INT, 0, 12, w, MPI_INFO_NULL, &ps));
  check_error(MPI_Pready(0, ps), MPI_ERR_REQUEST, "not active");
  OK(MPI_Start(&ps));
  check_error(MPI_Pready(2, ps), MPI_ERR_ARG, "partition 2");
  check_error(MPI_Pready_range(1, 0, ps), MPI_ERR_ARG, "below");
  int list[2] = {0, 5};
  check_error(MPI_Pready_list(2, list, ps), MPI_ERR_ARG, "partition 5");
  int dup_list[2] = {1, 1};  /* a partition named twice in one list, as two MPI_Pready of it (D122) */
  check_error(MPI_Pready_list(2, dup_list, ps), MPI_ERR_ARG, "partition 1 is named twice");
  check_error(MPI_Pready_range(1, 2, ps), MPI_ERR_ARG, "partition 2");  /* partition 1 left unready */
  OK(MPI_Pready(0, ps));
  check_error(MPI_Pready(0, ps), MPI_ERR_ARG, "ready already");
  check_error(MPI_Parrived(ps, 0, &flag), MPI_ERR_REQUEST, "not a partitioned receive");
  check_error(MPI_Wait(&ps, MPI_STATUS_IGNORE), MPI_ERR_OTHER, "it would wait forever");
  OK(MPI_Pready(1, ps));  /* the message waits for a partitioned receive */
  OK(MPI_Wait(&ps, MPI_STATUS_IGNORE));
  CHECK(queued(12) == 0, "a partitioned message is matched by MPI_Iprobe");
  OK(MPI_Precv_init(four_in, 2, 2, MPI_INT, 0, 12, w, MPI_INFO_NULL, &pr));
  /* A null or inactive request: flag true (MPI-4.1 p. 121, D122); a partition out of range is
   * still an error. */
  flag = 0;
  OK(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
  CHECK(flag == 1, "MPI_Parrived of MPI_REQUEST_NULL gave flag %d", flag);
  flag = 0;
  OK(MPI_Parrived(pr, 1, &flag));
  CHECK(flag == 1, "MPI_Parrived of an inactive partitioned receive gave flag %d", flag);
  flag = 7;
  check_error(MPI_Parrived(pr, 2, &flag), MPI_ERR_ARG, "partition 2");
  CHECK(flag == 7, "a failed MPI_Parrived wrote flag");
  OK(MPI_Start(&pr));
  OK(MPI_Parrived(pr, 1, &flag));
  CHECK(flag == 1, "the partitioned message sent first did not arrive");
  OK(MPI_Wait(&pr, MPI_STATUS_IGNORE));
  OK(MPI_Request_free(&ps));
  OK(MPI_Request_free(&pr));

  /* ---- nonblocking and persistent collectives ---- */
  MPI_Request c = MPI_REQUEST_NULL;
  check_error(MPI_Ibcast(&v, 1, MPI_INT, 1, w, &c), MPI_ERR_ROOT, "root 1");
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Ibcast gave a request");
  check_error(MPI_Bcast_init(&v, 1, MPI_INT, 1, w, MPI_INFO_NULL, &c), MPI_ERR_ROOT, "root 1");
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Bcast_init gave a request");
  MPI_Datatype pair_t;
  OK(MPI_Type_contiguous(2, MPI_INT, &pair_t));
  OK(MPI_Type_commit(&pair_t));
  int a2[2] = {5, 6}, b2[2] = {0, 0};
  check_error(MPI_Allreduce_init(a2, b2, 1, pair_t, MPI_MAX, w, MPI_INFO_NULL, &c), MPI_ERR_OP,
              "predefined operation");  /* on a derived datatype: refused, as MPI_Allreduce does */
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Allreduce_init gave a request");
  OK(MPI_Allgather_init(a2, 1, pair_t, b2, 1, pair_t, w, MPI_INFO_NULL, &c));
  OK(MPI_Type_free(&pair_t));
  check_error(MPI_Start(&c), MPI_ERR_TYPE, "freed");
  CHECK(b2[0] == 0, "a failed start moved data");
  OK(MPI_Request_free(&c));

  /* ---- MPI_Alltoallw and the neighbourhood collectives, nonblocking and persistent (D48) ---- */
  check_error(MPI_Ineighbor_alltoall(a2, 1, MPI_INT, b2, 1, MPI_INT, w, &c), MPI_ERR_TOPOLOGY, "no topology");
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Ineighbor_alltoall gave a request");
  check_error(MPI_Neighbor_allgather_init(a2, 1, MPI_INT, b2, 1, MPI_INT, w, MPI_INFO_NULL, &c), MPI_ERR_TOPOLOGY,
              "no topology");
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Neighbor_allgather_init gave a request");
  MPI_Comm ring;
  int one_dim[1] = {1}, periodic[1] = {1};
  OK(MPI_Cart_create(w, 1, one_dim, periodic, 0, &ring));
  OK(MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN));
  check_error(MPI_Neighbor_alltoall_init(MPI_IN_PLACE, 1, MPI_INT, b2, 1, MPI_INT, ring, MPI_INFO_NULL, &c),
              MPI_ERR_BUFFER, "MPI_IN_PLACE");
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Neighbor_alltoall_init gave a request");
  int wcounts[2] = {1, 1}, wdispls[2] = {0, 0};
  MPI_Datatype uncommitted, wtypes[2] = {MPI_INT, MPI_INT};
  OK(MPI_Type_contiguous(1, MPI_INT, &uncommitted));
  MPI_Datatype bad[1] = {uncommitted};
  check_error(MPI_Alltoallw_init(a2, wcounts, wdispls, wtypes, b2, wcounts, wdispls, bad, w, MPI_INFO_NULL, &c),
              MPI_ERR_TYPE, "recvtypes[0] is not committed");
  CHECK(c == MPI_REQUEST_NULL, "a failed MPI_Alltoallw_init gave a request");
  int vcounts[2] = {1, 1}, vshort[2] = {1, 0}, vdispls[2] = {0, 1};
  OK(MPI_Neighbor_alltoallv_init(a2, vcounts, vdispls, MPI_INT, b2, vshort, vdispls, MPI_INT, ring, MPI_INFO_NULL,
                                 &c));
  check_error(MPI_Start(&c), MPI_ERR_TRUNCATE, "the receive holds 0");
  CHECK(b2[0] == 0 && b2[1] == 0, "a truncated persistent neighbourhood collective moved data");
  OK(MPI_Request_free(&c));
  MPI_Datatype mine;
  OK(MPI_Type_dup(MPI_INT, &mine));
  MPI_Datatype ntypes[2] = {mine, mine};
  MPI_Aint ndispls[2] = {0, sizeof(int)};
  OK(MPI_Neighbor_alltoallw_init(a2, vcounts, ndispls, ntypes, b2, vcounts, ndispls, wtypes, ring, MPI_INFO_NULL,
                                 &c));
  OK(MPI_Type_free(&mine));
  check_error(MPI_Start(&c), MPI_ERR_TYPE, "is not a valid datatype");
  CHECK(b2[0] == 0 && b2[1] == 0, "a failed start moved data");
  OK(MPI_Request_free(&c));
  OK(MPI_Type_free(&uncommitted));
  OK(MPI_Comm_free(&ring));

  OK(MPI_Finalize());
  return failures != 0;
}
