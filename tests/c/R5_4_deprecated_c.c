/* R5.4, R6.5, R6.7, R2.1, R9: the deprecated MPI-1 routines from plain C: MPI_Keyval_create/free,
 * MPI_Attr_put/get/delete behave exactly like their MPI-2 replacements; MPI_DUP_FN and
 * MPI_NULL_COPY_FN; user MPI_Copy_function/MPI_Delete_function callbacks. */
#include <mpi.h>
#include <stdio.h>

static int copies = 0, deletes = 0;
static void *last_deleted = NULL;
static int failures = 0;
#define CHECK(c, msg) do { if (!(c)) { fprintf(stderr, "FAIL: %s (line %d)\n", msg, __LINE__); ++failures; } } while (0)

static int my_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)old; (void)keyval; (void)extra;
  ++copies;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int my_delete(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)comm; (void)keyval; (void)extra;
  ++deletes;
  last_deleted = val;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  static int key_static = MPI_KEYVAL_INVALID; /* usable for static initialisation (R1.2) */
  int kuser, kdup, knull, a = 1, b = 2, flag = 0;
  void *v = NULL;
  CHECK(MPI_Keyval_create(my_copy, my_delete, &kuser, NULL) == MPI_SUCCESS, "Keyval_create");
  CHECK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdup, NULL) == MPI_SUCCESS, "Keyval_create DUP_FN");
  CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &knull, NULL) == MPI_SUCCESS, "Keyval_create NULL_COPY_FN");
  CHECK(kuser != MPI_KEYVAL_INVALID && kdup != MPI_KEYVAL_INVALID && knull != MPI_KEYVAL_INVALID, "valid keyvals");
  CHECK(key_static == MPI_KEYVAL_INVALID, "static init");

  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  CHECK(MPI_Attr_put(c, kuser, &a) == MPI_SUCCESS, "Attr_put");
  CHECK(MPI_Attr_put(c, kdup, &a) == MPI_SUCCESS, "Attr_put dup");
  CHECK(MPI_Attr_put(c, knull, &a) == MPI_SUCCESS, "Attr_put null");
  CHECK(MPI_Attr_get(c, kuser, &v, &flag) == MPI_SUCCESS && flag == 1 && v == &a, "Attr_get returns the value");
  CHECK(MPI_Attr_put(c, kuser, &b) == MPI_SUCCESS && deletes == 1 && last_deleted == &a, "Attr_put replace runs delete on old value");
  CHECK(MPI_Comm_get_attr(c, kuser, &v, &flag) == MPI_SUCCESS && flag == 1 && v == &b, "Comm_get_attr sees Attr_put");

  MPI_Comm d;
  CHECK(MPI_Comm_dup(c, &d) == MPI_SUCCESS, "dup");
  CHECK(copies == 1, "user MPI_Copy_function ran once");
  CHECK(MPI_Attr_get(d, kuser, &v, &flag) == MPI_SUCCESS && flag == 1 && v == &b, "copied by user callback");
  CHECK(MPI_Attr_get(d, kdup, &v, &flag) == MPI_SUCCESS && flag == 1 && v == &a, "copied by MPI_DUP_FN");
  CHECK(MPI_Attr_get(d, knull, &v, &flag) == MPI_SUCCESS && flag == 0, "not copied by MPI_NULL_COPY_FN");

  CHECK(MPI_Attr_delete(d, kuser) == MPI_SUCCESS && deletes == 2, "Attr_delete runs delete");
  CHECK(MPI_Attr_get(d, kuser, &v, &flag) == MPI_SUCCESS && flag == 0, "deleted");
  CHECK(MPI_Attr_delete(d, kuser) == MPI_SUCCESS && deletes == 2, "delete again: nothing (D7)");

  int bad = MPI_Attr_get(c, MPI_KEYVAL_INVALID, &v, &flag), cls = -1;
  MPI_Error_class(bad, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "Attr_get with MPI_KEYVAL_INVALID fails with MPI_ERR_KEYVAL");

  int *tag_ub = NULL;
  CHECK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag == 1 && *tag_ub >= 32767, "MPI_TAG_UB");

  /* Freed in use: the attribute keeps its callbacks (R2.2). */
  CHECK(MPI_Keyval_free(&kuser) == MPI_SUCCESS && kuser == MPI_KEYVAL_INVALID, "Keyval_free sets MPI_KEYVAL_INVALID");
  MPI_Comm_free(&d);
  CHECK(deletes == 2, "d has no kuser attribute left");
  MPI_Comm_free(&c);
  CHECK(deletes == 3 && last_deleted == &b, "freed keyval's delete callback ran at Comm_free");
  CHECK(MPI_Keyval_free(&kdup) == MPI_SUCCESS && kdup == MPI_KEYVAL_INVALID, "free dup key");
  CHECK(MPI_Comm_free_keyval(&knull) == MPI_SUCCESS && knull == MPI_KEYVAL_INVALID, "MPI-1 key freed with Comm_free_keyval");
  MPI_Finalize();
  return failures ? 1 : 0;
}
