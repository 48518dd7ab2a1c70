/* D115: messages, the collectives whose counts are scalars, one-sided communication, I/O, attached
 * buffers and external32 packing take counts beyond int through their large-count forms (MPI-4.1
 * section 19.2). 2 GiB + 16 bytes travel to self through a send and receive, an all-to-all, a
 * partitioned send (whose int counts make more than INT_MAX bytes together) and a put, over
 * MAP_NORESERVE mappings of which the send side touches a few pages; each arrives whole, and
 * MPI_Get_count_c counts it (MPI_Get_count: MPI_UNDEFINED). MPI_Reduce_local calls an int-length
 * user function on pieces of at most INT_MAX elements, an MPI_User_function_c once. A count whose
 * bytes MPI_Aint cannot count is MPI_ERR_COUNT (a window: MPI_ERR_RMA_RANGE), and nothing moves.
 * The int MPI_Buffer_detach of a buffer beyond int is MPI_ERR_VALUE_TOO_LARGE and leaves it
 * attached. Run over MPICH 4.0.2 by hand (without MPI_Psend_init_c, which it lacks): the message,
 * the all-to-all and the partitioned send arrive the same; where MPICH departs, this test follows
 * the standard: its MPI_Put_c of 2 GiB + 16 bytes into a window of that size crashes, its
 * MPI_Reduce_local_c with an int-length function and its MPI_File_read_at_c abort on an assertion
 * that the count fits in int, its send of 2^62 ints is not refused (it hangs), and its int
 * MPI_Buffer_detach detaches the buffer and gives its size as -32766. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "c_errors.h"

#define BIG ((MPI_Count)INT_MAX + 17) /* 2^31 + 16 bytes */

static char *mapping(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHECK(p != MAP_FAILED, "mmap of %zu bytes failed", n);
  if (p == MAP_FAILED) return NULL;
  /* Huge pages where the kernel offers them on request (transparent_hugepage "madvise"): the
   * receive side faults in 1,024 pages instead of 524,288, a few seconds of a VM's time instead of
   * twenty (docs/decisions.md D129). What the test checks is the same either way. */
  (void)madvise(p, n, MADV_HUGEPAGE);
  return (char *)p;
}

/* The bytes the send side writes: a few pages' worth, the rest of the mapping reads as zeros. */
static const MPI_Count marks[] = {0, 1, 4095, 4096, (MPI_Count)INT_MAX - 1, INT_MAX, (MPI_Count)INT_MAX + 1, BIG - 1};
#define NMARKS (sizeof marks / sizeof marks[0])
static char mark_of(int i) { return (char)(0x31 + 7 * i); }

static void check_arrived(const char *what, const char *recv, MPI_Count n) {
  for (size_t i = 0; i < NMARKS; ++i)
    if (marks[i] < n)
      CHECK(recv[marks[i]] == mark_of((int)i), "%s: byte %lld is %d, expected %d", what, (long long)marks[i],
            recv[marks[i]], mark_of((int)i));
  CHECK(recv[4097] == 0 && recv[(MPI_Count)INT_MAX + 2] == 0, "%s: bytes that were zero are not", what);
}

/* Makes the receive side's marked bytes wrong again (its pages stay: each is faulted in once). */
static void reset(char *recv) {
  for (size_t i = 0; i < NMARKS; ++i) recv[marks[i]] = 0x7f;
}

