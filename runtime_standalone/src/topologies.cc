// Process topologies (MPI-4.1 §9) on the standalone runtime's one process: Cartesian grids,
// graphs and distributed graphs, their queries and MPI_Dims_create.
//
// A topology is what its constructor was given, kept beside the communicator in a table of this
// file (the core's comm_object knows nothing of topologies). MPI_Comm_dup and its siblings give the
// copy the same topology; MPI_Comm_split, MPI_Comm_create and the topology constructors give none
// (the constructors attach their own); MPI_Comm_free drops it. The table is consulted only while
// some topology exists, so programs without topologies pay one relaxed load per dup and free.
// No topology constructor copies attributes: only the duplicating routines do (R6.1).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "mpiattr/errors.h"
#include "mpiattr/runtime.h"
#include "mpiattr/runtime_api.h"

namespace mpiattr {
namespace {

struct topology {
  int kind = MPI_UNDEFINED;         // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH
  std::vector<int> dims, periods;   // MPI_CART
  std::vector<int> index, edges;    // MPI_GRAPH
  std::vector<int> sources, sourceweights, destinations, destweights;  // MPI_DIST_GRAPH
  bool weighted = false;
};

std::mutex g_mu;
std::unordered_map<const comm_object*, std::shared_ptr<const topology>> g_topologies;
std::atomic<std::size_t> g_live{0};  // g_topologies.size(), read without the lock

std::shared_ptr<const topology> find(const comm_object& c) {
  if (g_live.load(std::memory_order_acquire) == 0) return nullptr;
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_topologies.find(&c);
  return it == g_topologies.end() ? nullptr : it->second;
}

void attach(const comm_object& c, std::shared_ptr<const topology> t) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_topologies[&c] = std::move(t);
  g_live.store(g_topologies.size(), std::memory_order_release);
}

status need(const comm_object& c, int kind, std::shared_ptr<const topology>& out) {
  out = find(c);
  if (out == nullptr || out->kind != kind)
    return fail(MPI_ERR_TOPOLOGY, "the communicator has no %s topology",
                kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : "distributed graph");
  return status::ok();
}

// The grid's number of processes, or an error for a non-positive extent.
status grid_size(int ndims, const int* dims, long long& size) {
  if (ndims < 0) return fail(MPI_ERR_DIMS, "ndims %d is negative", ndims);
  if (ndims > 0 && dims == nullptr) return fail(MPI_ERR_ARG, "dims is a null pointer");
  size = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0) return fail(MPI_ERR_DIMS, "dims[%d] is %d: a dimension has at least one process", i, dims[i]);
    size *= dims[i];
    if (size > (1LL << 31)) return fail(MPI_ERR_DIMS, "the grid has more than 2^31 processes");
  }
  return status::ok();
}

void coords_of(const topology& t, int rank, int n, int* coords) {
  for (int i = static_cast<int>(t.dims.size()) - 1; i >= 0; --i) {
    if (i < n) coords[i] = rank % t.dims[i];
    rank /= t.dims[i];
  }
}

// A new communicator of the one process with topology `t`: made as MPI_Comm_split makes one (the
// parent's error handler, no attribute), then given the topology before anyone has its handle.
status publish_with(comm_object& comm, std::shared_ptr<const topology> t, handle_t& newcomm) {
  handle_t made = gen::handle::comm_null;
  if (status st = api::comm_split(comm, 0, 0, made); !st.is_ok()) return st;
  comm_object* o = rt().comms.lookup(made);
  if (o == nullptr) return fail(MPI_ERR_INTERN, "the new communicator vanished");
  try {
    attach(*o, std::move(t));
  } catch (...) {  // out of memory (D65): the communicator goes again, nothing is left behind
    status st = from_exception("the communicator's topology");
    (void)api::comm_free(made);
    return st;
  }
  newcomm = made;
  return status::ok();
}

status check_info(handle_t info) {
  if (info == gen::handle::info_null || rt().infos.lookup(info) != nullptr) return status::ok();
  return fail(MPI_ERR_INFO, "info handle 0x%x is not valid", static_cast<unsigned>(info));
}

bool unweighted(const int* w) { return w == gen::unweighted; }

