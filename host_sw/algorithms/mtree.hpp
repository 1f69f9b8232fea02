// MTREE (Luo, Wang and Xing, "Efficient Inter-Datacenter AllReduce With Multiple Trees";
// ../shared/seeds/003_6eeddff3fc48f622.txt): several spanning trees of bounded weighted height,
// built greedily (GBST, GRTH, ITH: its Algorithms 1-3, mtree_gost.cpp), their rates chosen by
// the MILP (1a)-(1f) (mtree_milp.cpp), the buffer split across the chosen trees in proportion
// to their rates and every tree pipelined in chunks (Eqs. (2)-(8), mtree.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

// The network as the paper's undirected graph G: an edge per pair of adjacent nodes, its
// capacity b_j the link's width (parallel links, each one flit a cycle each way) and its
// latency L the link's latency in cycles.
struct MtreeEdge {
  uint32_t u = 0, v = 0;
  double capacity = 0;
  uint64_t latency = 0;
};

struct MtreeGraph {
  uint32_t n = 0;
  std::vector<MtreeEdge> edges;
};

// A link without a `latency` field is taken at mtsim's default --link-latency.
constexpr uint64_t kMtreeDefaultLatency = 150;

// G of a direct network (every vertex a node); InputError for a network with switches, whose
// links do not join nodes to nodes.
MtreeGraph mtree_graph(const Topology& topo);

// A rooted spanning tree: its edges (indices into MtreeGraph::edges), every node's parent
// (the root's is itself) and weighted height (the largest latency sum from the root to a node).
struct MtreeTree {
  uint32_t root = 0;
  std::vector<uint32_t> edges;
  std::vector<uint32_t> parent;
  uint64_t height = 0;
};

// Algorithm 2 (GRTH): D_* updated by the candidate edge from u (in the tree) to v (not yet):
// D_j[i] for every tree vertex i is the height of the tree plus that edge rooted at i.
// `adjacent` lists each tree vertex's tree neighbours with the edge's latency.
struct MtreeNeighbour {
  uint32_t vertex = 0;
  uint64_t latency = 0;
};
std::vector<uint64_t> mtree_grth(uint32_t u, uint32_t v, uint64_t latency,
                                 const std::vector<std::vector<MtreeNeighbour>>& adjacent,
                                 const std::vector<uint64_t>& d_star);

struct MtreeTrees {
  std::vector<MtreeTree> trees;  // T
  std::vector<double> rates;     // R
  uint64_t height_bound = 0;     // the H the trees were built under (ITH's H^U)
  double total() const;
};

// Algorithm 1 (GBST) under the weighted height bound H and minimum rate r_bar.
MtreeTrees mtree_gbst(const MtreeGraph& g, uint64_t height, double min_rate);
// Algorithm 3 (ITH): the least H^U <= H whose GBST total rate is at least rho times H's.
MtreeTrees mtree_ith(const MtreeGraph& g, uint64_t height, double min_rate, double rho);

// The MILP (1a)-(1f) over the trees of `t`: the rate r_i of every tree (0 where y_i = 0),
// at most `k` of them non-zero, each non-zero one at least `min_rate`, solved by GLPK.
std::vector<double> mtree_milp(const MtreeGraph& g, const MtreeTrees& t, uint32_t k,
                               double min_rate);

// The trees the MILP selects with their rates and pipelining, as the planner uses them.
struct MtreePipeline {
  MtreeTree tree;
  double rate = 0;        // in links (16 bytes a cycle each)
  uint64_t bytes = 0;     // its share v of the buffer, in proportion to its rate
  std::vector<uint32_t> path;  // its deepest node (by weighted depth) up to the root
  uint32_t hops = 0;      // l: links on that path, which each phase's chunks cross
  uint64_t max_latency = 0;  // max alpha_i on that path
  uint32_t chunks = 0;    // lambda
};

struct MtreeResult {
  MtreeGraph graph;
  MtreeTrees built;  // GBST's trees after ITH
  std::vector<MtreePipeline> selected;
  double capacity_bound = 0;  // sum of b_j / (|V| - 1), the seed's normalisation
};

// The corrected Eqs. (7)-(8): lambda* = v / mu*, mu* = sqrt(v max alpha / ((l - 1) beta)),
// beta = 1 / (rate x 16 bytes), at least 1 and at most the 16-byte grains of v (docs/mtc.md).
uint32_t mtree_lambda_star(uint64_t v, uint32_t hops, uint64_t max_latency, double rate);

// Everything but the plan: trees, rates, shares and chunks for `opt`; InputError where the
// options admit no tree.
MtreeResult mtree_solve(const Topology& topo, const PlanOptions& opt);

}  // namespace mt
