/* D47: the large-count forms MPI_X_c (MPI-4.1 section 19.2) on the standalone runtime. A form does
 * what its routine does: counts that fit in an int are passed on, results are widened, and the
 * answers an int cannot hold (MPI_Type_size of more than INT_MAX bytes) are given exactly. A
 * large input that the runtime cannot carry (a window's disp_unit beyond int; messages and every
 * collective take large counts since D115: c_D115_large_count_messages) is MPI_ERR_COUNT through
 * the object's error handler, with nothing written. A refused routine's form is refused the same way,
 * under its own name. */
#include <limits.h>
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

/* A large form behaves as its routine: both succeed, or both fail with the same class, and a
 * refusal names the form itself. */
static void check_same(int rc_base, int rc_large, const char *large_name) {
  int cb = MPI_SUCCESS, cl = MPI_SUCCESS, len = 0;
  char msg[MPI_MAX_ERROR_STRING];
  if (rc_base != MPI_SUCCESS) OK(MPI_Error_class(rc_base, &cb));
  if (rc_large != MPI_SUCCESS) OK(MPI_Error_class(rc_large, &cl));
  CHECK(cb == cl, "%s: class %d, its routine's %d", large_name, cl, cb);
  if (cl == MPI_ERR_UNSUPPORTED_OPERATION) {
    OK(MPI_Error_string(rc_large, msg, &len));
    CHECK(strstr(msg, large_name) != NULL, "%s: message '%s' does not name it", large_name, msg);
    CHECK(strstr(msg, "does not carry it out") != NULL, "%s: message '%s' does not say why", large_name, msg);
  }
}

static int handler_calls, handler_class;
static MPI_Comm handler_comm;
static void count_errors(MPI_Comm *comm, int *code, ...) {
  ++handler_calls;
  handler_comm = *comm;
  MPI_Error_class(*code, &handler_class);
}