status check_weights(const char* what, int degree, const int* w) {
  if (unweighted(w) || w == gen::weights_empty) {
    if (w == gen::weights_empty && degree > 0)
      return fail(MPI_ERR_ARG, "%s is MPI_WEIGHTS_EMPTY but the degree is %d", what, degree);
    return status::ok();
  }
  if (degree > 0 && w == nullptr) return fail(MPI_ERR_ARG, "%s is a null pointer", what);
  for (int i = 0; i < degree; ++i)
    if (w[i] < 0) return fail(MPI_ERR_ARG, "%s[%d] is %d: weights are not negative", what, i, w[i]);
  return status::ok();
}

status check_ranks(const char* what, int n, const int* ranks, int size) {
  if (n > 0 && ranks == nullptr) return fail(MPI_ERR_ARG, "%s is a null pointer", what);
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= size)
      return fail(MPI_ERR_RANK, "%s[%d] is %d, not a rank of the communicator (size %d)", what, i,
                  ranks[i], size);
  return status::ok();
}

}  // namespace

// ---- the lifecycle's hooks (lifecycle.cc: the standalone lifecycle) ----
void topology_copy(const comm_object& from, comm_object& to) {
  if (auto t = find(from)) attach(to, std::move(t));
}

void topology_drop(const comm_object& c) {
  if (g_live.load(std::memory_order_acquire) == 0) return;
  std::lock_guard<std::mutex> lock(g_mu);
  g_topologies.erase(&c);
  g_live.store(g_topologies.size(), std::memory_order_release);
}

status topology_neighbors(comm_object& comm, std::vector<int>& sources, std::vector<int>& destinations) {
  auto t = find(comm);
  if (t == nullptr)
    return fail(MPI_ERR_TOPOLOGY, "the communicator has no topology: a neighbourhood collective "
                "needs a Cartesian, graph or distributed graph one");
  sources.clear();
  destinations.clear();
  if (t->kind == MPI_CART) {
    for (int d = 0; d < static_cast<int>(t->dims.size()); ++d) {
      int below = MPI_PROC_NULL, above = MPI_PROC_NULL;
      if (status st = api::cart_shift(comm, d, 1, below, above); !st.is_ok()) return st;
      sources.insert(sources.end(), {below, above});
    }
    destinations = sources;
  } else if (t->kind == MPI_GRAPH) {
    const int first = comm.rank > 0 ? t->index[comm.rank - 1] : 0;
    sources.assign(t->edges.begin() + first, t->edges.begin() + t->index[comm.rank]);
    destinations = sources;
  } else {
    sources = t->sources;
    destinations = t->destinations;
  }
  return status::ok();
}

namespace api {

status topo_test(comm_object& comm, int& result) {
  auto t = find(comm);
  result = t ? t->kind : MPI_UNDEFINED;
  return status::ok();
}

// ---- Cartesian grids ----
status cart_create(comm_object& comm, int ndims, const int* dims, const int* periods, bool,
                   handle_t& newcomm) {
  long long size = 0;
  if (status st = grid_size(ndims, dims, size); !st.is_ok()) return st;
  if (ndims > 0 && periods == nullptr) return fail(MPI_ERR_ARG, "periods is a null pointer");
  if (size > comm.size)
    return fail(MPI_ERR_ARG, "the grid has %lld processes, the communicator %d", size, comm.size);
  if (comm.rank >= size) {  // (never on one process: a grid has at least one)
    newcomm = gen::handle::comm_null;
    return status::ok();
  }
  auto t = std::make_shared<topology>();
  t->kind = MPI_CART;
  t->dims.assign(dims, dims + ndims);
  for (int i = 0; i < ndims; ++i) t->periods.push_back(periods[i] != 0);
  return publish_with(comm, std::move(t), newcomm);
}

status cartdim_get(comm_object& comm, int& ndims) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_CART, t); !st.is_ok()) return st;
  ndims = static_cast<int>(t->dims.size());
  return status::ok();
}

status cart_get(comm_object& comm, int maxdims, int* dims, int* periods, int* coords) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_CART, t); !st.is_ok()) return st;
  const int n = std::min<int>(maxdims, static_cast<int>(t->dims.size()));
  if (maxdims < 0) return fail(MPI_ERR_ARG, "maxdims %d is negative", maxdims);
  if (n > 0 && (dims == nullptr || periods == nullptr || coords == nullptr))
    return fail(MPI_ERR_ARG, "dims, periods or coords is a null pointer");
  for (int i = 0; i < n; ++i) {
    dims[i] = t->dims[i];
    periods[i] = t->periods[i];
  }
  coords_of(*t, comm.rank, n, coords);
  return status::ok();
}

