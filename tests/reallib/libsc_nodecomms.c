/* tests/reallib/libsc_nodecomms.c: libsc (Debian's libp4est-dev, the support library of p4est,
 * built against Open MPI), whose communicators carry communicators, on the host alone or with
 * mpiattr.
 *
 *   libsc_nodecomms OUTDIR
 *
 * sc_mpi_comm_attach_node_comms(comm, ppn) splits comm into a node communicator and a
 * communicator across nodes and caches both on comm under a keyval libsc creates the first time
 * (MPI_Comm_create_keyval through the C name: with mpiattr in front of the host, mpiattr's). Its
 * copy callback duplicates both communicators (MPI_Comm_dup inside a copy callback), its delete
 * callback frees them (MPI_Comm_free inside a delete callback, R4.8). sc_shmem_set_type caches the
 * way shared arrays are made under a second keyval (MPI_COMM_DUP_FN). libsc frees neither keyval.
 *
 * The program, on each rank:
 *   - reads back the node communicators sc_init attached to MPI_COMM_WORLD, and the copies a
 *     duplicate of it gets; detaches those (MPI_Comm_delete_attr: the delete callback) and attaches
 *     them again, the node found by MPI_Comm_split_type (ppn 0: every rank of this machine);
 *   - duplicates it: the duplicate gets communicators of its own, of the same sizes, through the
 *     copy callback; frees the duplicate (its delete callback frees those);
 *   - detaches them (MPI_Comm_delete_attr: the delete callback), attaches them again with one
 *     process per node, and frees the communicator with them attached;
 *   - makes shared arrays by libsc's ways without windows (allgather, prefix sums), the way cached
 *     on the communicator and copied to a duplicate by MPI_COMM_DUP_FN;
 *   - leaves sc_init's node communicators on MPI_COMM_WORLD for MPI_Finalize.
 * Each rank writes its lines to OUTDIR/out.<rank> (compared by tests/reallib/run.sh between the host
 * alone and mpiattr); the exit status is 0 only if every check passed.
 */
#include <sc.h>
#include <sc_mpi.h>
#include <sc_shmem.h>
#include <stdio.h>

#include "reallib_out.h"

static int rank, size;

