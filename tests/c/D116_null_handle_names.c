/* D116: MPI-4.1 names the null handles (sections 7.8, 6.1.14, 13.2.6; mpi-forum issue 544):
 * MPI_Comm_get_name of MPI_COMM_NULL gives "MPI_COMM_NULL", MPI_Type_get_name of MPI_DATATYPE_NULL
 * "MPI_DATATYPE_NULL", MPI_Win_get_name of MPI_WIN_NULL "MPI_WIN_NULL"; mpi4py 4's suite asks it
 * of an MPI-4.1 library. Setting a name on a null handle is still an error, as is getting the name
 * of a freed one. MPICH 4.0.2 and Open MPI 4.1.4 (MPI-4.0 and 3.1) refuse the null handles:
 * not compared. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

static char name[MPI_MAX_OBJECT_NAME];
static int len = -1;
static void named(const char *what, int rc, const char *want) {
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  CHECK(strcmp(name, want) == 0 && len == (int)strlen(want), "%s: '%s' (%d), expected '%s'", what, name, len, want);
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  named("MPI_Comm_get_name(MPI_COMM_NULL)", MPI_Comm_get_name(MPI_COMM_NULL, name, &len), "MPI_COMM_NULL");
  named("MPI_Type_get_name(MPI_DATATYPE_NULL)", MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len),
        "MPI_DATATYPE_NULL");
  named("MPI_Win_get_name(MPI_WIN_NULL)", MPI_Win_get_name(MPI_WIN_NULL, name, &len), "MPI_WIN_NULL");
  named("MPI_Comm_get_name(MPI_COMM_WORLD)", MPI_Comm_get_name(MPI_COMM_WORLD, name, &len), "MPI_COMM_WORLD");
  check_error(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM, "MPI_COMM_NULL");
  check_error(MPI_Type_set_name(MPI_DATATYPE_NULL, "x"), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
  MPI_Comm dup, stale;
  OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  stale = dup;
  OK(MPI_Comm_free(&dup));
  len = -1;
  check_error(MPI_Comm_get_name(stale, name, &len), MPI_ERR_COMM, "");
  CHECK(len == -1, "a failed MPI_Comm_get_name wrote resultlen %d", len);
  OK(MPI_Finalize());
  return failures != 0;
}
