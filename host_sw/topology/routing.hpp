// Deterministic routes between nodes, for multi-hop normal packets and for link accounting.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace mt {

// Directed link ids from node src to node dst. Torus, mesh and ring: dimension order, X then
// Y, the shorter way round on a wrapped dimension (a tie, half a ring away, goes + to an even
// and - to an odd destination coordinate, as the routers). Other kinds:
// a shortest path, the first found breadth-first in neighbour order. Empty when src == dst.
std::vector<uint32_t> route(const Topology& topo, uint32_t src, uint32_t dst);

}  // namespace mt