/* The sizes of comm's cached node communicators (-1: none), said as one line. */
static void node_comms(MPI_Comm comm, const char *where, int *intra_size, int *inter_size, MPI_Comm *intra) {
  MPI_Comm inter = MPI_COMM_NULL;
  *intra = MPI_COMM_NULL;
  sc_mpi_comm_get_node_comms(comm, intra, &inter);
  *intra_size = *inter_size = -1;
  if (*intra != MPI_COMM_NULL) MPI_Comm_size(*intra, intra_size);
  if (inter != MPI_COMM_NULL) MPI_Comm_size(inter, inter_size);
  say("%s: node communicator of %d, across nodes %d", where, *intra_size, *inter_size);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (open_out(argv[1], rank) != 0) return 1;
  say("rank %d of %d", rank, size);
  sc_init(MPI_COMM_WORLD, 0, 0, NULL, SC_LP_SILENT);

  MPI_Comm comm, dup;
  int intra, inter, dintra, dinter;
  MPI_Comm intra_comm, dup_intra_comm;
  /* sc_init attached node communicators to MPI_COMM_WORLD: a duplicate gets copies. */
  node_comms(MPI_COMM_WORLD, "on MPI_COMM_WORLD after sc_init", &intra, &inter, &intra_comm);
  CHECK(intra == size && inter == 1, "sc_init attached node communicators to MPI_COMM_WORLD");
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  node_comms(comm, "on a duplicate of MPI_COMM_WORLD", &dintra, &dinter, &dup_intra_comm);
  CHECK(dintra == size && dinter == 1 && dup_intra_comm != intra_comm,
        "a duplicate of MPI_COMM_WORLD gets copies of them");
  sc_mpi_comm_detach_node_comms(comm);  /* MPI_Comm_delete_attr: the delete callback */
  node_comms(comm, "detached", &intra, &inter, &intra_comm);
  CHECK(intra == -1 && inter == -1, "detaching deletes the attribute");
  sc_mpi_comm_attach_node_comms(comm, 0);
  node_comms(comm, "attached, node found by MPI_Comm_split_type", &intra, &inter, &intra_comm);
  CHECK(intra == size && inter == 1, "one node of every rank, one rank across nodes");

  MPI_Comm_dup(comm, &dup);  /* the copy callback duplicates both */
  node_comms(dup, "on a duplicate", &dintra, &dinter, &dup_intra_comm);
  int same = MPI_UNEQUAL;
  if (dup_intra_comm != MPI_COMM_NULL) MPI_Comm_compare(intra_comm, dup_intra_comm, &same);
  CHECK(dintra == intra && dinter == inter && dup_intra_comm != intra_comm && same == MPI_CONGRUENT,
        "the duplicate's node communicators: copies, congruent with the original's");
  MPI_Comm_free(&dup);  /* the delete callback frees the copies */
  node_comms(comm, "after freeing the duplicate", &intra, &inter, &intra_comm);
  CHECK(intra == size && inter == 1, "the original's node communicators are still there");

  sc_mpi_comm_detach_node_comms(comm);  /* MPI_Comm_delete_attr */
  node_comms(comm, "detached", &intra, &inter, &intra_comm);
  CHECK(intra == -1 && inter == -1, "detaching deletes the attribute");
  sc_mpi_comm_attach_node_comms(comm, 1);
  node_comms(comm, "attached, one process per node", &intra, &inter, &intra_comm);
  CHECK(intra == 1 && inter == size, "one rank per node, every rank across nodes");
  MPI_Comm_free(&comm);  /* with them attached: the delete callback frees them */

  /* Shared arrays, the way cached on a communicator (MPI_COMM_DUP_FN copies it). The two ways
   * without windows: Open MPI's one-sided component the stage uses (osc ucx, run.sh) makes no
   * shared-memory window. */
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int t = SC_SHMEM_BASIC; t <= SC_SHMEM_PRESCAN; ++t) {
    sc_shmem_set_type(comm, (sc_shmem_type_t)t);
    MPI_Comm_dup(comm, &dup);
    const int kept = sc_shmem_get_type(comm) == (sc_shmem_type_t)t;
    const int copied = sc_shmem_get_type(dup) == (sc_shmem_type_t)t;
    MPI_Comm_free(&dup);
    int *all = sc_shmem_malloc(sc_package_id, sizeof(int), (size_t)size, comm);
    int *prefix = sc_shmem_malloc(sc_package_id, sizeof(int), (size_t)size + 1, comm);
    int mine = rank + 1;
    sc_shmem_allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, comm);
    sc_shmem_prefix(&mine, prefix, 1, MPI_INT, MPI_SUM, comm);
    int sum = 0;
    for (int i = 0; i < size; ++i) sum += all[i];
    say("shared arrays by %s: the type kept %d, copied %d; allgather sum %d, prefix %d .. %d",
        sc_shmem_type_to_string[t], kept, copied, sum, prefix[0], prefix[size]);
    CHECK(kept && copied && sum == size * (size + 1) / 2 && prefix[0] == 0 && prefix[size] == sum,
          "shared arrays: the cached way, its copy on a duplicate, the sums");
    sc_shmem_free(sc_package_id, prefix, comm);
    sc_shmem_free(sc_package_id, all, comm);
  }
  MPI_Comm_free(&comm);

  /* sc_init's attribute stays on MPI_COMM_WORLD: MPI_Finalize's to delete. */
  sc_finalize();
  say("%d check(s) failed", failures);
  fclose(out);
  MPI_Finalize();
  return failures ? 1 : 0;
}
