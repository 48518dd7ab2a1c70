/* D109: every reduction of the standalone runtime checks a predefined operation against the
 * datatype as MPI-4.1 §7.9.2 defines it, as MPI_Reduce_local does (D45): on one process a reduction
 * only copies, and it used to accept any pair. Checked:
 *   - MPI_BAND on MPI_FLOAT, MPI_MAXLOC on MPI_INT, MPI_REPLACE and MPI_NO_OP on MPI_INT, MPI_SUM on
 *     MPI_BYTE and MPI_C_BOOL: MPI_ERR_OP, naming the section, on the communicator's handler, with
 *     the receive buffer unchanged, in MPI_Allreduce, _Reduce, _Scan, _Exscan, _Reduce_scatter_block,
 *     _Iallreduce, _Allreduce_init and MPI_Reduce_local;
 *   - the pairs the standard defines still work, MPI_REAL16 with MPI_SUM included (a copy needs no
 *     arithmetic; MPI_Reduce_local has none for it: MPI_ERR_UNSUPPORTED_OPERATION);
 *   - MPI_CHAR and MPI_CHARACTER, which §7.9.2 does not list, reduce as integers of char's sign, as
 *     both hosts do: in every reduction, MPI_Reduce_local's arithmetic and MPI_Accumulate's.
 * Exit status 0: passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"

enum { ALLREDUCE, REDUCE, SCAN, EXSCAN, REDUCE_SCATTER_BLOCK, IALLREDUCE, ALLREDUCE_INIT, REDUCE_LOCAL, NFORMS };
static const char *form_name[NFORMS] = {"MPI_Allreduce", "MPI_Reduce", "MPI_Scan", "MPI_Exscan",
                                        "MPI_Reduce_scatter_block", "MPI_Iallreduce", "MPI_Allreduce_init",
                                        "MPI_Reduce_local"};

static int reduce(int form, const void *in, void *out, MPI_Datatype t, MPI_Op op) {
  MPI_Request r = MPI_REQUEST_NULL;
  int rc;
  switch (form) {
    case ALLREDUCE: return MPI_Allreduce(in, out, 1, t, op, MPI_COMM_WORLD);
    case REDUCE: return MPI_Reduce(in, out, 1, t, op, 0, MPI_COMM_WORLD);
    case SCAN: return MPI_Scan(in, out, 1, t, op, MPI_COMM_WORLD);
    case EXSCAN: return MPI_Exscan(in, out, 1, t, op, MPI_COMM_WORLD);
    case REDUCE_SCATTER_BLOCK: return MPI_Reduce_scatter_block(in, out, 1, t, op, MPI_COMM_WORLD);
    case IALLREDUCE:
      rc = MPI_Iallreduce(in, out, 1, t, op, MPI_COMM_WORLD, &r);
      if (rc == MPI_SUCCESS) OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
      return rc;
    case ALLREDUCE_INIT:
      rc = MPI_Allreduce_init(in, out, 1, t, op, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
      if (rc == MPI_SUCCESS) {
        OK(MPI_Start(&r));
        OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        OK(MPI_Request_free(&r));
      }
      return rc;
    default: return MPI_Reduce_local(in, out, 1, t, op);
  }
}

static int handler_calls;
static void on_comm(MPI_Comm *c, int *code, ...) { (void)c; (void)code; ++handler_calls; }

static int class_of(int rc) {
  int c = -1;
  OK(MPI_Error_class(rc, &c));
  return c;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(on_comm, &eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh)); /* MPI_Reduce_local's (no communicator) */

  const struct { MPI_Datatype t; MPI_Op op; const char *what; } refused[] = {
      {MPI_FLOAT, MPI_BAND, "MPI_BAND"},     {MPI_INT, MPI_MAXLOC, "MPI_MAXLOC"},
      {MPI_INT, MPI_REPLACE, "MPI_REPLACE"}, {MPI_INT, MPI_NO_OP, "MPI_NO_OP"},
      {MPI_BYTE, MPI_SUM, "MPI_SUM"},        {MPI_C_BOOL, MPI_SUM, "MPI_SUM"},
  };
  for (int form = 0; form < NFORMS; ++form)
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
      char in[32], out[32], before[32];
      memset(in, 7, sizeof in);
      memset(out, 0x5a, sizeof out);
      memcpy(before, out, sizeof out);
      const int calls = handler_calls;
      const int rc = reduce(form, in, out, refused[i].t, refused[i].op);
      char msg[MPI_MAX_ERROR_STRING] = "";
      int len = 0;
      if (rc != MPI_SUCCESS) OK(MPI_Error_string(rc, msg, &len));
      CHECK(class_of(rc) == MPI_ERR_OP, "%s with %s (case %zu): MPI_ERR_OP", form_name[form], refused[i].what, i);
      CHECK(strstr(msg, refused[i].what) && strstr(msg, "7.9.2"), "%s: the message names the operation and "
            "the section: %s", form_name[form], msg);
      CHECK(handler_calls == calls + 1, "%s: raised on the handler once", form_name[form]);
      CHECK(memcmp(out, before, sizeof out) == 0, "%s: the receive buffer is unchanged", form_name[form]);
    }

  /* Defined pairs work; MPI_CHAR and MPI_CHARACTER reduce as integers. */
  for (int form = 0; form < NFORMS; ++form) {
    int iv = 5, io = 3;
    OK(reduce(form, &iv, &io, MPI_INT, MPI_SUM));
    if (form == REDUCE_LOCAL) CHECK(io == 8, "MPI_Reduce_local MPI_SUM on MPI_INT: 5 + 3");
    char c = -3, co = 5;
    OK(reduce(form, &c, &co, MPI_CHAR, MPI_MAX));
    if (form == REDUCE_LOCAL) CHECK(co == 5, "MPI_Reduce_local MPI_MAX on MPI_CHAR: max(-3, 5)");
    else if (form != EXSCAN) CHECK(co == -3, "%s of MPI_CHAR on one process: the value sent", form_name[form]);
    char f = 40, fo = 2;
    OK(reduce(form, &f, &fo, MPI_CHARACTER, MPI_SUM));
    if (form == REDUCE_LOCAL) CHECK(fo == 42, "MPI_Reduce_local MPI_SUM on MPI_CHARACTER: 40 + 2");
    if (MPI_REAL16 != MPI_DATATYPE_NULL) {
      long double q = 1.5L, qo = 0.0L;
      const int calls = handler_calls;
      const int rc = reduce(form, &q, &qo, MPI_REAL16, MPI_SUM);
      if (form == REDUCE_LOCAL) {
        CHECK(class_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION && handler_calls == calls + 1,
              "MPI_Reduce_local on MPI_REAL16: no arithmetic here (D45)");
      } else {
        CHECK(rc == MPI_SUCCESS, "%s MPI_SUM on MPI_REAL16: defined, and a copy on one process", form_name[form]);
      }
    }
  }

  /* MPI_Accumulate's arithmetic takes MPI_CHAR as the reductions do. */
  char wbuf[2] = {10, 20};
  MPI_Win win;
  OK(MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  OK(MPI_Win_fence(0, win));
  const char add[2] = {1, -30};
  OK(MPI_Accumulate(add, 2, MPI_CHAR, 0, 0, 2, MPI_CHAR, MPI_SUM, win));
  OK(MPI_Win_fence(0, win));
  CHECK(wbuf[0] == 11 && wbuf[1] == -10, "MPI_Accumulate MPI_SUM on MPI_CHAR: 10 + 1, 20 - 30");
  OK(MPI_Win_free(&win));

  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Finalize());
  if (failures == 0) puts("D109 passed");
  return failures != 0;
}
