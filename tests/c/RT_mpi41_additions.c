/* D55: the MPI-4.1 routines apis.json lacks, on the standalone runtime: the buffers of the process
 * (MPI_BUFFER_AUTOMATIC too), of a communicator and of a session, and their flushes; the status of
 * several requests without completing them; the status accessors; MPI_Type_get_value_index; the
 * removal of user-defined error classes, codes and strings; MPI_Get_hw_resource_info. Behaviour
 * and error paths (class, message, nothing written). No peer here has these routines (MPICH 4.0.2,
 * Open MPI 4.1), so this is not a differential test. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

#if !(MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
#error "mpiattr declares MPI-4.1"
#endif

static char small[256];

static void buffers(void) {
  MPI_Comm w = MPI_COMM_WORLD, dup, dup2;
  int v[100] = {0}, r[100], size = -1;
  void *addr = NULL;
  MPI_Request req;
  int flag = 0;
  for (int i = 0; i < 100; ++i) v[i] = i;

  /* The process's buffer as MPI_BUFFER_AUTOMATIC: a message of any size fits; size is ignored. */
  CHECK(MPI_BUFFER_AUTOMATIC == (void *)2, "MPI_BUFFER_AUTOMATIC is the ABI's ((void*)2)");
  OK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, -1));
  OK(MPI_Bsend(v, 100, MPI_INT, 0, 1, w));
  OK(MPI_Bsend(v, 100, MPI_INT, 0, 1, w));
  check_error(MPI_Buffer_attach(small, (int)sizeof small), MPI_ERR_BUFFER, "already attached to the process");
  OK(MPI_Buffer_flush());
  OK(MPI_Buffer_iflush(&req));
  CHECK(req != MPI_REQUEST_NULL, "MPI_Buffer_iflush gave no request");
  OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  CHECK(flag && req == MPI_REQUEST_NULL, "the flush request is complete at once");
  OK(MPI_Buffer_detach(&addr, &size));
  CHECK(addr == MPI_BUFFER_AUTOMATIC && size == 0, "detach of the automatic buffer: %p, %d", addr, size);
  for (int k = 0; k < 2; ++k) {
    memset(r, 0, sizeof r);
    OK(MPI_Recv(r, 100, MPI_INT, 0, 1, w, MPI_STATUS_IGNORE));
    CHECK(r[99] == 99, "a flushed, detached buffer's message is still received");
  }
  check_error(MPI_Buffer_detach(&addr, &size), MPI_ERR_BUFFER, "no buffer is attached");

  /* A communicator's buffer: used before the process's, and only by that communicator. */
  OK(MPI_Comm_dup(w, &dup));
  OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
  const int one = (int)(10 * sizeof(int)) + MPI_BSEND_OVERHEAD; /* room for one 10-int message */
  OK(MPI_Comm_attach_buffer(dup, small, one));
  OK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
  OK(MPI_Bsend(v, 10, MPI_INT, 0, 2, dup));
  check_error(MPI_Bsend(v, 10, MPI_INT, 0, 2, dup), MPI_ERR_BUFFER, "of the attached buffer");
  OK(MPI_Bsend(v, 10, MPI_INT, 0, 2, w)); /* world: the process's automatic buffer */
  /* Flushing frees the space the queued message held (it is in the receive queue): one more fits. */
  OK(MPI_Comm_flush_buffer(dup));
  OK(MPI_Bsend(v, 10, MPI_INT, 0, 3, dup));
  OK(MPI_Comm_iflush_buffer(dup, &req));
  OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_error(MPI_Comm_attach_buffer(dup, small, one), MPI_ERR_BUFFER, "already attached to the communicator");
  addr = NULL;
  size = -1;
  OK(MPI_Comm_detach_buffer(dup, &addr, &size));
  CHECK(addr == small && size == one, "comm detach: %p %d", addr, size);
  /* With its buffer detached, the communicator's buffered sends use the process's again. */
  OK(MPI_Bsend(v, 10, MPI_INT, 0, 4, dup));
  for (int tag = 2; tag <= 4; ++tag) {
    MPI_Status st;
    OK(MPI_Recv(r, 10, MPI_INT, 0, tag, dup, &st));
    CHECK(st.MPI_TAG == tag && r[9] == 9, "dup's message with tag %d", tag);
  }
  OK(MPI_Recv(r, 10, MPI_INT, 0, 2, w, MPI_STATUS_IGNORE));
  OK(MPI_Buffer_detach(&addr, &size));

  /* Errors: nothing attached or detached, nothing written. */
  addr = small;
  size = 7;
  check_error(MPI_Comm_detach_buffer(dup, &addr, &size), MPI_ERR_BUFFER, "no buffer is attached to the communicator");
  CHECK(addr == small && size == 7, "a failed detach wrote its outputs");
  check_error(MPI_Comm_attach_buffer(dup, small, -5), MPI_ERR_ARG, "size -5 is negative");
  check_error(MPI_Comm_attach_buffer(MPI_COMM_NULL, small, 10), MPI_ERR_COMM, "");
  check_error(MPI_Comm_detach_buffer(dup, NULL, &size), MPI_ERR_ARG, "buffer_addr is a NULL pointer");
  check_error(MPI_Comm_iflush_buffer(dup, NULL), MPI_ERR_ARG, "request is a NULL pointer");
  check_error(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM, "");
  check_error(MPI_Bsend(v, 1, MPI_INT, 0, 5, dup), MPI_ERR_BUFFER, "no buffer attached");
  /* Large-count forms: the same buffer, its size in MPI_Count. */
  MPI_Count csize = -1;
  OK(MPI_Comm_attach_buffer_c(dup, small, (MPI_Count)sizeof small));
  OK(MPI_Comm_detach_buffer_c(dup, &addr, &csize));
  CHECK(csize == (MPI_Count)sizeof small, "detach_c: %lld", (long long)csize);
  /* A freed communicator's buffer goes with it; a duplicate does not inherit it. */
  OK(MPI_Comm_attach_buffer(dup, small, (int)sizeof small));
  OK(MPI_Comm_dup(dup, &dup2));
  OK(MPI_Comm_set_errhandler(dup2, MPI_ERRORS_RETURN));
  check_error(MPI_Bsend(v, 1, MPI_INT, 0, 5, dup2), MPI_ERR_BUFFER, "no buffer attached");
  OK(MPI_Comm_free(&dup2));
  OK(MPI_Comm_free(&dup));
}

