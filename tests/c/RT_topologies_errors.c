/* D42: the topology routines' errors on the standalone runtime, where the differential test
 * (tests/diff/c/RT_topologies_one_process.c) cannot go because a peer crashes or is silent: the
 * class, a message that says what was wrong, the communicator's handler, and nothing written or
 * created. Also the topology's life: kept by every dup, dropped by split and free, absent from a
 * communicator whose handle a freed one's slot gave. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

static int topo(MPI_Comm c) {
  int t = -1;
  OK(MPI_Topo_test(c, &t));
  return t;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Comm w = MPI_COMM_WORLD;
  OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

  /* Queries on a communicator without that topology. */
  int dims[2] = {7, 7}, periods[2] = {7, 7}, coords[2] = {7, 7}, nd = 7;
  check_error(MPI_Cart_get(w, 2, dims, periods, coords), MPI_ERR_TOPOLOGY, "no Cartesian topology");
  CHECK(dims[0] == 7 && periods[0] == 7 && coords[0] == 7, "an output was written");
  check_error(MPI_Cartdim_get(w, &nd), MPI_ERR_TOPOLOGY, "no Cartesian topology");
  CHECK(nd == 7, "ndims was written");
  int nn = 7, ne = 7;
  check_error(MPI_Graphdims_get(w, &nn, &ne), MPI_ERR_TOPOLOGY, "no graph topology");
  int in = 7, out = 7, weighted = 7;
  check_error(MPI_Dist_graph_neighbors_count(w, &in, &out, &weighted), MPI_ERR_TOPOLOGY,
              "no distributed graph topology");
  CHECK(in == 7 && out == 7 && weighted == 7, "an output was written");

  /* Bad constructor arguments: the output communicator is MPI_COMM_NULL (no half-built one). */
  MPI_Comm c = MPI_COMM_SELF;
  int zero[1] = {0}, p1[1] = {0};
  check_error(MPI_Cart_create(w, 1, zero, p1, 0, &c), MPI_ERR_DIMS, "dims[0] is 0");
  CHECK(c == MPI_COMM_NULL, "comm_cart is not MPI_COMM_NULL");
  check_error(MPI_Cart_create(w, -1, zero, p1, 0, &c), MPI_ERR_DIMS, "negative");
  int three[1] = {3};
  check_error(MPI_Cart_create(w, 1, three, p1, 0, &c), MPI_ERR_ARG, "the grid has 3 processes");
  int index[1] = {1}, self_edge[1] = {0}, far[1] = {2};
  check_error(MPI_Graph_create(w, 1, index, far, 0, &c), MPI_ERR_ARG, "edges[0] is 2");
  check_error(MPI_Graph_create(w, 2, index, self_edge, 0, &c), MPI_ERR_ARG, "2 nodes");
  int negw[1] = {-3};
  /* MPI_WEIGHTS_EMPTY as it is: mpi.h declares weights `const int*`, so GCC's -Wall does not warn
   * of a 0-byte read at the call (the build fails on warnings: this is its check). */
  c = MPI_COMM_SELF;
  check_error(MPI_Dist_graph_create_adjacent(w, 1, self_edge, negw, 0, NULL, MPI_WEIGHTS_EMPTY,
                                             MPI_INFO_NULL, 0, &c),
              MPI_ERR_ARG, "weights are not negative");
  CHECK(c == MPI_COMM_NULL, "comm_dist_graph is not MPI_COMM_NULL");

  /* MPI_Dims_create: a factorisation as balanced as possible, non-increasing; errors. */
  int d3[3] = {0, 0, 0};
  OK(MPI_Dims_create(12, 3, d3));
  CHECK(d3[0] == 3 && d3[1] == 2 && d3[2] == 2, "12 into 3: %d %d %d", d3[0], d3[1], d3[2]);
  int d2[2] = {0, 3};
  OK(MPI_Dims_create(12, 2, d2));
  CHECK(d2[0] == 4 && d2[1] == 3, "12 into 0 3: %d %d", d2[0], d2[1]);
  int d4[4] = {0, 0, 0, 0};
  OK(MPI_Dims_create(7, 4, d4));
  CHECK(d4[0] == 7 && d4[1] == 1 && d4[3] == 1, "7 into 4: %d %d %d %d", d4[0], d4[1], d4[2], d4[3]);
  int bad[2] = {5, 0};
  check_error(MPI_Dims_create(12, 2, bad), MPI_ERR_DIMS, "do not divide");
  CHECK(bad[1] == 0, "dims was written");

  /* A grid's topology: kept by dup, dropped by split and by free. */
  int one[2] = {1, 1}, per[2] = {1, 1};
  MPI_Comm cart, dup, split, again;
  OK(MPI_Cart_create(w, 2, one, per, 1, &cart));
  OK(MPI_Comm_dup(cart, &dup));
  CHECK(topo(dup) == MPI_CART, "a dup of a grid is not a grid");
  OK(MPI_Comm_split(cart, 0, 0, &split));
  CHECK(topo(split) == MPI_UNDEFINED, "a split of a grid has a topology");
  OK(MPI_Comm_free(&cart));
  CHECK(topo(dup) == MPI_CART, "freeing the grid dropped its dup's topology");
  OK(MPI_Comm_free(&dup));
  OK(MPI_Comm_dup(w, &again));  /* may reuse a freed slot */
  CHECK(topo(again) == MPI_UNDEFINED, "a new communicator inherited a freed one's topology");
  OK(MPI_Comm_free(&again));
  OK(MPI_Comm_free(&split));

  /* Erroneous calls on a topology communicator go to its handler. */
  OK(MPI_Cart_create(w, 2, one, per, 0, &cart));
  OK(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
  int src = 7, dst = 7;
  check_error(MPI_Cart_shift(cart, 2, 1, &src, &dst), MPI_ERR_ARG, "direction 2");
  CHECK(src == 7 && dst == 7, "rank_source or rank_dest was written");
  check_error(MPI_Cart_coords(cart, 1, 2, coords), MPI_ERR_RANK, "rank 1");
  OK(MPI_Comm_free(&cart));

  OK(MPI_Finalize());
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
