// Plans whose every piece of the buffer is reduced along a tree of its own: FlexReduce,
// BlueConnect. A piece's tree is a set of Reduce edges child -> parent, each in one of the
// reduce-scatter steps 1..T, every node sending the piece at most once and only after the steps
// of the edges into it; its all-gather is the same edges reversed, step s moving to 2T - s + 1
// (the reduce-scatter played backwards, as both papers do it). Every piece is a flow of its
// own, so each Reduce block of a flow covers exactly the flow's bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

struct TreeEdge {
  uint32_t step = 0;  // 1..T
  uint32_t child = 0, parent = 0;
};

// A piece of the buffer, [first, last) in units of 1/`units` of it, and its tree.
struct PieceTree {
  uint64_t first = 0, last = 0;
  uint32_t root = 0;
  std::vector<TreeEdge> edges;
};

// How a transfer from node a to node b crosses the network: its vertices in order (a ... b).
// The links between consecutive vertices are picked among parallel ones, the least loaded in
// the transfer's step first, so that the transfers of a step spread over a wide link.
using VertexPath = std::vector<uint32_t> (*)(const void* context, uint32_t a, uint32_t b);

struct PieceLayout {
  uint64_t units = 1;    // the pieces' positions are in 1/units of the buffer
  uint32_t lanes = 1;    // each piece split into this many flows of equal size
  uint32_t steps = 0;    // T
};

// The plan: every piece split into `lanes` flows (so that one node's sends can use as many
// parallel links), the buffer positions rounded to whole 256-byte lines where the buffer has a
// line for every flow, else to 16-byte grains (flows that round to nothing are left out).
// Routes from `path` (nullptr on a direct network: one hop to a neighbour).
Plan plan_from_piece_trees(const std::string& algorithm, const Topology& topo,
                           const PlanOptions& opt, const PieceLayout& layout,
                           const std::vector<PieceTree>& pieces, VertexPath path,
                           const void* context);

}  // namespace mt
