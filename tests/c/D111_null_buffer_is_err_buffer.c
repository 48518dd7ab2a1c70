/* D111: a NULL buffer with data to carry is MPI_ERR_BUFFER on the routine's handler, not a fault
 * (IMB-IO's check mode passes MPI_Gather a NULL receive buffer; the standalone runtime faulted in
 * the copy, MPICH says MPI_ERR_BUFFER). Checked on one process:
 *   - MPI_Gather's recvbuf, MPI_Bcast, MPI_Send, MPI_Sendrecv's recvbuf, MPI_Allreduce, MPI_Iallreduce,
 *     MPI_Reduce_local, MPI_Pack, MPI_Put's origin, MPI_File_write and MPI_Gather_c: MPI_ERR_BUFFER
 *     naming the buffer, on the communicator's, window's or file's handler, nothing written;
 *   - D149: the vector collectives' buffers (their counts are arrays), MPI_Pack's outbuf, MPI_Unpack's
 *     inbuf and MPI_Get_accumulate's origin (unless MPI_NO_OP), which faulted; and MPI_ERR_ARG for
 *     MPI_Request_get_status_some's NULL array_of_indices; MPI_IN_PLACE outside the collectives
 *     (point-to-point, packing, RMA), MPI_Fetch_and_op's and MPI_Compare_and_swap's buffers,
 *     MPI_Win_create and MPI_Buffer_attach at NULL, and the persistent and partitioned _init forms'
 *     buffers;
 *   - legal NULLs still work: a count of 0, a datatype without data, MPI_IN_PLACE, and MPI_BOTTOM
 *     with a datatype of absolute addresses (MPI_Bcast, MPI_Sendrecv: the data arrive).
 * Exit status 0: passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

static int comm_calls, win_calls, file_calls;
static void on_comm(MPI_Comm *c, int *code, ...) { (void)c; (void)code; ++comm_calls; }
static void on_win(MPI_Win *w, int *code, ...) { (void)w; (void)code; ++win_calls; }
static void on_file(MPI_File *f, int *code, ...) { (void)f; (void)code; ++file_calls; }

static int refused(int rc, const char *name, int *calls, int before) {
  int cls = -1, len = 0;
  char msg[MPI_MAX_ERROR_STRING] = "";
  OK(MPI_Error_class(rc, &cls));
  if (rc != MPI_SUCCESS) OK(MPI_Error_string(rc, msg, &len));
  return cls == MPI_ERR_BUFFER && strstr(msg, name) != NULL && *calls == before + 1;
}
#define REFUSED(call, name, calls)                                                   \
  do {                                                                               \
    const int before_ = (calls);                                                     \
    const int rc_ = (call);                                                          \
    CHECK(refused(rc_, name, &(calls), before_), "%s: MPI_ERR_BUFFER naming %s", #call, name); \
  } while (0)

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Errhandler ceh, weh, feh;
  OK(MPI_Comm_create_errhandler(on_comm, &ceh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, ceh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, ceh));
  int v[4] = {1, 2, 3, 4}, w[4] = {9, 9, 9, 9};

  REFUSED(MPI_Gather(v, 4, MPI_INT, NULL, 4, MPI_INT, 0, MPI_COMM_WORLD), "recvbuf", comm_calls);
  REFUSED(MPI_Gather_c(v, 4, MPI_INT, NULL, 4, MPI_INT, 0, MPI_COMM_WORLD), "recvbuf", comm_calls);
  REFUSED(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD), "buffer", comm_calls);
  REFUSED(MPI_Send(NULL, 2, MPI_INT, 0, 0, MPI_COMM_WORLD), "buf", comm_calls);
  REFUSED(MPI_Sendrecv(v, 4, MPI_INT, 0, 0, NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "recvbuf",
          comm_calls);
  REFUSED(MPI_Allreduce(v, NULL, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "recvbuf", comm_calls);
  MPI_Request req = MPI_REQUEST_NULL;
  REFUSED(MPI_Iallreduce(NULL, w, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), "sendbuf", comm_calls);
  CHECK(req == MPI_REQUEST_NULL, "a refused MPI_Iallreduce makes no request");
  REFUSED(MPI_Reduce_local(v, NULL, 4, MPI_INT, MPI_SUM), "inoutbuf", comm_calls);
  char packed[64];
  int pos = 0;
  REFUSED(MPI_Pack(NULL, 4, MPI_INT, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD), "inbuf", comm_calls);
  CHECK(pos == 0, "a refused MPI_Pack leaves the position");
  CHECK(memcmp(w, (int[4]){9, 9, 9, 9}, sizeof w) == 0, "nothing was written");

  /* D149: the buffers D111's generated test leaves out, which faulted (a helper's NULL sweep):
   * those of the vector collectives (their counts are arrays), MPI_Pack's outbuf and MPI_Unpack's
   * inbuf (sizes in bytes), MPI_Get_accumulate's origin (MPI_NO_OP makes it ignored). */
  int one[1] = {4}, zero[1] = {0};
  MPI_Datatype ints[1] = {MPI_INT};
  REFUSED(MPI_Gatherv(v, 4, MPI_INT, NULL, one, zero, MPI_INT, 0, MPI_COMM_WORLD), "recvbuf", comm_calls);
  REFUSED(MPI_Igatherv(v, 4, MPI_INT, NULL, one, zero, MPI_INT, 0, MPI_COMM_WORLD, &req), "recvbuf", comm_calls);
  CHECK(req == MPI_REQUEST_NULL, "a refused MPI_Igatherv makes no request");
  REFUSED(MPI_Scatterv(NULL, one, zero, MPI_INT, w, 4, MPI_INT, 0, MPI_COMM_WORLD), "sendbuf", comm_calls);
  REFUSED(MPI_Allgatherv(v, 4, MPI_INT, NULL, one, zero, MPI_INT, MPI_COMM_WORLD), "recvbuf", comm_calls);
  REFUSED(MPI_Alltoallv(NULL, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_WORLD), "sendbuf", comm_calls);
  REFUSED(MPI_Alltoallv(v, one, zero, MPI_INT, NULL, one, zero, MPI_INT, MPI_COMM_WORLD), "recvbuf", comm_calls);
  REFUSED(MPI_Reduce_scatter(NULL, w, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "sendbuf", comm_calls);
  REFUSED(MPI_Reduce_scatter(v, NULL, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "recvbuf", comm_calls);
  REFUSED(MPI_Alltoallw(NULL, one, zero, ints, w, one, zero, ints, MPI_COMM_WORLD), "sendbuf", comm_calls);
  REFUSED(MPI_Alltoallw(v, one, zero, ints, NULL, one, zero, ints, MPI_COMM_WORLD), "recvbuf", comm_calls);
  pos = 0;
  REFUSED(MPI_Pack(v, 4, MPI_INT, NULL, (int)sizeof packed, &pos, MPI_COMM_WORLD), "outbuf", comm_calls);
  REFUSED(MPI_Unpack(NULL, (int)sizeof packed, &pos, w, 4, MPI_INT, MPI_COMM_WORLD), "inbuf", comm_calls);
  CHECK(pos == 0, "a refused MPI_Pack or MPI_Unpack leaves the position");
  CHECK(memcmp(w, (int[4]){9, 9, 9, 9}, sizeof w) == 0, "nothing was written");
  MPI_Request some[1] = {MPI_REQUEST_NULL};
  OK(MPI_Irecv(packed, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, &some[0]));
  int outcount = -5;
  {
    const int before = comm_calls;
    const int rc = MPI_Request_get_status_some(1, some, &outcount, NULL, MPI_STATUSES_IGNORE);
    int cls = -1;
    OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_ARG && comm_calls == before + 1 && outcount == -5,
          "MPI_Request_get_status_some with NULL array_of_indices: class %d, outcount %d", cls, outcount);
  }
  OK(MPI_Cancel(&some[0]));
  OK(MPI_Wait(&some[0], MPI_STATUS_IGNORE));

  /* D149: MPI_IN_PLACE outside the collectives is no buffer (a copy through it faulted), and the
   * persistent and partitioned forms check their buffers at _init, where they faulted at the start. */
  REFUSED(MPI_Send(MPI_IN_PLACE, 2, MPI_INT, 0, 0, MPI_COMM_WORLD), "MPI_IN_PLACE", comm_calls);
  REFUSED(MPI_Recv(MPI_IN_PLACE, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_IN_PLACE", comm_calls);
  REFUSED(MPI_Sendrecv_replace(MPI_IN_PLACE, 2, MPI_INT, 0, 0, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_IN_PLACE", comm_calls);
  REFUSED(MPI_Send_init(MPI_IN_PLACE, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &req), "MPI_IN_PLACE", comm_calls);
  REFUSED(MPI_Pack(MPI_IN_PLACE, 4, MPI_INT, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD), "MPI_IN_PLACE",
          comm_calls);
  REFUSED(MPI_Pack(v, 4, MPI_INT, MPI_IN_PLACE, (int)sizeof packed, &pos, MPI_COMM_WORLD), "MPI_IN_PLACE",
          comm_calls);
  REFUSED(MPI_Pack_external("external32", v, 4, MPI_INT, NULL, (MPI_Aint)sizeof packed, &(MPI_Aint){0}),
          "outbuf", comm_calls);
  REFUSED(MPI_Psend_init(NULL, 2, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req), "buf", comm_calls);
  REFUSED(MPI_Precv_init(MPI_IN_PLACE, 2, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req), "MPI_IN_PLACE",
          comm_calls);
  REFUSED(MPI_Gatherv_init(v, 4, MPI_INT, NULL, one, zero, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
          "recvbuf", comm_calls);
  REFUSED(MPI_Alltoallw_init(v, one, zero, ints, NULL, one, zero, ints, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
          "recvbuf", comm_calls);
  CHECK(req == MPI_REQUEST_NULL, "a refused call made a request");
  CHECK(pos == 0, "a refused MPI_Pack moved the position");
  REFUSED(MPI_Buffer_attach(NULL, 1024), "buffer is NULL", comm_calls);
  REFUSED(MPI_Comm_attach_buffer(MPI_COMM_WORLD, NULL, 1024), "buffer is NULL", comm_calls);
  OK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));  /* (MPI_BUFFER_AUTOMATIC is no NULL: legal) */
  {
    void *got = NULL;
    int got_size = -1;
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == MPI_BUFFER_AUTOMATIC, "the detached buffer is not MPI_BUFFER_AUTOMATIC");
  }

  /* A window's and a file's buffers: their own handlers. */
  MPI_Win win = MPI_WIN_NULL;
  REFUSED(MPI_Win_create(NULL, sizeof w, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win), "base", comm_calls);
  CHECK(win == MPI_WIN_NULL, "a refused MPI_Win_create made a window");
  OK(MPI_Win_create(w, sizeof w, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  OK(MPI_Win_create_errhandler(on_win, &weh));
  OK(MPI_Win_set_errhandler(win, weh));
  OK(MPI_Win_fence(0, win));
  REFUSED(MPI_Put(NULL, 2, MPI_INT, 0, 0, 2, MPI_INT, win), "origin_addr", win_calls);
  int result[2] = {0, 0};
  REFUSED(MPI_Get_accumulate(NULL, 2, MPI_INT, result, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_SUM, win),
          "origin_addr", win_calls);
  OK(MPI_Get_accumulate(NULL, 0, MPI_INT, result, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_NO_OP, win));
  REFUSED(MPI_Put(MPI_IN_PLACE, 2, MPI_INT, 0, 0, 2, MPI_INT, win), "MPI_IN_PLACE", win_calls);
  REFUSED(MPI_Fetch_and_op(v, NULL, MPI_INT, 0, 0, MPI_SUM, win), "result_addr", win_calls);
  REFUSED(MPI_Fetch_and_op(MPI_IN_PLACE, result, MPI_INT, 0, 0, MPI_SUM, win), "MPI_IN_PLACE", win_calls);
  REFUSED(MPI_Compare_and_swap(v, NULL, result, MPI_INT, 0, 0, win), "compare_addr", win_calls);
  REFUSED(MPI_Compare_and_swap(v, v, MPI_IN_PLACE, MPI_INT, 0, 0, win), "MPI_IN_PLACE", win_calls);
  CHECK(result[0] == 9 && result[1] == 9, "MPI_NO_OP with a NULL origin fetched %d %d", result[0], result[1]);
  OK(MPI_Win_fence(0, win));
  OK(MPI_Win_free(&win));
  CHECK(w[0] == 9 && w[1] == 9, "a refused MPI_Put wrote nothing");
  char dir[] = "/tmp/mpiattr-D111-XXXXXX", path[256];
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  snprintf(path, sizeof path, "%s/data", dir);
  MPI_File f;
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f));
  OK(MPI_File_create_errhandler(on_file, &feh));
  OK(MPI_File_set_errhandler(f, feh));
  REFUSED(MPI_File_write(f, NULL, 4, MPI_INT, MPI_STATUS_IGNORE), "buf", file_calls);
  MPI_Offset size = -1;
  OK(MPI_File_get_size(f, &size));
  CHECK(size == 0, "a refused MPI_File_write wrote nothing");
  OK(MPI_File_close(&f));
  OK(MPI_File_delete(path, MPI_INFO_NULL));
  CHECK(rmdir(dir) == 0, "rmdir");

  /* Legal NULLs. */
  const int before = comm_calls;
  OK(MPI_Bcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD));
  MPI_Datatype nothing;
  OK(MPI_Type_contiguous(0, MPI_INT, &nothing));
  OK(MPI_Type_commit(&nothing));
  OK(MPI_Bcast(NULL, 3, nothing, 0, MPI_COMM_WORLD));
  OK(MPI_Type_free(&nothing));
  OK(MPI_Allreduce(MPI_IN_PLACE, w, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  MPI_Aint at_v = 0, at_w = 0;
  OK(MPI_Get_address(v, &at_v));
  OK(MPI_Get_address(w, &at_w));
  int len4 = 4;
  MPI_Datatype abs_v, abs_w;
  OK(MPI_Type_create_hindexed(1, &len4, &at_v, MPI_INT, &abs_v));
  OK(MPI_Type_create_hindexed(1, &len4, &at_w, MPI_INT, &abs_w));
  OK(MPI_Type_commit(&abs_v));
  OK(MPI_Type_commit(&abs_w));
  OK(MPI_Bcast(MPI_BOTTOM, 1, abs_v, 0, MPI_COMM_WORLD));
  OK(MPI_Sendrecv(MPI_BOTTOM, 1, abs_v, 0, 7, MPI_BOTTOM, 1, abs_w, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(memcmp(w, v, sizeof v) == 0, "MPI_BOTTOM with absolute addresses carried the data");
  OK(MPI_Type_free(&abs_v));
  OK(MPI_Type_free(&abs_w));
  CHECK(comm_calls == before, "no legal NULL raised an error");

  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
  OK(MPI_Errhandler_free(&ceh));
  OK(MPI_Errhandler_free(&weh));
  OK(MPI_Errhandler_free(&feh));
  OK(MPI_Finalize());
  if (failures == 0) puts("D111 passed");
  return failures != 0;
}
