/* tests/c/c_refusal.h: the check of a routine the standalone runtime refuses (D36, D39): its code's
 * class is MPI_ERR_UNSUPPORTED_OPERATION and its string names the routine and says why. */
#ifndef MPIATTR_TESTS_C_REFUSAL_H
#define MPIATTR_TESTS_C_REFUSAL_H
#include <mpi.h>
#include <string.h>

#include "c_check.h"

static void check_refusal(int rc, const char *routine, const char *why) {
  int cls = -1, len = 0;
  char msg[MPI_MAX_ERROR_STRING];
  CHECK(rc != MPI_SUCCESS, "%s succeeded", routine);
  OK(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "%s: class %d, not MPI_ERR_UNSUPPORTED_OPERATION", routine, cls);
  OK(MPI_Error_string(rc, msg, &len));
  CHECK(strstr(msg, routine) != NULL, "%s: message '%s' does not name it", routine, msg);
  CHECK(strstr(msg, why) != NULL, "%s: message '%s' does not say '%s'", routine, msg, why);
  CHECK((int)strlen(msg) == len, "%s: resultlen %d for a message of %zu characters", routine, len, strlen(msg));
}

#endif