status cart_rank(comm_object& comm, const int* coords, int& rank) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_CART, t); !st.is_ok()) return st;
  const int n = static_cast<int>(t->dims.size());
  if (n > 0 && coords == nullptr) return fail(MPI_ERR_ARG, "coords is a null pointer");
  int r = 0;
  for (int i = 0; i < n; ++i) {
    int c = coords[i];
    const int d = t->dims[i];
    if (t->periods[i]) {
      c %= d;
      if (c < 0) c += d;
    } else if (c < 0 || c >= d) {
      return fail(MPI_ERR_ARG, "coords[%d] is %d, outside the non-periodic dimension of %d", i,
                  coords[i], d);
    }
    r = r * d + c;
  }
  rank = r;
  return status::ok();
}

status cart_coords(comm_object& comm, int rank, int maxdims, int* coords) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_CART, t); !st.is_ok()) return st;
  if (rank < 0 || rank >= comm.size)
    return fail(MPI_ERR_RANK, "rank %d is not a rank of the grid (size %d)", rank, comm.size);
  const int n = static_cast<int>(t->dims.size());
  if (maxdims < n) return fail(MPI_ERR_ARG, "maxdims %d is less than the grid's %d dimensions", maxdims, n);
  if (n > 0 && coords == nullptr) return fail(MPI_ERR_ARG, "coords is a null pointer");
  coords_of(*t, rank, n, coords);
  return status::ok();
}

status cart_shift(comm_object& comm, int direction, int disp, int& source, int& dest) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_CART, t); !st.is_ok()) return st;
  const int n = static_cast<int>(t->dims.size());
  if (direction < 0 || direction >= n)
    return fail(MPI_ERR_ARG, "direction %d is not a dimension of the grid (0..%d)", direction, n - 1);
  std::vector<int> me(n);
  coords_of(*t, comm.rank, n, me.data());
  auto neighbour = [&](long long c) {
    const int d = t->dims[direction];
    if (t->periods[direction]) {
      c %= d;
      if (c < 0) c += d;
    } else if (c < 0 || c >= d) {
      return static_cast<int>(MPI_PROC_NULL);
    }
    std::vector<int> at = me;
    at[direction] = static_cast<int>(c);
    int r = 0;
    for (int i = 0; i < n; ++i) r = r * t->dims[i] + at[i];
    return r;
  };
  source = neighbour(static_cast<long long>(me[direction]) - disp);
  dest = neighbour(static_cast<long long>(me[direction]) + disp);
  return status::ok();
}

status cart_sub(comm_object& comm, const int* remain_dims, handle_t& newcomm) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_CART, t); !st.is_ok()) return st;
  const int n = static_cast<int>(t->dims.size());
  if (n > 0 && remain_dims == nullptr) return fail(MPI_ERR_ARG, "remain_dims is a null pointer");
  auto sub = std::make_shared<topology>();
  sub->kind = MPI_CART;
  for (int i = 0; i < n; ++i)
    if (remain_dims[i]) {
      sub->dims.push_back(t->dims[i]);
      sub->periods.push_back(t->periods[i]);
    }
  return publish_with(comm, std::move(sub), newcomm);
}

status cart_map(comm_object& comm, int ndims, const int* dims, const int* periods, int& newrank) {
  long long size = 0;
  if (status st = grid_size(ndims, dims, size); !st.is_ok()) return st;
  if (ndims > 0 && periods == nullptr) return fail(MPI_ERR_ARG, "periods is a null pointer");
  if (size > comm.size)
    return fail(MPI_ERR_ARG, "the grid has %lld processes, the communicator %d", size, comm.size);
  newrank = comm.rank < size ? comm.rank : MPI_UNDEFINED;
  return status::ok();
}

namespace {
// The most balanced factorisation of n into k factors in non-increasing order (MPI_Dims_create's
// "as close to each other as possible", D138): the smallest spread (largest factor minus smallest),
// then the largest smallest factor, then the earliest factors smallest. A depth-first search over
// the divisors of n, pruned by the best spread found so far; n x 1 x ... x 1 to start with.
struct balanced_search {
  std::vector<int> divisors, best, cur;  // divisors of n, increasing

