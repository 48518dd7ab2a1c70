/* D116: MPI_Request_get_status and MPI_Request_get_status_any on null (or inactive) requests give
 * flag = true and an empty status (MPI-4.1 sections 4.7.6, 3.7.3), whose error field is
 * MPI_SUCCESS: these inquiries write it, as MPICH 4.0.2's MPI_Request_get_status does and as
 * mpi4py 4's suite expects of MPI_Request_get_status_any. The completion calls (MPI_Wait, MPI_Test,
 * MPI_Waitany, MPI_Testany) on null requests leave the field as it was, as both hosts do. Open MPI
 * 4.1.4 leaves it alone in MPI_Request_get_status too: not compared (over Open MPI the routine is
 * the host's). */
#include <mpi.h>

#include "c_check.h"

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Status st;
  int flag = 0, index = 0;
  MPI_Request nulls[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  st.MPI_ERROR = MPI_ERR_OTHER;
  OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
  CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG && st.MPI_ERROR == MPI_SUCCESS,
        "MPI_Request_get_status(MPI_REQUEST_NULL): flag %d source %d tag %d error %d", flag, st.MPI_SOURCE,
        st.MPI_TAG, st.MPI_ERROR);
  st.MPI_ERROR = MPI_ERR_OTHER;
  OK(MPI_Request_get_status_any(3, nulls, &index, &flag, &st));
  CHECK(flag && index == MPI_UNDEFINED && st.MPI_ERROR == MPI_SUCCESS,
        "MPI_Request_get_status_any of null requests: flag %d index %d error %d", flag, index, st.MPI_ERROR);
  /* An inactive persistent request is an empty status too. */
  MPI_Request rq;
  int buf = 0;
  OK(MPI_Recv_init(&buf, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &rq));
  st.MPI_ERROR = MPI_ERR_OTHER;
  OK(MPI_Request_get_status(rq, &flag, &st));
  CHECK(flag && st.MPI_ERROR == MPI_SUCCESS, "an inactive request: flag %d error %d", flag, st.MPI_ERROR);
  OK(MPI_Request_free(&rq));
  /* The completion calls leave it. */
  st.MPI_ERROR = MPI_ERR_OTHER;
  OK(MPI_Wait(&nulls[0], &st));
  CHECK(st.MPI_ERROR == MPI_ERR_OTHER, "MPI_Wait(MPI_REQUEST_NULL) wrote the error field: %d", st.MPI_ERROR);
  OK(MPI_Testany(3, nulls, &index, &flag, &st));
  CHECK(st.MPI_ERROR == MPI_ERR_OTHER, "MPI_Testany of null requests wrote the error field: %d", st.MPI_ERROR);
  OK(MPI_Finalize());
  return failures != 0;
}
