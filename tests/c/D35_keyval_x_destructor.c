/* D35: MPICH's MPIX_Comm/Type/Win_create_keyval_x. The destructor runs exactly once, with the
 * keyval's extra_state, when the keyval is finally released: after MPI_*_free_keyval AND after the
 * last attribute under it is gone (deleted by MPI_*_delete_attr, by freeing its object, or by
 * MPI_Finalize on MPI_COMM_SELF and MPI_COMM_WORLD), after that attribute's delete callback. A
 * replaced attribute is still an attribute; a failing delete callback keeps the attribute and so
 * postpones the destructor; a failing copy callback in a dup changes nothing; a NULL destructor is
 * the plain routine; a keyval never freed is never released, not even at MPI_Finalize (as MPICH).
 * Otherwise the keyval is a keyval like any other (set, get, delete, dup copy).
 *
 * Plain C, so that the same program runs standalone (tests/CMakeLists.txt, c_D35_...) and over
 * MPICH and Open MPI with libmpiattr_<host> (tests/host/keyval_x/keyval_x.py, which builds it with
 * the host's mpicc and include/host/mpi.h). Exit status 0: passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"

#define MAGIC 0x5eed

/* Each keyval's extra_state: what happened to it. */
struct state {
  int magic;
  int copies, deletes, destroyed;
  int deletes_at_destroy; /* deletes when the destructor ran: it must follow the last one */
  int fail_copy, fail_delete;
};

static void init_state(struct state *s) {
  memset(s, 0, sizeof *s);
  s->magic = MAGIC;
}

static void destructor(void *extra) {
  struct state *s = (struct state *)extra;
  if (s == NULL || s->magic != MAGIC) {
    fprintf(stderr, "FAIL: the destructor got extra_state %p, not a keyval's state\n", extra);
    ++failures;
    return;
  }
  ++s->destroyed;
  s->deletes_at_destroy = s->deletes;
}

static int copy_common(void *extra, void *in, void *out, int *flag) {
  struct state *s = (struct state *)extra;
  ++s->copies;
  if (s->fail_copy) return MPI_ERR_OTHER;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int delete_common(void *extra) {
  struct state *s = (struct state *)extra;
  if (s->fail_delete) return MPI_ERR_OTHER;
  ++s->deletes;
  return MPI_SUCCESS;
}
static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c; (void)k;
  return copy_common(extra, in, out, flag);
}
static int comm_delete(MPI_Comm c, int k, void *v, void *extra) {
  (void)c; (void)k; (void)v;
  return delete_common(extra);
}
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag) {
  (void)t; (void)k;
  return copy_common(extra, in, out, flag);
}
static int type_delete(MPI_Datatype t, int k, void *v, void *extra) {
  (void)t; (void)k; (void)v;
  return delete_common(extra);
}
static int win_copy(MPI_Win w, int k, void *extra, void *in, void *out, int *flag) {
  (void)w; (void)k;
  return copy_common(extra, in, out, flag);
}
static int win_delete(MPI_Win w, int k, void *v, void *extra) {
  (void)w; (void)k; (void)v;
  return delete_common(extra);
}

static MPI_Comm fresh(void) {
  MPI_Comm c = MPI_COMM_NULL;
  OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  return c;
}

static int flag_of(MPI_Comm c, int k) {
  void *v = NULL;
  int flag = -1;
  OK(MPI_Comm_get_attr(c, k, &v, &flag));
  return flag;
}

