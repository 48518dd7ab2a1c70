/* D49: the Sessions Model with and without the World Model, where the differential test
 * (tests/diff/c/RT_sessions_model_one_process.c) cannot go: MPICH 4.0.2 crashes when MPI is
 * initialized again. MPI initialized again by a session after every session ended, MPI_Init after
 * sessions came and went, a session after MPI_Finalize with none live; and the errors, each fatal
 * through the initial error handler (no MPI_COMM_SELF to take them), so made in a forked child:
 * MPI_COMM_WORLD / MPI_COMM_SELF outside the World Model (MPI_ERR_COMM, saying why), a routine
 * when no model is active (naming both models), MPI_Finalize without MPI_Init, MPI_Init after
 * MPI_Finalize. MPI_Init twice and a bad "thread_level" return their error under MPI_COMM_SELF's
 * MPI_ERRORS_RETURN, changing nothing; MPI_Session_init's go to its errhandler argument. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"
#include "fatal_child.h"

/* A call made in a child, which must end it through the initial handler with exit status
 * `status` (D150: the error's class while a session keeps MPI usable, 1 when neither model is
 * active), and a message naming `routine` and saying each of `says` (up to three, NULL-ended). */
static void expect_fatal(void (*call)(int), int which, int status, const char *routine, const char *says0,
                         const char *says1, const char *says2) {
  char msg[4096];
  int st = run_child(call, which, msg, sizeof msg);
  CHECK(st == status, "%s (case %d): exit status %d, expected %d (stderr '%s')", routine, which, st, status, msg);
  CHECK(strstr(msg, routine) != NULL, "case %d: message does not name %s: '%s'", which, routine, msg);
  const char *says[] = {says0, says1, says2};
  for (int i = 0; i < 3; ++i)
    if (says[i] != NULL) CHECK(strstr(msg, says[i]) != NULL, "case %d: message does not say '%s': '%s'", which, says[i], msg);
}

static void fatal_call(int which) {
  int k = MPI_KEYVAL_INVALID, x = 0, argc = 0;
  char **argv = NULL;
  switch (which) {
    case 0: MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL); break;
    case 1: MPI_Comm_set_attr(MPI_COMM_WORLD, 0, &x); break;
    case 2: MPI_Comm_size(MPI_COMM_SELF, &x); break;
    case 3: MPI_Finalize(); break;
    case 4: MPI_Init(&argc, &argv); break;
  }
}

static void models(int want_init, int want_fin, const char *when) {
  int init = -1, fin = -1;
  OK(MPI_Initialized(&init));
  OK(MPI_Finalized(&fin));
  CHECK(init == want_init && fin == want_fin, "%s: MPI_Initialized %d, MPI_Finalized %d; expected %d %d", when, init, fin,
        want_init, want_fin);
}

static int deleted;
static int sum_deleted(MPI_Comm c, int key, void *v, void *extra) {
  (void)c;
  (void)key;
  (void)extra;
  deleted += *(int *)v;
  return MPI_SUCCESS;
}

/* A session at `level` (NULL: none asked) whose communicator caches an attribute, which its dup
 * copies and the frees delete; the session's thread_level must be `want_level`. */
