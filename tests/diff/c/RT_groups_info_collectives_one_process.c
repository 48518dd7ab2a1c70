/* D45: what one process can do with groups, reductions, MPI_Alltoallw, the neighbourhood
 * collectives and a communicator's hints, as programs written for MPICH and Open MPI call them in
 * a one-process run: the group set operations and rank translation between the world group and
 * the empty one; MPI_Op_commutative; MPI_Reduce_local with predefined operations on predefined
 * datatypes and with a user's operation (which is called here, unlike in a one-process reduce);
 * MPI_Alltoallw with byte displacements and a datatype per block, and in place; the blocking
 * neighbourhood collectives on a 1x1 grid periodic in one dimension only (the process is its own
 * neighbour both ways there, and has MPI_PROC_NULL neighbours, whose blocks stay as they are, in
 * the other), on a graph and on a distributed graph with one self edge; a hint given to
 * MPI_Comm_dup_with_info, read back with MPI_Comm_get_info.
 */
#include <string.h>

#include "diff_util.h"

static void group_fact(const char *label, MPI_Group g)
{
    int size = -1, rank = -2;
    MPI_Group_size(g, &size);
    MPI_Group_rank(g, &rank);
    printf("%s: size %d, rank %s, empty %d\n", label, size,
           rank == MPI_UNDEFINED ? "MPI_UNDEFINED" : rank == 0 ? "0" : "(other)",
           g == MPI_GROUP_EMPTY);
}

static void free_group(MPI_Group *g)
{
    if (*g != MPI_GROUP_EMPTY && *g != MPI_GROUP_NULL) MPI_Group_free(g);
}

static const char *rank_name(int r)
{
    if (r == MPI_PROC_NULL) return "MPI_PROC_NULL";
    if (r == MPI_UNDEFINED) return "MPI_UNDEFINED";
    if (r == 0) return "0";
    return "(other)";
}

/* A non-commutative user operation: inout = 10 * in + inout, counting its calls and what they
 * were given. */
static int op_calls, op_len_seen;
static MPI_Datatype op_type_seen;
static void tens(void *in, void *inout, int *len, MPI_Datatype *type)
{
    op_calls++;
    op_len_seen = *len;
    op_type_seen = *type;
    int n = *len;
    if (*type != MPI_INT) n *= 2; /* a pair of ints, the test's only other datatype */
    for (int i = 0; i < n; i++) ((int *)inout)[i] = 10 * ((int *)in)[i] + ((int *)inout)[i];
}