static void D35_keyval_x_destructor_runs_once_after_free_keyval_and_last_delete_attr(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  MPI_Comm c1 = fresh(), c2 = fresh();
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k, &s));
  const int stale = k;
  OK(MPI_Comm_set_attr(c1, k, &v));
  OK(MPI_Comm_set_attr(c2, k, &v));
  OK(MPI_Comm_delete_attr(c1, k)); /* an attribute gone while the keyval lives: nothing */
  CHECK(s.destroyed == 0, "destroyed %d while the keyval is live", s.destroyed);
  OK(MPI_Comm_free_keyval(&k));
  CHECK(k == MPI_KEYVAL_INVALID, "free_keyval left %d", k);
  CHECK(s.destroyed == 0, "destroyed %d with an attribute left", s.destroyed);
  OK(MPI_Comm_delete_attr(c2, stale)); /* the last attribute (R2.2, D6) */
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 2,
        "destroyed %d after %d of 2 deletes", s.destroyed, s.deletes_at_destroy);
  OK(MPI_Comm_free(&c1));
  OK(MPI_Comm_free(&c2));
  CHECK(s.destroyed == 1, "destroyed %d times", s.destroyed);
}

static void D35_keyval_x_destructor_runs_when_the_last_object_is_freed(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  MPI_Comm c1 = fresh(), c2 = fresh();
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k, &s));
  OK(MPI_Comm_set_attr(c1, k, &v));
  OK(MPI_Comm_set_attr(c2, k, &v));
  OK(MPI_Comm_set_attr(c2, k, &v)); /* replaced: the delete callback runs, the attribute stays */
  CHECK(s.deletes == 1, "%d deletes after a replacement", s.deletes);
  OK(MPI_Comm_free_keyval(&k));
  OK(MPI_Comm_free(&c1));
  CHECK(s.destroyed == 0, "destroyed %d with an attribute on c2", s.destroyed);
  OK(MPI_Comm_free(&c2));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 3,
        "destroyed %d after %d of 3 deletes", s.destroyed, s.deletes_at_destroy);
}

static void D35_keyval_x_destructor_runs_at_free_keyval_without_attributes(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  MPI_Comm c = fresh();
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k, &s));
  OK(MPI_Comm_set_attr(c, k, &v));
  OK(MPI_Comm_delete_attr(c, k));
  CHECK(s.destroyed == 0, "destroyed %d while the keyval is live", s.destroyed);
  OK(MPI_Comm_free_keyval(&k));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 1, "destroyed %d at free_keyval", s.destroyed);
  struct state never;
  init_state(&never);
  OK(MPIX_Comm_create_keyval_x(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, destructor, &k, &never));
  OK(MPI_Comm_free_keyval(&k));
  CHECK(never.destroyed == 1, "a never-used keyval: destroyed %d at free_keyval", never.destroyed);
  OK(MPI_Comm_free(&c));
}

static void D35_keyval_x_failing_delete_keeps_the_attribute_and_postpones_the_destructor(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  MPI_Comm c = fresh();
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k, &s));
  const int stale = k;
  OK(MPI_Comm_set_attr(c, k, &v));
  OK(MPI_Comm_free_keyval(&k));
  s.fail_delete = 1;
  CHECK(MPI_Comm_delete_attr(c, stale) != MPI_SUCCESS, "a failing delete callback succeeded");
  CHECK(MPI_Comm_free(&c) != MPI_SUCCESS, "MPI_Comm_free succeeded with a failing delete callback");
  CHECK(c != MPI_COMM_NULL, "the failed free nulled the handle");
  CHECK(flag_of(c, stale) == 1, "the attribute of a failed delete is gone");
  CHECK(s.destroyed == 0, "destroyed %d while the attribute stays", s.destroyed);
  s.fail_delete = 0;
  OK(MPI_Comm_free(&c));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 1,
        "destroyed %d after %d deletes", s.destroyed, s.deletes_at_destroy);
}

static void D35_keyval_x_failing_copy_in_a_dup_changes_nothing(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  MPI_Comm c = fresh(), d = MPI_COMM_NULL;
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k, &s));
  OK(MPI_Comm_set_attr(c, k, &v));
  s.fail_copy = 1;
  CHECK(MPI_Comm_dup(c, &d) != MPI_SUCCESS, "a dup with a failing copy callback succeeded");
  CHECK(d == MPI_COMM_NULL, "a failed dup returned a communicator");
  CHECK(s.copies == 1 && s.destroyed == 0, "copies %d, destroyed %d", s.copies, s.destroyed);
  s.fail_copy = 0;
  OK(MPI_Comm_dup(c, &d)); /* the copy: an attribute of its own, under the same keyval */
  CHECK(flag_of(d, k) == 1, "the dup has no copy of the attribute");
  OK(MPI_Comm_free_keyval(&k));
  OK(MPI_Comm_free(&c));
  CHECK(s.destroyed == 0, "destroyed %d with the dup's copy left", s.destroyed);
  OK(MPI_Comm_free(&d));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 2,
        "destroyed %d after %d of 2 deletes", s.destroyed, s.deletes_at_destroy);
}

