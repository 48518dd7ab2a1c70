/* demo.c: a library caches per-communicator state with MPI's attribute caching.
 *
 * The "library" keeps a counter on each communicator it is used with. The state follows the
 * communicator: MPI_Comm_dup gives the copy its own counter (the copy callback), MPI_Comm_free
 * releases it (the delete callback), and MPI_Finalize releases the one on MPI_COMM_SELF. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int lib_key = MPI_KEYVAL_INVALID;

struct lib_state { int calls; };

static int copy_state(MPI_Comm oldcomm, int key, void *extra, void *in, void *out, int *flag) {
  (void)oldcomm; (void)key; (void)extra;
  struct lib_state *copy = malloc(sizeof *copy);
  copy->calls = ((struct lib_state *)in)->calls;
  *(void **)out = copy;
  *flag = 1;
  printf("  copy callback: duplicated state with %d calls\n", copy->calls);
  return MPI_SUCCESS;
}

static int delete_state(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm; (void)key; (void)extra;
  printf("  delete callback: releasing state with %d calls\n", ((struct lib_state *)val)->calls);
  free(val);
  return MPI_SUCCESS;
}

/* The library's entry point: finds (or creates) its state on the communicator. */
static void lib_call(MPI_Comm comm) {
  struct lib_state *s;
  int found;
  if (lib_key == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(copy_state, delete_state, &lib_key, NULL);
  MPI_Comm_get_attr(comm, lib_key, &s, &found);
  if (!found) {
    s = calloc(1, sizeof *s);
    MPI_Comm_set_attr(comm, lib_key, s);
  }
  s->calls++;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int *tag_ub, found;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
  printf("MPI_TAG_UB on MPI_COMM_WORLD: %d\n", *tag_ub);

  MPI_Comm dup;
  lib_call(MPI_COMM_WORLD);
  lib_call(MPI_COMM_WORLD);
  printf("MPI_Comm_dup(MPI_COMM_WORLD):\n");
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  lib_call(dup);
  struct lib_state *s;
  MPI_Comm_get_attr(dup, lib_key, &s, &found);
  printf("the duplicate's state: %d calls\n", s->calls);

  printf("MPI_Comm_free(dup):\n");
  MPI_Comm_free(&dup);

  /* An invalid keyval is an error with a clear message, reported through the error handler. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL), len;
  char msg[MPI_MAX_ERROR_STRING];
  MPI_Error_string(rc, msg, &len);
  printf("set_attr with MPI_KEYVAL_INVALID: %s\n", msg);

  lib_call(MPI_COMM_SELF);
  printf("MPI_Finalize:\n");
  MPI_Finalize();
  return 0;
}