static int user_fn_calls;
static MPI_Count last_len = -1;
static void sum_ints(void *in, void *inout, MPI_Count *len, MPI_Datatype *type) {
  (void)type;
  ++user_fn_calls;
  last_len = *len;
  for (MPI_Count i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  const MPI_Count too_big = (MPI_Count)INT_MAX + 1;

  /* Send and receive to self; the count of what arrived. */
  int out[5] = {1, 2, 3, 4, 5}, in[5] = {0};
  MPI_Request req;
  MPI_Status st;
  OK(MPI_Isend_c(out, 5, MPI_INT, 0, 7, MPI_COMM_WORLD, &req));
  OK(MPI_Recv_c(in, 5, MPI_INT, 0, 7, MPI_COMM_WORLD, &st));
  OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(memcmp(in, out, sizeof out) == 0, "the message did not arrive");
  MPI_Count n = -1;
  int n_int = -1;
  OK(MPI_Get_count_c(&st, MPI_INT, &n));
  OK(MPI_Get_count(&st, MPI_INT, &n_int));
  CHECK(n == 5 && n_int == 5, "MPI_Get_count_c %lld, MPI_Get_count %d, expected 5", (long long)n, n_int);
  OK(MPI_Get_count_c(&st, MPI_DOUBLE, &n));
  CHECK(n == MPI_UNDEFINED, "20 bytes as doubles: %lld, expected MPI_UNDEFINED", (long long)n);
  OK(MPI_Sendrecv_c(out, 3, MPI_INT, 0, 8, in + 2, 3, MPI_INT, 0, 8, MPI_COMM_SELF, &st));
  CHECK(in[2] == 1 && in[4] == 3, "MPI_Sendrecv_c moved %d %d", in[2], in[4]);

  /* A datatype of more than INT_MAX bytes: a vector of 4 blocks of 64 elements of 8 MiB each. */
  MPI_Datatype mib8, big;
  int dsize = 0;
  OK(MPI_Type_size(MPI_DOUBLE, &dsize));
  OK(MPI_Type_contiguous_c(1 << 20, MPI_DOUBLE, &mib8));
  OK(MPI_Type_vector_c(4, 64, 128, mib8, &big));
  OK(MPI_Type_commit(&big));
  const MPI_Count elem = (MPI_Count)(1 << 20) * dsize;
  MPI_Count size = -1, lb = -1, extent = -1, tlb = -1, textent = -1;
  OK(MPI_Type_size_c(big, &size));
  CHECK(size == 4 * 64 * elem && size > INT_MAX, "MPI_Type_size_c %lld, expected %lld", (long long)size,
        (long long)(4 * 64 * elem));
  int size_int = 0;
  OK(MPI_Type_size(big, &size_int));
  CHECK(size_int == MPI_UNDEFINED, "MPI_Type_size of %lld bytes gave %d, not MPI_UNDEFINED", (long long)size,
        size_int);
  OK(PMPI_Type_size_c(mib8, &size));
  CHECK(size == elem, "PMPI_Type_size_c %lld, expected %lld", (long long)size, (long long)elem);
  OK(MPI_Type_get_extent_c(big, &lb, &extent));
  CHECK(lb == 0 && extent == (3 * 128 + 64) * elem, "MPI_Type_get_extent_c lb %lld extent %lld", (long long)lb,
        (long long)extent);
  OK(MPI_Type_get_true_extent_c(big, &tlb, &textent));
  CHECK(tlb == 0 && textent == extent, "MPI_Type_get_true_extent_c %lld %lld", (long long)tlb, (long long)textent);
  MPI_Count packed = -1;
  OK(MPI_Pack_size_c(2, big, MPI_COMM_WORLD, &packed));
  CHECK(packed == 2 * 4 * 64 * elem, "MPI_Pack_size_c %lld", (long long)packed);
  int packed_int = 7;
  check_error(MPI_Pack_size(2, big, MPI_COMM_WORLD, &packed_int), MPI_ERR_VALUE_TOO_LARGE, "MPI_Pack_size_c");
  CHECK(packed_int == 7, "MPI_Pack_size wrote %d on failure", packed_int);

  /* Packing with an MPI_Count position. */
  char buf[64];
  MPI_Count pos = 0;
  int back[5] = {0};
  OK(MPI_Pack_c(out, 5, MPI_INT, buf, (MPI_Count)sizeof buf, &pos, MPI_COMM_WORLD));
  CHECK(pos == (MPI_Count)sizeof out, "MPI_Pack_c position %lld", (long long)pos);
  pos = 0;
  OK(MPI_Unpack_c(buf, (MPI_Count)sizeof buf, &pos, back, 5, MPI_INT, MPI_COMM_WORLD));
  CHECK(memcmp(back, out, sizeof out) == 0 && pos == (MPI_Count)sizeof out, "MPI_Unpack_c");

  /* Inputs the runtime cannot carry: MPI_ERR_COUNT naming the argument, nothing written. */
  MPI_Datatype t = MPI_DATATYPE_NULL, keep = MPI_DATATYPE_NULL;
  OK(MPI_Type_dup(MPI_INT, &keep));
  t = keep;
  /* (The datatype constructors and packing take such values since D113: c_D113_large_count_datatypes.) */
  check_error(MPI_Type_contiguous_c(-1, MPI_BYTE, &t), MPI_ERR_COUNT, "negative");
  MPI_Win never = MPI_WIN_NULL;
  check_error(MPI_Win_create_c(in, (MPI_Aint)sizeof in, too_big, MPI_INFO_NULL, MPI_COMM_WORLD, &never),
              MPI_ERR_COUNT, "disp_unit = 2147483648");
  CHECK(never == MPI_WIN_NULL, "a refused MPI_Win_create_c made a window");
  /* A v-collective's counts beyond int: the process's block moves (its receive has room for more). */
  MPI_Count counts[1] = {too_big};
  MPI_Aint displs[1] = {1};
  in[1] = -1;
  OK(MPI_Gatherv_c(out, 1, MPI_INT, in, counts, displs, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK(in[1] == out[0], "MPI_Gatherv_c with recvcounts[0] beyond int moved %d", in[1]);
  /* A neighbourhood collective's arrays have one entry per edge, not per process (D48): a 1x1 grid
   * periodic in both dimensions has four edges in and four out, each read (a negative fourth count
   * is refused). */
  MPI_Comm grid;
  int dims[2] = {1, 1}, periods[2] = {1, 1};
  OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid));
  OK(MPI_Comm_set_errhandler(grid, MPI_ERRORS_RETURN));
  MPI_Count ncounts[4] = {1, 1, 1, -too_big}, rcounts[4] = {1, 1, 1, 1};
  MPI_Aint ndispls[4] = {0, 1, 2, 3};
  int nsend[4] = {1, 2, 3, 4}, nrecv[4] = {0, 0, 0, 0};
  check_error(MPI_Neighbor_alltoallv_c(nsend, ncounts, ndispls, MPI_INT, nrecv, rcounts, ndispls, MPI_INT, grid),
              MPI_ERR_COUNT, "sendcounts[3] is -2147483648");
  CHECK(nrecv[0] == 0 && nrecv[3] == 0, "MPI_Neighbor_alltoallv_c wrote before failing");
  ncounts[3] = 1;
  OK(MPI_Neighbor_alltoallv_c(nsend, ncounts, ndispls, MPI_INT, nrecv, rcounts, ndispls, MPI_INT, grid));
  CHECK(nrecv[0] == 2 && nrecv[1] == 1 && nrecv[2] == 4 && nrecv[3] == 3, "MPI_Neighbor_alltoallv_c gave %d %d %d %d",
        nrecv[0], nrecv[1], nrecv[2], nrecv[3]);
  OK(MPI_Comm_free(&grid));
  /* A persistent form keeps its own copies of the arrays until MPI_Start (D48). */
  MPI_Request preq;
  MPI_Count pcount[1] = {2};
  MPI_Aint psd[1] = {1}, prd[1] = {2};
  int psend[3] = {7, 8, 9}, precv[4] = {0, 0, 0, 0};
  OK(MPI_Alltoallv_init_c(psend, pcount, psd, MPI_INT, precv, pcount, prd, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &preq));
  OK(MPI_Start(&preq));
  OK(MPI_Wait(&preq, MPI_STATUS_IGNORE));
  OK(MPI_Request_free(&preq));
  CHECK(precv[0] == 0 && precv[1] == 0 && precv[2] == 8 && precv[3] == 9, "MPI_Alltoallv_init_c gave %d %d %d %d",
        precv[0], precv[1], precv[2], precv[3]);
  /* ... through the communicator's error handler. */
  MPI_Comm dup;
  MPI_Errhandler eh;
  OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  OK(MPI_Comm_create_errhandler(count_errors, &eh));
  OK(MPI_Comm_set_errhandler(dup, eh));
  int rc = MPI_Win_create_c(in, (MPI_Aint)sizeof in, too_big, MPI_INFO_NULL, dup, &never);
  CHECK(rc != MPI_SUCCESS && handler_calls == 1 && handler_comm == dup && handler_class == MPI_ERR_COUNT,
        "rc %d, %d handler call(s), class %d", rc, handler_calls, handler_class);
  check_error(rc, MPI_ERR_COUNT, "disp_unit = 2147483648");

  /* A user operation: created, used and freed through its large form (one process: the function
   * has no second contribution to combine, so a collective never calls it; MPI_Reduce_local does,
   * with its length as the MPI_Count an MPI_User_function_c takes: D52). */
  MPI_Op op;
  int src[3] = {4, 5, 6}, dst[3] = {0};
  OK(MPI_Op_create_c(sum_ints, 1, &op));
  OK(MPI_Allreduce_c(src, dst, 3, MPI_INT, op, MPI_COMM_WORLD));
  CHECK(dst[0] == 4 && dst[2] == 6 && user_fn_calls == 0, "MPI_Allreduce_c: %d %d, %d call(s)", dst[0], dst[2],
        user_fn_calls);
  OK(MPI_Reduce_local_c(src, dst, 3, MPI_INT, op));
  CHECK(dst[0] == 8 && dst[1] == 10 && dst[2] == 12 && user_fn_calls == 1 && last_len == 3,
        "MPI_Reduce_local_c: %d %d %d, %d call(s), len %lld", dst[0], dst[1], dst[2], user_fn_calls,
        (long long)last_len);
  last_len = -1;
  OK(MPI_Reduce_local(src, dst, 2, MPI_INT, op));
  CHECK(dst[0] == 12 && dst[1] == 15 && dst[2] == 12 && user_fn_calls == 2 && last_len == 2,
        "MPI_Reduce_local: %d %d %d, %d call(s), len %lld", dst[0], dst[1], dst[2], user_fn_calls,
        (long long)last_len);
  OK(MPI_Op_free(&op));
  CHECK(op == MPI_OP_NULL, "MPI_Op_free left the handle");

  /* Refused routines: refused the same way, under the form's name. */
  MPI_Count elements = -1;
  int elements_int = -1;
  OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
  check_same(MPI_Get_elements(&st, MPI_INT, &elements_int), MPI_Get_elements_c(&st, MPI_INT, &elements),
             "MPI_Get_elements_c");
  check_same(MPI_Register_datarep("d47", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, NULL, NULL),
             MPI_Register_datarep_c("d47c", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C, NULL, NULL),
             "MPI_Register_datarep_c");
  MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
  int ni_int, na_int, nd_int, comb = -1, comb_c = -1;
  rc = MPI_Type_get_envelope_c(big, &ni, &na, &nl, &nd, &comb_c);
  check_same(MPI_Type_get_envelope(big, &ni_int, &na_int, &nd_int, &comb), rc, "MPI_Type_get_envelope_c");
  if (rc == MPI_SUCCESS)
    CHECK(comb_c == comb && ni == ni_int && nl == 0, "MPI_Type_get_envelope_c differs from its routine");

  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Comm_free(&dup));
  OK(MPI_Type_free(&keep));
  OK(MPI_Type_free(&big));
  OK(MPI_Type_free(&mib8));
  OK(MPI_Finalize());
  return failures != 0;
}
