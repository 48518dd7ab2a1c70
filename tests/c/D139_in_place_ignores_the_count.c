/* D139: where MPI_IN_PLACE makes a side's buffer ignored, its count is ignored as well as its
 * datatype (D44, D116; MPI-4.1 sections 7.5-7.8: "sendcount and sendtype are ignored", at the root
 * of MPI_Scatter(v) "recvcount and recvtype are ignored"): MPICH's test suite passes -1 and
 * MPI_DATATYPE_NULL there, which the standalone runtime refused with MPI_ERR_COUNT. Every form:
 * blocking, nonblocking, persistent, large-count. The buffer is kept (nothing moves in place), and a
 * negative count where the buffer is not MPI_IN_PLACE is still MPI_ERR_COUNT. MPICH 4.0.2 gives
 * the same results (checked by hand). */
#include <mpi.h>

#include "c_errors.h"

static int buf[2] = {7, 8};

static void kept(const char *what) { CHECK(buf[0] == 7 && buf[1] == 8, "%s: the buffer changed", what); }

static void blocking(const char *what, int rc) {
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  kept(what);
}

static void nonblocking(const char *what, int rc, MPI_Request *q) {
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  if (rc == MPI_SUCCESS) OK(MPI_Wait(q, MPI_STATUS_IGNORE));
  kept(what);
}

