/* tests/c/c_errors.h: the check of a call that must fail: not MPI_SUCCESS, the class expected, and
 * an MPI_Error_string that says `text` (the part of the message that says why). */
#ifndef MPIATTR_TESTS_C_ERRORS_H
#define MPIATTR_TESTS_C_ERRORS_H
#include <mpi.h>
#include <string.h>

#include "c_check.h"

static void check_error(int rc, int want_class, const char *text) {
  int cls = -1, len = 0;
  char msg[MPI_MAX_ERROR_STRING];
  CHECK(rc != MPI_SUCCESS, "succeeded, expected '%s'", text);
  if (rc == MPI_SUCCESS) return;
  OK(MPI_Error_class(rc, &cls));
  CHECK(cls == want_class, "class %d, expected %d ('%s')", cls, want_class, text);
  OK(MPI_Error_string(rc, msg, &len));
  CHECK(strstr(msg, text) != NULL, "message '%s' does not say '%s'", msg, text);
}

#endif
