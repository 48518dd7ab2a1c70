/* R10.5, D4, D14: a caching call after MPI_Finalize is fatal (the initial handler,
 * MPI_ERRORS_ARE_FATAL, applies even though MPI_ERRORS_RETURN was set on MPI_COMM_SELF): the
 * process exits with status 1 and a message on stderr mentioning the routine and "finalized".
 * Each call is made in a forked child; the parent checks status and message. MPI_Finalized and
 * MPI_Error_class still work after finalize (D14). */
#include "fatal_child.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void call(int which) {
  int k = 0, x = 0;
  void *v;
  switch (which) {
    case 0: MPI_Comm_create_keyval(NULL, NULL, &k, NULL); break;
    case 1: MPI_Comm_set_attr(MPI_COMM_SELF, MPI_TAG_UB, &x); break;
    case 2: MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &x); break;
    case 3: MPI_Type_create_keyval(NULL, NULL, &k, NULL); break;
    case 4: k = 12345; MPI_Keyval_free(&k); break;
  }
}

int main(int argc, char **argv) {
  const char *routines[] = {"MPI_Comm_create_keyval", "MPI_Comm_set_attr", "MPI_Comm_get_attr",
                            "MPI_Type_create_keyval", "MPI_Keyval_free"};
  int failures = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Finalize();
  int fin = 0, cls = -1;
  if (MPI_Finalized(&fin) != MPI_SUCCESS || fin != 1) { fprintf(stderr, "FAIL: MPI_Finalized\n"); ++failures; }
  if (MPI_Error_class(MPI_ERR_KEYVAL, &cls) != MPI_SUCCESS || cls != MPI_ERR_KEYVAL) { fprintf(stderr, "FAIL: MPI_Error_class after finalize\n"); ++failures; }
  for (int i = 0; i < 5; ++i) {
    char msg[4096];
    int st = run_child(call, i, msg, sizeof msg);
    if (st != 1) { fprintf(stderr, "FAIL: %s after finalize: exit status %d, expected 1\n", routines[i], st); ++failures; }
    if (!strstr(msg, "finalized")) { fprintf(stderr, "FAIL: %s: message does not mention finalized: '%s'\n", routines[i], msg); ++failures; }
    if (!strstr(msg, routines[i])) { fprintf(stderr, "FAIL: message does not name %s: '%s'\n", routines[i], msg); ++failures; }
  }
  return failures ? 1 : 0;
}