static int session_class = -1;
static void on_session(MPI_Session *s, int *code, ...) {
  (void)s;
  MPI_Error_class(*code, &session_class);
}

static void session_buffers(void) {
  MPI_Session s;
  MPI_Errhandler seh;
  MPI_Group g;
  MPI_Comm c, cdup;
  int v = 5, r = 0, size = -1;
  void *addr = NULL;
  MPI_Request req;
  OK(MPI_Session_create_errhandler(on_session, &seh));
  OK(MPI_Session_init(MPI_INFO_NULL, seh, &s));
  OK(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
  OK(MPI_Comm_create_from_group(g, "org.mpiattr.d55", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
  OK(MPI_Comm_dup(c, &cdup));
  /* No buffer anywhere: refused. */
  check_error(MPI_Bsend(&v, 1, MPI_INT, 0, 1, c), MPI_ERR_BUFFER, "no buffer attached");
  /* The session's buffer serves its communicators and their duplicates, not MPI_COMM_WORLD. */
  const int one = (int)sizeof(int) + MPI_BSEND_OVERHEAD;
  OK(MPI_Session_attach_buffer(s, small, one));
  OK(MPI_Bsend(&v, 1, MPI_INT, 0, 1, c));
  check_error(MPI_Bsend(&v, 1, MPI_INT, 0, 1, cdup), MPI_ERR_BUFFER, "of the attached buffer");
  OK(MPI_Session_flush_buffer(s));
  OK(MPI_Bsend(&v, 1, MPI_INT, 0, 2, cdup));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  check_error(MPI_Bsend(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER, "no buffer attached");
  /* A communicator's own buffer comes before its session's. */
  OK(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
  OK(MPI_Bsend(&v, 1, MPI_INT, 0, 3, c));
  OK(MPI_Bsend(&v, 1, MPI_INT, 0, 3, c));
  OK(MPI_Comm_detach_buffer(c, &addr, &size));
  CHECK(addr == MPI_BUFFER_AUTOMATIC && size == 0, "automatic comm buffer detach: %p %d", addr, size);
  OK(MPI_Session_iflush_buffer(s, &req));
  OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_error(MPI_Session_attach_buffer(s, small, one), MPI_ERR_BUFFER, "already attached to the session");
  OK(MPI_Session_detach_buffer(s, &addr, &size));
  CHECK(addr == small && size == one, "session detach: %p %d", addr, size);
  OK(MPI_Recv(&r, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE));
  OK(MPI_Recv(&r, 1, MPI_INT, 0, 2, cdup, MPI_STATUS_IGNORE));
  OK(MPI_Recv(&r, 1, MPI_INT, 0, 3, c, MPI_STATUS_IGNORE));
  OK(MPI_Recv(&r, 1, MPI_INT, 0, 3, c, MPI_STATUS_IGNORE));
  CHECK(r == 5, "session messages");
  /* Errors go to the session's handler; a null or unknown session is MPI_ERR_SESSION. */
  session_class = -1;
  check_error(MPI_Session_detach_buffer(s, &addr, &size), MPI_ERR_BUFFER, "no buffer is attached to the session");
  CHECK(session_class == MPI_ERR_BUFFER, "the session's handler saw class %d", session_class);
  check_error(MPI_Session_attach_buffer(MPI_SESSION_NULL, small, 4), MPI_ERR_SESSION, "MPI_SESSION_NULL");
  check_error(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION, "MPI_SESSION_NULL");
  /* Finalizing the session detaches its buffer. */
  OK(MPI_Session_attach_buffer(s, small, (int)sizeof small));
  OK(MPI_Comm_free(&cdup));
  OK(MPI_Comm_free(&c));
  OK(MPI_Group_free(&g));
  MPI_Session gone = s;
  OK(MPI_Session_finalize(&s));
  check_error(MPI_Session_detach_buffer(gone, &addr, &size), MPI_ERR_SESSION, "not a session handle");
  OK(MPI_Errhandler_free(&seh));
}

static void request_statuses(void) {
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request reqs[3];
  MPI_Status sts[3];
  int a = 0, b = 0, v = 9, flag = -1, indx = -1, outcount = -1, indices[3] = {-1, -1, -1};
  OK(MPI_Irecv(&a, 1, MPI_INT, 0, 10, w, &reqs[0]));
  OK(MPI_Irecv(&b, 1, MPI_INT, 0, 11, w, &reqs[1]));
  reqs[2] = MPI_REQUEST_NULL;
  /* Nothing has come: not complete, and the requests stay as they are. */
  OK(MPI_Request_get_status_all(3, reqs, &flag, sts));
  CHECK(flag == 0, "get_status_all before any message: flag %d", flag);
  OK(MPI_Request_get_status_any(3, reqs, &indx, &flag, &sts[0]));
  CHECK(flag == 0 && indx == MPI_UNDEFINED, "get_status_any before any message: %d %d", flag, indx);
  OK(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
  CHECK(outcount == 0, "get_status_some before any message: %d", outcount);
  /* One message: any and some find the second request; all is still incomplete. */
  OK(MPI_Send(&v, 1, MPI_INT, 0, 11, w));
  OK(MPI_Request_get_status_any(3, reqs, &indx, &flag, &sts[0]));
  CHECK(flag == 1 && indx == 1 && sts[0].MPI_TAG == 11, "get_status_any: %d %d tag %d", flag, indx, sts[0].MPI_TAG);
  OK(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
  CHECK(outcount == 1 && indices[0] == 1 && sts[0].MPI_TAG == 11, "get_status_some: %d %d", outcount, indices[0]);
  OK(MPI_Request_get_status_all(3, reqs, &flag, sts));
  CHECK(flag == 0, "get_status_all with one of two: flag %d", flag);
  OK(MPI_Send(&v, 1, MPI_INT, 0, 10, w));
  memset(sts, 0, sizeof sts);
  OK(MPI_Request_get_status_all(3, reqs, &flag, sts));
  CHECK(flag == 1 && sts[0].MPI_TAG == 10 && sts[1].MPI_TAG == 11 && sts[2].MPI_TAG == MPI_ANY_TAG,
        "get_status_all: flag %d tags %d %d %d", flag, sts[0].MPI_TAG, sts[1].MPI_TAG, sts[2].MPI_TAG);
  CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL, "get_status_all freed a request");
  OK(MPI_Request_get_status_all(3, reqs, &flag, MPI_STATUSES_IGNORE));
  CHECK(flag == 1, "get_status_all with MPI_STATUSES_IGNORE");
  /* Errors: a freed handle, a NULL array; nothing written. */
  MPI_Request stale = reqs[1];
  OK(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  CHECK(a == 9 && b == 9, "the receives completed: %d %d", a, b);
  MPI_Request bad[2] = {MPI_REQUEST_NULL, stale};
  flag = indx = outcount = -7;
  check_error(MPI_Request_get_status_all(2, bad, &flag, sts), MPI_ERR_REQUEST, "array_of_requests[1]");
  check_error(MPI_Request_get_status_any(2, bad, &indx, &flag, &sts[0]), MPI_ERR_REQUEST, "not a request handle");
  check_error(MPI_Request_get_status_some(2, bad, &outcount, indices, sts), MPI_ERR_REQUEST, "not a request handle");
  CHECK(flag == -7 && indx == -7 && outcount == -7, "a failed call wrote its outputs");
  check_error(MPI_Request_get_status_all(1, NULL, &flag, sts), MPI_ERR_ARG, "array_of_requests is a NULL pointer");
  check_error(MPI_Request_get_status_any(-1, bad, &indx, &flag, &sts[0]), MPI_ERR_COUNT, "");
  /* Only null requests: any says flag true and MPI_UNDEFINED, some MPI_UNDEFINED. */
  bad[1] = MPI_REQUEST_NULL;
  OK(MPI_Request_get_status_any(2, bad, &indx, &flag, &sts[0]));
  CHECK(flag == 1 && indx == MPI_UNDEFINED, "get_status_any of null requests: %d %d", flag, indx);
  OK(MPI_Request_get_status_some(2, bad, &outcount, indices, sts));
  CHECK(outcount == MPI_UNDEFINED, "get_status_some of null requests: %d", outcount);
}

static void status_fields(void) {
  MPI_Status st;
  int x = -1, count = -1;
  memset(&st, 0, sizeof st);
  OK(MPI_Status_set_elements(&st, MPI_INT, 3));
  OK(MPI_Status_set_source(&st, 4));
  OK(MPI_Status_set_tag(&st, 77));
  OK(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
  CHECK(st.MPI_SOURCE == 4 && st.MPI_TAG == 77 && st.MPI_ERROR == MPI_ERR_TRUNCATE, "the fields as set");
  OK(MPI_Status_get_source(&st, &x));
  CHECK(x == 4, "source %d", x);
  OK(MPI_Status_get_tag(&st, &x));
  CHECK(x == 77, "tag %d", x);
  OK(MPI_Status_get_error(&st, &x));
  CHECK(x == MPI_ERR_TRUNCATE, "error %d", x);
  OK(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 3, "setting source, tag and error kept the count: %d", count);
  x = -3;
  check_error(MPI_Status_get_tag(NULL, &x), MPI_ERR_ARG, "status is a NULL pointer");
  check_error(MPI_Status_get_source(&st, NULL), MPI_ERR_ARG, "source is a NULL pointer");
  check_error(MPI_Status_set_error(NULL, 1), MPI_ERR_ARG, "status is a NULL pointer");
  CHECK(x == -3, "a failed call wrote its output");
}

static void value_index(void) {
  struct { MPI_Datatype v, i, want; } pairs[] = {
      {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},   {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
      {MPI_LONG, MPI_INT, MPI_LONG_INT},     {MPI_INT, MPI_INT, MPI_2INT},
      {MPI_SHORT, MPI_INT, MPI_SHORT_INT},   {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
      {MPI_REAL, MPI_REAL, MPI_2REAL},       {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
      {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
      {MPI_INT, MPI_FLOAT, MPI_DATATYPE_NULL}, {MPI_FLOAT, MPI_LONG, MPI_DATATYPE_NULL},
      {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL},
  };
  for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; ++k) {
    MPI_Datatype got = MPI_BYTE;
    OK(MPI_Type_get_value_index(pairs[k].v, pairs[k].i, &got));
    CHECK(got == pairs[k].want, "pair %zu", k);
  }
  /* A duplicate of MPI_FLOAT is not MPI_FLOAT: no predefined pair. */
  MPI_Datatype fdup, got = MPI_BYTE;
  OK(MPI_Type_dup(MPI_FLOAT, &fdup));
  OK(MPI_Type_get_value_index(fdup, MPI_INT, &got));
  CHECK(got == MPI_DATATYPE_NULL, "a duplicate's pair");
  OK(MPI_Type_free(&fdup));
  got = MPI_BYTE;
  check_error(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &got), MPI_ERR_TYPE, "");
  check_error(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG, "pair_type is a NULL pointer");
  CHECK(got == MPI_BYTE, "a failed call wrote pair_type");
}

static void remove_errors(void) {
  int cls, code, code2, other, last0, flag, *lastp, len, c2;
  char msg[MPI_MAX_ERROR_STRING];
  OK(MPI_Add_error_class(&cls));
  OK(MPI_Add_error_code(cls, &code));
  OK(MPI_Add_error_code(cls, &code2));
  OK(MPI_Add_error_string(cls, "a d55 class"));
  OK(MPI_Add_error_string(code, "a d55 code"));
  OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag));
  last0 = *lastp;
  /* A class with codes stays; what MPI_Add_error_* did not make cannot go. */
  check_error(MPI_Remove_error_class(cls), MPI_ERR_ARG, "still has error code");
  check_error(MPI_Remove_error_class(MPI_ERR_TAG), MPI_ERR_ARG, "is not an error class MPI_Add_error_class made");
  check_error(MPI_Remove_error_class(code), MPI_ERR_ARG, "is not an error class MPI_Add_error_class made");
  check_error(MPI_Remove_error_code(cls), MPI_ERR_ARG, "is not an error code MPI_Add_error_code made");
  check_error(MPI_Remove_error_code(MPI_ERR_OTHER), MPI_ERR_ARG, "is not an error code MPI_Add_error_code made");
  check_error(MPI_Remove_error_string(MPI_ERR_TAG), MPI_ERR_ARG, "is not a user-defined error class or code");
  check_error(MPI_Remove_error_string(code2), MPI_ERR_ARG, "has no string to remove");
  check_error(MPI_Remove_error_code(code), MPI_ERR_ARG, "still has its string");
  OK(MPI_Error_string(code, msg, &len));
  CHECK(strcmp(msg, "a d55 code") == 0, "a refused removal changed the code's string: '%s'", msg);
  /* The string goes: MPI_Error_string gives an empty one, as before MPI_Add_error_string. */
  OK(MPI_Remove_error_string(code));
  OK(MPI_Error_string(code, msg, &len));
  CHECK(len == 0, "removed string: '%s'", msg);
  check_error(MPI_Remove_error_string(code), MPI_ERR_ARG, "has no string to remove");
  /* The codes go, then the class; removed values are no codes and are never given again. */
  OK(MPI_Remove_error_code(code));
  check_error(MPI_Remove_error_class(cls), MPI_ERR_ARG, "still has error code");
  OK(MPI_Remove_error_code(code2));
  check_error(MPI_Remove_error_code(code2), MPI_ERR_ARG, "or it was removed");
  c2 = -1;
  CHECK(MPI_Error_class(code, &c2) != MPI_SUCCESS && c2 == -1, "a removed code still has a class");
  /* A class (or code) whose string is still set stays (D116): its string goes first. */
  check_error(MPI_Remove_error_class(cls), MPI_ERR_ARG, "still has its string");
  OK(MPI_Error_string(cls, msg, &len));
  CHECK(strcmp(msg, "a d55 class") == 0, "a refused removal changed the class's string: '%s'", msg);
  OK(MPI_Remove_error_string(cls));
  OK(MPI_Remove_error_class(cls));
  CHECK(MPI_Error_string(cls, msg, &len) != MPI_SUCCESS, "a removed class still has a string");
  check_error(MPI_Remove_error_class(cls), MPI_ERR_ARG, "or it was removed");
  check_error(MPI_Add_error_code(cls, &other), MPI_ERR_ARG, "is not an error class");
  OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag));
  CHECK(*lastp == last0, "MPI_LASTUSEDCODE moved on removal: %d, was %d", *lastp, last0);
  OK(MPI_Add_error_class(&other));
  CHECK(other > last0, "a removed value was given again: %d", other);
}

static void hw_info(void) {
  MPI_Info info = MPI_INFO_NULL;
  int nkeys = -1;
  OK(MPI_Get_hw_resource_info(&info));
  CHECK(info != MPI_INFO_NULL, "no info");
  OK(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys == 0, "the standalone runtime promises no hardware keys: %d", nkeys);
  OK(MPI_Info_free(&info));
  check_error(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG, "hw_info is a NULL pointer");
}

int main(int argc, char **argv) {
  /* The status accessors may be called before MPI_Init. */
  MPI_Status st;
  int src = -1;
  OK(MPI_Status_set_source(&st, 2));
  OK(MPI_Status_get_source(&st, &src));
  CHECK(src == 2, "before MPI_Init: %d", src);
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  buffers();
  session_buffers();
  request_statuses();
  status_fields();
  value_index();
  remove_errors();
  hw_info();
  OK(MPI_Finalize());
  if (failures == 0) printf("RT_mpi41_additions: all checks passed\n");
  return failures != 0;
}
