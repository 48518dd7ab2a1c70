/* D107: what mpiattr's standalone MPI-IO decided where the standard leaves it to the implementation
 * or the hosts differ (RT_file_io_one_process.c compares what the standard fixes with MPICH and
 * Open MPI). Checked on one process:
 *   - a ROMIO file-system prefix ("ufs:") is dropped from the name, in MPI_File_open and _delete;
 *   - a failed system call names the routine, the path and the system's reason;
 *   - "external32": MPI_File_get_type_extent gives external32's extent (MPI_LONG: 4); an access or
 *     view through a type whose external32 size differs (MPI_LONG) is MPI_ERR_UNSUPPORTED_DATAREP
 *     and changes nothing; an MPI_INT view writes big-endian bytes;
 *   - a read that reaches the end of the file inside an etype leaves the individual pointer at
 *     that etype, which a read after the file has grown reads whole;
 *   - MPI_MODE_SEQUENTIAL: MPI_File_seek_shared and _get_position are
 *     MPI_ERR_UNSUPPORTED_OPERATION, MPI_DISPLACEMENT_CURRENT puts the view at the shared
 *     pointer, which the accesses move;
 *   - split collectives: a second _begin is MPI_ERR_IO, an _end of another kind MPI_ERR_IO, an
 *     _end with another buffer MPI_ERR_BUFFER; each leaves the begun one pending, whose right
 *     _end then gives its status;
 *   - a file's error handler is MPI_FILE_NULL's at open; changing MPI_FILE_NULL's later does not
 *     reach it; a closed file's handle is MPI_ERR_FILE, raised on MPI_FILE_NULL's handler;
 *   - MPI_File_get_info gives back the hints given, and MPI_File_set_info merges;
 *   - mpio.h exists, and MPIO_REQUEST_NULL (MPICH's, beside the names both hosts have) is
 *     MPI_REQUEST_NULL.
 * Exit status 0: passed. */
#include <mpi.h>
#include <mpio.h> /* ROMIO's header, as programs written for MPICH include it (D107) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

static int cls_of(int rc) {
  int c = -1;
  OK(MPI_Error_class(rc, &c));
  return c;
}
static int says(int rc, const char *what) {
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  OK(MPI_Error_string(rc, msg, &len));
  return strstr(msg, what) != NULL;
}

