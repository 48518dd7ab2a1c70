/* MPIATTR_REPORT (docs/decisions.md D33): a program of known caching calls, standard MPI only, so
 * that it builds against standalone mpiattr and against MPICH or Open MPI (host mode). Run by
 * report_check.py, which checks the report's counts against those this program makes (the
 * comments give each call's share) and its list of what is alive at finalize against the lines
 * this program writes to <dir>/expect.<rank> (they name handles and addresses only it knows).
 *
 *   report_prog calls|none|group single|multiple <dir>
 *
 * "calls": the calls below; "none": MPI_Init and MPI_Finalize only; "group": attributes set at one
 * place on communicators made at one place, which the report counts on one line (D60). The thread level is the one
 * asked for at MPI_Init_thread. Exit status 0 when every call returned what it should. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "report_prog: line %d: check failed: %s\n", __LINE__, #cond); \
      ++failures;                                                               \
    }                                                                           \
  } while (0)

static int refuse_once = 1;
static int refuse;  /* the value whose first delete is refused */
static int copy_user(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag) {
  (void)old; (void)key; (void)extra;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int delete_user(MPI_Comm comm, int key, void *value, void *extra) {
  (void)comm; (void)key; (void)extra;
  if (value == &refuse && refuse_once) {
    refuse_once = 0;
    return MPI_ERR_OTHER;
  }
  return MPI_SUCCESS;
}
static int copy_fails(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag) {
  (void)old; (void)key; (void)extra; (void)in; (void)out; (void)flag;
  return MPI_ERR_OTHER;
}

/* The line of a call, for the places the report names (D60): `AT(l) CALL;` on one line. */
#define AT(var) var = __LINE__;
#define SRC "report_prog.c"  /* (built with -g: the report names this file and its lines) */

/* A handle as the report prints it: its bits as an unsigned integer (an int in MPICH and
 * mpiattr, a pointer in Open MPI). */
#define HANDLE_BITS(h) handle_bits(&(h), sizeof(h))
static uintmax_t handle_bits(const void *h, size_t size) {
  if (size == sizeof(unsigned)) {
    unsigned u;
    memcpy(&u, h, sizeof u);
    return u;
  }
  uintptr_t p;
  memcpy(&p, h, sizeof p);
  return p;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: report_prog calls|none|group single|multiple <dir>\n");
    return 2;
  }
  const int calls = strcmp(argv[1], "calls") == 0;
  int provided;
  MPI_Init_thread(&argc, &argv, strcmp(argv[2], "multiple") == 0 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE,
                  &provided);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[4096];
  snprintf(path, sizeof path, "%s/expect.%d", argv[3], rank);
  FILE *expect = fopen(path, "w");
  if (expect == NULL) {
    perror(path);
    return 2;
  }
  if (strcmp(argv[1], "group") == 0) {
    /* keyvals created: comm 1, type 1; attributes set: comm 3, type 1; nothing else. */
    static int g[3], t;
    int k, kt, l_k, l_kt, l_dup = 0, l_set = 0, l_t;
    MPI_Comm c[3];
    AT(l_k) CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL) == MPI_SUCCESS);
    AT(l_kt) CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kt, NULL) == MPI_SUCCESS);
    for (int i = 0; i < 3; ++i) {
      AT(l_dup) CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]) == MPI_SUCCESS);
      AT(l_set) CHECK(MPI_Comm_set_attr(c[i], k, &g[i]) == MPI_SUCCESS);
    }
    AT(l_t) CHECK(MPI_Type_set_attr(MPI_INT, kt, &t) == MPI_SUCCESS);
    MPI_Datatype i = MPI_INT;
    fprintf(expect, "alive at finalize: 2 keyvals, 4 attributes\n");
    fprintf(expect, "keyval 0x%x (comm) from MPI_Comm_create_keyval at " SRC ":%d (main): not freed, 3 attributes\n",
            (unsigned)k, l_k);
    fprintf(expect, "keyval 0x%x (type) from MPI_Type_create_keyval at " SRC ":%d (main): not freed, 1 attribute\n",
            (unsigned)kt, l_kt);
    fprintf(expect, "3 attributes of keyval 0x%x (comm) set at " SRC ":%d (main) on communicators from MPI_Comm_dup at " SRC ":%d (main)\n",
            (unsigned)k, l_set, l_dup);
    fprintf(expect, "attribute type 0x%jx keyval 0x%x value 0x%jx set at " SRC ":%d (main) on MPI_INT\n", HANDLE_BITS(i),
            (unsigned)kt, (uintmax_t)(uintptr_t)&t, l_t);
    fclose(expect);
    if (MPI_Finalize() != MPI_SUCCESS) ++failures;
    return failures == 0 ? 0 : 1;
  }
  if (!calls) {
    fclose(expect);
    MPI_Finalize();
    return 0;
  }

  void *v;
  int flag;
  /* The host's (or standalone's) predefined key: not counted. */
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag) == MPI_SUCCESS && flag);

  /* keyvals created: comm 4, type 1, win 1; freed: win 1 here */
  int k_plain, k_user, k_old, k_fail, k_type, k_win;
  int l_plain, l_user, l_old, l_type, l_dup0, l_a2, l_refuse, l_t1, l_x;  /* their lines */
  AT(l_plain) CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k_plain, NULL) == MPI_SUCCESS);
  AT(l_user) CHECK(MPI_Comm_create_keyval(copy_user, delete_user, &k_user, NULL) == MPI_SUCCESS);
  AT(l_old) CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k_old, NULL) == MPI_SUCCESS);
  CHECK(MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &k_fail, NULL) == MPI_SUCCESS);
  AT(l_type) CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k_type, NULL) == MPI_SUCCESS);
  CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k_win, NULL) == MPI_SUCCESS);
  CHECK(MPI_Win_free_keyval(&k_win) == MPI_SUCCESS);

  static int a, a2, b, f, o, w, x;
  MPI_Comm dup0, dup1, bad;
  AT(l_dup0) CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup0) == MPI_SUCCESS);  /* nothing to copy */
  MPI_Comm_set_errhandler(dup0, MPI_ERRORS_RETURN);
  CHECK(MPI_Comm_set_attr(dup0, k_plain, &a) == MPI_SUCCESS);   /* set 1 */
  CHECK(MPI_Comm_set_attr(dup0, k_user, &b) == MPI_SUCCESS);    /* set 2 */
  AT(l_a2) CHECK(MPI_Comm_set_attr(dup0, k_plain, &a2) == MPI_SUCCESS);  /* set 3; deleted 1 (replaced) */
  for (int i = 0; i < 3 + rank; ++i)                            /* read 3 + rank */
    CHECK(MPI_Comm_get_attr(dup0, k_plain, &v, &flag) == MPI_SUCCESS && flag && v == &a2);
  CHECK(MPI_Comm_get_attr(dup0, k_old, &v, &flag) == MPI_SUCCESS && !flag);  /* read 4 + rank */

  /* copied 2 (DUP_FN, copy_user: copy callbacks run 1) */
  CHECK(MPI_Comm_dup(dup0, &dup1) == MPI_SUCCESS);
  CHECK(MPI_Comm_get_attr(dup1, k_user, &v, &flag) == MPI_SUCCESS && flag && v == &b);  /* read 5 + rank */
  CHECK(MPI_Comm_delete_attr(dup1, k_user) == MPI_SUCCESS);  /* deleted 2; delete callbacks run 1 */
  CHECK(MPI_Comm_free(&dup1) == MPI_SUCCESS);                /* deleted 3 (the DUP_FN copy) */

  /* A failing dup: copied 4 (DUP_FN, then copy_user: run 2), copy_fails fails (run 3, failed 1);
   * the two copies are deleted again: deleted 5, delete callbacks run 2. */
  CHECK(MPI_Comm_set_attr(dup0, k_fail, &f) == MPI_SUCCESS);  /* set 4 */
  CHECK(MPI_Comm_dup(dup0, &bad) != MPI_SUCCESS && bad == MPI_COMM_NULL);
  CHECK(MPI_Comm_delete_attr(dup0, k_fail) == MPI_SUCCESS);   /* deleted 6, no callback */

  /* set 5, replacing &b: delete callbacks run 3; deleted 7 */
  AT(l_refuse) CHECK(MPI_Comm_set_attr(dup0, k_user, &refuse) == MPI_SUCCESS);
  /* refused: delete callbacks run 4, failed 1; the attribute stays */
  CHECK(MPI_Comm_delete_attr(dup0, k_user) != MPI_SUCCESS);

  CHECK(MPI_Attr_put(MPI_COMM_SELF, k_old, &o) == MPI_SUCCESS);              /* set 6 */
  CHECK(MPI_Attr_get(MPI_COMM_SELF, k_old, &v, &flag) == MPI_SUCCESS && flag && v == &o);  /* read 6 + rank */
  CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k_user, &w) == MPI_SUCCESS);      /* set 7 */

  const int user_handle = k_user, type_handle = k_type;
  CHECK(MPI_Comm_free_keyval(&k_user) == MPI_SUCCESS);  /* comm freed 1: alive, dup0 and WORLD use it */
  CHECK(MPI_Comm_free_keyval(&k_fail) == MPI_SUCCESS);  /* comm freed 2: gone */

  /* type: set 1, copied 1, read 1, deleted 1, freed 1; t1 keeps its attribute */
  MPI_Datatype t1, t2;
  AT(l_t1) CHECK(MPI_Type_dup(MPI_INT, &t1) == MPI_SUCCESS);
  AT(l_x) CHECK(MPI_Type_set_attr(t1, k_type, &x) == MPI_SUCCESS);
  CHECK(MPI_Type_dup(t1, &t2) == MPI_SUCCESS);
  CHECK(MPI_Type_get_attr(t2, k_type, &v, &flag) == MPI_SUCCESS && flag && v == &x);
  CHECK(MPI_Type_free(&t2) == MPI_SUCCESS);
  CHECK(MPI_Type_free_keyval(&k_type) == MPI_SUCCESS);

  /* At MPI_Finalize: SELF's k_old (deleted 8), WORLD's k_user (deleted 9, delete callbacks run 5).
   * Alive after: dup0's k_plain and k_user, t1's k_type; keyvals k_plain, k_old (not freed),
   * k_user and k_type (freed, still used). */
  /* Each names the program's call (D60): report_prog.c:<line> (main), and the object by the call
   * that made it. */
  fprintf(expect, "alive at finalize: 4 keyvals, 3 attributes\n");
  fprintf(expect, "keyval 0x%x (comm) from MPI_Comm_create_keyval at " SRC ":%d (main): not freed, 1 attribute\n",
          (unsigned)k_plain, l_plain);
  fprintf(expect, "keyval 0x%x (comm) from MPI_Comm_create_keyval at " SRC ":%d (main): freed, 1 attribute\n",
          (unsigned)user_handle, l_user);
  fprintf(expect, "keyval 0x%x (comm) from MPI_Keyval_create at " SRC ":%d (main): not freed, 0 attributes\n",
          (unsigned)k_old, l_old);
  fprintf(expect, "keyval 0x%x (type) from MPI_Type_create_keyval at " SRC ":%d (main): freed, 1 attribute\n",
          (unsigned)type_handle, l_type);
  fprintf(expect, "attribute comm 0x%jx keyval 0x%x value 0x%jx set at " SRC ":%d (main) on communicator from MPI_Comm_dup at " SRC ":%d (main)\n",
          HANDLE_BITS(dup0), (unsigned)k_plain, (uintmax_t)(uintptr_t)&a2, l_a2, l_dup0);
  fprintf(expect, "attribute comm 0x%jx keyval 0x%x value 0x%jx set at " SRC ":%d (main) on communicator from MPI_Comm_dup at " SRC ":%d (main)\n",
          HANDLE_BITS(dup0), (unsigned)user_handle, (uintmax_t)(uintptr_t)&refuse, l_refuse, l_dup0);
  fprintf(expect, "attribute type 0x%jx keyval 0x%x value 0x%jx set at " SRC ":%d (main) on datatype from MPI_Type_dup at " SRC ":%d (main)\n",
          HANDLE_BITS(t1), (unsigned)type_handle, (uintmax_t)(uintptr_t)&x, l_x, l_t1);
  fclose(expect);
  if (MPI_Finalize() != MPI_SUCCESS) ++failures;
  return failures == 0 ? 0 : 1;
}
