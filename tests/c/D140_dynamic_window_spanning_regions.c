/* D140: an RMA operation on a dynamic window may touch memory of several attached regions: every
 * byte it touches must be attached (MPI-4.1 section 13.2.4: "Performing an RMA operation on memory
 * that has not been attached ... is erroneous"; section 13.3.1: "the target buffer must fit in the
 * target window or in attached memory in a dynamic window"), not all of it in one region. The
 * standalone runtime refused a put across two adjacent regions with MPI_ERR_RMA_RANGE (MPICH's
 * rma/win_dynamic_rma_flush_get, 2 regions; MPICH 4.0.2 takes it). A byte that is not attached is
 * still MPI_ERR_RMA_RANGE, and then nothing is written. */
#include <mpi.h>

#include "c_errors.h"

static int mem[16], gap[12];

int main(int argc, char **argv) {
  int src[16], out[16], i;
  MPI_Aint base, gbase;
  MPI_Win win;
  OK(MPI_Init(&argc, &argv));
  for (i = 0; i < 16; i++) src[i] = i + 1;
  OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  OK(MPI_Win_attach(win, &mem[0], 8 * sizeof(int)));
  OK(MPI_Win_attach(win, &mem[8], 8 * sizeof(int)));
  OK(MPI_Get_address(&mem[0], &base));
  OK(MPI_Win_lock_all(0, win));

  /* A put, a get and an accumulate across the boundary of the two regions. */
  OK(MPI_Put(src, 12, MPI_INT, 0, base + 2 * (MPI_Aint)sizeof(int), 12, MPI_INT, win));
  OK(MPI_Win_flush(0, win));
  CHECK(mem[1] == 0 && mem[2] == 1 && mem[7] == 6 && mem[8] == 7 && mem[13] == 12 && mem[14] == 0,
        "after the put: %d %d %d %d %d %d", mem[1], mem[2], mem[7], mem[8], mem[13], mem[14]);
  for (i = 0; i < 16; i++) out[i] = -1;
  OK(MPI_Get(out, 16, MPI_INT, 0, base, 16, MPI_INT, win));
  OK(MPI_Win_flush(0, win));
  CHECK(out[0] == 0 && out[2] == 1 && out[13] == 12 && out[15] == 0, "the get: %d %d %d %d", out[0], out[2],
        out[13], out[15]);
  OK(MPI_Accumulate(src, 4, MPI_INT, 0, base + 6 * (MPI_Aint)sizeof(int), 4, MPI_INT, MPI_SUM, win));
  OK(MPI_Win_flush(0, win));
  CHECK(mem[6] == 5 + 1 && mem[7] == 6 + 2 && mem[8] == 7 + 3 && mem[9] == 8 + 4, "the accumulate: %d %d %d %d",
        mem[6], mem[7], mem[8], mem[9]);

  /* One byte past the last region: refused, nothing written. */
  check_error(MPI_Put(src, 12, MPI_INT, 0, base + 5 * (MPI_Aint)sizeof(int), 12, MPI_INT, win), MPI_ERR_RMA_RANGE,
              "not in memory attached");
  OK(MPI_Win_flush(0, win));
  CHECK(mem[5] == 4 && mem[15] == 0, "the refused put wrote: %d %d", mem[5], mem[15]);

  /* Two regions with a gap between them: a contiguous access over the gap is refused; a datatype
   * whose blocks fall in the regions only is taken (its holes are not touched). */
  OK(MPI_Win_attach(win, &gap[0], 4 * sizeof(int)));
  OK(MPI_Win_attach(win, &gap[8], 4 * sizeof(int)));
  OK(MPI_Get_address(&gap[0], &gbase));
  check_error(MPI_Put(src, 12, MPI_INT, 0, gbase, 12, MPI_INT, win), MPI_ERR_RMA_RANGE, "not in memory attached");
  OK(MPI_Win_flush(0, win));
  CHECK(gap[0] == 0 && gap[4] == 0 && gap[8] == 0, "the refused put over the gap wrote");
  MPI_Datatype two;
  OK(MPI_Type_vector(2, 4, 8, MPI_INT, &two));
  OK(MPI_Type_commit(&two));
  OK(MPI_Put(src, 8, MPI_INT, 0, gbase, 1, two, win));
  OK(MPI_Win_flush(0, win));
  CHECK(gap[0] == 1 && gap[3] == 4 && gap[4] == 0 && gap[7] == 0 && gap[8] == 5 && gap[11] == 8,
        "the put of the vector: %d %d %d %d %d %d", gap[0], gap[3], gap[4], gap[7], gap[8], gap[11]);
  OK(MPI_Type_free(&two));

  /* With the second region detached, the access across the boundary is refused again. */
  OK(MPI_Win_unlock_all(win));
  OK(MPI_Win_detach(win, &mem[8]));
  OK(MPI_Win_lock_all(0, win));
  check_error(MPI_Put(src, 12, MPI_INT, 0, base, 12, MPI_INT, win), MPI_ERR_RMA_RANGE, "not in memory attached");
  OK(MPI_Put(src, 8, MPI_INT, 0, base, 8, MPI_INT, win));
  OK(MPI_Win_unlock_all(win));
  CHECK(mem[0] == 1 && mem[7] == 8 && mem[8] == 7 + 3, "after the last puts: %d %d %d", mem[0], mem[7], mem[8]);

  OK(MPI_Win_detach(win, &mem[0]));
  OK(MPI_Win_detach(win, &gap[0]));
  OK(MPI_Win_detach(win, &gap[8]));
  OK(MPI_Win_free(&win));
  OK(MPI_Finalize());
  return failures != 0;
}
