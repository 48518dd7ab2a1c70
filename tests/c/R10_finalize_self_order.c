/* R10.1, R10.3, D10, D18: at MPI_Finalize the delete callbacks of MPI_COMM_SELF's attributes run
 * first, newest first (a replaced value counts as newest), with MPI_Finalized still false and MPI
 * usable; no callback for keys without an attribute; then (D18) MPI_COMM_WORLD's, newest first;
 * attributes on other communicators and datatypes get no delete callback at finalize. Verified after MPI_Finalize returns and again in an atexit
 * handler; the exit status is the verdict. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXLOG 16
static int order[MAXLOG];
static int nlog = 0;
static int finalized_inside = -1;
static int usable_inside = 1;
static int other_deleted = 0;
static int failures = 0;
static int keys[4], unset_key, other_key, type_key, world_keys[2];

#define CHECK(cond, ...)                        \
  do {                                          \
    if (!(cond)) {                              \
      fprintf(stderr, "FAIL: " __VA_ARGS__);    \
      fprintf(stderr, "\n");                    \
      ++failures;                               \
    }                                           \
  } while (0)

static int self_delete(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)val;
  if (nlog < MAXLOG) order[nlog++] = (int)(MPI_Aint)extra;
  int flag = 1;
  MPI_Finalized(&flag);
  if (finalized_inside != 1) finalized_inside = flag;
  /* MPI is still fully usable: caching calls work, on SELF too. */
  void *v;
  int found = 0;
  /* (key 2 was freed by the user: it is no longer a key for get_attr, D6) */
  if ((int)(MPI_Aint)extra != 2 && (MPI_Comm_get_attr(comm, keyval, &v, &found) != MPI_SUCCESS || !found))
    usable_inside = 0;
  MPI_Comm d;
  if (MPI_Comm_dup(MPI_COMM_WORLD, &d) != MPI_SUCCESS || MPI_Comm_free(&d) != MPI_SUCCESS) usable_inside = 0;
  return MPI_SUCCESS;
}

static int unset_delete(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)comm; (void)keyval; (void)val; (void)extra;
  if (nlog < MAXLOG) order[nlog++] = 99;
  return MPI_SUCCESS;
}

static int other_delete(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)comm; (void)keyval; (void)val; (void)extra;
  ++other_deleted;
  return MPI_SUCCESS;
}
static int world_delete(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)keyval; (void)val;
  if (comm != MPI_COMM_WORLD) ++other_deleted;
  else if (nlog < MAXLOG) order[nlog++] = 100 + (int)(MPI_Aint)extra;
  int flag = 1;
  MPI_Finalized(&flag);
  if (flag) finalized_inside = 1;
  return MPI_SUCCESS;
}
static int other_type_delete(MPI_Datatype t, int keyval, void *val, void *extra) {
  (void)t; (void)keyval; (void)val; (void)extra;
  ++other_deleted;
  return MPI_SUCCESS;
}

static int expected[6];

static void verify(const char *when) {
  CHECK(nlog == 6, "%s: %d delete callbacks ran at finalize, expected 4 on SELF then 2 on WORLD", when, nlog);
  for (int i = 0; i < nlog && i < 6; ++i)
    CHECK(order[i] == expected[i], "%s: delete #%d was for key %d, expected %d (newest first)", when, i,
          order[i], expected[i]);
  CHECK(finalized_inside == 0, "%s: MPI_Finalized was %d inside a MPI_COMM_SELF delete callback", when,
        finalized_inside);
  CHECK(usable_inside, "%s: MPI was not usable inside the delete callbacks", when);
  CHECK(other_deleted == 0, "%s: attributes on other objects got %d delete callbacks at finalize", when,
        other_deleted);
}

static void at_exit(void) {
  verify("atexit");
  if (failures) _Exit(1);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  static int vals[5];
  for (int i = 0; i < 4; ++i)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &keys[i], (void *)(MPI_Aint)i);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, unset_delete, &unset_key, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, other_delete, &other_key, NULL);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, other_type_delete, &type_key, NULL);
  /* Set 0, 1, 2, 3 then replace 1: the order at finalize is 1, 3, 2, 0. */
  for (int i = 0; i < 4; ++i) MPI_Comm_set_attr(MPI_COMM_SELF, keys[i], &vals[i]);
  MPI_Comm_set_attr(MPI_COMM_SELF, keys[1], &vals[4]);
  /* An attribute set and deleted again: no callback at finalize. */
  MPI_Comm_set_attr(MPI_COMM_SELF, unset_key, &vals[0]);
  MPI_Comm_delete_attr(MPI_COMM_SELF, unset_key);
  nlog = 0; /* the replace and the delete above logged; only finalize counts from here */
  expected[0] = 1; expected[1] = 3; expected[2] = 2; expected[3] = 0;
  /* D18: then WORLD's, newest first (set 0 then 1: 101, 100). */
  for (int i = 0; i < 2; ++i) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, world_delete, &world_keys[i], (void *)(MPI_Aint)i);
    MPI_Comm_set_attr(MPI_COMM_WORLD, world_keys[i], &vals[i]);
  }
  expected[4] = 101; expected[5] = 100;
  /* Attributes elsewhere: a dup, a split communicator, a datatype. */
  MPI_Comm d;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  MPI_Comm s;
  MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &s);
  MPI_Comm_set_attr(s, other_key, &vals[0]);
  MPI_Comm_set_attr(d, other_key, &vals[0]);
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_set_attr(t, type_key, &vals[0]);
  /* A freed keyval whose attribute is still on SELF: its callback still runs (R2.2) - counted as key 2. */
  int k2 = keys[2];
  MPI_Comm_free_keyval(&k2);

  atexit(at_exit);
  int rc = MPI_Finalize();
  CHECK(rc == MPI_SUCCESS, "MPI_Finalize returned %d", rc);
  int fin = 0;
  MPI_Finalized(&fin);
  CHECK(fin == 1, "MPI_Finalized is %d after MPI_Finalize", fin);
  verify("after MPI_Finalize");
  return failures ? 1 : 0;
}
