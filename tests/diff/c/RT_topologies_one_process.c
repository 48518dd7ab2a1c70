/* The process topologies of MPI-4.1 §9 on one process, as programs written for MPICH and
 * Open MPI call them in a one-process run: MPI_Dims_create, Cartesian grids of extent 1 (periodic
 * and not, zero-dimensional, shifted, mapped, sub-gridded), a graph with a self edge, distributed
 * graphs with and without weights, MPI_Topo_test on each and on a communicator without topology,
 * and what a topology constructor does with attributes (none copied: only the duplicating
 * routines copy, R6.1) and with the error handler (inherited). Errors print their class.
 */
#include "diff_util.h"

static const char *topo_name(int t)
{
    if (t == MPI_CART) return "MPI_CART";
    if (t == MPI_GRAPH) return "MPI_GRAPH";
    if (t == MPI_DIST_GRAPH) return "MPI_DIST_GRAPH";
    if (t == MPI_UNDEFINED) return "MPI_UNDEFINED";
    return "(other)";
}

static void topo(const char *label, MPI_Comm c)
{
    int t = -12345;
    int rc = MPI_Topo_test(c, &t);
    printf("%s: %s %s\n", label, errclass_name(rc), topo_name(t));
}

static int copies;
static int count_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    /* MPI_UNWEIGHTED through a variable: GCC 12 warns of a 0-byte access when a constant address
     * such as the ABI's ((int*)10), or Open MPI's, meets an array parameter. */
    int *volatile unweighted = MPI_UNWEIGHTED;
    MPI_Comm w = MPI_COMM_WORLD;
    int rc;

    /* MPI_Dims_create for one process. */
    int d2[2] = {0, 0}, d3[3] = {0, 1, 0}, bad[2] = {2, 0};
    rc = MPI_Dims_create(1, 2, d2);
    printf("dims_create 1 into 2: %s %d %d\n", errclass_name(rc), d2[0], d2[1]);
    rc = MPI_Dims_create(1, 3, d3);
    printf("dims_create 1 into 0 1 0: %s %d %d %d\n", errclass_name(rc), d3[0], d3[1], d3[2]);
    rc = MPI_Dims_create(1, 2, bad);
    fact("dims_create 1 into 2 0 fails", rc != MPI_SUCCESS);

    topo("topo_test world", w);

    /* A 1x1 grid, periodic in dimension 0 only; world carries an attribute that copies. */
    int key;
    MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    static int payload = 7;
    MPI_Comm_set_attr(w, key, &payload);
    int dims[2] = {1, 1}, periods[2] = {1, 0};
    MPI_Comm cart = MPI_COMM_NULL;
    rc = MPI_Cart_create(w, 2, dims, periods, 0, &cart);
    fact_err("cart_create 1x1", rc);
    fact("cart_create 1x1 gives a communicator", cart != MPI_COMM_NULL);
    if (cart == MPI_COMM_NULL) return diff_finish();
    void *got = NULL;
    int flag = -1;
    MPI_Comm_get_attr(cart, key, &got, &flag);
    fact("cart_create copies no attribute", flag == 0 && copies == 0);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(cart, &eh);
    fact("cart inherits MPI_ERRORS_RETURN", eh == MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    int size = -1, rank = -1;
    MPI_Comm_size(cart, &size);
    MPI_Comm_rank(cart, &rank);
    printf("cart size rank: %d %d\n", size, rank);
    topo("topo_test cart", cart);
    int nd = -1;
    MPI_Cartdim_get(cart, &nd);
    fact("cartdim_get", nd);
    int gd[2] = {-1, -1}, gp[2] = {-1, -1}, gc[2] = {-1, -1};
    rc = MPI_Cart_get(cart, 2, gd, gp, gc);
    printf("cart_get: %s dims %d %d periods %d %d coords %d %d\n", errclass_name(rc), gd[0], gd[1],
           gp[0] != 0, gp[1] != 0, gc[0], gc[1]);
    int coords[2] = {0, 0}, r = -1;
    MPI_Cart_rank(cart, coords, &r);
    fact("cart_rank 0 0", r);
    int wrap[2] = {3, 0};
    r = -1;
    rc = MPI_Cart_rank(cart, wrap, &r);
    printf("cart_rank 3 0 (periodic dimension): %s %d\n", errclass_name(rc), r);
    int outside[2] = {0, 1};
    rc = MPI_Cart_rank(cart, outside, &r);
    fact("cart_rank 0 1 (outside, not periodic) fails", rc != MPI_SUCCESS);
    int cc[2] = {-1, -1};
    rc = MPI_Cart_coords(cart, 0, 2, cc);
    printf("cart_coords 0: %s %d %d\n", errclass_name(rc), cc[0], cc[1]);
    rc = MPI_Cart_coords(cart, 1, 2, cc);
    fact_err("cart_coords 1", rc);
    int src = -5, dst = -5;
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    printf("cart_shift dim 0 by 1 (periodic): %d %d\n", src, dst);
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    printf("cart_shift dim 1 by 1: %s %s\n", src == MPI_PROC_NULL ? "MPI_PROC_NULL" : "rank",
           dst == MPI_PROC_NULL ? "MPI_PROC_NULL" : "rank");
    MPI_Cart_shift(cart, 1, 0, &src, &dst);
    printf("cart_shift dim 1 by 0: %d %d\n", src, dst);
    rc = MPI_Cart_shift(cart, 2, 1, &src, &dst);
    fact("cart_shift dim 2 fails", rc != MPI_SUCCESS);

    int remain[2] = {0, 1};
    MPI_Comm sub = MPI_COMM_NULL;
    rc = MPI_Cart_sub(cart, remain, &sub);
    fact_err("cart_sub keep dim 1", rc);
    if (sub != MPI_COMM_NULL) {
        topo("topo_test cart_sub", sub);
        int sd = -1, sdims[1] = {-1}, sper[1] = {-1}, sco[1] = {-1};
        MPI_Cartdim_get(sub, &sd);
        MPI_Cart_get(sub, 1, sdims, sper, sco);
        printf("cart_sub: ndims %d dims %d periods %d coords %d\n", sd, sdims[0], sper[0] != 0,
               sco[0]);
        MPI_Comm_free(&sub);
    }

    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(cart, &dup);
    topo("topo_test dup of cart", dup);
    MPI_Comm_free(&dup);
    MPI_Comm split = MPI_COMM_NULL;
    MPI_Comm_split(cart, 0, 0, &split);
    topo("topo_test split of cart", split);
    MPI_Comm_free(&split);
    MPI_Comm_free(&cart);

    int newrank = -5;
    rc = MPI_Cart_map(w, 2, dims, periods, &newrank);
    printf("cart_map 1x1: %s %d\n", errclass_name(rc), newrank);

    int two[1] = {2}, per1[1] = {0};
    MPI_Comm big = MPI_COMM_NULL;
    rc = MPI_Cart_create(w, 1, two, per1, 0, &big);
    fact("cart_create of 2 processes on 1 fails", rc != MPI_SUCCESS && big == MPI_COMM_NULL);
    /* (MPI_Cart_get on a communicator without topology: MPICH 4.0.2 crashes; tests/c checks it.) */

    MPI_Comm zero = MPI_COMM_NULL;
    rc = MPI_Cart_create(w, 0, dims, periods, 0, &zero);
    fact_err("cart_create of 0 dimensions", rc);
    if (zero != MPI_COMM_NULL) {
        MPI_Cartdim_get(zero, &nd);
        MPI_Comm_size(zero, &size);
        printf("0-dimensional: ndims %d size %d\n", nd, size);
        topo("topo_test 0-dimensional", zero);
        MPI_Comm_free(&zero);
    }

    /* A graph of one node with an edge to itself. */
    int index[1] = {1}, edges[1] = {0};
    MPI_Comm graph = MPI_COMM_NULL;
    rc = MPI_Graph_create(w, 1, index, edges, 0, &graph);
    fact_err("graph_create", rc);
    if (graph != MPI_COMM_NULL) {
        topo("topo_test graph", graph);
        int nn = -1, ne = -1;
        MPI_Graphdims_get(graph, &nn, &ne);
        printf("graphdims_get: %d %d\n", nn, ne);
        int gi[1] = {-1}, ge[1] = {-1};
        MPI_Graph_get(graph, 1, 1, gi, ge);
        printf("graph_get: %d %d\n", gi[0], ge[0]);
        int nc = -1, nb[2] = {-1, -1};
        MPI_Graph_neighbors_count(graph, 0, &nc);
        MPI_Graph_neighbors(graph, 0, 2, nb);
        printf("graph_neighbors of 0: %d [%d]\n", nc, nb[0]);
        rc = MPI_Graph_neighbors_count(graph, 1, &nc);
        fact("graph_neighbors_count of rank 1 fails", rc != MPI_SUCCESS);
        MPI_Comm_get_attr(graph, key, &got, &flag);
        fact("graph_create copies no attribute", flag == 0 && copies == 0);
        MPI_Comm_free(&graph);
    }
    newrank = -5;
    rc = MPI_Graph_map(w, 1, index, edges, &newrank);
    printf("graph_map: %s %d\n", errclass_name(rc), newrank);
    int bad_edges[1] = {1};
    rc = MPI_Graph_create(w, 1, index, bad_edges, 0, &graph);
    fact("graph_create with an edge to node 1 of 1 fails", rc != MPI_SUCCESS);

    /* Distributed graphs: adjacent with weights, adjacent without, and the general form. */
    int s1[1] = {0}, sw[1] = {5}, d1[1] = {0}, dw[1] = {7};
    MPI_Comm dg = MPI_COMM_NULL;
    rc = MPI_Dist_graph_create_adjacent(w, 1, s1, sw, 1, d1, dw, MPI_INFO_NULL, 0, &dg);
    fact_err("dist_graph_create_adjacent weighted", rc);
    if (dg != MPI_COMM_NULL) {
        topo("topo_test dist_graph", dg);
        int in = -1, out = -1, weighted = -1;
        MPI_Dist_graph_neighbors_count(dg, &in, &out, &weighted);
        printf("dist_graph_neighbors_count: %d %d %d\n", in, out, weighted != 0);
        int so[2] = {-1, -1}, sow[2] = {-1, -1}, de[2] = {-1, -1}, dew[2] = {-1, -1};
        MPI_Dist_graph_neighbors(dg, 2, so, sow, 2, de, dew);
        printf("dist_graph_neighbors: from %d w %d to %d w %d\n", so[0], sow[0], de[0], dew[0]);
        MPI_Comm_get_attr(dg, key, &got, &flag);
        fact("dist_graph_create_adjacent copies no attribute", flag == 0 && copies == 0);
        MPI_Comm_free(&dg);
    }
    rc = MPI_Dist_graph_create_adjacent(w, 1, s1, unweighted, 0, d1, unweighted,
                                        MPI_INFO_NULL, 0, &dg);
    fact_err("dist_graph_create_adjacent unweighted", rc);
    if (dg != MPI_COMM_NULL) {
        int in = -1, out = -1, weighted = -1;
        MPI_Dist_graph_neighbors_count(dg, &in, &out, &weighted);
        printf("unweighted neighbors_count: %d %d %d\n", in, out, weighted != 0);
        int so[1] = {-1}, de[1] = {-1};
        MPI_Dist_graph_neighbors(dg, 1, so, unweighted, 0, de, unweighted);
        printf("unweighted neighbors: from %d\n", so[0]);
        MPI_Comm_free(&dg);
    }
    int degrees[1] = {2}, targets[2] = {0, 0}, tw[2] = {3, 4};
    rc = MPI_Dist_graph_create(w, 1, s1, degrees, targets, tw, MPI_INFO_NULL, 0, &dg);
    fact_err("dist_graph_create", rc);
    if (dg != MPI_COMM_NULL) {
        int in = -1, out = -1, weighted = -1;
        MPI_Dist_graph_neighbors_count(dg, &in, &out, &weighted);
        printf("dist_graph_create neighbors_count: %d %d %d\n", in, out, weighted != 0);
        int so[2] = {-1, -1}, sow[2] = {-1, -1}, de[2] = {-1, -1}, dew[2] = {-1, -1};
        MPI_Dist_graph_neighbors(dg, 2, so, sow, 2, de, dew);
        int wsum_in = sow[0] + sow[1], wsum_out = dew[0] + dew[1];
        printf("dist_graph_create neighbors: from %d %d to %d %d weights %d %d\n", so[0], so[1],
               de[0], de[1], wsum_in, wsum_out);
        MPI_Comm_free(&dg);
    }
    int bad_src[1] = {1};
    rc = MPI_Dist_graph_create_adjacent(w, 1, bad_src, unweighted, 0, d1, unweighted,
                                        MPI_INFO_NULL, 0, &dg);
    fact("dist_graph_create_adjacent from rank 1 of 1 fails", rc != MPI_SUCCESS);

    MPI_Comm_delete_attr(w, key);
    MPI_Comm_free_keyval(&key);
    return diff_finish();
}
