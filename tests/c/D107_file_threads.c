/* D107: at MPI_THREAD_MULTIPLE, threads may access one file at once (MPI-4.1 §15.6.1 leaves the
 * order to the program, not the consistency of the pointers). Four threads each write 200 ints
 * with their number through the shared file pointer, one at a time, while each also writes and
 * reads its own region through explicit offsets: afterwards the shared pointer is at 800, the
 * shared region holds 200 of each number (no access lost or written over), and each thread read
 * back what it wrote. Exit status 0: passed. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

enum { THREADS = 4, EACH = 200, OWN_AT = 10000 }; /* own regions start at int 10000 */

static MPI_File fh;
static int bad_own[THREADS], failed_calls[THREADS];

static void *writer(void *arg) {
  const int id = (int)(long)arg;
  for (int i = 0; i < EACH; ++i) {
    int v = id, back = -1;
    MPI_Status st;
    const MPI_Offset own = OWN_AT + (MPI_Offset)id * EACH + i;
    if (MPI_File_write_shared(fh, &v, 1, MPI_INT, &st) != MPI_SUCCESS) ++failed_calls[id];
    int w = id * 1000 + i;
    if (MPI_File_write_at(fh, own, &w, 1, MPI_INT, &st) != MPI_SUCCESS) ++failed_calls[id];
    if (MPI_File_read_at(fh, own, &back, 1, MPI_INT, &st) != MPI_SUCCESS) ++failed_calls[id];
    if (back != w) ++bad_own[id];
  }
  return NULL;
}

int main(int argc, char **argv) {
  int provided = 0;
  OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
  char path[64];
  snprintf(path, sizeof path, "/tmp/mpiattr-D107-threads-%ld.dat", (long)getpid());
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                   MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; ++i) CHECK(pthread_create(&t[i], NULL, writer, (void *)i) == 0, "thread %ld", i);
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; ++i)
    CHECK(failed_calls[i] == 0 && bad_own[i] == 0, "thread %d: %d calls failed, %d reads gave another value", i,
          failed_calls[i], bad_own[i]);
  MPI_Offset pos = -1;
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == THREADS * EACH, "shared pointer at %lld, not %d", (long long)pos, THREADS * EACH);
  static int all[THREADS * EACH];
  MPI_Status st;
  int n = -1, seen[THREADS] = {0};
  OK(MPI_File_read_at(fh, 0, all, THREADS * EACH, MPI_INT, &st));
  OK(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == THREADS * EACH, "read %d ints of the shared region", n);
  for (int i = 0; i < n; ++i)
    if (all[i] >= 0 && all[i] < THREADS) ++seen[all[i]];
  for (int i = 0; i < THREADS; ++i) CHECK(seen[i] == EACH, "thread %d's number appears %d times, not %d", i, seen[i], EACH);
  OK(MPI_File_close(&fh));
  OK(MPI_Finalize());
  return failures != 0;
}