static int null_calls, file_calls;
static MPI_File file_seen;
static void on_null(MPI_File *f, int *code, ...) { (void)f; (void)code; ++null_calls; }
static void on_file(MPI_File *f, int *code, ...) { (void)code; ++file_calls; file_seen = *f; }

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  char dir[] = "/tmp/mpiattr-D107-XXXXXX", path[256], prefixed[300];
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  snprintf(path, sizeof path, "%s/a.dat", dir);
  snprintf(prefixed, sizeof prefixed, "ufs:%s", path);
  MPI_File fh;
  MPI_Status st;
  int n = -1;

  /* A ROMIO prefix names the same file. */
  OK(MPI_File_open(MPI_COMM_SELF, prefixed, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  CHECK(access(path, F_OK) == 0, "ufs:%s did not create %s", path, path);
  OK(MPI_File_close(&fh));
  OK(MPI_File_delete(prefixed, MPI_INFO_NULL));
  CHECK(access(path, F_OK) != 0, "MPI_File_delete of ufs:%s left the file", path);
  int rc = MPI_File_delete(path, MPI_INFO_NULL);
  CHECK(cls_of(rc) == MPI_ERR_NO_SUCH_FILE, "delete of a missing file: class %d", cls_of(rc));
  CHECK(says(rc, "MPI_File_delete") && says(rc, path) && says(rc, "No such file"),
        "the message does not name the routine, the path and the reason");

  /* external32 */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
  MPI_Aint ext = -1;
  OK(MPI_File_get_type_extent(fh, MPI_LONG, &ext));
  CHECK(ext == 4, "external32 extent of MPI_LONG %ld, not 4", (long)ext);
  OK(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
  CHECK(ext == 8, "external32 extent of MPI_DOUBLE %ld, not 8", (long)ext);
  long lv = 5;
  rc = MPI_File_write(fh, &lv, 1, MPI_LONG, &st);
  CHECK(cls_of(rc) == MPI_ERR_UNSUPPORTED_DATAREP && says(rc, "external32"), "an MPI_LONG access: class %d",
        cls_of(rc));
  MPI_Offset size = -1, pos = -1;
  OK(MPI_File_get_size(fh, &size));
  OK(MPI_File_get_position(fh, &pos));
  CHECK(size == 0 && pos == 0, "the refused access changed the file (size %lld, position %lld)", (long long)size,
        (long long)pos);
  rc = MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL);
  CHECK(cls_of(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "an MPI_LONG view: class %d", cls_of(rc));
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_Datatype et, ft;
  MPI_Offset disp = -1;
  OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
  CHECK(strcmp(rep, "external32") == 0 && et == MPI_INT && ft == MPI_INT, "the refused view changed it (%s)", rep);
  int iv = 0x01020304;
  OK(MPI_File_write(fh, &iv, 1, MPI_INT, &st));
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  unsigned char b[4] = {0};
  OK(MPI_File_read_at(fh, 0, b, 4, MPI_BYTE, &st));
  CHECK(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 4, "external32 wrote %02x %02x %02x %02x", b[0], b[1], b[2],
        b[3]);
  OK(MPI_File_close(&fh));

  /* MPI_MODE_SEQUENTIAL */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
  rc = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  CHECK(cls_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "seek_shared on a sequential file: class %d", cls_of(rc));
  rc = MPI_File_get_position(fh, &pos);
  CHECK(cls_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "get_position on a sequential file: class %d", cls_of(rc));
  int two[2] = {7, 8};
  OK(MPI_File_write_shared(fh, two, 2, MPI_INT, &st));
  OK(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
  CHECK(disp == 8, "MPI_DISPLACEMENT_CURRENT gave displacement %lld, not 8", (long long)disp);
  OK(MPI_File_write_shared(fh, two, 1, MPI_INT, &st));
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 1, "shared position %lld, not 1", (long long)pos);
  OK(MPI_File_close(&fh));

  /* A read that reaches the end of the file inside an etype: the pointer stays at that etype, so
   * that a read after the file has grown reads it whole. */
  {
    char short_path[300];
    snprintf(short_path, sizeof short_path, "%s/short.dat", dir);
    OK(MPI_File_open(MPI_COMM_SELF, short_path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                     MPI_INFO_NULL, &fh));
    const unsigned char bytes[10] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0};
    OK(MPI_File_write_at(fh, 0, bytes, 10, MPI_BYTE, &st));
    OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    int four[4] = {0, 0, 0, 0}, got = -1;
    OK(MPI_File_read(fh, four, 4, MPI_INT, &st));
    OK(MPI_Get_count(&st, MPI_INT, &got));
    CHECK(got == MPI_UNDEFINED, "a read ending inside an int: count %d, not MPI_UNDEFINED", got);
    OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 2, "after 2 whole ints and half of the third, position %lld, not 2", (long long)pos);
    MPI_File other; /* (another handle on the file, with the default byte view, makes it grow) */
    const unsigned char rest[2] = {0, 0};
    OK(MPI_File_open(MPI_COMM_SELF, short_path, MPI_MODE_RDWR, MPI_INFO_NULL, &other));
    OK(MPI_File_write_at(other, 10, rest, 2, MPI_BYTE, &st));
    OK(MPI_File_close(&other));
    int third = -1;
    OK(MPI_File_read(fh, &third, 1, MPI_INT, &st));
    CHECK(third == 3, "the third int, read whole once the file grew: %d, not 3", third);
    OK(MPI_File_close(&fh));
  }

  /* Split collectives */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  int r[3] = {0, 0, 0}, other[3];
  OK(MPI_File_read_all_begin(fh, r, 3, MPI_INT));
  rc = MPI_File_read_at_all_begin(fh, 0, other, 1, MPI_INT);
  CHECK(cls_of(rc) == MPI_ERR_IO, "a second begin: class %d", cls_of(rc));
  rc = MPI_File_write_all_end(fh, r, &st);
  CHECK(cls_of(rc) == MPI_ERR_IO, "an end of another kind: class %d", cls_of(rc));
  rc = MPI_File_read_all_end(fh, other, &st);
  CHECK(cls_of(rc) == MPI_ERR_BUFFER, "an end with another buffer: class %d", cls_of(rc));
  OK(MPI_File_read_all_end(fh, r, &st));
  OK(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == 3 && r[0] == 7 && r[1] == 8 && r[2] == 7, "the split read gave %d ints: %d %d %d", n, r[0], r[1], r[2]);
  rc = MPI_File_read_all_end(fh, r, &st);
  CHECK(cls_of(rc) == MPI_ERR_IO, "an end with none begun: class %d", cls_of(rc));

  /* Hints */
  MPI_Info info, got;
  OK(MPI_Info_create(&info));
  OK(MPI_Info_set(info, "cb_nodes", "1"));
  OK(MPI_File_set_info(fh, info));
  OK(MPI_Info_set(info, "cb_nodes", "2"));
  OK(MPI_Info_set(info, "striping_unit", "4096"));
  OK(MPI_File_set_info(fh, info));
  OK(MPI_File_get_info(fh, &got));
  int nkeys = -1, flag = 0;
  char value[MPI_MAX_INFO_VAL + 1];
  OK(MPI_Info_get_nkeys(got, &nkeys));
  OK(MPI_Info_get(got, "cb_nodes", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(nkeys == 2 && flag && strcmp(value, "2") == 0, "get_info: %d keys, cb_nodes %s", nkeys, flag ? value : "-");
  OK(MPI_Info_free(&got));
  OK(MPI_Info_free(&info));

  /* Error handlers: MPI_FILE_NULL's at open, and only then. */
  MPI_Errhandler null_eh, file_eh, eh;
  OK(MPI_File_create_errhandler(on_null, &null_eh));
  OK(MPI_File_create_errhandler(on_file, &file_eh));
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, file_eh));
  MPI_File g;
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &g));
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, null_eh));
  rc = MPI_File_write(g, two, 1, MPI_INT, &st);
  CHECK(cls_of(rc) == MPI_ERR_READ_ONLY && file_calls == 1 && file_seen == g && null_calls == 0,
        "a write to a read-only file: class %d, the file's handler %d, MPI_FILE_NULL's %d", cls_of(rc), file_calls,
        null_calls);
  OK(MPI_File_get_errhandler(g, &eh));
  CHECK(eh == file_eh, "the file's handler is not the one MPI_FILE_NULL had at open");
  OK(MPI_Errhandler_free(&eh));
  MPI_File closed = g;
  OK(MPI_File_close(&g));
  rc = MPI_File_get_size(closed, &size);
  CHECK(cls_of(rc) == MPI_ERR_FILE && null_calls == 1 && file_calls == 1,
        "a closed file: class %d, MPI_FILE_NULL's handler %d, the old file's %d", cls_of(rc), null_calls, file_calls);
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&null_eh));
  OK(MPI_Errhandler_free(&file_eh));

  MPIO_Request req = MPIO_REQUEST_NULL;
  CHECK(req == MPI_REQUEST_NULL, "MPIO_REQUEST_NULL is not MPI_REQUEST_NULL");
  OK(MPI_File_iread_at(fh, 0, r, 1, MPI_INT, &req));
  OK(MPIO_Wait(&req, &st));
  CHECK(r[0] == 7 && req == MPI_REQUEST_NULL, "MPIO_Wait: %d", r[0]);
  OK(MPI_File_close(&fh));
  OK(MPI_File_delete(path, MPI_INFO_NULL));
  CHECK(rmdir(dir) == 0, "the directory was not empty");
  OK(MPI_Finalize());
  return failures != 0;
}