  balanced_search(int n, int k) : best(static_cast<std::size_t>(k), 1) {
    for (int d = 1; d <= n / d; ++d)
      if (n % d == 0) {
        divisors.push_back(d);
        if (d != n / d) divisors.push_back(n / d);
      }
    std::sort(divisors.begin(), divisors.end());
    best[0] = n;
    extend(n, k, n);
  }

  // The largest r with r^slots <= rem: a factorisation of rem into `slots` factors has its smallest
  // factor at most r.
  static int root(int rem, int slots) {
    auto fits = [&](long long r) {
      long long p = 1;
      for (int i = 0; i < slots && p <= rem; ++i) p *= r;
      return p <= rem;
    };
    int r = std::max(1, static_cast<int>(std::pow(static_cast<double>(rem), 1.0 / slots)));
    while (r > 1 && !fits(r)) --r;
    while (fits(r + 1)) ++r;
    return r;
  }

  bool better(const std::vector<int>& c) const {
    const int sc = c.front() - c.back(), sb = best.front() - best.back();
    if (sc != sb) return sc < sb;
    if (c.back() != best.back()) return c.back() > best.back();
    return c < best;
  }

  // cur followed by `slots` factors of product rem, each at most cap, non-increasing.
  void extend(int rem, int slots, int cap) {
    if (rem == 1 || slots == 1) {
      if (rem > cap) return;
      const std::size_t at = cur.size();
      cur.push_back(rem);
      cur.resize(at + static_cast<std::size_t>(slots), 1);
      if (better(cur)) best = cur;
      cur.resize(at);
      return;
    }
    const int smallest = root(rem, slots);
    for (int d : divisors) {
      if (d > cap || d > rem) break;
      if (rem % d != 0) continue;
      long long p = 1;  // can slots - 1 factors of at most d make rem / d?
      for (int i = 0; i < slots - 1 && p < rem / d; ++i) p *= d;
      if (p < rem / d) continue;
      const int largest = cur.empty() ? d : cur.front();
      if (largest - std::min(d, smallest) > best.front() - best.back()) continue;
      cur.push_back(d);
      extend(rem / d, slots - 1, d);
      cur.pop_back();
    }
  }
};
}  // namespace

// The free (zero) entries get a factorisation of what the fixed ones leave, as close to each
// other as possible, in non-increasing order (MPI_Dims_create): balanced_search's.
status dims_create(int nnodes, int ndims, int* dims) {
  if (nnodes <= 0) return fail(MPI_ERR_ARG, "nnodes %d is not positive", nnodes);
  if (ndims < 0) return fail(MPI_ERR_DIMS, "ndims %d is negative", ndims);
  if (ndims > 0 && dims == nullptr) return fail(MPI_ERR_ARG, "dims is a null pointer");
  long long fixed = 1;
  std::vector<int> free;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return fail(MPI_ERR_DIMS, "dims[%d] is %d: negative", i, dims[i]);
    if (dims[i] == 0)
      free.push_back(i);
    else
      fixed *= dims[i];
  }
  if (fixed > nnodes || nnodes % fixed != 0)
    return fail(MPI_ERR_DIMS, "the fixed dimensions (product %lld) do not divide nnodes %d", fixed, nnodes);
  int left = static_cast<int>(nnodes / fixed);
  if (free.empty()) {
    if (left != 1)
      return fail(MPI_ERR_DIMS, "no dimension is free and their product %lld is not nnodes %d", fixed, nnodes);
    return status::ok();
  }
  const std::vector<int> sizes = balanced_search(left, static_cast<int>(free.size())).best;
  for (std::size_t i = 0; i < free.size(); ++i) dims[free[i]] = sizes[i];
  return status::ok();
}

