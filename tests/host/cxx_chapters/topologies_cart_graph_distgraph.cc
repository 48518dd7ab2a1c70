// topologies_cart_graph_distgraph.cc: MPI-2.2 chapter 7 (process topologies) through the MPI::
// bindings (Annex A.4.6) on 4 ranks: Compute_dims; a 2x2 Cartcomm (periodic in dimension 0)
// and its queries, Shift, Sub, Map, Dup and Clone; a ring Graphcomm and its queries and Map;
// MPI-2.2's distributed graphs (Intracomm::Dist_graph_create_adjacent, Dist_graph_create,
// Distgraphcomm's neighbour queries); Comm::Get_topology of each.
#include "chapter_out.h"

#include <sstream>

using chapter::all;
using chapter::ints;
using chapter::one;

// PROC_NULL's value differs between implementations: print it as -1.
static int rank_or_null(int r) { return r == MPI::PROC_NULL ? -1 : r; }

static std::string topology_name(int t)
{
    if (t == MPI::CART) return "CART";
    if (t == MPI::GRAPH) return "GRAPH";
#ifdef MPIATTR_OVER_HOST  // neither host's own bindings define MPI::DIST_GRAPH (divergences.toml)
    if (t == MPI::DIST_GRAPH) return "DIST_GRAPH";
#endif
    if (t == MPI::UNDEFINED) return "UNDEFINED";
    return "other";
}

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), size = world.Get_size();
    one("ranks", size);
    one("world topology", topology_name(world.Get_topology()));

    {
        int d2[2] = {0, 0}, d3[3] = {0, 0, 0}, fixed[2] = {0, 3};
        MPI::Compute_dims(size, 2, d2);
        MPI::Compute_dims(size, 3, d3);
        MPI::Compute_dims(6, 2, fixed);
        one("compute_dims 4 in 2", ints(d2, 2));
        one("compute_dims 4 in 3", ints(d3, 3));
        one("compute_dims 6 in 2 with 3 fixed", ints(fixed, 2));
    }

    {
        int dims[2] = {2, 2};
        bool periods[2] = {true, false};
        MPI::Cartcomm cart = world.Create_cart(2, dims, periods, false);
        one("cart topology", topology_name(cart.Get_topology()));
        all("cart dim", cart.Get_dim());
        int d[2], c[2];
        bool p[2];
        cart.Get_topo(2, d, p, c);
        all("cart get_topo", d[0] * 1000 + d[1] * 100 + p[0] * 10 + p[1]);
        all("cart get_topo coords", c[0] * 10 + c[1]);
        int mine[2];
        cart.Get_coords(cart.Get_rank(), 2, mine);
        all("cart get_coords", mine[0] * 10 + mine[1]);
        all("cart get_cart_rank of own coords", cart.Get_cart_rank(mine) == cart.Get_rank());
        int wrapped[2] = {-1, 1};  // dimension 0 is periodic: row -1 is row 1
        one("cart get_cart_rank of (-1,1)", cart.Get_cart_rank(wrapped));
        int src, dst;
        cart.Shift(0, 1, src, dst);
        all("cart shift dim 0 by 1", rank_or_null(src) * 10 + rank_or_null(dst));
        cart.Shift(1, 1, src, dst);
        all("cart shift dim 1 by 1 (source)", rank_or_null(src));
        all("cart shift dim 1 by 1 (dest)", rank_or_null(dst));
        int in = -5, out = cart.Get_rank();
        cart.Sendrecv(&out, 1, MPI::INT, dst, 3, &in, 1, MPI::INT, src, 3);
        all("cart shifted value", in);
        bool remain[2] = {false, true};
        MPI::Cartcomm row = cart.Sub(remain);
        all("cart sub dim", row.Get_dim());
        all("cart sub rank", row.Get_rank());
        all("cart sub size", row.Get_size());
        one("cart sub topology", topology_name(row.Get_topology()));
        all("cart map", cart.Map(2, dims, periods));
        int three_nodes[1] = {3};
        bool not_periodic[1] = {false};
        int mapped = cart.Map(1, three_nodes, not_periodic);
        all("cart map onto 3 nodes", mapped == MPI::UNDEFINED ? -1 : mapped);
        MPI::Cartcomm dup = cart.Dup();
        one("cart dup topology", topology_name(dup.Get_topology()));
        all("cart dup compare", MPI::Comm::Compare(cart, dup) == MPI::CONGRUENT);
        MPI::Cartcomm& clone = cart.Clone();
        all("cart clone dim", clone.Get_dim());
        clone.Free();
        delete &clone;
        dup.Free();
        row.Free();
        cart.Free();

        // Three of the four ranks in a line: the last gets COMM_NULL.
        int three[1] = {3};
        bool open[1] = {false};
        MPI::Cartcomm line = world.Create_cart(1, three, open, false);
        all("cart of 3 is null", line == MPI::COMM_NULL);
        if (line != MPI::COMM_NULL) line.Free();
    }

    {
        // A ring: node i's neighbours are i-1 and i+1.
        int index[4] = {2, 4, 6, 8}, edges[8] = {1, 3, 0, 2, 1, 3, 2, 0};
        MPI::Graphcomm graph = world.Create_graph(4, index, edges, false);
        one("graph topology", topology_name(graph.Get_topology()));
        int nnodes = 0, nedges = 0;
        graph.Get_dims(&nnodes, &nedges);
        all("graph get_dims", nnodes * 100 + nedges);
        int gi[4], ge[8];
        graph.Get_topo(4, 8, gi, ge);
        one("graph get_topo index", ints(gi, 4));
        one("graph get_topo edges", ints(ge, 8));
        all("graph neighbors count", graph.Get_neighbors_count(rank));
        int nb[2] = {-1, -1};
        graph.Get_neighbors(rank, 2, nb);
        all("graph neighbors", nb[0] * 10 + nb[1]);
        all("graph map", graph.Map(4, index, edges));
        int sum = 0, r = graph.Get_rank();
        graph.Allreduce(&r, &sum, 1, MPI::INT, MPI::SUM);
        all("graph allreduce", sum);
        MPI::Graphcomm dup = graph.Dup();
        one("graph dup topology", topology_name(dup.Get_topology()));
        dup.Free();
        graph.Free();
    }

