// The cut bound of an all-reduce: a lower bound on its time from how thin the network is
// between groups of nodes, beside the per-node bound of physical_bound.hpp. M is the buffer
// per node in bytes, b a link's bytes per cycle.
//
// Two groups: what must cross a cut. Split the vertices into S and the rest R, with at least
// one node (end point with a buffer) on each side. Every node of S ends with, for every
// element, the sum over all nodes; given its own side's inputs that sum determines R's partial
// sum of the element, which can be any value of the element type whatever S holds. So at least
// M bytes must reach S through the links from R to S, and M bytes reach R through the links
// from S to R. M is also the least any plan moves across one cut (reduce each side onto one
// node, swap the two partial sums, broadcast inside each side), so no larger per-cut figure
// holds. With c(S -> R) directed links leaving S the all-reduce needs M / (c(S -> R) b) cycles,
// and M / (c(R -> S) b); over all cuts: M / (lambda b), where lambda is the fewest directed
// links leaving a vertex set that holds some nodes and misses others (the weakest cut in its
// thinner direction).
//
// More groups. In the plans of this project elements travel as whole values (a partial sum of
// an element is one element) and only nodes add, the model the per-node bound rests on too.
// Split the nodes into G groups (switches in any of them) and follow one element: a group
// knows what any of its vertices knows, so the transfers between groups are one-way calls of G
// parties that must each learn everything, and that takes at least 2 (G - 1) calls (the
// one-way gossip bound: order the calls, parallel ones in any order; the call that first
// completes a group comes after a call from each of the G - 1 others, and each of those G - 1
// is still incomplete then and needs a call after it). Each call crosses a link between
// groups: with L such directed links, 2 (G - 1) M / (L b) cycles. With
// G = 2 this is weaker than the directional cut above; with every node apart on a direct
// network (G = N, every link between groups) it is 2 (N - 1) M / (L b). On tori and rings,
// whose nodes all have d links and whose weakest cut is a node's links, no partition does
// better than every node apart (each group has at least d links out, so L >= G d), and that
// figure equals the per-node bound 2 (N - 1) M / (N d b): the cut bound equals it there. On a
// mesh L counts every link, 2 at the corners and 3 or 4 elsewhere, so the cut bound is below
// the per-node bound, which takes the corner's 2 links for every node; a plan that spreads its
// load over the links as a fractional packing of spanning trees does finishes below the
// per-node figure for large M (mesh:3x3: 1.5 trees, M / (1.5 b), where the per-node bound
// says 16 M / (18 b) and every node apart 16 M / (24 b) = M / (1.5 b)). On a switch network
// whose nodes have one link each no cut or partition beats the per-node bound: every group
// has a link out, so L >= G and 2 (G - 1) / L <= 2 (N - 1) / N.
//
// What is computed, all of it valid (each figure is a real cut or partition):
//   - lambda exactly. Any cut separates node 0 from some node t, one way or the other, so
//     lambda = min over t != 0 of min(maxflow(0 -> t), maxflow(t -> 0)) with every directed
//     link of capacity 1 (max-flow min-cut): 2 (N - 1) max-flows. Closed forms spare them where
//     known: a one-link node gives lambda = 1 (every cut of a connected network has a link);
//     tori and rings are vertex-transitive (Mader: edge connectivity = degree) and meshes have
//     every link on a grid square, so on the grids lambda is the least-linked node's links.
//     Beyond a work limit the flows not run are left out: a valid bound, maybe below the exact
//     one (`exact` says which).
//   - every node apart, on direct networks. On a switch network the per-node bound already
//     counts the same 2 (N - 1) calls where they start, on each node's own links.
// The cut bound is the larger. It is the tighter of the two bounds where the network is thin
// between groups: a thin link between two well-linked halves, an oversubscribed switch network
// whose nodes have wide links. The best partition of all (on a direct network the graph's
// strength, which a fractional packing of spanning trees reaches for large M) is not searched
// for beyond these.
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
  double max_work = 1e8;  // limit on (max-flow runs) x (vertices + links): about 1 s
};

// The weakest cut of `topo` (above).
WeakestCut weakest_cut(const Topology& topo, const CutOptions& opt = {});

// ceil(bytes / (links b)): the bound of a cut of `links` directed links in its thinner
// direction; 0 when links or b is 0 (no cut: one node).
uint64_t cut_bound_cycles(uint64_t bytes, uint32_t links, uint64_t link_bytes_per_cycle);
// ceil(2 (groups - 1) bytes / (links b)): the bound of a partition into `groups` groups with
// `links` directed links between them; 0 for fewer than 2 groups or no links.
uint64_t partition_bound_cycles(uint64_t bytes, uint64_t groups, uint64_t links,
                                uint64_t link_bytes_per_cycle);

struct CutBound {
  WeakestCut cut;
  uint64_t cut_cycles = 0;    // the weakest cut: ceil(M / (lambda b))
  uint64_t apart_cycles = 0;  // every node apart (direct networks; 0 on switch networks)
  uint64_t cycles = 0;        // the cut bound: the larger
  std::string basis;          // which gave it and why, for reports
};
CutBound cut_bound(const Topology& topo, uint64_t bytes, uint64_t link_bytes_per_cycle,
                   const CutOptions& opt = {});
uint64_t cut_bound_cycles(const Topology& topo, uint64_t bytes, uint64_t link_bytes_per_cycle);

// The weakest cut in a few words for a report: "4 link(s) out of 1 node(s), M/(4 b) each way
// (how lambda was found)".
std::string cut_bound_basis(const WeakestCut& cut);

// Which of the per-node bound and the cut bound (in cycles) is the tighter, the larger, for a
// report: "the per-node bound, the tighter".
std::string tighter_bound_name(uint64_t per_node_cycles, uint64_t cut_cycles);

}  // namespace mt