// ---- graphs ----
status graph_create(comm_object& comm, int nnodes, const int* index, const int* edges, bool,
                    handle_t& newcomm) {
  if (nnodes < 0) return fail(MPI_ERR_ARG, "nnodes %d is negative", nnodes);
  if (nnodes > comm.size)
    return fail(MPI_ERR_ARG, "the graph has %d nodes, the communicator %d processes", nnodes, comm.size);
  if (nnodes > 0 && index == nullptr) return fail(MPI_ERR_ARG, "index is a null pointer");
  int prev = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < prev)
      return fail(MPI_ERR_ARG, "index[%d] is %d, less than the %d before it", i, index[i], prev);
    prev = index[i];
  }
  const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
  if (nedges > 0 && edges == nullptr) return fail(MPI_ERR_ARG, "edges is a null pointer");
  for (int i = 0; i < nedges; ++i)
    if (edges[i] < 0 || edges[i] >= nnodes)
      return fail(MPI_ERR_ARG, "edges[%d] is %d, not a node of the graph (0..%d)", i, edges[i], nnodes - 1);
  if (comm.rank >= nnodes) {
    newcomm = gen::handle::comm_null;
    return status::ok();
  }
  auto t = std::make_shared<topology>();
  t->kind = MPI_GRAPH;
  t->index.assign(index, index + nnodes);
  t->edges.assign(edges, edges + nedges);
  return publish_with(comm, std::move(t), newcomm);
}

status graphdims_get(comm_object& comm, int& nnodes, int& nedges) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_GRAPH, t); !st.is_ok()) return st;
  nnodes = static_cast<int>(t->index.size());
  nedges = static_cast<int>(t->edges.size());
  return status::ok();
}

status graph_get(comm_object& comm, int maxindex, int maxedges, int* index, int* edges) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_GRAPH, t); !st.is_ok()) return st;
  if (maxindex < 0 || maxedges < 0) return fail(MPI_ERR_ARG, "maxindex or maxedges is negative");
  const int ni = std::min<int>(maxindex, static_cast<int>(t->index.size()));
  const int ne = std::min<int>(maxedges, static_cast<int>(t->edges.size()));
  if ((ni > 0 && index == nullptr) || (ne > 0 && edges == nullptr))
    return fail(MPI_ERR_ARG, "index or edges is a null pointer");
  std::copy(t->index.begin(), t->index.begin() + ni, index);
  std::copy(t->edges.begin(), t->edges.begin() + ne, edges);
  return status::ok();
}

status graph_neighbors_count(comm_object& comm, int rank, int& nneighbors) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_GRAPH, t); !st.is_ok()) return st;
  const int n = static_cast<int>(t->index.size());
  if (rank < 0 || rank >= n) return fail(MPI_ERR_RANK, "rank %d is not a node of the graph (0..%d)", rank, n - 1);
  nneighbors = t->index[rank] - (rank > 0 ? t->index[rank - 1] : 0);
  return status::ok();
}

status graph_neighbors(comm_object& comm, int rank, int maxneighbors, int* neighbors) {
  int count = 0;
  if (status st = graph_neighbors_count(comm, rank, count); !st.is_ok()) return st;
  if (maxneighbors < 0) return fail(MPI_ERR_ARG, "maxneighbors %d is negative", maxneighbors);
  const int n = std::min(count, maxneighbors);
  if (n > 0 && neighbors == nullptr) return fail(MPI_ERR_ARG, "neighbors is a null pointer");
  auto t = find(comm);
  const int first = rank > 0 ? t->index[rank - 1] : 0;
  std::copy(t->edges.begin() + first, t->edges.begin() + first + n, neighbors);
  return status::ok();
}

status graph_map(comm_object& comm, int nnodes, const int*, const int*, int& newrank) {
  if (nnodes < 0) return fail(MPI_ERR_ARG, "nnodes %d is negative", nnodes);
  if (nnodes > comm.size)
    return fail(MPI_ERR_ARG, "the graph has %d nodes, the communicator %d processes", nnodes, comm.size);
  newrank = comm.rank < nnodes ? comm.rank : MPI_UNDEFINED;
  return status::ok();
}

// ---- distributed graphs ----
status dist_graph_create_adjacent(comm_object& comm, int indegree, const int* sources,
                                  const int* sourceweights, int outdegree, const int* destinations,
                                  const int* destweights, handle_t info, bool, handle_t& newcomm) {
  if (indegree < 0 || outdegree < 0)
    return fail(MPI_ERR_ARG, "indegree %d or outdegree %d is negative", indegree, outdegree);
  if (status st = check_info(info); !st.is_ok()) return st;
  if (status st = check_ranks("sources", indegree, sources, comm.size); !st.is_ok()) return st;
  if (status st = check_ranks("destinations", outdegree, destinations, comm.size); !st.is_ok()) return st;
  if (status st = check_weights("sourceweights", indegree, sourceweights); !st.is_ok()) return st;
  if (status st = check_weights("destweights", outdegree, destweights); !st.is_ok()) return st;
  auto t = std::make_shared<topology>();
  t->kind = MPI_DIST_GRAPH;
  t->weighted = !unweighted(sourceweights) && !unweighted(destweights);
  t->sources.assign(sources, sources + indegree);
  t->destinations.assign(destinations, destinations + outdegree);
  if (t->weighted) {
    if (sourceweights != gen::weights_empty) t->sourceweights.assign(sourceweights, sourceweights + indegree);
    if (destweights != gen::weights_empty) t->destweights.assign(destweights, destweights + outdegree);
  }
  return publish_with(comm, std::move(t), newcomm);
}

