/* D148: the standalone runtime's collectives check what they would write through or read from
 * before they move anything (found by an audit of error classes against both hosts, 2026-12-02):
 *   - MPI_IN_PLACE as a buffer the call writes (a reduction's, a gather's recvbuf) or as a
 *     scatter's sendbuf: MPI_ERR_BUFFER (it crashed: a copy into address 0x1);
 *   - NULL counts or displacements of a vector collective: MPI_ERR_ARG naming the array (it
 *     crashed reading them), in the blocking, nonblocking and persistent forms;
 *   - a derived datatype not committed: MPI_ERR_TYPE, as point-to-point says (it was taken);
 *   - the same buffer to send and to receive, in a collective or MPI_Sendrecv: MPI_ERR_BUFFER, as
 *     MPICH says (it was taken);
 * each on the communicator's handler, with the receive buffer unchanged and no user function run.
 * The cases both hosts answer alike are also in tests/diff/c/RT_collectives_one_process.c.
 * Exit status 0: passed. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

static int handled, user_calls;
static void count_handler(MPI_Comm *c, int *code, ...) {
  (void)c, (void)code;
  handled++;
}
static void my_sum(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)in, (void)inout, (void)len, (void)t;
  user_calls++;
}

static int r[8];
static void clear(void) {
  for (int i = 0; i < 8; ++i) r[i] = -1;
}
static int untouched(void) {
  for (int i = 0; i < 8; ++i)
    if (r[i] != -1) return 0;
  return 1;
}
/* A call that must fail with `cls` saying `text`, on the communicator's handler, writing nothing. */
static void refused(const char *what, int rc, int cls, const char *text) {
  check_error(rc, cls, text);
  CHECK(untouched(), "%s wrote into the receive buffer", what);
  clear();
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(count_handler, &eh));
  OK(MPI_Comm_set_errhandler(w, eh));
  int s[4] = {1, 2, 3, 4}, one[1] = {1}, zero[1] = {0};
  MPI_Request q = MPI_REQUEST_NULL;
  MPI_Op op;
  OK(MPI_Op_create(my_sum, 1, &op));
  clear();

  /* ---- MPI_IN_PLACE where the call writes ---- */
  const char *inplace = "recvbuf is MPI_IN_PLACE";
  refused("allreduce", MPI_Allreduce(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, inplace);
  refused("reduce", MPI_Reduce(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_BUFFER, inplace);
  refused("reduce, both", MPI_Reduce(MPI_IN_PLACE, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_BUFFER,
          inplace);
  refused("scan", MPI_Scan(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, inplace);
  refused("exscan", MPI_Exscan(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, inplace);
  refused("reduce_scatter_block", MPI_Reduce_scatter_block(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w),
          MPI_ERR_BUFFER, inplace);
  refused("reduce_scatter", MPI_Reduce_scatter(s, MPI_IN_PLACE, one, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER,
          inplace);
  refused("gather", MPI_Gather(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, w), MPI_ERR_BUFFER, inplace);
  refused("gather, both", MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, w), MPI_ERR_BUFFER,
          inplace);
  refused("gatherv", MPI_Gatherv(s, 1, MPI_INT, MPI_IN_PLACE, one, zero, MPI_INT, 0, w), MPI_ERR_BUFFER, inplace);
  refused("allgather", MPI_Allgather(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, w), MPI_ERR_BUFFER, inplace);
  refused("alltoall", MPI_Alltoall(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, w), MPI_ERR_BUFFER, inplace);
  refused("alltoallv", MPI_Alltoallv(s, one, zero, MPI_INT, MPI_IN_PLACE, one, zero, MPI_INT, w), MPI_ERR_BUFFER,
          inplace);
  refused("iallreduce", MPI_Iallreduce(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w, &q), MPI_ERR_BUFFER, inplace);
  CHECK(q == MPI_REQUEST_NULL, "a refused MPI_Iallreduce gave a request");
  refused("allreduce_init", MPI_Allreduce_init(s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q),
          MPI_ERR_BUFFER, inplace);
  CHECK(q == MPI_REQUEST_NULL, "a refused MPI_Allreduce_init gave a request");
  refused("scatter", MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, r, 1, MPI_INT, 0, w), MPI_ERR_BUFFER,
          "sendbuf is MPI_IN_PLACE");
  /* (MPI_IN_PLACE as the root's recvbuf of a scatter is allowed: the root keeps its block.) */
  OK(MPI_Scatter(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, w));
  OK(MPI_Allreduce(MPI_IN_PLACE, r, 1, MPI_INT, MPI_SUM, w));
  CHECK(r[0] == -1, "MPI_IN_PLACE as sendbuf changed the buffer: %d", r[0]);

  /* ---- the same buffer to send and to receive (MPI-4.1 §2.3; MPICH says MPI_ERR_BUFFER too) ---- */
  const char *aliased = "sendbuf and recvbuf are the same buffer";
  int a[4] = {1, 2, 3, 4};
  refused("allreduce, aliased", MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, aliased);
  refused("reduce, aliased", MPI_Reduce(a, a, 1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_BUFFER, aliased);
  refused("scan, aliased", MPI_Scan(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, aliased);
  refused("reduce_scatter_block, aliased", MPI_Reduce_scatter_block(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER,
          aliased);
  refused("gather, aliased", MPI_Gather(a, 1, MPI_INT, a, 1, MPI_INT, 0, w), MPI_ERR_BUFFER, aliased);
  refused("gatherv, aliased", MPI_Gatherv(a, 1, MPI_INT, a, one, zero, MPI_INT, 0, w), MPI_ERR_BUFFER, aliased);
  int at2[1] = {2};  /* the process's own block of recvbuf, passed as sendbuf: aliased too (MPICH says so) */
  refused("gatherv, own block", MPI_Gatherv(a + 2, 1, MPI_INT, a, one, at2, MPI_INT, 0, w), MPI_ERR_BUFFER, aliased);
  /* D152: a persistent form refuses what its blocking form refuses (its _init runs the blocking
   * routine's own checks); these four were taken before, and failed only at MPI_Start. */
  refused("gatherv_init, own block",
          MPI_Gatherv_init(a + 2, 1, MPI_INT, a, one, at2, MPI_INT, 0, w, MPI_INFO_NULL, &q), MPI_ERR_BUFFER,
          aliased);
  refused("allgatherv_init, own block",
          MPI_Allgatherv_init(a + 2, 1, MPI_INT, a, one, at2, MPI_INT, w, MPI_INFO_NULL, &q), MPI_ERR_BUFFER,
          aliased);
  refused("scatter_init, aliased", MPI_Scatter_init(a, 1, MPI_INT, a, 1, MPI_INT, 0, w, MPI_INFO_NULL, &q),
          MPI_ERR_BUFFER, aliased);
  refused("scatterv_init, aliased",
          MPI_Scatterv_init(a, one, zero, MPI_INT, a, 1, MPI_INT, 0, w, MPI_INFO_NULL, &q), MPI_ERR_BUFFER,
          aliased);
  refused("scatter, aliased", MPI_Scatter(a, 1, MPI_INT, a, 1, MPI_INT, 0, w), MPI_ERR_BUFFER, aliased);
  refused("allgather, aliased", MPI_Allgather(a, 1, MPI_INT, a, 1, MPI_INT, w), MPI_ERR_BUFFER, aliased);
  refused("alltoallv, aliased", MPI_Alltoallv(a, one, zero, MPI_INT, a, one, zero, MPI_INT, w), MPI_ERR_BUFFER,
          aliased);
  refused("allreduce_init, aliased", MPI_Allreduce_init(a, a, 1, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q),
          MPI_ERR_BUFFER, aliased);
  refused("sendrecv, aliased",
          MPI_Sendrecv(a, 1, MPI_INT, 0, 5, a, 1, MPI_INT, 0, 5, w, MPI_STATUS_IGNORE), MPI_ERR_BUFFER, aliased);
  CHECK(a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4, "a refused aliased call changed the buffer");
  CHECK(q == MPI_REQUEST_NULL, "a refused call gave a request");
  int flag = 1;
  OK(MPI_Iprobe(0, 5, w, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag, "the refused MPI_Sendrecv sent its message");
  /* A count of 0 moves nothing: the same address is then no error (as on MPICH). */
  OK(MPI_Allreduce(a, a, 0, MPI_INT, MPI_SUM, w));
  OK(MPI_Sendrecv_replace(a, 1, MPI_INT, 0, 6, 0, 6, w, MPI_STATUS_IGNORE));

  /* ---- NULL counts or displacements ---- */
  refused("gatherv, displs", MPI_Gatherv(s, 1, MPI_INT, r, one, NULL, MPI_INT, 0, w), MPI_ERR_ARG,
          "displs is NULL");
  refused("gatherv, recvcounts", MPI_Gatherv(s, 1, MPI_INT, r, NULL, zero, MPI_INT, 0, w), MPI_ERR_ARG,
          "recvcounts is NULL");
  refused("scatterv, displs", MPI_Scatterv(s, one, NULL, MPI_INT, r, 1, MPI_INT, 0, w), MPI_ERR_ARG,
          "displs is NULL");
  refused("scatterv, sendcounts", MPI_Scatterv(s, NULL, zero, MPI_INT, r, 1, MPI_INT, 0, w), MPI_ERR_ARG,
          "sendcounts is NULL");
  refused("allgatherv", MPI_Allgatherv(s, 1, MPI_INT, r, one, NULL, MPI_INT, w), MPI_ERR_ARG, "displs is NULL");
  refused("alltoallv, sdispls", MPI_Alltoallv(s, one, NULL, MPI_INT, r, one, zero, MPI_INT, w), MPI_ERR_ARG,
          "sdispls is NULL");
  refused("alltoallv, recvcounts", MPI_Alltoallv(s, one, zero, MPI_INT, r, NULL, zero, MPI_INT, w), MPI_ERR_ARG,
          "recvcounts is NULL");
  refused("reduce_scatter", MPI_Reduce_scatter(s, r, NULL, MPI_INT, MPI_SUM, w), MPI_ERR_ARG,
          "recvcounts is NULL");
  refused("igatherv", MPI_Igatherv(s, 1, MPI_INT, r, NULL, zero, MPI_INT, 0, w, &q), MPI_ERR_ARG,
          "recvcounts is NULL");
  refused("gatherv_init", MPI_Gatherv_init(s, 1, MPI_INT, r, NULL, zero, MPI_INT, 0, w, MPI_INFO_NULL, &q),
          MPI_ERR_ARG, "recvcounts is NULL");
  refused("scatterv_init", MPI_Scatterv_init(s, NULL, zero, MPI_INT, r, 1, MPI_INT, 0, w, MPI_INFO_NULL, &q),
          MPI_ERR_ARG, "sendcounts is NULL");
  refused("allgatherv_init", MPI_Allgatherv_init(s, 1, MPI_INT, r, one, NULL, MPI_INT, w, MPI_INFO_NULL, &q),
          MPI_ERR_ARG, "displs is NULL");
  refused("alltoallv_init",
          MPI_Alltoallv_init(s, one, zero, MPI_INT, r, one, NULL, MPI_INT, w, MPI_INFO_NULL, &q), MPI_ERR_ARG,
          "rdispls is NULL");
  refused("reduce_scatter_init", MPI_Reduce_scatter_init(s, r, NULL, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q),
          MPI_ERR_ARG, "recvcounts is NULL");
  CHECK(q == MPI_REQUEST_NULL, "a refused call gave a request");
  /* With MPI_IN_PLACE at the root, MPI_Alltoallv's send arrays are ignored. */
  OK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, r, one, zero, MPI_INT, w));

  /* ---- a derived datatype not committed ---- */
  MPI_Datatype two;
  OK(MPI_Type_contiguous(2, MPI_INT, &two));
  const char *uncommitted = "not committed";
  refused("bcast", MPI_Bcast(r, 1, two, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("bcast, count 0", MPI_Bcast(r, 0, two, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("gather, send", MPI_Gather(s, 1, two, r, 2, MPI_INT, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("gather, receive", MPI_Gather(s, 2, MPI_INT, r, 1, two, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("scatter", MPI_Scatter(s, 1, two, r, 2, MPI_INT, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("allgather", MPI_Allgather(s, 1, two, r, 1, two, w), MPI_ERR_TYPE, uncommitted);
  refused("alltoall", MPI_Alltoall(s, 1, two, r, 1, two, w), MPI_ERR_TYPE, uncommitted);
  refused("gatherv", MPI_Gatherv(s, 2, MPI_INT, r, one, zero, two, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("allreduce, user op", MPI_Allreduce(s, r, 1, two, op, w), MPI_ERR_TYPE, uncommitted);
  refused("reduce, user op", MPI_Reduce(s, r, 1, two, op, 0, w), MPI_ERR_TYPE, uncommitted);
  refused("allreduce_init, user op", MPI_Allreduce_init(s, r, 1, two, op, w, MPI_INFO_NULL, &q), MPI_ERR_TYPE,
          uncommitted);
  refused("ibcast", MPI_Ibcast(r, 1, two, 0, w, &q), MPI_ERR_TYPE, uncommitted);
  CHECK(q == MPI_REQUEST_NULL, "a refused call gave a request");
  /* A predefined operation on a derived datatype is the operation's error first, as on both hosts. */
  refused("reduce, MPI_SUM", MPI_Reduce(s, r, 1, two, MPI_SUM, 0, w), MPI_ERR_OP, "predefined datatypes only");
  CHECK(user_calls == 0, "the user function ran %d times", user_calls);
  /* Committed, the same calls move the data. */
  OK(MPI_Type_commit(&two));
  OK(MPI_Allgather(s, 1, two, r, 1, two, w));
  CHECK(r[0] == 1 && r[1] == 2 && r[2] == -1, "allgather of a committed pair: %d %d %d", r[0], r[1], r[2]);
  clear();

  CHECK(handled == 59, "the communicator's handler ran %d times, expected 59 (one per refused call)", handled);
  OK(MPI_Type_free(&two));
  OK(MPI_Op_free(&op));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Finalize());
  return failures != 0;
}
