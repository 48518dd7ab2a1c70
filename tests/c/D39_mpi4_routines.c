/* D39: the MPI-3 and MPI-4 routines of apis.json (spec/surface_mpi4.toml) are declared in mpi.h and
 * link standalone. One representative of each group the runtime does not carry out refuses with
 * MPI_ERR_UNSUPPORTED_OPERATION, naming itself and why, through the right error handler and
 * without writing its outputs (as D36's routines); the tool interface (MPI_T_*) returns
 * MPI_T_ERR_NOT_SUPPORTED and calls no handler, before MPI_Init as after; what needs no runtime
 * works: MPI_Aint_add/diff, the status conversions, the File/Message/Session handle conversions.
 * Exit status 0: passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "c_errors.h"
#include "c_refusal.h"

static int handled; /* calls of the counting handler */
static MPI_Comm handled_on;
static int handled_code;
static void counting(MPI_Comm *comm, int *code, ...) {
  ++handled;
  handled_on = *comm;
  handled_code = *code;
}

/* The routines of the tool interface: a return code only, MPI initialized or not. */
static void check_tools(const char *when) {
  int provided = -1, num = -1;
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_T_ERR_NOT_SUPPORTED,
        "%s: MPI_T_init_thread did not return MPI_T_ERR_NOT_SUPPORTED", when);
  CHECK(provided == -1, "%s: MPI_T_init_thread wrote provided", when);
  CHECK(MPI_T_cvar_get_num(&num) == MPI_T_ERR_NOT_SUPPORTED && num == -1, "%s: MPI_T_cvar_get_num", when);
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  CHECK(MPI_T_pvar_session_create(&session) == MPI_T_ERR_NOT_SUPPORTED, "%s: MPI_T_pvar_session_create", when);
  CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_SUPPORTED, "%s: MPI_T_finalize", when);
}