static void D35_keyval_x_null_destructor_is_the_plain_routine(void) {
  struct state s;
  init_state(&s);
  int k, v = 7, *got = NULL, flag = 0;
  MPI_Comm c = fresh(), d = MPI_COMM_NULL;
  OK(MPIX_Comm_create_keyval_x(MPI_COMM_DUP_FN, comm_delete, NULL, &k, &s));
  OK(MPI_Comm_set_attr(c, k, &v));
  OK(MPI_Comm_dup(c, &d));
  OK(MPI_Comm_get_attr(d, k, &got, &flag));
  CHECK(flag == 1 && got == &v, "MPI_COMM_DUP_FN did not copy the value (flag %d)", flag);
  OK(MPI_Comm_delete_attr(d, k));
  CHECK(flag_of(d, k) == 0, "delete_attr left the attribute");
  OK(MPI_Comm_free_keyval(&k));
  OK(MPI_Comm_free(&c));
  OK(MPI_Comm_free(&d));
  CHECK(s.deletes == 2 && s.destroyed == 0, "deletes %d, destroyed %d", s.deletes, s.destroyed);
  /* A NULL keyval pointer is refused, as by MPI_Comm_create_keyval. */
  CHECK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, NULL, &s) != MPI_SUCCESS,
        "a NULL comm_keyval was accepted");
}

static void D35_keyval_x_is_a_keyval_like_any_other(void) {
  struct state s;
  init_state(&s);
  int k, v = 3, w = 4, *got = NULL, flag = 0;
  MPI_Comm c = fresh();
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k, &s));
  CHECK(k != MPI_KEYVAL_INVALID, "no keyval");
  OK(MPI_Comm_set_attr(c, k, &v));
  OK(MPI_Comm_get_attr(c, k, &got, &flag));
  CHECK(flag == 1 && got == &v, "get after set");
  OK(MPI_Attr_put(c, k, &w)); /* the MPI-1 routines too */
  OK(MPI_Attr_get(c, k, &got, &flag));
  CHECK(flag == 1 && got == &w, "MPI_Attr_get after MPI_Attr_put");
  /* Created for communicators: not a datatype keyval. */
  CHECK(MPI_Type_set_attr(MPI_INT, k, &v) != MPI_SUCCESS, "a comm keyval set on a datatype");
  OK(MPI_Attr_delete(c, k));
  OK(MPI_Keyval_free(&k));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 2, "destroyed %d after %d deletes",
        s.destroyed, s.deletes_at_destroy);
  OK(MPI_Comm_free(&c));
}

static void D35_type_keyval_x_destructor(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  MPI_Datatype t = MPI_DATATYPE_NULL, t2 = MPI_DATATYPE_NULL;
  OK(MPI_Type_dup(MPI_INT, &t));
  OK(MPIX_Type_create_keyval_x(type_copy, type_delete, destructor, &k, &s));
  OK(MPI_Type_set_attr(t, k, &v));
  OK(MPI_Type_dup(t, &t2));
  CHECK(s.copies == 1, "%d copies", s.copies);
  OK(MPI_Type_free_keyval(&k));
  OK(MPI_Type_free(&t));
  CHECK(s.destroyed == 0, "destroyed %d with the dup's attribute left", s.destroyed);
  OK(MPI_Type_free(&t2));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 2, "destroyed %d after %d deletes",
        s.destroyed, s.deletes_at_destroy);
}

