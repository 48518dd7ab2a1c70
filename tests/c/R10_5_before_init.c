/* R10.5, D4, D14: a caching call before MPI_Init is fatal through the initial handler: exit
 * status 1 and a message on stderr naming the routine and saying MPI is not initialized. Each
 * call is made in a forked child. MPI_Initialized and MPI_Error_class work before init (D14), and
 * MPI_Init still works afterwards in the parent. */
#include "fatal_child.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void call(int which) {
  int k = 0, x = 0;
  void *v;
  switch (which) {
    case 0: MPI_Comm_create_keyval(NULL, NULL, &k, NULL); break;
    case 1: MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &x); break;
    case 2: MPI_Attr_put(MPI_COMM_SELF, 12345, &x); break;
    case 3: MPI_Win_create_keyval(NULL, NULL, &k, NULL); break;
  }
}

int main(int argc, char **argv) {
  const char *routines[] = {"MPI_Comm_create_keyval", "MPI_Comm_get_attr", "MPI_Attr_put", "MPI_Win_create_keyval"};
  int failures = 0, init = 1, cls = -1;
  if (MPI_Initialized(&init) != MPI_SUCCESS || init != 0) { fprintf(stderr, "FAIL: MPI_Initialized before init\n"); ++failures; }
  if (MPI_Error_class(MPI_ERR_KEYVAL, &cls) != MPI_SUCCESS || cls != MPI_ERR_KEYVAL) { fprintf(stderr, "FAIL: MPI_Error_class before init\n"); ++failures; }
  for (int i = 0; i < 4; ++i) {
    char msg[4096];
    int st = run_child(call, i, msg, sizeof msg);
    if (st != 1) { fprintf(stderr, "FAIL: %s before init: exit status %d, expected 1\n", routines[i], st); ++failures; }
    if (!strstr(msg, "not initialized")) { fprintf(stderr, "FAIL: %s: message does not say not initialized: '%s'\n", routines[i], msg); ++failures; }
    if (!strstr(msg, routines[i])) { fprintf(stderr, "FAIL: message does not name %s: '%s'\n", routines[i], msg); ++failures; }
  }
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) { fprintf(stderr, "FAIL: MPI_Init\n"); ++failures; }
  int k;
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (MPI_Comm_create_keyval(NULL, NULL, &k, NULL) != MPI_SUCCESS) { fprintf(stderr, "FAIL: keyval after init\n"); ++failures; }
  MPI_Finalize();
  return failures ? 1 : 0;
}
