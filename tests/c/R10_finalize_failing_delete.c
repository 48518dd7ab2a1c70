/* D8 (MPI_Finalize row): a failing MPI_COMM_SELF delete callback makes MPI_Finalize fail like a failed
 * MPI_Comm_free(MPI_COMM_SELF): MPI stays initialised and usable, the failed attribute stays, the
 * ones deleted before it are gone; a second MPI_Finalize then succeeds. */
#include <mpi.h>
#include <stdio.h>

static int fail_now = 1;
static int deletes[3];
static int del(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)comm; (void)keyval; (void)val;
  int i = (int)(MPI_Aint)extra;
  if (i == 1 && fail_now) return MPI_ERR_OTHER;
  ++deletes[i];
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  int failures = 0, keys[3], vals[3];
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  for (int i = 0; i < 3; ++i) {
    MPI_Comm_create_keyval(NULL, del, &keys[i], (void *)(MPI_Aint)i);
    MPI_Comm_set_attr(MPI_COMM_SELF, keys[i], &vals[i]);
  }
  int rc = MPI_Finalize(); /* newest first: 2 is deleted, 1 fails, 0 is not reached */
  int cls = -1;
  MPI_Error_class(rc, &cls);
  if (cls != MPI_ERR_OTHER) { fprintf(stderr, "FAIL: MPI_Finalize returned class %d, expected MPI_ERR_OTHER\n", cls); ++failures; }
  int fin = 1, init = 0;
  MPI_Finalized(&fin);
  MPI_Initialized(&init);
  if (fin != 0 || init != 1) { fprintf(stderr, "FAIL: after a failed finalize: finalized=%d initialized=%d\n", fin, init); ++failures; }
  void *v;
  int flag = -1;
  rc = MPI_Comm_get_attr(MPI_COMM_SELF, keys[1], &v, &flag);
  if (rc != MPI_SUCCESS || flag != 1 || v != &vals[1]) { fprintf(stderr, "FAIL: the failed attribute is not kept (rc %d flag %d)\n", rc, flag); ++failures; }
  rc = MPI_Comm_get_attr(MPI_COMM_SELF, keys[0], &v, &flag);
  if (rc != MPI_SUCCESS || flag != 1) { fprintf(stderr, "FAIL: the not-yet-deleted attribute is gone\n"); ++failures; }
  rc = MPI_Comm_get_attr(MPI_COMM_SELF, keys[2], &v, &flag);
  if (rc != MPI_SUCCESS || flag != 0) { fprintf(stderr, "FAIL: the attribute deleted before the failure is still there\n"); ++failures; }
  MPI_Comm d;
  if (MPI_Comm_dup(MPI_COMM_WORLD, &d) != MPI_SUCCESS || MPI_Comm_free(&d) != MPI_SUCCESS) { fprintf(stderr, "FAIL: MPI not usable\n"); ++failures; }
  if (MPI_Comm_set_attr(MPI_COMM_SELF, keys[2], &vals[2]) != MPI_SUCCESS) { fprintf(stderr, "FAIL: SELF not usable after failed finalize\n"); ++failures; }
  fail_now = 0;
  rc = MPI_Finalize();
  if (rc != MPI_SUCCESS) { fprintf(stderr, "FAIL: second MPI_Finalize returned %d\n", rc); ++failures; }
  if (deletes[0] != 1 || deletes[1] != 1 || deletes[2] != 2) {
    fprintf(stderr, "FAIL: delete counts %d %d %d, expected 1 1 2\n", deletes[0], deletes[1], deletes[2]);
    ++failures;
  }
  MPI_Finalized(&fin);
  if (fin != 1) { fprintf(stderr, "FAIL: not finalized at the end\n"); ++failures; }
  return failures ? 1 : 0;
}