int main(int argc, char **argv) {
  check_tools("before MPI_Init");
  OK(MPI_Init(&argc, &argv));
  check_tools("after MPI_Init");

  MPI_Comm comm;
  OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(counting, &eh));
  OK(MPI_Comm_set_errhandler(comm, eh));
  int buf[4] = {1, 2, 3, 4}, out[4] = {0};
  /* On a communicator: its handler, with its handle and the code; no output written. No MPI-3/4
   * routine on a communicator is refused any more (D48 carried out the last ones: the nonblocking
   * and persistent forms of MPI_Alltoallw and of the neighbourhood collectives), so MPI-2 routines
   * that stay refused take the same path here. */
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm newcomm = MPI_COMM_NULL;
  int errcodes[1] = {-5};
  char *no_args[] = {NULL};
  struct {
    const char *name, *why;
    int rc;
  } on_comm[4];
  int n = 0;
  on_comm[n].name = "MPI_Intercomm_merge", on_comm[n].why = "two disjoint groups",
  on_comm[n++].rc = MPI_Intercomm_merge(comm, 0, &newcomm);
  on_comm[n].name = "MPI_Intercomm_create", on_comm[n].why = "two disjoint groups",
  on_comm[n++].rc = MPI_Intercomm_create(comm, 0, comm, 0, 7, &newcomm);
  on_comm[n].name = "MPI_Comm_spawn", on_comm[n].why = "no process manager",
  on_comm[n++].rc = MPI_Comm_spawn("./nothing", no_args, 1, MPI_INFO_NULL, 0, comm, &newcomm, errcodes);
  for (int i = 0; i < n; ++i) {
    check_refusal(on_comm[i].rc, on_comm[i].name, on_comm[i].why);
  }
  CHECK(handled == n && handled_on == comm && handled_code == on_comm[n - 1].rc,
        "the communicator's handler ran %d times for %d refusals", handled, n);
  CHECK(newcomm == MPI_COMM_NULL && errcodes[0] == -5, "an output was written");

  /* No object: MPI_COMM_SELF's handler (D4), here MPI_ERRORS_RETURN. */
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  MPI_Comm inter = MPI_COMM_NULL;
  check_refusal(MPI_Intercomm_create_from_groups(MPI_GROUP_EMPTY, 0, MPI_GROUP_EMPTY, 0, "d39", MPI_INFO_NULL,
                                                 MPI_ERRORS_RETURN, &inter),
                "MPI_Intercomm_create_from_groups", "one process is one group");
  CHECK(inter == MPI_COMM_NULL, "the intercommunicator was written");
  CHECK(handled == n, "a handler other than MPI_COMM_SELF's ran");

  /* On a window: none is refused any more; the one-sided routines are carried out (D46). */

  /* A file routine, carried out since D107, on MPI_FILE_NULL, which is no file: MPI_ERR_FILE, returned
   * only (MPI_FILE_NULL's handler is MPI_ERRORS_RETURN), no output written. */
  {
    int rc = MPI_File_iread_all(MPI_FILE_NULL, out, 1, MPI_INT, &req), cls = -1;
    OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_FILE, "MPI_File_iread_all(MPI_FILE_NULL): class %d, not MPI_ERR_FILE", cls);
    CHECK(req == MPI_REQUEST_NULL && out[0] == 0, "MPI_File_iread_all wrote an output");
    CHECK(handled == n, "a handler other than MPI_FILE_NULL's ran");
  }

  /* What needs no runtime. */
  char bytes[16];
  MPI_Aint a0, a1;
  OK(MPI_Get_address(&bytes[0], &a0));
  OK(MPI_Get_address(&bytes[10], &a1));
  CHECK(MPI_Aint_diff(a1, a0) == 10, "MPI_Aint_diff gave %ld", (long)MPI_Aint_diff(a1, a0));
  CHECK(MPI_Aint_add(a0, 10) == a1, "MPI_Aint_add is not the address 10 bytes on");
  CHECK(MPI_Aint_add(a1, -10) == a0, "MPI_Aint_add with a negative displacement");

  MPI_Status cst, back;
  memset(&cst, 0, sizeof cst);
  OK(MPI_Sendrecv(buf, 3, MPI_INT, 0, 5, out, 4, MPI_INT, 0, 5, comm, &cst));
  MPI_Fint fst[MPI_F_STATUS_SIZE];
  MPI_F08_status f08;
  OK(MPI_Status_c2f(&cst, fst));
  CHECK(fst[MPI_F_SOURCE] == 0 && fst[MPI_F_TAG] == 5 && fst[MPI_F_ERROR] == cst.MPI_ERROR,
        "MPI_Status_c2f: source %d tag %d", fst[MPI_F_SOURCE], fst[MPI_F_TAG]);
  OK(MPI_Status_f2c(fst, &back));
  int count = -1;
  OK(MPI_Get_count(&back, MPI_INT, &count));
  CHECK(back.MPI_SOURCE == 0 && back.MPI_TAG == 5 && count == 3, "MPI_Status_f2c: count %d", count);
  OK(MPI_Status_c2f08(&cst, &f08));
  CHECK(f08.MPI_SOURCE == 0 && f08.MPI_TAG == 5, "MPI_Status_c2f08");
  memset(&back, 0, sizeof back);
  OK(MPI_Status_f082c(&f08, &back));
  OK(MPI_Get_count(&back, MPI_INT, &count));
  CHECK(back.MPI_TAG == 5 && count == 3, "MPI_Status_f082c: count %d", count);
  CHECK(MPI_Status_c2f(MPI_STATUS_IGNORE, fst) == MPI_ERR_ARG, "MPI_Status_c2f of MPI_STATUS_IGNORE");
  /* Between the two Fortran statuses (D51): the same integers, the count kept; a NULL pointer is
   * MPI_ERR_ARG through the no-object handler (MPI_ERRORS_RETURN here), nothing written. */
  MPI_Fint fst2[MPI_F_STATUS_SIZE];
  MPI_F08_status f08b;
  OK(MPI_Status_f082f(&f08, fst2));
  CHECK(memcmp(fst2, &f08, sizeof fst2) == 0 && fst2[MPI_F_TAG] == 5, "MPI_Status_f082f: tag %d", fst2[MPI_F_TAG]);
  memset(&f08b, 0, sizeof f08b);
  OK(MPI_Status_f2f08(fst2, &f08b));
  OK(MPI_Status_f082c(&f08b, &back));
  OK(MPI_Get_count(&back, MPI_INT, &count));
  CHECK(f08b.MPI_SOURCE == 0 && f08b.MPI_TAG == 5 && count == 3, "MPI_Status_f2f08: count %d", count);
  memset(fst2, 0x5a, sizeof fst2);
  check_error(MPI_Status_f082f(NULL, fst2), MPI_ERR_ARG, "f08_status is a NULL pointer");
  CHECK(fst2[MPI_F_TAG] == 0x5a5a5a5a, "MPI_Status_f082f of NULL wrote f_status");
  check_error(MPI_Status_f2f08(fst2, NULL), MPI_ERR_ARG, "f08_status is a NULL pointer");
  /* Fortran's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE as C sees them (MPI-4.1 section 19.3.5):
   * four distinct addresses, none a status: each conversion refuses them, nothing written
   * (test_mixed_lang.f90 checks that they are what Fortran passes). */
  CHECK(MPI_F_STATUS_IGNORE != NULL && MPI_F_STATUSES_IGNORE != NULL && MPI_F08_STATUS_IGNORE != NULL &&
        MPI_F08_STATUSES_IGNORE != NULL && MPI_F_STATUS_IGNORE != MPI_F_STATUSES_IGNORE &&
        (void*)MPI_F08_STATUS_IGNORE != (void*)MPI_F08_STATUSES_IGNORE &&
        (void*)MPI_F_STATUS_IGNORE != (void*)MPI_F08_STATUS_IGNORE, "MPI_F_STATUS_IGNORE and the like");
  memset(&back, 0x5a, sizeof back);
  CHECK(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back) == MPI_ERR_ARG &&
        MPI_Status_f2c(MPI_F_STATUSES_IGNORE, &back) == MPI_ERR_ARG &&
        MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &back) == MPI_ERR_ARG &&
        MPI_Status_f082c(MPI_F08_STATUSES_IGNORE, &back) == MPI_ERR_ARG && back.MPI_TAG == 0x5a5a5a5a,
        "MPI_Status_f2c / _f082c of Fortran's IGNOREs");
  MPI_Fint ignore_before = MPI_F_STATUS_IGNORE[MPI_F_TAG];
  CHECK(MPI_Status_c2f(&cst, MPI_F_STATUS_IGNORE) == MPI_ERR_ARG &&
        MPI_Status_c2f08(&cst, MPI_F08_STATUS_IGNORE) == MPI_ERR_ARG &&
        MPI_F_STATUS_IGNORE[MPI_F_TAG] == ignore_before, "MPI_Status_c2f / _c2f08 into Fortran's IGNOREs");
  check_error(MPI_Status_f082f(MPI_F08_STATUS_IGNORE, fst2), MPI_ERR_ARG, "f08_status is Fortran's MPI_STATUS_IGNORE");
  CHECK(fst2[MPI_F_TAG] == 0x5a5a5a5a, "MPI_Status_f082f of MPI_F08_STATUS_IGNORE wrote f_status");
  check_error(MPI_Status_f2f08(MPI_F_STATUSES_IGNORE, &f08b), MPI_ERR_ARG, "f_status is Fortran's MPI_STATUS_IGNORE");

  CHECK(MPI_Session_c2f(MPI_SESSION_NULL) == 0x120 && MPI_Session_f2c(0x120) == MPI_SESSION_NULL, "Session c2f/f2c");
  CHECK(MPI_Message_c2f(MPI_MESSAGE_NO_PROC) == 0x129 && MPI_Message_f2c(0x128) == MPI_MESSAGE_NULL, "Message c2f/f2c");
  CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL, "File c2f/f2c");

  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Comm_free(&comm));
  OK(MPI_Finalize());
  check_tools("after MPI_Finalize");
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
