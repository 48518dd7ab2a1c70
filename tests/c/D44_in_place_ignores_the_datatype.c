/* D44: a persistent collective ignores the datatype that MPI_IN_PLACE makes ignored (MPI-4.1 section
 * 7.5), as the blocking and nonblocking forms do (those are compared with MPICH and Open MPI in
 * diff_*_RT_collectives_one_process): MPI_DATATYPE_NULL there is no error, the request starts and
 * completes, and the buffer is kept. mpi4py 4's suite passes MPI_DATATYPE_NULL there and found
 * every nonblocking and persistent form refusing it with MPI_ERR_TYPE (D116). MPICH 4.0.2 takes
 * them all (checked by hand; Open MPI 4.1 has no MPI_*_init collectives). The large-count forms
 * are the same entries. */
#include <mpi.h>

#include "c_check.h"

static int buf[2] = {7, 8};

static void run(const char *what, int rc, MPI_Request *q) {
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  if (rc != MPI_SUCCESS) return;
  OK(MPI_Start(q));
  OK(MPI_Wait(q, MPI_STATUS_IGNORE));
  OK(MPI_Request_free(q));
  CHECK(buf[0] == 7 && buf[1] == 8, "%s: the buffer changed", what);
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info ni = MPI_INFO_NULL;
  MPI_Request q;
  int vc[1] = {2}, vd[1] = {0};
  MPI_Count cc[1] = {2};
  MPI_Aint cd[1] = {0};
  run("MPI_Gather_init", MPI_Gather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, 0, w, ni, &q), &q);
  run("MPI_Gather_init_c", MPI_Gather_init_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, 0, w, ni, &q), &q);
  run("MPI_Gatherv_init",
      MPI_Gatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, vc, vd, MPI_INT, 0, w, ni, &q), &q);
  run("MPI_Gatherv_init_c",
      MPI_Gatherv_init_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, cc, cd, MPI_INT, 0, w, ni, &q), &q);
  run("MPI_Scatter_init", MPI_Scatter_init(buf, 2, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, w, ni, &q), &q);
  run("MPI_Scatterv_init",
      MPI_Scatterv_init(buf, vc, vd, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, w, ni, &q), &q);
  run("MPI_Allgather_init", MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, w, ni, &q), &q);
  run("MPI_Allgatherv_init",
      MPI_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, vc, vd, MPI_INT, w, ni, &q), &q);
  run("MPI_Alltoall_init", MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, w, ni, &q), &q);
  run("MPI_Alltoallv_init",
      MPI_Alltoallv_init(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, vc, vd, MPI_INT, w, ni, &q), &q);
  /* Where the buffer is not MPI_IN_PLACE, the datatype is checked. */
  int rc = MPI_Gather_init(buf, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, 0, w, ni, &q);
  int cls = -1;
  if (rc != MPI_SUCCESS) OK(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_TYPE, "MPI_Gather_init, sendtype MPI_DATATYPE_NULL without MPI_IN_PLACE: class %d", cls);
  OK(MPI_Finalize());
  return failures != 0;
}
