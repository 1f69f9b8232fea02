// The cut bound of an all-reduce: a lower bound on its time from the network's weakest cut,
// beside the per-node bound of physical_bound.hpp.
//
// What must cross a cut. Split the vertices into S and the rest R, with at least one node
// (end point with a buffer) on each side. Every node of S ends with, for every element, the sum
// over all nodes; given its own side's inputs that sum determines R's partial sum of the
// element, which can be any value of the element type whatever S holds. So S must receive at
// least M bytes (the buffer size per node) through the links from R to S, and, the same way, R
// at least M bytes through the links from S to R. M is also the least any plan could move: a
// plan that reduces each side onto one node, swaps the two partial sums once each way and
// broadcasts inside each side moves exactly M bytes each way. A tighter per-cut figure would
// need more than the cut (the per-node bound counts every link of the network instead).
//
// The bound. With c(S -> R) directed links of b bytes per cycle leaving S, the all-reduce needs
// at least M / (c(S -> R) b) cycles, and M / (c(R -> S) b); the cut bound is the largest of these
// over all cuts: M / (lambda b), where lambda is the fewest directed links leaving any vertex set
// that holds some nodes and misses others (the weakest cut in its thinner direction). Every cut
// bound is a lower bound, so any cut's figure is one too; the largest is the best.
//
// Computing lambda. Any such cut separates node 0 from some node t, in one direction or the
// other, so lambda = min over nodes t != 0 of min(maxflow(0 -> t), maxflow(t -> 0)) with every
// directed link of capacity 1 (max-flow min-cut): 2 (N - 1) max-flow computations find it
// exactly. Closed forms spare them where they are known:
//   - a node's own links are a cut, so lambda <= its out- and in-degree, and lambda >= 1 on a
//     connected network: a network with a one-link node has lambda = 1 (fat-trees, BiGraphs);
//   - tori and rings are vertex-transitive, and a connected vertex-transitive graph's edge
//     connectivity is its degree (Mader); a W x H mesh (W, H >= 2) has every link on a cycle of
//     its grid squares and lambda = 2 = a corner's links: on the grids lambda is the least-linked
//     node's links, the cut of physical_bound.hpp's per-node bound.
// Elsewhere (topology files) the max-flow runs, up to a work limit: beyond it the pairs not
// computed are left out, which keeps the bound valid (each flow is a real cut) but maybe lower
// than the exact one; `exact` says which.
//
// On the grids the per-node bound, 2 (N - 1) M / (N d b), is tighter than M / (d b), the
// cut bound's single-node cut: a cut sees M cross each way, while the per-node bound counts the
// 2 (N - 1) element transfers per element that every link of the network shares. The cut bound
// is the tighter one where some cut has fewer than about half a node's links: a thin link
// between two well-linked halves, an oversubscribed switch network whose nodes have wide links.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace mt {

struct WeakestCut {
  uint32_t links = 0;          // lambda: directed links leaving `side` (0 for fewer than 2 nodes)
  std::vector<uint32_t> side;  // the vertices of a weakest cut's sending side, ascending
  uint32_t side_nodes = 0;     // how many of them are nodes
  bool exact = true;           // lambda is exact (closed form, or every pair's flow computed)
  std::string method;          // how lambda was found, for reports
};

struct CutOptions {
  bool force_max_flow = false;  // run the max-flow even where a closed form is known (tests)
  double max_work = 4e8;        // limit on (max-flow runs) x (vertices + links)
};

// The weakest cut of `topo` (above).
WeakestCut weakest_cut(const Topology& topo, const CutOptions& opt = {});

// ceil(bytes / (links b)): the cut bound in cycles for a cut of `links` directed links each
// way, b bytes per link and cycle; 0 when links or b is 0 (no cut: one node).
uint64_t cut_bound_cycles(uint64_t bytes, uint32_t links, uint64_t link_bytes_per_cycle);
uint64_t cut_bound_cycles(const Topology& topo, uint64_t bytes, uint64_t link_bytes_per_cycle);

// The cut in a few words for a report: "4 link(s) out of 1 node(s), M/(4 b) each way; ...".
std::string cut_bound_basis(const WeakestCut& cut);

// Which of the per-node bound and the cut bound (in cycles) is the tighter, the larger, for a
// report: "the per-node bound, the tighter".
std::string tighter_bound_name(uint64_t per_node_cycles, uint64_t cut_cycles);

}  // namespace mt