static void ints(const char *label, int rc, const int *v, int n)
{
    printf("%s: %s", label, errclass_name(rc));
    for (int i = 0; i < n; i++) printf(" %d", v[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    MPI_Comm w = MPI_COMM_WORLD;
    int rc;

    /* ---- groups ---- */
    MPI_Group world, empty = MPI_GROUP_EMPTY, g = MPI_GROUP_NULL;
    CHECK(MPI_Comm_group(w, &world));
    rc = MPI_Group_union(world, empty, &g);
    fact_err("union world empty", rc);
    group_fact("union world empty group", g);
    free_group(&g);
    rc = MPI_Group_union(empty, empty, &g);
    group_fact("union empty empty group", g);
    free_group(&g);
    rc = MPI_Group_intersection(world, world, &g);
    fact_err("intersection world world", rc);
    group_fact("intersection world world group", g);
    int cmp = -1;
    MPI_Group_compare(g, world, &cmp);
    fact("intersection world world is MPI_IDENT to world", cmp == MPI_IDENT);
    free_group(&g);
    rc = MPI_Group_intersection(world, empty, &g);
    group_fact("intersection world empty group", g);
    free_group(&g);
    rc = MPI_Group_difference(world, empty, &g);
    fact_err("difference world empty", rc);
    group_fact("difference world empty group", g);
    free_group(&g);
    rc = MPI_Group_difference(world, world, &g);
    group_fact("difference world world group", g);
    free_group(&g);
    int excl[1][3] = {{0, 0, 1}};
    rc = MPI_Group_range_excl(world, 1, excl, &g);
    fact_err("range_excl 0..0", rc);
    group_fact("range_excl 0..0 group", g);
    free_group(&g);
    rc = MPI_Group_range_excl(world, 0, excl, &g);
    group_fact("range_excl nothing group", g);
    free_group(&g);
    int r1[3] = {0, MPI_PROC_NULL, 0}, r2[3] = {-7, -7, -7};
    rc = MPI_Group_translate_ranks(world, 3, r1, world, r2);
    printf("translate world to world: %s %s %s %s\n", errclass_name(rc), rank_name(r2[0]),
           rank_name(r2[1]), rank_name(r2[2]));
    int r3[1] = {-7};
    rc = MPI_Group_translate_ranks(world, 1, r1, empty, r3);
    printf("translate 0 world to empty: %s %s\n", errclass_name(rc), rank_name(r3[0]));
    r3[0] = -7;
    rc = MPI_Group_translate_ranks(world, 1, r1 + 1, empty, r3);
    printf("translate MPI_PROC_NULL world to empty: %s %s\n", errclass_name(rc), rank_name(r3[0]));
    MPI_Group_free(&world);

    /* ---- operations ---- */
    MPI_Op nc, cm;
    CHECK(MPI_Op_create(tens, 0, &nc));
    CHECK(MPI_Op_create(tens, 1, &cm));
    int commute = -1;
    rc = MPI_Op_commutative(MPI_SUM, &commute);
    printf("commutative MPI_SUM: %s %d\n", errclass_name(rc), commute);
    commute = -1;
    MPI_Op_commutative(MPI_MAXLOC, &commute);
    fact("commutative MPI_MAXLOC", commute);
    commute = -1;
    MPI_Op_commutative(nc, &commute);
    fact("commutative user op created non-commutative", commute);
    commute = -1;
    MPI_Op_commutative(cm, &commute);
    fact("commutative user op created commutative", commute);

    int in[3] = {1, 2, 3}, io[3] = {10, 20, 30};
    rc = MPI_Reduce_local(in, io, 3, MPI_INT, MPI_SUM);
    ints("reduce_local SUM int", rc, io, 3);
    int mx_in[3] = {5, -5, 7}, mx_io[3] = {4, -4, 7};
    rc = MPI_Reduce_local(mx_in, mx_io, 3, MPI_INT, MPI_MAX);
    ints("reduce_local MAX int", rc, mx_io, 3);
    int mn_in[2] = {5, -5}, mn_io[2] = {4, -4};
    MPI_Reduce_local(mn_in, mn_io, 2, MPI_INT, MPI_MIN);
    ints("reduce_local MIN int", MPI_SUCCESS, mn_io, 2);
    unsigned bx_in[2] = {0xF0u, 0x0Fu}, bx_io[2] = {0xFFu, 0x0Fu};
    rc = MPI_Reduce_local(bx_in, bx_io, 2, MPI_UNSIGNED, MPI_BXOR);
    printf("reduce_local BXOR unsigned: %s %u %u\n", errclass_name(rc), bx_io[0], bx_io[1]);
    int l_in[4] = {0, 0, 3, 3}, l_io[4] = {0, 2, 0, 2};
    rc = MPI_Reduce_local(l_in, l_io, 4, MPI_INT, MPI_LAND);
    ints("reduce_local LAND int", rc, l_io, 4);
    int x_in[4] = {0, 0, 3, 3}, x_io[4] = {0, 2, 0, 2};
    MPI_Reduce_local(x_in, x_io, 4, MPI_INT, MPI_LXOR);
    ints("reduce_local LXOR int", MPI_SUCCESS, x_io, 4);
    double d_in[2] = {1.5, -2.0}, d_io[2] = {4.0, 3.0};
    rc = MPI_Reduce_local(d_in, d_io, 2, MPI_DOUBLE, MPI_PROD);
    printf("reduce_local PROD double: %s %g %g\n", errclass_name(rc), d_io[0], d_io[1]);
    struct { double v; int i; } loc_in[3] = {{1.0, 4}, {2.0, 9}, {3.0, 1}},
                                loc_io[3] = {{2.0, 5}, {2.0, 3}, {1.0, 8}};
    rc = MPI_Reduce_local(loc_in, loc_io, 3, MPI_DOUBLE_INT, MPI_MAXLOC);
    printf("reduce_local MAXLOC double_int: %s %g/%d %g/%d %g/%d\n", errclass_name(rc), loc_io[0].v,
           loc_io[0].i, loc_io[1].v, loc_io[1].i, loc_io[2].v, loc_io[2].i);
    int p_in[4] = {7, 2, 7, 6}, p_io[4] = {7, 1, 9, 0};
    rc = MPI_Reduce_local(p_in, p_io, 2, MPI_2INT, MPI_MINLOC);
    ints("reduce_local MINLOC 2int", rc, p_io, 4);
    int c_io[2] = {3, 4};
    rc = MPI_Reduce_local(in, c_io, 0, MPI_INT, MPI_SUM);
    ints("reduce_local count 0", rc, c_io, 2);

    int u_in[3] = {1, 2, 3}, u_io[3] = {4, 5, 6};
    rc = MPI_Reduce_local(u_in, u_io, 3, MPI_INT, nc);
    ints("reduce_local user op", rc, u_io, 3);
    printf("reduce_local user op calls: %d, len %d, datatype MPI_INT %d\n", op_calls, op_len_seen,
           op_type_seen == MPI_INT);
    MPI_Datatype pair;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK(MPI_Type_commit(&pair));
    int v_in[4] = {1, 2, 3, 4}, v_io[4] = {1, 1, 1, 1};
    op_calls = 0;
    rc = MPI_Reduce_local(v_in, v_io, 2, pair, cm);
    ints("reduce_local user op derived", rc, v_io, 4);
    printf("reduce_local user op derived calls: %d, len %d, datatype the pair %d\n", op_calls,
           op_len_seen, op_type_seen == pair);
    MPI_Op_free(&nc);
    MPI_Op_free(&cm);

    /* ---- MPI_Alltoallw: byte displacements, a datatype per side ---- */
    MPI_Datatype three;
    CHECK(MPI_Type_contiguous(3, MPI_INT, &three));
    CHECK(MPI_Type_commit(&three));
    int a_send[5] = {-1, 100, 200, 300, -1}, a_recv[6] = {-9, -9, -9, -9, -9, -9};
    int scount[1] = {3}, sdisp[1] = {(int)sizeof(int)}, rcount[1] = {1}, rdisp[1] = {2 * (int)sizeof(int)};
    MPI_Datatype stypes[1] = {MPI_INT}, rtypes[1] = {three};
    rc = MPI_Alltoallw(a_send, scount, sdisp, stypes, a_recv, rcount, rdisp, rtypes, w);
    ints("alltoallw int to contiguous", rc, a_recv, 6);
    int b_recv[3] = {5, 6, 7};
    int bcount[1] = {3}, bdisp[1] = {0};
    MPI_Datatype btypes[1] = {MPI_INT};
    rc = MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b_recv, bcount, bdisp, btypes, w);
    ints("alltoallw in place", rc, b_recv, 3);

    /* ---- neighbourhood collectives on a 1x1 grid, periodic in dimension 0 only ---- */
    int dims[2] = {1, 1}, periods[2] = {1, 0};
    MPI_Comm cart;
    CHECK(MPI_Cart_create(w, 2, dims, periods, 0, &cart));
    int s4[4] = {10, 11, 12, 13}, n4[4] = {-1, -1, -1, -1};
    rc = MPI_Neighbor_alltoall(s4, 1, MPI_INT, n4, 1, MPI_INT, cart);
    ints("cart neighbor_alltoall", rc, n4, 4);
    int g4[4] = {-1, -1, -1, -1};
    rc = MPI_Neighbor_allgather(s4, 1, MPI_INT, g4, 1, MPI_INT, cart);
    ints("cart neighbor_allgather", rc, g4, 4);
    int gv[6] = {-1, -1, -1, -1, -1, -1}, gvc[4] = {2, 2, 2, 2}, gvd[4] = {4, 0, 2, 2};
    rc = MPI_Neighbor_allgatherv(s4, 2, MPI_INT, gv, gvc, gvd, MPI_INT, cart);
    ints("cart neighbor_allgatherv", rc, gv, 6);
    int av[6] = {-1, -1, -1, -1, -1, -1}, asc[4] = {1, 2, 1, 1}, asd[4] = {0, 1, 3, 3};
    int arc[4] = {2, 1, 1, 1}, ard[4] = {3, 0, 5, 5};
    rc = MPI_Neighbor_alltoallv(s4, asc, asd, MPI_INT, av, arc, ard, MPI_INT, cart);
    ints("cart neighbor_alltoallv", rc, av, 6);
    int aw[4] = {-1, -1, -1, -1}, wsc[4] = {1, 1, 0, 0}, wrc[4] = {1, 1, 0, 0};
    MPI_Aint wsd[4] = {3 * sizeof(int), 0, 0, 0}, wrd[4] = {0, 2 * sizeof(int), 0, 0};
    MPI_Datatype wst[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT}, wrt[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    rc = MPI_Neighbor_alltoallw(s4, wsc, wsd, wst, aw, wrc, wrd, wrt, cart);
    ints("cart neighbor_alltoallw", rc, aw, 4);
    MPI_Comm_free(&cart);

    /* ---- on a graph and a distributed graph with one self edge ---- */
    int index[1] = {1}, edges[1] = {0};
    MPI_Comm graph;
    CHECK(MPI_Graph_create(w, 1, index, edges, 0, &graph));
    int gr[2] = {-1, -1};
    rc = MPI_Neighbor_alltoall(s4, 2, MPI_INT, gr, 2, MPI_INT, graph);
    ints("graph neighbor_alltoall", rc, gr, 2);
    MPI_Comm_free(&graph);
    int self[1] = {0}, wt[1] = {3};
    MPI_Comm dist;
    CHECK(MPI_Dist_graph_create_adjacent(w, 1, self, wt, 1, self, wt, MPI_INFO_NULL, 0, &dist));
    int dr[3] = {-1, -1, -1};
    rc = MPI_Neighbor_allgather(s4 + 2, 2, MPI_INT, dr + 1, 2, MPI_INT, dist);
    ints("dist graph neighbor_allgather", rc, dr, 3);
    MPI_Comm_free(&dist);
    /* Three self edges: what arrives where depends on the order messages are matched in (D45
     * matches them in edge order, MPICH does not), but all of it arrives. */
    int three_self[3] = {0, 0, 0};
    int *volatile unweighted = MPI_UNWEIGHTED; /* a variable: GCC 12 warns of the constant */
    CHECK(MPI_Dist_graph_create_adjacent(w, 3, three_self, unweighted, 3, three_self, unweighted,
                                         MPI_INFO_NULL, 0, &dist));
    int m3[3] = {0, 0, 0};
    rc = MPI_Neighbor_alltoall(s4, 1, MPI_INT, m3, 1, MPI_INT, dist);
    printf("dist graph three self edges neighbor_alltoall: %s sum %d\n", errclass_name(rc),
           m3[0] + m3[1] + m3[2]);
    MPI_Comm_free(&dist);

    /* ---- a communicator's hints ---- */
    MPI_Info info, used = MPI_INFO_NULL;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MPI_Comm hinted;
    CHECK(MPI_Comm_dup_with_info(w, info, &hinted));
    MPI_Info_free(&info);
    rc = MPI_Comm_get_info(hinted, &used);
    char value[64] = "(none)";
    int flag = 0;
    if (rc == MPI_SUCCESS) MPI_Info_get(used, "mpi_assert_no_any_tag", 63, value, &flag);
    printf("dup_with_info hint read back: %s %d %s\n", errclass_name(rc), flag, value);
    if (used != MPI_INFO_NULL) MPI_Info_free(&used);
    used = MPI_INFO_NULL;
    rc = MPI_Comm_get_info(w, &used);
    printf("get_info world: %s, an info %d\n", errclass_name(rc), used != MPI_INFO_NULL);
    if (used != MPI_INFO_NULL) MPI_Info_free(&used);
    MPI_Comm_free(&hinted);

    MPI_Type_free(&pair);
    MPI_Type_free(&three);
    MPI_Finalize();
    return 0;
}