static void D35_win_keyval_x_destructor(void) {
  struct state s;
  init_state(&s);
  int k, v = 1;
  static int buf[4];
  MPI_Win win = MPI_WIN_NULL;
  OK(MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  OK(MPIX_Win_create_keyval_x(win_copy, win_delete, destructor, &k, &s));
  const int stale = k;
  OK(MPI_Win_set_attr(win, k, &v));
  OK(MPI_Win_free_keyval(&k));
  s.fail_delete = 1;
  CHECK(MPI_Win_delete_attr(win, stale) != MPI_SUCCESS, "a failing win delete callback succeeded");
  CHECK(s.destroyed == 0, "destroyed %d while the attribute stays", s.destroyed);
  s.fail_delete = 0;
  OK(MPI_Win_free(&win));
  CHECK(s.destroyed == 1 && s.deletes_at_destroy == 1, "destroyed %d after %d deletes",
        s.destroyed, s.deletes_at_destroy);
}

int main(int argc, char **argv) {
  /* "multiple": the same at MPI_THREAD_MULTIPLE, where no fast path is taken. */
  if (argc > 1 && strcmp(argv[1], "multiple") == 0) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  D35_keyval_x_destructor_runs_once_after_free_keyval_and_last_delete_attr();
  D35_keyval_x_destructor_runs_when_the_last_object_is_freed();
  D35_keyval_x_destructor_runs_at_free_keyval_without_attributes();
  D35_keyval_x_failing_delete_keeps_the_attribute_and_postpones_the_destructor();
  D35_keyval_x_failing_copy_in_a_dup_changes_nothing();
  D35_keyval_x_null_destructor_is_the_plain_routine();
  D35_keyval_x_is_a_keyval_like_any_other();
  D35_type_keyval_x_destructor();
  D35_win_keyval_x_destructor();

  /* D35_keyval_x_destructor_at_finalize: freed keyvals whose last attributes MPI_Finalize deletes
   * (on MPI_COMM_SELF, and on MPI_COMM_WORLD, D18/D24) are released there, after those deletes;
   * a keyval never freed is not, with or without attributes (as MPICH: its handle holds it). */
  struct state on_self, on_world, kept, unused;
  init_state(&on_self);
  init_state(&on_world);
  init_state(&kept);
  init_state(&unused);
  int k_self, k_world, k_kept, k_unused, v = 1;
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k_self, &on_self));
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k_world, &on_world));
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k_kept, &kept));
  OK(MPIX_Comm_create_keyval_x(comm_copy, comm_delete, destructor, &k_unused, &unused));
  OK(MPI_Comm_set_attr(MPI_COMM_SELF, k_self, &v));
  OK(MPI_Comm_set_attr(MPI_COMM_WORLD, k_world, &v));
  OK(MPI_Comm_set_attr(MPI_COMM_SELF, k_kept, &v));
  OK(MPI_Comm_free_keyval(&k_self));
  OK(MPI_Comm_free_keyval(&k_world));
  CHECK(on_self.destroyed + on_world.destroyed == 0, "destroyed before MPI_Finalize");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  OK(MPI_Finalize());
  CHECK(on_self.destroyed == 1 && on_self.deletes_at_destroy == 1,
        "MPI_COMM_SELF's: destroyed %d after %d deletes", on_self.destroyed, on_self.deletes_at_destroy);
  CHECK(on_world.destroyed == 1 && on_world.deletes_at_destroy == 1,
        "MPI_COMM_WORLD's: destroyed %d after %d deletes", on_world.destroyed, on_world.deletes_at_destroy);
  CHECK(kept.deletes == 1 && kept.destroyed == 0, "a keyval never freed: deletes %d, destroyed %d",
        kept.deletes, kept.destroyed);
  CHECK(unused.destroyed == 0, "a keyval never freed nor used: destroyed %d", unused.destroyed);
  if (failures == 0 && rank == 0) printf("D35_keyval_x_destructor: passed\n");
  return failures ? 1 : 0;
}