static void persistent(const char *what, int rc, MPI_Request *q) {
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  if (rc != MPI_SUCCESS) return;
  OK(MPI_Start(q));
  OK(MPI_Wait(q, MPI_STATUS_IGNORE));
  OK(MPI_Request_free(q));
  kept(what);
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info ni = MPI_INFO_NULL;
  MPI_Datatype nt = MPI_DATATYPE_NULL;
  MPI_Request q;
  void *ip = MPI_IN_PLACE;
  int vc[1] = {2}, vd[1] = {0};
  MPI_Count cc[1] = {2};
  MPI_Aint cd[1] = {0};

  /* The send side in place: sendcount -1. */
  blocking("MPI_Gather", MPI_Gather(ip, -1, nt, buf, 2, MPI_INT, 0, w));
  blocking("MPI_Gatherv", MPI_Gatherv(ip, -1, nt, buf, vc, vd, MPI_INT, 0, w));
  blocking("MPI_Allgather", MPI_Allgather(ip, -1, nt, buf, 2, MPI_INT, w));
  blocking("MPI_Allgatherv", MPI_Allgatherv(ip, -1, nt, buf, vc, vd, MPI_INT, w));
  blocking("MPI_Alltoall", MPI_Alltoall(ip, -1, nt, buf, 2, MPI_INT, w));
  blocking("MPI_Gather_c", MPI_Gather_c(ip, -1, nt, buf, 2, MPI_INT, 0, w));
  blocking("MPI_Gatherv_c", MPI_Gatherv_c(ip, -1, nt, buf, cc, cd, MPI_INT, 0, w));
  blocking("MPI_Allgather_c", MPI_Allgather_c(ip, -1, nt, buf, 2, MPI_INT, w));
  blocking("MPI_Allgatherv_c", MPI_Allgatherv_c(ip, -1, nt, buf, cc, cd, MPI_INT, w));
  blocking("MPI_Alltoall_c", MPI_Alltoall_c(ip, -1, nt, buf, 2, MPI_INT, w));
  nonblocking("MPI_Igather", MPI_Igather(ip, -1, nt, buf, 2, MPI_INT, 0, w, &q), &q);
  nonblocking("MPI_Igatherv", MPI_Igatherv(ip, -1, nt, buf, vc, vd, MPI_INT, 0, w, &q), &q);
  nonblocking("MPI_Iallgather", MPI_Iallgather(ip, -1, nt, buf, 2, MPI_INT, w, &q), &q);
  nonblocking("MPI_Iallgatherv", MPI_Iallgatherv(ip, -1, nt, buf, vc, vd, MPI_INT, w, &q), &q);
  nonblocking("MPI_Ialltoall", MPI_Ialltoall(ip, -1, nt, buf, 2, MPI_INT, w, &q), &q);
  nonblocking("MPI_Igather_c", MPI_Igather_c(ip, -1, nt, buf, 2, MPI_INT, 0, w, &q), &q);
  nonblocking("MPI_Iallgather_c", MPI_Iallgather_c(ip, -1, nt, buf, 2, MPI_INT, w, &q), &q);
  persistent("MPI_Gather_init", MPI_Gather_init(ip, -1, nt, buf, 2, MPI_INT, 0, w, ni, &q), &q);
  persistent("MPI_Gatherv_init", MPI_Gatherv_init(ip, -1, nt, buf, vc, vd, MPI_INT, 0, w, ni, &q), &q);
  persistent("MPI_Allgather_init", MPI_Allgather_init(ip, -1, nt, buf, 2, MPI_INT, w, ni, &q), &q);
  persistent("MPI_Allgatherv_init", MPI_Allgatherv_init(ip, -1, nt, buf, vc, vd, MPI_INT, w, ni, &q), &q);
  persistent("MPI_Alltoall_init", MPI_Alltoall_init(ip, -1, nt, buf, 2, MPI_INT, w, ni, &q), &q);
  persistent("MPI_Gather_init_c", MPI_Gather_init_c(ip, -1, nt, buf, 2, MPI_INT, 0, w, ni, &q), &q);
  persistent("MPI_Allgatherv_init_c",
             MPI_Allgatherv_init_c(ip, -1, nt, buf, cc, cd, MPI_INT, w, ni, &q), &q);
  /* MPI_Alltoallv and _w: the send arrays are ignored too (NULL). */
  blocking("MPI_Alltoallv", MPI_Alltoallv(ip, NULL, NULL, nt, buf, vc, vd, MPI_INT, w));
  {
    MPI_Datatype rt[1] = {MPI_INT};
    int rd[1] = {0};
    blocking("MPI_Alltoallw", MPI_Alltoallw(ip, NULL, NULL, NULL, buf, vc, rd, rt, w));
  }

  /* The receive side in place, at the root of a scatter: recvcount -1. */
  blocking("MPI_Scatter", MPI_Scatter(buf, 2, MPI_INT, ip, -1, nt, 0, w));
  blocking("MPI_Scatterv", MPI_Scatterv(buf, vc, vd, MPI_INT, ip, -1, nt, 0, w));
  blocking("MPI_Scatter_c", MPI_Scatter_c(buf, 2, MPI_INT, ip, -1, nt, 0, w));
  nonblocking("MPI_Iscatter", MPI_Iscatter(buf, 2, MPI_INT, ip, -1, nt, 0, w, &q), &q);
  nonblocking("MPI_Iscatterv", MPI_Iscatterv(buf, vc, vd, MPI_INT, ip, -1, nt, 0, w, &q), &q);
  persistent("MPI_Scatter_init", MPI_Scatter_init(buf, 2, MPI_INT, ip, -1, nt, 0, w, ni, &q), &q);
  persistent("MPI_Scatterv_init", MPI_Scatterv_init(buf, vc, vd, MPI_INT, ip, -1, nt, 0, w, ni, &q), &q);
  persistent("MPI_Scatterv_init_c",
             MPI_Scatterv_init_c(buf, cc, cd, MPI_INT, ip, -1, nt, 0, w, ni, &q), &q);

  /* The side that is not in place is still checked. */
  check_error(MPI_Gather(ip, 0, nt, buf, -1, MPI_INT, 0, w), MPI_ERR_COUNT, "negative");
  check_error(MPI_Scatter(buf, -1, MPI_INT, ip, 0, nt, 0, w), MPI_ERR_COUNT, "negative");
  check_error(MPI_Gather(buf, -1, MPI_INT, buf, 2, MPI_INT, 0, w), MPI_ERR_COUNT, "negative");
  check_error(MPI_Gather_init(buf, -1, MPI_INT, buf, 2, MPI_INT, 0, w, ni, &q), MPI_ERR_COUNT, "negative");
  check_error(MPI_Allgather_init(ip, 0, nt, buf, -1, MPI_INT, w, ni, &q), MPI_ERR_COUNT, "negative");
  check_error(MPI_Scatter_init(buf, -1, MPI_INT, ip, 0, nt, 0, w, ni, &q), MPI_ERR_COUNT, "negative");
  kept("the refused calls");

  OK(MPI_Finalize());
  return failures != 0;
}
