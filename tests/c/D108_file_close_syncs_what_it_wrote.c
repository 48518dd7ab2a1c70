/* D108: MPI_File_close synchronises the file (MPI-4.1 §15.2.2) only when its handle changed it
 * since its last synchronisation; MPI_File_sync always does. Counted by fsync(2) calls, which this
 * program interposes (the library's calls reach this definition first) and passes on:
 *   - written, then closed: one fsync, and the data read back;
 *   - opened read-only, read, closed: none;
 *   - MPI_File_sync on a handle that wrote nothing: one; its close after: none;
 *   - written, synced, written again, closed: two;
 *   - resized (MPI_File_set_size, _preallocate), closed: one each;
 *   - a write refused (read-only handle: MPI_ERR_READ_ONLY), closed: none;
 *   - written with MPI_MODE_DELETE_ON_CLOSE, closed: none, and the file is gone.
 * Exit status 0: passed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

static int fsyncs;
int fsync(int fd) {
  static int (*real)(int);
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  ++fsyncs;
  return real(fd);
}

/* The fsync calls `step` made. */
#define SYNCS(expected, step)                                                        \
  do {                                                                               \
    const int before_ = fsyncs;                                                      \
    step;                                                                            \
    CHECK(fsyncs - before_ == (expected), "fsync calls of " #step " != " #expected); \
  } while (0)

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  char dir[] = "/tmp/mpiattr-D108-XXXXXX", path[256], gone[256];
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  snprintf(path, sizeof path, "%s/data", dir);
  snprintf(gone, sizeof gone, "%s/temporary", dir);
  const int out[4] = {1, 2, 3, 4};
  int in[4] = {0, 0, 0, 0};
  MPI_File f;

  /* Written, then closed: one; what was written reads back. */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f));
  OK(MPI_File_write(f, out, 4, MPI_INT, MPI_STATUS_IGNORE));
  SYNCS(1, OK(MPI_File_close(&f)));
  CHECK(f == MPI_FILE_NULL, "close sets MPI_FILE_NULL");

  /* Read-only, read, closed: none. */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f));
  OK(MPI_File_read(f, in, 4, MPI_INT, MPI_STATUS_IGNORE));
  CHECK(memcmp(in, out, sizeof out) == 0, "the data written read back");
  SYNCS(0, OK(MPI_File_close(&f)));

  /* A refused write changes nothing: none at close. */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f));
  OK(MPI_File_set_errhandler(f, MPI_ERRORS_RETURN));
  int cls = 0;
  OK(MPI_Error_class(MPI_File_write(f, out, 4, MPI_INT, MPI_STATUS_IGNORE), &cls));
  CHECK(cls == MPI_ERR_READ_ONLY, "a write through a read-only handle is MPI_ERR_READ_ONLY");
  SYNCS(0, OK(MPI_File_close(&f)));

  /* MPI_File_sync always synchronises; the close after it has nothing left to. */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &f));
  SYNCS(1, OK(MPI_File_sync(f)));
  SYNCS(0, OK(MPI_File_close(&f)));

  /* Written, synced, written again: the close synchronises the second write. */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &f));
  OK(MPI_File_write_at(f, 0, out, 2, MPI_INT, MPI_STATUS_IGNORE));
  SYNCS(1, OK(MPI_File_sync(f)));
  OK(MPI_File_write_at(f, 8, out, 2, MPI_INT, MPI_STATUS_IGNORE));
  SYNCS(1, OK(MPI_File_close(&f)));

  /* Resizing changes the file: one at close, for each way. */
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &f));
  OK(MPI_File_set_size(f, 8));
  SYNCS(1, OK(MPI_File_close(&f)));
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &f));
  OK(MPI_File_preallocate(f, 64));
  SYNCS(1, OK(MPI_File_close(&f)));
  MPI_Offset size = 0;
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f));
  OK(MPI_File_get_size(f, &size));
  CHECK(size == 64, "the file was resized to 8, then preallocated to 64 bytes");
  SYNCS(0, OK(MPI_File_close(&f)));

  /* Deleted at close: nothing to make durable. */
  OK(MPI_File_open(MPI_COMM_SELF, gone, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                   MPI_INFO_NULL, &f));
  OK(MPI_File_write(f, out, 4, MPI_INT, MPI_STATUS_IGNORE));
  SYNCS(0, OK(MPI_File_close(&f)));
  CHECK(access(gone, F_OK) != 0, "MPI_MODE_DELETE_ON_CLOSE deleted the file");

  OK(MPI_File_delete(path, MPI_INFO_NULL));
  CHECK(rmdir(dir) == 0, "rmdir");
  OK(MPI_Finalize());
  if (failures == 0) puts("D108 passed");
  return failures != 0;
}