static void session_round(const char *level, const char *want_level, const char *when) {
  MPI_Info info = MPI_INFO_NULL;
  if (level != NULL) {
    OK(MPI_Info_create(&info)); /* before MPI is initialized, as MPI-4.1 allows */
    OK(MPI_Info_set(info, "thread_level", level));
  }
  MPI_Session s = MPI_SESSION_NULL;
  OK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
  if (info != MPI_INFO_NULL) OK(MPI_Info_free(&info));
  MPI_Info used = MPI_INFO_NULL;
  char value[MPI_MAX_INFO_VAL + 1] = "";
  int buflen = (int)sizeof value, flag = 0;
  OK(MPI_Session_get_info(s, &used));
  OK(MPI_Info_get_string(used, "thread_level", &buflen, value, &flag));
  CHECK(flag && strcmp(value, want_level) == 0, "%s: thread_level '%s', expected %s", when, value, want_level);
  OK(MPI_Info_free(&used));
  MPI_Group g = MPI_GROUP_NULL;
  MPI_Comm c = MPI_COMM_NULL, d = MPI_COMM_NULL;
  OK(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
  OK(MPI_Comm_create_from_group(g, "org.mpiattr.test", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
  int key = MPI_KEYVAL_INVALID;
  static int seven = 7;
  OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, sum_deleted, &key, NULL));
  deleted = 0;
  OK(MPI_Comm_set_attr(c, key, &seven));
  OK(MPI_Comm_dup(c, &d));
  void *v = NULL;
  flag = 0;
  OK(MPI_Comm_get_attr(d, key, &v, &flag));
  CHECK(flag && v == &seven, "%s: the dup does not have the attribute", when);
  OK(MPI_Comm_free(&d));
  OK(MPI_Comm_free(&c));
  CHECK(deleted == 14, "%s: the frees deleted %d, expected 14", when, deleted);
  OK(MPI_Comm_free_keyval(&key));
  OK(MPI_Group_free(&g));
  OK(MPI_Session_finalize(&s));
}

static int session_errors, session_error_class;
static MPI_Session session_erred = (MPI_Session)-1;
static void on_session_error(MPI_Session *session, int *code, ...) {
  ++session_errors;
  session_erred = *session;
  MPI_Error_class(*code, &session_error_class);
}

int main(int argc, char **argv) {
  /* Nothing yet: a routine says to initialize with either model. */
  models(0, 0, "before anything");
  expect_fatal(fatal_call, 0, 1, "MPI_Comm_create_keyval", "not initialized", "MPI_Session_init", "MPI_Init");

  /* MPI_Session_init's errors go to its errhandler argument (MPI-4.1 §11.3.1), with no model
   * active: MPI_ERRORS_RETURN returns the error, a handler of the program's is called once with
   * MPI_SESSION_NULL; no session is made. */
  MPI_Session s = MPI_SESSION_NULL;
  MPI_Info bad_level;
  OK(MPI_Info_create(&bad_level));
  OK(MPI_Info_set(bad_level, "thread_level", "MPI_THREAD_FAST"));
  check_error(MPI_Session_init(bad_level, MPI_ERRORS_RETURN, &s), MPI_ERR_INFO_VALUE, "not one of");
  CHECK(s == MPI_SESSION_NULL, "a failed MPI_Session_init made a session");
  MPI_Errhandler mine = MPI_ERRHANDLER_NULL;
  OK(MPI_Session_create_errhandler(on_session_error, &mine));
  check_error(MPI_Session_init(bad_level, mine, &s), MPI_ERR_INFO_VALUE, "not one of");
  CHECK(session_errors == 1 && session_erred == MPI_SESSION_NULL && session_error_class == MPI_ERR_INFO_VALUE,
        "the session handler ran %d times, on %s, class %d", session_errors,
        session_erred == MPI_SESSION_NULL ? "MPI_SESSION_NULL" : "another session", session_error_class);
  CHECK(s == MPI_SESSION_NULL, "a failed MPI_Session_init made a session");
  OK(MPI_Errhandler_free(&mine));
  OK(MPI_Info_free(&bad_level));
  models(0, 0, "after failed MPI_Session_init");

  /* A session, no World Model: MPI_COMM_WORLD and MPI_COMM_SELF do not exist; MPI_Finalize has
   * nothing to finalize. */
  OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
  models(0, 0, "sessions only");
  expect_fatal(fatal_call, 1, MPI_ERR_COMM, "MPI_Comm_set_attr", "MPI_ERR_COMM", "MPI_COMM_WORLD", "MPI_Init was not called");
  expect_fatal(fatal_call, 2, MPI_ERR_COMM, "MPI_Comm_size", "MPI_ERR_COMM", "MPI_COMM_SELF", "World Model");
  expect_fatal(fatal_call, 3, MPI_ERR_OTHER, "MPI_Finalize", "MPI_Init was not called", NULL, NULL);
  OK(MPI_Session_finalize(&s));

  /* Every session ended: MPI is not usable, until the next session. */
  models(0, 0, "after the first session");
  expect_fatal(fatal_call, 0, 1, "MPI_Comm_create_keyval", "no session is live", "MPI_Init was not called", NULL);
  session_round("MPI_THREAD_FUNNELED", "MPI_THREAD_FUNNELED", "MPI initialized again");
  session_round(NULL, "MPI_THREAD_SINGLE", "and again");

  /* MPI_Init after sessions came and went; MPI_Init twice. */
  int provided = -1;
  OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided));
  CHECK(provided == MPI_THREAD_SERIALIZED, "MPI_Init_thread provided %d", provided);
  models(1, 0, "in the World Model");
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  check_error(MPI_Init(&argc, &argv), MPI_ERR_OTHER, "already initialized");
  session_round(NULL, "MPI_THREAD_SERIALIZED", "a session in the World Model");

  /* A bad thread_level: MPI_ERR_INFO_VALUE, no session made. */
  MPI_Info bad;
  OK(MPI_Info_create(&bad));
  OK(MPI_Info_set(bad, "thread_level", "MPI_THREAD_FAST"));
  s = MPI_SESSION_NULL;
  check_error(MPI_Session_init(bad, MPI_ERRORS_RETURN, &s), MPI_ERR_INFO_VALUE, "\"MPI_THREAD_FAST\", not one of");
  CHECK(s == MPI_SESSION_NULL, "a session was made");
  OK(MPI_Info_free(&bad));

  /* A session that outlives the World Model: MPI_Finalize deletes MPI_COMM_SELF's attributes,
   * and the session's communicator then still caches. */
  OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
  int key = MPI_KEYVAL_INVALID;
  static int five = 5;
  OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, sum_deleted, &key, NULL));
  deleted = 0;
  OK(MPI_Comm_set_attr(MPI_COMM_SELF, key, &five));
  OK(MPI_Finalize());
  CHECK(deleted == 5, "MPI_Finalize deleted %d from MPI_COMM_SELF, expected 5", deleted);
  models(1, 1, "after MPI_Finalize, a session live");
  MPI_Group g = MPI_GROUP_NULL;
  MPI_Comm c = MPI_COMM_NULL;
  OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
  OK(MPI_Comm_create_from_group(g, "org.mpiattr.test", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
  OK(MPI_Comm_set_attr(c, key, &five));
  OK(MPI_Comm_free(&c));
  CHECK(deleted == 10, "freeing the communicator deleted %d in all, expected 10", deleted);
  OK(MPI_Comm_free_keyval(&key));
  OK(MPI_Group_free(&g));
  expect_fatal(fatal_call, 2, MPI_ERR_COMM, "MPI_Comm_size", "MPI_COMM_SELF", "MPI_Finalize was called", NULL);
  expect_fatal(fatal_call, 4, MPI_ERR_OTHER, "MPI_Init", "MPI_Finalize was called", "MPI_Session_init", NULL);
  OK(MPI_Session_finalize(&s));

  /* Both models ended: not usable, until a session after MPI_Finalize. */
  expect_fatal(fatal_call, 0, 1, "MPI_Comm_create_keyval", "MPI_Finalize ended the World Model", "every session was finalized",
               NULL);
  session_round("MPI_THREAD_MULTIPLE", "MPI_THREAD_MULTIPLE", "a session after MPI_Finalize");
  models(1, 1, "at the end");
  return failures ? 1 : 0;
}