// On one process every edge given starts and ends at it: its sources are its in-neighbours and
// its destinations its out-neighbours, in the order given.
status dist_graph_create(comm_object& comm, int n, const int* sources, const int* degrees,
                         const int* destinations, const int* weights, handle_t info, bool,
                         handle_t& newcomm) {
  if (n < 0) return fail(MPI_ERR_ARG, "n %d is negative", n);
  if (status st = check_info(info); !st.is_ok()) return st;
  if (status st = check_ranks("sources", n, sources, comm.size); !st.is_ok()) return st;
  if (n > 0 && degrees == nullptr) return fail(MPI_ERR_ARG, "degrees is a null pointer");
  long long edges = 0;
  for (int i = 0; i < n; ++i) {
    if (degrees[i] < 0) return fail(MPI_ERR_ARG, "degrees[%d] is %d: negative", i, degrees[i]);
    edges += degrees[i];
  }
  if (edges > (1LL << 30)) return fail(MPI_ERR_ARG, "too many edges");
  const int ne = static_cast<int>(edges);
  if (status st = check_ranks("destinations", ne, destinations, comm.size); !st.is_ok()) return st;
  if (status st = check_weights("weights", ne, weights); !st.is_ok()) return st;
  auto t = std::make_shared<topology>();
  t->kind = MPI_DIST_GRAPH;
  t->weighted = !unweighted(weights);
  int e = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < degrees[i]; ++k, ++e) {
      if (sources[i] == comm.rank) {
        t->destinations.push_back(destinations[e]);
        if (t->weighted) t->destweights.push_back(weights[e]);
      }
      if (destinations[e] == comm.rank) {
        t->sources.push_back(sources[i]);
        if (t->weighted) t->sourceweights.push_back(weights[e]);
      }
    }
  return publish_with(comm, std::move(t), newcomm);
}

status dist_graph_neighbors_count(comm_object& comm, int& indegree, int& outdegree, bool& weighted) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_DIST_GRAPH, t); !st.is_ok()) return st;
  indegree = static_cast<int>(t->sources.size());
  outdegree = static_cast<int>(t->destinations.size());
  weighted = t->weighted;
  return status::ok();
}

status dist_graph_neighbors(comm_object& comm, int maxindegree, int* sources, int* sourceweights,
                            int maxoutdegree, int* destinations, int* destweights) {
  std::shared_ptr<const topology> t;
  if (status st = need(comm, MPI_DIST_GRAPH, t); !st.is_ok()) return st;
  if (maxindegree < 0 || maxoutdegree < 0) return fail(MPI_ERR_ARG, "maxindegree or maxoutdegree is negative");
  const int ni = std::min<int>(maxindegree, static_cast<int>(t->sources.size()));
  const int no = std::min<int>(maxoutdegree, static_cast<int>(t->destinations.size()));
  if ((ni > 0 && sources == nullptr) || (no > 0 && destinations == nullptr))
    return fail(MPI_ERR_ARG, "sources or destinations is a null pointer");
  std::copy(t->sources.begin(), t->sources.begin() + ni, sources);
  std::copy(t->destinations.begin(), t->destinations.begin() + no, destinations);
  // The weights are written only for a weighted graph, into an array the caller gave.
  auto write = [&](int* to, const std::vector<int>& from, int n) {
    if (!t->weighted || to == nullptr || unweighted(to) || to == gen::weights_empty) return;
    std::copy(from.begin(), from.begin() + std::min<int>(n, static_cast<int>(from.size())), to);
  };
  write(sourceweights, t->sourceweights, ni);
  write(destweights, t->destweights, no);
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
