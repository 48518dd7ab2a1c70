/* D46: the one-sided routines' errors on the standalone runtime, where the differential test
 * (tests/diff/c/RT_rma_one_process.c) cannot go because a peer misses them or differs: the class, a
 * message that says what was wrong, the window's handler, and nothing written (window, result,
 * request). Also what the peers refuse though MPI-4.1 allows it (MPI_Win_shared_query on a window
 * of another flavor), and the PSCW calls that would wait forever on one process (D31). */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

static int win_handled;
static void win_counting(MPI_Win *win, int *code, ...) {
  (void)win;
  (void)code;
  ++win_handled;
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)in, (void)inout, (void)len, (void)t;
}

static int unchanged(const int *v, int n, int first) {
  for (int i = 0; i < n; ++i)
    if (v[i] != first + i) return 0;
  return 1;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int buf[4] = {0, 1, 2, 3}, v[4] = {7, 7, 7, 7}, res[2] = {-1, -1};
  double d = 1.5, dres = -1;
  MPI_Win win;
  MPI_Errhandler counting;
  OK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  OK(MPI_Win_create_errhandler(win_counting, &counting));
  OK(MPI_Win_set_errhandler(win, counting));

  /* Transfers outside the window, or that accumulates do not define. */
  OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
  check_error(MPI_Put(v, 2, MPI_INT, 0, 3, 2, MPI_INT, win), MPI_ERR_RMA_RANGE, "outside its 16 bytes");
  check_error(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_BAND, win), MPI_ERR_OP,
              "MPI_BAND is not defined");
  check_error(MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_FLOAT, MPI_SUM, win), MPI_ERR_TYPE,
              "one and the same predefined datatype");
  int blocks[2] = {1, 1};
  MPI_Aint displs[2] = {0, sizeof(int)};
  MPI_Datatype types[2] = {MPI_INT, MPI_UNSIGNED}, mixed;
  OK(MPI_Type_create_struct(2, blocks, displs, types, &mixed));
  OK(MPI_Type_commit(&mixed));
  check_error(MPI_Accumulate(v, 1, mixed, 0, 0, 1, mixed, MPI_MAX, win), MPI_ERR_TYPE, "one and the same");
  check_error(MPI_Accumulate(v, 1, mixed, 0, 0, 1, mixed, MPI_REPLACE, win), MPI_ERR_TYPE, "one and the same");
  OK(MPI_Type_free(&mixed));
  check_error(MPI_Compare_and_swap(&d, &d, &dres, MPI_DOUBLE, 0, 0, win), MPI_ERR_TYPE,
              "an integer, logical or byte datatype");
  CHECK(dres == -1, "compare_and_swap wrote its result");
  MPI_Op sum;
  OK(MPI_Op_create(user_sum, 1, &sum));
  check_error(MPI_Fetch_and_op(v, res, MPI_INT, 0, 0, sum, win), MPI_ERR_OP, "user-defined operation");
  OK(MPI_Op_free(&sum));
  MPI_Request rq = MPI_REQUEST_NULL;
  check_error(MPI_Rput(v, 1, MPI_INT, 0, 4, 1, MPI_INT, win, &rq), MPI_ERR_RMA_RANGE, "outside");
  CHECK(rq == MPI_REQUEST_NULL, "a failed MPI_Rput gave a request");
  CHECK(res[0] == -1, "fetch_and_op wrote its result");

  /* Synchronisation the peers let through or answer differently. */
  check_error(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC, "already locked");
  check_error(MPI_Win_free(&win), MPI_ERR_RMA_SYNC, "end it before MPI_Win_free");
  CHECK(win != MPI_WIN_NULL, "a window in an epoch was freed");
  OK(MPI_Win_unlock(0, win));
  CHECK(unchanged(buf, 4, 0), "a failed call wrote the window");
  check_error(MPI_Win_fence(MPI_MODE_NOCHECK, win), MPI_ERR_ASSERT, "MPI_Win_fence does not accept");
  check_error(MPI_Win_lock(12345, 0, 0, win), MPI_ERR_LOCKTYPE, "lock_type 12345");
  OK(MPI_Win_lock_all(0, win));
  check_error(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC, "inside MPI_Win_lock_all");
  OK(MPI_Win_unlock_all(win));
  /* A fence followed by an RMA call started an epoch (MPI-4.1 section 13.5.1): no other kind of
   * epoch inside it; refused, the fence's epoch goes on (without the RMA call, c_diff_RT_rma's
   * "lock after a fence no RMA call followed": allowed). */
  OK(MPI_Win_fence(0, win));
  OK(MPI_Put(v, 1, MPI_INT, 0, 3, 1, MPI_INT, win));
  MPI_Group g;
  OK(MPI_Win_get_group(win, &g));
  check_error(MPI_Win_post(g, 0, win), MPI_ERR_RMA_SYNC, "inside a fence epoch: RMA calls followed");
  check_error(MPI_Win_start(g, 0, win), MPI_ERR_RMA_SYNC, "inside a fence epoch: RMA calls followed");
  check_error(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC, "inside a fence epoch: RMA calls followed");
  check_error(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC, "inside a fence epoch: RMA calls followed");
  OK(MPI_Get(res, 1, MPI_INT, 0, 3, 1, MPI_INT, win));  /* still in the fence's epoch */
  CHECK(res[0] == v[0], "the get in the fence epoch read %d, not %d", res[0], v[0]);
  OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  /* Locks after fences no RMA call followed, the second fence after a lock epoch (as
   * c_diff_RT_rma_one_process does on both peers); an RMA call after the unlock_all is in no
   * epoch. */
  OK(MPI_Win_fence(0, win));
  OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  OK(MPI_Win_unlock(0, win));
  OK(MPI_Win_fence(0, win));
  OK(MPI_Win_lock_all(0, win));
  OK(MPI_Put(v, 1, MPI_INT, 0, 2, 1, MPI_INT, win));
  OK(MPI_Win_unlock_all(win));
  check_error(MPI_Put(v, 1, MPI_INT, 0, 2, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "no access epoch");
  OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

  /* PSCW on one process: what would wait for the process itself fails (D31) and changes nothing. */
  OK(MPI_Win_start(g, 0, win));
  check_error(MPI_Win_complete(win), MPI_ERR_OTHER, "wait forever");
  OK(MPI_Win_post(g, 0, win));
  check_error(MPI_Win_wait(win), MPI_ERR_OTHER, "wait forever");
  OK(MPI_Win_complete(win));
  OK(MPI_Win_wait(win));
  OK(MPI_Group_free(&g));

  /* MPI-4.1 §13.2.3: MPI_Win_shared_query takes a window of any flavor (both peers refuse). */
  MPI_Aint size = -1;
  int unit = -1, *base = NULL;
  OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &base));
  CHECK(size == sizeof buf && unit == sizeof(int) && base == buf, "shared_query on MPI_Win_create's window");
  CHECK(win_handled == 20, "the window's handler ran %d times (of 20)", win_handled);
  OK(MPI_Win_free(&win));

  /* A dynamic window: attached memory only, regions that do not overlap. */
  MPI_Win dyn;
  int mem[4] = {0, 1, 2, 3};
  MPI_Aint at;
  OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
  OK(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
  OK(MPI_Win_attach(dyn, mem, 2 * sizeof(int)));
  check_error(MPI_Win_attach(dyn, mem + 1, sizeof(int)), MPI_ERR_RMA_ATTACH, "overlaps");
  check_error(MPI_Win_detach(dyn, mem + 1), MPI_ERR_RMA_ATTACH, "no memory attached");
  OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, dyn));
  OK(MPI_Get_address(mem + 1, &at));
  check_error(MPI_Put(v, 2, MPI_INT, 0, at, 2, MPI_INT, dyn), MPI_ERR_RMA_RANGE, "not in memory attached");
  OK(MPI_Put(v, 1, MPI_INT, 0, at, 1, MPI_INT, dyn));
  OK(MPI_Win_unlock(0, dyn));
  CHECK(mem[0] == 0 && mem[1] == 7 && mem[2] == 2, "the dynamic window's memory: %d %d %d", mem[0], mem[1], mem[2]);
  check_error(MPI_Win_shared_query(dyn, 0, &size, &unit, &base), MPI_ERR_RMA_FLAVOR, "dynamic window");
  OK(MPI_Win_detach(dyn, mem));
  OK(MPI_Win_free(&dyn));

  /* The hints given at creation and by MPI_Win_set_info come back from MPI_Win_get_info. */
  MPI_Info in, out;
  char value[MPI_MAX_INFO_VAL];
  int flag = 0, nkeys = -1;
  OK(MPI_Info_create(&in));
  OK(MPI_Info_set(in, "no_locks", "true"));
  int *mine = NULL;
  OK(MPI_Win_allocate(sizeof(int), sizeof(int), in, MPI_COMM_WORLD, &mine, &win));
  OK(MPI_Info_set(in, "no_locks", "false"));
  OK(MPI_Info_set(in, "accumulate_ops", "same_op"));
  OK(MPI_Win_get_info(win, &out));
  OK(MPI_Info_get_nkeys(out, &nkeys));
  OK(MPI_Info_get(out, "no_locks", MPI_MAX_INFO_VAL - 1, value, &flag));
  CHECK(nkeys == 1 && flag && strcmp(value, "true") == 0, "hints at creation: %d keys", nkeys);
  OK(MPI_Info_free(&out));
  OK(MPI_Win_set_info(win, in));
  OK(MPI_Win_get_info(win, &out));
  OK(MPI_Info_get_nkeys(out, &nkeys));
  OK(MPI_Info_get(out, "no_locks", MPI_MAX_INFO_VAL - 1, value, &flag));
  CHECK(nkeys == 2 && flag && strcmp(value, "false") == 0, "hints after set_info: %d keys", nkeys);
  OK(MPI_Info_free(&out));
  OK(MPI_Info_free(&in));
  OK(MPI_Win_free(&win));

  OK(MPI_Finalize());
  return failures != 0;
}
