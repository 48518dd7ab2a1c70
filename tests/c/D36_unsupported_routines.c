/* D36: a routine the standalone runtime does not carry out (spec/surface.toml) links, and refuses
 * with MPI_ERR_UNSUPPORTED_OPERATION through the right error handler, with a message that names the
 * routine and why, and changes nothing:
 *   - on a communicator or window: that object's handler (here a counting one, and
 *     MPI_ERRORS_RETURN);
 *   - with no object: the no-object handler (MPI_COMM_SELF's, D4);
 *   - an I/O routine that takes no file (every one is carried out now, D107, D118: here
 *     MPI_Register_datarep's own error, a name registered twice, MPI_ERR_DUP_DATAREP) uses
 *     MPI_FILE_NULL's handler, MPI_ERRORS_RETURN by default (only returned, even with
 *     MPI_COMM_WORLD at MPI_ERRORS_ARE_FATAL), else the one the program set on MPI_FILE_NULL;
 *     MPI_File_set_errhandler accepts only MPI_FILE_NULL or an open file (MPI_ERR_FILE) and a file
 *     handler (MPI_ERR_ARG);
 *   - the attribute cached on the communicator is untouched, and no output argument is written.
 * Exit status 0: passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "c_refusal.h"

static int handled;      /* calls of the counting handler */
static MPI_Comm handled_on;
static int handled_code;
static int file_handled; /* calls of the counting file handler */
static int file_handled_code;
static void file_counting(MPI_File *fh, int *code, ...) {
  if (*fh == MPI_FILE_NULL) file_handled++;
  file_handled_code = *code;
}
static int datarep_extent(MPI_Datatype type, MPI_Aint *extent, void *state) {
  (void)type;
  (void)state;
  *extent = 4;
  return MPI_SUCCESS;
}
static int error_class_of(int rc) {
  int cls = -1;
  OK(MPI_Error_class(rc, &cls));
  return cls;
}
static void counting(MPI_Comm *comm, int *code, ...) {
  ++handled;
  handled_on = *comm;
  handled_code = *code;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Comm comm;
  OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  int keyval, value = 42, *got = NULL, flag = 0;
  OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
  OK(MPI_Comm_set_attr(comm, keyval, &value));
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(counting, &eh));
  OK(MPI_Comm_set_errhandler(comm, eh));

  /* On a communicator: its handler, once, with its handle and the returned code. */
  int remote = -7; /* must stay as it is */
  int rc = MPI_Comm_remote_size(comm, &remote);
  check_refusal(rc, "MPI_Comm_remote_size", "two disjoint groups");
  CHECK(handled == 1 && handled_on == comm && handled_code == rc,
        "the communicator's handler ran %d times (on the right one: %d, with the code: %d)", handled,
        handled_on == comm, handled_code == rc);
  CHECK(remote == -7, "the remote size was written");

  MPI_Comm inter = MPI_COMM_WORLD;
  rc = MPI_Intercomm_create(comm, 0, MPI_COMM_WORLD, 0, 7, &inter);
  check_refusal(rc, "MPI_Intercomm_create", "two disjoint groups");
  CHECK(handled == 2, "the handler of the local communicator did not run");
  CHECK(inter == MPI_COMM_WORLD, "the output communicator was written");

  /* The attribute is untouched. */
  OK(MPI_Comm_get_attr(comm, keyval, &got, &flag));
  CHECK(flag && got == &value && *got == 42, "the attribute changed (flag %d)", flag);

  /* No object: MPI_COMM_SELF's handler (D4), here MPI_ERRORS_RETURN. */
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  char port[MPI_MAX_PORT_NAME] = "unchanged";
  rc = MPI_Open_port(MPI_INFO_NULL, port);
  check_refusal(rc, "MPI_Open_port", "no process manager");
  CHECK(strcmp(port, "unchanged") == 0, "the port name was written: '%s'", port);
  CHECK(handled == 2, "a handler other than MPI_COMM_SELF's ran");

  /* An invalid communicator is that error first, as a routine carried out raises it (D103; both
   * hosts answer MPI_ERR_COMM too): no-object handler, nothing written. */
  rc = MPI_Comm_remote_size(MPI_COMM_NULL, &remote);
  CHECK(error_class_of(rc) == MPI_ERR_COMM, "MPI_Comm_remote_size(MPI_COMM_NULL): class %d", error_class_of(rc));
  MPI_Group rg = MPI_GROUP_EMPTY;
  rc = MPI_Comm_remote_group(MPI_COMM_NULL, &rg);
  CHECK(error_class_of(rc) == MPI_ERR_COMM && rg == MPI_GROUP_EMPTY, "MPI_Comm_remote_group(MPI_COMM_NULL): class %d",
        error_class_of(rc));
  rc = MPI_Intercomm_merge(MPI_COMM_NULL, 0, &inter);
  CHECK(error_class_of(rc) == MPI_ERR_COMM && inter == MPI_COMM_WORLD, "MPI_Intercomm_merge(MPI_COMM_NULL): class %d",
        error_class_of(rc));
  CHECK(remote == -7 && handled == 2, "remote size %d, the communicator's handler ran %d times", remote, handled);

  /* An I/O routine without a file: returned only, MPI_COMM_WORLD's MPI_ERRORS_ARE_FATAL
   * notwithstanding. */
  OK(MPI_Register_datarep("mpiattr-D36", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, datarep_extent, NULL));
  rc = MPI_Register_datarep("mpiattr-D36", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, datarep_extent, NULL);
  CHECK(error_class_of(rc) == MPI_ERR_DUP_DATAREP, "MPI_Register_datarep of a name registered: class %d",
        error_class_of(rc));
  CHECK(handled == 2, "a handler other than MPI_FILE_NULL's ran");

  /* With a handler of the program's on MPI_FILE_NULL, that one runs. */
  MPI_Errhandler feh;
  OK(MPI_File_create_errhandler(file_counting, &feh));
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, feh));
  rc = MPI_Register_datarep("mpiattr-D36", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, datarep_extent, NULL);
  CHECK(error_class_of(rc) == MPI_ERR_DUP_DATAREP, "MPI_Register_datarep of a name registered: class %d",
        error_class_of(rc));
  CHECK(file_handled == 1 && file_handled_code == rc, "MPI_FILE_NULL's handler ran %d times", file_handled);
  /* MPI_FILE_NULL takes only file handlers, and a handle that is no file is MPI_ERR_FILE; failures
   * go to its handler. */
  rc = MPI_File_set_errhandler(MPI_FILE_NULL, eh);
  CHECK(error_class_of(rc) == MPI_ERR_ARG, "a communicator's handler set on MPI_FILE_NULL: %d", rc);
  CHECK(file_handled == 2, "the refusal went to another handler");
  MPI_File bogus = (MPI_File)MPI_COMM_WORLD;
  rc = MPI_File_set_errhandler(bogus, feh);
  CHECK(error_class_of(rc) == MPI_ERR_FILE, "a handle that is not a file: %d", rc);
  CHECK(file_handled == 3, "the refusal went to another handler");
  MPI_Errhandler got_eh;
  OK(MPI_File_get_errhandler(MPI_FILE_NULL, &got_eh));
  CHECK(got_eh == feh, "MPI_File_get_errhandler gave another handler");
  OK(MPI_Errhandler_free(&got_eh));
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&feh));

  /* Before MPI_Init or after MPI_Finalize such a routine fails like any other (R10.5); not
   * tested here: MPI_ERRORS_ARE_FATAL would end the program. */
  OK(MPI_Comm_delete_attr(comm, keyval));
  OK(MPI_Comm_free_keyval(&keyval));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Comm_free(&comm));
  OK(MPI_Finalize());
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
