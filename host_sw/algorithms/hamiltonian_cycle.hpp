// Hamiltonian cycles for ring all-reduce: an order of the nodes in which each node sends to
// the next one (and the last to the first), chosen so that as many hops as possible are one
// physical link.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace mt {

struct RingCycle {
  std::vector<uint32_t> order;  // every node exactly once
  bool one_hop = false;         // every hop, the closing one included, is a direct link
};

// File topologies up to this many nodes get an exact search; larger ones keep id order.
constexpr uint32_t kCycleSearchMaxNodes = 16;

// Torus: a snake that closes with one link (always exists). Mesh with an even side: the snake
// that returns along the first column (or row). Odd x odd mesh: a snake whose only non-link
// hop is two links long. 1-row/1-column mesh: id order. Ring: the ring. Fat-tree, BiGraph:
// id order (every hop crosses switches). File: exact search if small, else id order. A torus,
// mesh or ring with failed links: that cycle moved by the first symmetry of the grid (a
// translation, a mirror image, x and y swapped on a square) that crosses no failed link, else
// by the one with the fewest hops that are not a link.
RingCycle hamiltonian_cycle(const Topology& topo);

}  // namespace mt
