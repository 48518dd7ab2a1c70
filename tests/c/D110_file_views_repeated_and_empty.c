/* D110: two file views MPI-4.1 §15.3 allows and the standalone runtime refused (found by running
 * parallel HDF5 1.10.8 built standalone and cutting its calls down):
 *   - a filetype that names an etype twice ("not required to be distinct"): a view on a file opened
 *     MPI_MODE_RDONLY, read as etypes 0, 1, 1, 2; on a file opened for writing the regions overlap,
 *     which §15.3 forbids: MPI_ERR_TYPE saying so; decreasing displacements stay MPI_ERR_TYPE;
 *   - a filetype that holds no data (MPI_Type_create_hindexed of count 0, what a process with
 *     nothing to access sets): the view is set; a read through it reads nothing (count 0, the
 *     pointer stays), a write of data is MPI_ERR_IO and changes nothing, an access of count 0
 *     succeeds; positions and byte offsets are the displacement; another view can follow.
 * Exit status 0: passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

static int class_of(int rc) {
  int c = -1;
  OK(MPI_Error_class(rc, &c));
  return c;
}
static int says(int rc, const char *what) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  OK(MPI_Error_string(rc, msg, &len));
  return strstr(msg, what) != NULL;
}
static MPI_Datatype ints_at(int n, const MPI_Aint *disps) {
  int lens[4] = {1, 1, 1, 1};
  MPI_Datatype t;
  OK(MPI_Type_create_hindexed(n, lens, disps, MPI_INT, &t));
  OK(MPI_Type_commit(&t));
  return t;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  char dir[] = "/tmp/mpiattr-D110-XXXXXX", path[256];
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  snprintf(path, sizeof path, "%s/data", dir);
  const int data[4] = {10, 11, 12, 13};
  MPI_File f;
  MPI_Status st;
  int n = -1, rc;
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f));
  OK(MPI_File_write_at(f, 0, data, 4, MPI_INT, MPI_STATUS_IGNORE));
  OK(MPI_File_close(&f));

  /* An etype named twice: legal read-only, an overlap when writable; decreasing: never. */
  const MPI_Aint repeated[4] = {0, 4, 4, 8}, decreasing[2] = {8, 4};
  MPI_Datatype rep = ints_at(4, repeated), dec = ints_at(2, decreasing);
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f));
  OK(MPI_File_set_errhandler(f, MPI_ERRORS_RETURN));
  OK(MPI_File_set_view(f, 0, MPI_INT, rep, "native", MPI_INFO_NULL));
  int r[4] = {-1, -1, -1, -1};
  OK(MPI_File_read_at(f, 0, r, 4, MPI_INT, &st));
  OK(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == 4 && r[0] == 10 && r[1] == 11 && r[2] == 11 && r[3] == 12, "read through 0,1,1,2: %d %d %d %d (%d)",
        r[0], r[1], r[2], r[3], n);
  rc = MPI_File_set_view(f, 0, MPI_INT, dec, "native", MPI_INFO_NULL);
  CHECK(class_of(rc) == MPI_ERR_TYPE && says(rc, "decrease"), "decreasing displacements: MPI_ERR_TYPE");
  OK(MPI_File_close(&f));
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &f));
  OK(MPI_File_set_errhandler(f, MPI_ERRORS_RETURN));
  rc = MPI_File_set_view(f, 0, MPI_INT, rep, "native", MPI_INFO_NULL);
  CHECK(class_of(rc) == MPI_ERR_TYPE && says(rc, "overlap"), "an etype named twice on a writable file: overlap");
  /* The view before stays (bytes from 0): explicit offset 3 is byte 3. */
  const unsigned char mark = 0xab;
  unsigned char back[4] = {0, 0, 0, 0};
  OK(MPI_File_write_at(f, 3, &mark, 1, MPI_BYTE, MPI_STATUS_IGNORE));
  OK(MPI_File_read_at(f, 0, back, 4, MPI_BYTE, MPI_STATUS_IGNORE));
  CHECK(back[3] == mark && memcmp(back, data, 3) == 0, "the refused view left the byte view in place");
  OK(MPI_File_write_at(f, 0, data, 4, MPI_INT, MPI_STATUS_IGNORE));

  /* A filetype without data. */
  MPI_Datatype empty = ints_at(0, repeated);
  OK(MPI_File_set_view(f, 8, MPI_INT, empty, "native", MPI_INFO_NULL));
  r[0] = r[1] = r[2] = r[3] = -1;
  OK(MPI_File_read(f, r, 4, MPI_INT, &st));
  OK(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == 0 && r[0] == -1 && r[3] == -1, "a read through an empty view reads nothing (%d)", n);
  OK(MPI_File_read_at(f, 2, r, 4, MPI_INT, &st));
  OK(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == 0 && r[0] == -1, "read_at through an empty view reads nothing (%d)", n);
  MPI_Offset pos = -1, byte = -1, size = -1;
  OK(MPI_File_get_position(f, &pos));
  CHECK(pos == 0, "the pointer stays at 0 (%lld)", (long long)pos);
  rc = MPI_File_write(f, data, 4, MPI_INT, &st);
  CHECK(class_of(rc) == MPI_ERR_IO && says(rc, "no data"), "a write of data through an empty view: MPI_ERR_IO");
  rc = MPI_File_write_at_all(f, 0, data, 1, MPI_INT, &st);
  CHECK(class_of(rc) == MPI_ERR_IO, "write_at_all of data through an empty view: MPI_ERR_IO");
  OK(MPI_File_write_all(f, data, 0, MPI_INT, &st));
  OK(MPI_File_read_all(f, r, 0, MPI_INT, &st));
  OK(MPI_File_get_position(f, &pos));
  OK(MPI_File_get_byte_offset(f, 2, &byte));
  OK(MPI_File_get_size(f, &size));
  CHECK(pos == 0 && byte == 8 && size == 16, "position %lld, byte offset %lld (the displacement), size %lld",
        (long long)pos, (long long)byte, (long long)size);
  OK(MPI_File_seek(f, 0, MPI_SEEK_END));
  OK(MPI_File_get_position(f, &pos));
  CHECK(pos == 0, "MPI_SEEK_END of an empty view: 0 (%lld)", (long long)pos);
  OK(MPI_File_set_view(f, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  OK(MPI_File_read_at(f, 0, r, 4, MPI_INT, &st));
  CHECK(memcmp(r, data, sizeof data) == 0, "the file is unchanged, and a view can follow");
  OK(MPI_File_close(&f));

  OK(MPI_Type_free(&rep));
  OK(MPI_Type_free(&dec));
  OK(MPI_Type_free(&empty));
  OK(MPI_File_delete(path, MPI_INFO_NULL));
  CHECK(rmdir(dir) == 0, "rmdir");
  OK(MPI_Finalize());
  if (failures == 0) puts("D110 passed");
  return failures != 0;
}
