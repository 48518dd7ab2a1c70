/* D49: the errors of the session routines and MPI_Comm_create_from_group on the standalone runtime,
 * where the differential test (tests/diff/c/RT_sessions_one_process.c) cannot go because MPICH
 * crashes (a process set number out of range) or raises elsewhere: the class, a message that says
 * what was wrong, the handler it goes to (the session's, else MPI_COMM_SELF's), and nothing
 * written or created. Also a finalized session's handle, and the handler kinds that do not mix. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

static int session_calls, session_class = -1;
static MPI_Session session_seen;
static void on_session(MPI_Session *s, int *code, ...) {
  ++session_calls;
  session_seen = *s;
  MPI_Error_class(*code, &session_class);
}
static int comm_calls;
static void on_comm(MPI_Comm *c, int *code, ...) {
  (void)c;
  (void)code;
  ++comm_calls;
}
static void on_win(MPI_Win *w, int *code, ...) {
  (void)w;
  (void)code;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MPI_Errhandler self_eh;
  OK(MPI_Comm_create_errhandler(on_comm, &self_eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, self_eh)); /* the no-object handler counts, then returns */

  MPI_Errhandler seh, weh;
  OK(MPI_Session_create_errhandler(on_session, &seh));
  OK(MPI_Win_create_errhandler(on_win, &weh));

  /* MPI_Session_init: a communicator's or window's handler (the no-object handler takes the
   * error), a bad info (the session handler given takes it, MPI-4.1 §11.3.1, on
   * MPI_SESSION_NULL); no session made. */
  MPI_Session s = MPI_SESSION_NULL;
  check_error(MPI_Session_init(MPI_INFO_NULL, self_eh, &s), MPI_ERR_ARG, "not created by MPI_Session_create_errhandler");
  CHECK(s == MPI_SESSION_NULL, "a session was made");
  check_error(MPI_Session_init(MPI_INFO_NULL, weh, &s), MPI_ERR_ARG, "not created by MPI_Session_create_errhandler");
  MPI_Info freed;
  OK(MPI_Info_create(&freed));
  MPI_Info stale = freed;
  OK(MPI_Info_free(&freed));
  check_error(MPI_Session_init(stale, seh, &s), MPI_ERR_INFO, "is not valid");
  CHECK(s == MPI_SESSION_NULL, "a session was made");
  CHECK(comm_calls == 2 && session_calls == 1 && session_seen == MPI_SESSION_NULL && session_class == MPI_ERR_INFO,
        "init errors: MPI_COMM_SELF's handler ran %d times, the session's %d (on MPI_SESSION_NULL: %d)", comm_calls,
        session_calls, session_seen == MPI_SESSION_NULL);

  /* A session whose handler is the counting one: its routines' errors go there. */
  MPI_Info hints;
  OK(MPI_Info_create(&hints));
  OK(MPI_Info_set(hints, "org.mpiattr.hint", "kept"));
  OK(MPI_Session_init(hints, seh, &s));
  OK(MPI_Info_free(&hints));
  MPI_Info used;
  OK(MPI_Session_get_info(s, &used));
  char value[MPI_MAX_INFO_VAL + 1] = "";
  int buflen = (int)sizeof value, flag = 0;
  OK(MPI_Info_get_string(used, "org.mpiattr.hint", &buflen, value, &flag));
  CHECK(flag && strcmp(value, "kept") == 0, "the init hint is not in the session's info");
  buflen = (int)sizeof value;
  OK(MPI_Info_get_string(used, "thread_level", &buflen, value, &flag));
  CHECK(flag && strcmp(value, "MPI_THREAD_SINGLE") == 0, "thread_level is '%s', MPI_Init gave MPI_THREAD_SINGLE", value);
  OK(MPI_Info_free(&used));

  char name[32] = "untouched";
  int len = (int)sizeof name;
  check_error(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len, name), MPI_ERR_ARG, "n = 2 is not the number");
  CHECK(strcmp(name, "untouched") == 0 && len == (int)sizeof name, "an output was written");
  check_error(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, name), MPI_ERR_ARG, "n = -1 is not the number");
  len = -3;
  check_error(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name), MPI_ERR_ARG, "pset_len = -3 is negative");
  CHECK(strcmp(name, "untouched") == 0 && len == -3, "an output was written");
  len = 4;  /* a name to write and nowhere to write it */
  check_error(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL), MPI_ERR_ARG, "pset_name is a NULL pointer");
  CHECK(len == 4, "pset_len was written");
  len = 0;  /* 0 asks for the length only: the name is not written, so it may be NULL (D121) */
  OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL));
  CHECK(len == (int)strlen("mpi://WORLD") + 1, "the length asked with a NULL name is %d", len);
  MPI_Group g = MPI_GROUP_NULL;
  check_error(MPI_Group_from_session_pset(s, "mpi://world", &g), MPI_ERR_ARG, "is not a process set");
  CHECK(g == MPI_GROUP_NULL, "a group was made");
  int n = -7;
  check_error(MPI_Session_get_num_psets(s, stale, &n), MPI_ERR_INFO, "is not valid");
  CHECK(n == -7, "npset_names was written");
  CHECK(session_calls == 1 + 6 && session_seen == s && session_class == MPI_ERR_INFO && comm_calls == 2,
        "session errors: its handler ran %d times (on it: %d), MPI_COMM_SELF's %d", session_calls, session_seen == s,
        comm_calls);

  /* Handler kinds do not mix. */
  check_error(MPI_Session_set_errhandler(s, self_eh), MPI_ERR_ARG, "created for communicators, not sessions");
  check_error(MPI_Session_set_errhandler(s, weh), MPI_ERR_ARG, "created for windows, not sessions");
  check_error(MPI_Comm_set_errhandler(MPI_COMM_WORLD, seh), MPI_ERR_ARG, "created for sessions, not communicators");
  MPI_Errhandler cur = MPI_ERRHANDLER_NULL;
  OK(MPI_Session_get_errhandler(s, &cur));
  CHECK(cur == seh, "a refused set changed the session's handler");
  OK(MPI_Errhandler_free(&cur));
  session_calls = 0;

  /* MPI_Comm_create_from_group: its errors go to the no-object handler. */
  OK(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
  MPI_Comm c = MPI_COMM_SELF;
  check_error(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP,
              "the calling process is not in it");
  CHECK(c == MPI_COMM_NULL, "newcomm is not MPI_COMM_NULL");
  check_error(MPI_Comm_create_from_group(g, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_ARG,
              "stringtag is a NULL pointer");
  static char longtag[MPI_MAX_STRINGTAG_LEN + 2];
  memset(longtag, 'x', sizeof longtag - 1);
  check_error(MPI_Comm_create_from_group(g, longtag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_ARG,
              "MPI_MAX_STRINGTAG_LEN");
  check_error(MPI_Comm_create_from_group(g, "t", MPI_INFO_NULL, seh, &c), MPI_ERR_ARG,
              "not created for communicators");
  check_error(MPI_Comm_create_from_group(g, "t", MPI_INFO_NULL, weh, &c), MPI_ERR_ARG,
              "not created for communicators");
  check_error(MPI_Comm_create_from_group(g, "t", stale, MPI_ERRORS_RETURN, &c), MPI_ERR_INFO, "is not valid");
  CHECK(c == MPI_COMM_NULL, "newcomm is not MPI_COMM_NULL");
  CHECK(comm_calls == 2 + 6 && session_calls == 0,
        "create_from_group errors: MPI_COMM_SELF's handler ran %d times, the session's %d", comm_calls, session_calls);
  /* Its handler is the one given, a user one too; the group's process is rank 0. */
  OK(MPI_Comm_create_from_group(g, "t", MPI_INFO_NULL, self_eh, &c));
  OK(MPI_Comm_get_errhandler(c, &cur));
  CHECK(cur == self_eh, "the new communicator's handler is not the one given");
  OK(MPI_Errhandler_free(&cur));
  OK(MPI_Comm_free(&c));
  OK(MPI_Group_free(&g));

  /* A finalized session's handle is no session; errors then go to the no-object handler. */
  MPI_Session old = s;
  OK(MPI_Session_finalize(&s));
  CHECK(s == MPI_SESSION_NULL, "MPI_Session_finalize did not set MPI_SESSION_NULL");
  comm_calls = 0;
  check_error(MPI_Session_get_num_psets(old, MPI_INFO_NULL, &n), MPI_ERR_SESSION, "never initialized, or finalized");
  check_error(MPI_Session_call_errhandler(old, MPI_ERR_OTHER), MPI_ERR_SESSION, "never initialized, or finalized");
  check_error(MPI_Session_finalize(&old), MPI_ERR_SESSION, "never initialized, or finalized");
  check_error(MPI_Session_finalize(&s), MPI_ERR_SESSION, "MPI_SESSION_NULL");
  check_error(MPI_Session_get_errhandler(MPI_SESSION_NULL, &cur), MPI_ERR_SESSION, "MPI_SESSION_NULL");
  CHECK(cur == MPI_ERRHANDLER_NULL, "an error handler was written");
  CHECK(comm_calls == 5 && session_calls == 0, "after finalize: MPI_COMM_SELF's handler ran %d times, the session's %d",
        comm_calls, session_calls);
  /* A new session gets a new handle, never the finalized one's. */
  MPI_Session again;
  OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &again));
  CHECK(again != old, "a finalized session's handle came back");
  CHECK(MPI_Session_f2c(MPI_Session_c2f(again)) == again, "Session c2f/f2c");
  OK(MPI_Session_finalize(&again));

  OK(MPI_Errhandler_free(&seh));
  OK(MPI_Errhandler_free(&weh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&self_eh));
  OK(MPI_Finalize());
  return failures != 0;
}