static int piece_calls;
static MPI_Count piece_total;
static int piece_longest;
static const char *piece_first[8];
static void count_pieces(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)inout;
  (void)type;
  if (piece_calls < 8) piece_first[piece_calls] = in;
  ++piece_calls;
  piece_total += *len;
  if (*len > piece_longest) piece_longest = *len;
}
static int whole_calls;
static MPI_Count whole_len;
static void count_whole(void *in, void *inout, MPI_Count *len, MPI_Datatype *type) {
  (void)in;
  (void)inout;
  (void)type;
  ++whole_calls;
  whole_len = *len;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  char *send = mapping((size_t)BIG), *recv = mapping((size_t)BIG);
  if (send == NULL || recv == NULL) return 1;
  for (size_t i = 0; i < NMARKS; ++i) send[marks[i]] = mark_of((int)i);

  /* A message of BIG bytes: probed, received, counted. */
  MPI_Request req;
  MPI_Status st;
  MPI_Count n = -1;
  int n_int = -1;
  OK(MPI_Isend_c(send, BIG, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &req));
  OK(MPI_Probe(0, 5, MPI_COMM_WORLD, &st));
  OK(MPI_Get_count_c(&st, MPI_BYTE, &n));
  CHECK(n == BIG, "probe: MPI_Get_count_c %lld, expected %lld", (long long)n, (long long)BIG);
  OK(MPI_Recv_c(recv, BIG, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &st));
  OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_arrived("MPI_Isend_c/MPI_Recv_c", recv, BIG);
  OK(MPI_Get_count_c(&st, MPI_BYTE, &n));
  OK(MPI_Get_count(&st, MPI_BYTE, &n_int));
  CHECK(n == BIG && n_int == MPI_UNDEFINED, "MPI_Get_count_c %lld, MPI_Get_count %d", (long long)n, n_int);
  OK(MPI_Get_elements_c(&st, MPI_BYTE, &n));
  CHECK(n == BIG, "MPI_Get_elements_c %lld", (long long)n);
  reset(recv);

  /* A collective: all-to-all on one process is a copy of the process's own block. */
  OK(MPI_Alltoall_c(send, BIG, MPI_BYTE, recv, BIG, MPI_BYTE, MPI_COMM_WORLD));
  check_arrived("MPI_Alltoall_c", recv, BIG);
  reset(recv);
  OK(MPI_Bcast_c(send, BIG, MPI_BYTE, 0, MPI_COMM_WORLD));
  OK(MPI_Allreduce_c(MPI_IN_PLACE, recv, BIG, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD));

  /* A partitioned send of 2 partitions of 2^30 + 8 bytes (int counts, more than INT_MAX bytes). */
  const int part = (1 << 30) + 8;
  MPI_Request ps, pr;
  OK(MPI_Psend_init(send, 2, part, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &ps));
  OK(MPI_Precv_init(recv, 2, part, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &pr));
  OK(MPI_Start(&pr));
  OK(MPI_Start(&ps));
  OK(MPI_Pready(0, ps));
  OK(MPI_Pready(1, ps));
  OK(MPI_Wait(&ps, MPI_STATUS_IGNORE));
  OK(MPI_Wait(&pr, &st));
  OK(MPI_Get_count_c(&st, MPI_BYTE, &n));
  CHECK(n == 2 * (MPI_Count)part, "partitioned: MPI_Get_count_c %lld", (long long)n);
  check_arrived("MPI_Psend_init/MPI_Precv_init", recv, 2 * (MPI_Count)part);
  OK(MPI_Request_free(&ps));
  OK(MPI_Request_free(&pr));
  reset(recv);
  check_error(MPI_Psend_init_c(send, 1 << 20, (MPI_Count)1 << 50, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &ps),
              MPI_ERR_COUNT, "do not fit in MPI_Aint");

  /* One-sided: a put of BIG bytes into a window of BIG bytes; one more byte is out of range. */
  MPI_Win win;
  OK(MPI_Win_create(recv, BIG, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  OK(MPI_Win_fence(0, win));
  OK(MPI_Put_c(send, BIG, MPI_BYTE, 0, 0, BIG, MPI_BYTE, win));
  check_error(MPI_Put_c(send, BIG + 1, MPI_BYTE, 0, 0, BIG + 1, MPI_BYTE, win), MPI_ERR_RMA_RANGE,
              "bytes 0 to 2147483665 of the window are outside its 2147483664 bytes");
  check_error(MPI_Get_c(send, 1, MPI_INT, 0, 0, (MPI_Count)1 << 62, MPI_INT, win), MPI_ERR_COUNT,
              "target count 4611686018427387904 of a datatype of 4 bytes does not fit in MPI_Aint");
  OK(MPI_Win_fence(0, win));
  check_arrived("MPI_Put_c", recv, BIG);
  OK(MPI_Win_free(&win));
  reset(recv);

  /* A count whose bytes MPI_Aint cannot count: refused, nothing queued. */
  check_error(MPI_Send_c(send, (MPI_Count)1 << 62, MPI_INT, 0, 6, MPI_COMM_WORLD), MPI_ERR_COUNT,
              "count = 4611686018427387904 of a datatype of 4 bytes does not fit in MPI_Aint");
  int flag = 1;
  OK(MPI_Iprobe(0, 6, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag, "the refused send left a message");

  /* MPI_Reduce_local: an int-length function gets pieces of at most INT_MAX elements, each where
   * the one before ended; an MPI_User_function_c gets the whole count. Neither touches memory. */
  const MPI_Count elems = 4 * (MPI_Count)INT_MAX + 100;
  MPI_Op op, op_c;
  OK(MPI_Op_create(count_pieces, 1, &op));
  OK(MPI_Op_create_c(count_whole, 1, &op_c));
  OK(MPI_Reduce_local_c(send, recv, elems, MPI_INT, op));
  CHECK(piece_calls == 5 && piece_total == elems && piece_longest == INT_MAX,
        "int-length function: %d calls, %lld elements, longest %d", piece_calls, (long long)piece_total, piece_longest);
  for (int i = 1; i < 5; ++i)
    CHECK(piece_first[i] == send + (MPI_Aint)i * INT_MAX * 4, "piece %d starts %td bytes in", i,
          piece_first[i] - send);
  OK(MPI_Reduce_local_c(send, recv, elems, MPI_INT, op_c));
  CHECK(whole_calls == 1 && whole_len == elems, "MPI_User_function_c: %d calls, len %lld", whole_calls,
        (long long)whole_len);
  OK(MPI_Op_free(&op));
  OK(MPI_Op_free(&op_c));

  /* I/O: a read of up to BIG bytes from a file of 10 reads its 10. */
  char path[] = "/tmp/mpiattr_D115_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0 && write(fd, "0123456789", 10) == 10 && close(fd) == 0, "could not make %s", path);
  MPI_File fh;
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
  OK(MPI_File_read_at_c(fh, 0, recv, BIG, MPI_BYTE, &st));
  OK(MPI_Get_count_c(&st, MPI_BYTE, &n));
  CHECK(n == 10 && memcmp(recv, "0123456789", 10) == 0, "MPI_File_read_at_c read %lld bytes", (long long)n);
  OK(MPI_File_close(&fh));
  unlink(path);

  /* An attached buffer of BIG bytes: the int detach cannot say its size and leaves it attached. */
  void *addr = NULL;
  int size_int = 7;
  MPI_Count size = -1;
  OK(MPI_Buffer_attach_c(send, BIG));
  check_error(MPI_Buffer_detach(&addr, &size_int), MPI_ERR_VALUE_TOO_LARGE, "MPI_Buffer_detach_c");
  CHECK(addr == NULL && size_int == 7, "the failed MPI_Buffer_detach wrote its outputs");
  OK(MPI_Buffer_detach_c(&addr, &size));
  CHECK(addr == send && size == BIG, "MPI_Buffer_detach_c gave %p, %lld", addr, (long long)size);

  /* external32: the size of BIG ints. */
  MPI_Count ext = -1;
  OK(MPI_Pack_external_size_c("external32", BIG, MPI_INT, &ext));
  CHECK(ext == 4 * BIG, "MPI_Pack_external_size_c %lld", (long long)ext);

  munmap(send, (size_t)BIG);
  munmap(recv, (size_t)BIG);
  OK(MPI_Finalize());
  return failures != 0;
}