#ifndef MPIATTR_OVER_HOST
    // Neither MPICH's nor Open MPI's own bindings have MPI-2.2's Distgraphcomm or
    // Intracomm::Dist_graph_create[_adjacent] (divergences.toml).
    one("dist_graph_create_adjacent", "does not compile");
    one("dist_graph_create", "does not compile");
#else
    {
        const int left = (rank + size - 1) % size, right = (rank + 1) % size;
        int sources[2] = {left, right}, sw[2] = {1, 2}, dests[2] = {right, left}, dw[2] = {3, 4};
        MPI::Distgraphcomm adj =
            world.Dist_graph_create_adjacent(2, sources, sw, 2, dests, dw, MPI::INFO_NULL, false);
        int indeg = -1, outdeg = -1;
        bool weighted = false;
        adj.Get_dist_neighbors_count(rank, &indeg, &outdeg, weighted);
        int s[2], w1[2], d[2], w2[2];
        adj.Get_dist_neighbors(2, s, w1, 2, d, w2);
        std::ostringstream line;
        line << topology_name(adj.Get_topology()) << " in " << indeg << " out " << outdeg
             << " weighted " << weighted << " from " << s[0] << "," << s[1] << " w " << w1[0]
             << "," << w1[1] << " to " << d[0] << "," << d[1] << " w " << w2[0] << "," << w2[1];
        all("dist_graph_create_adjacent", line.str());
        adj.Free();

        // Each rank gives the one edge rank -> right, unweighted.
        int me[1] = {rank}, degree[1] = {1}, to[1] = {right};
        MPI::Distgraphcomm dist = world.Dist_graph_create(1, me, degree, to, MPI::INFO_NULL, false);
        dist.Get_dist_neighbors_count(rank, &indeg, &outdeg, weighted);
        int from = -1, dest = -1, ww = -1;
        dist.Get_dist_neighbors(1, &from, &ww, 1, &dest, &ww);
        std::ostringstream line2;
        line2 << topology_name(dist.Get_topology()) << " in " << indeg << " out " << outdeg
              << " weighted " << weighted << " from " << from << " to " << dest;
        all("dist_graph_create", line2.str());
        dist.Free();
    }
#endif

    world.Barrier();
    MPI::Finalize();
    return 0;
}
