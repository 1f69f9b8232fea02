// The rings of a 2D-ring all-reduce on a W x H grid, shared by ring2d (ring2d.cpp) and the
// paper's 2D-Ring (ring2d_paper.cpp): the orders the buffer's shares take (rows then columns
// or columns then rows, each ring direction), a node in an order's own coordinates, and how
// many steps each stage's longest ring takes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace mt::grid_rings {

// (a - k) mod m for k <= 2m.
inline uint32_t minus(uint32_t a, uint32_t k, uint32_t m) { return (a + 2 * m - k) % m; }

// One share's rings. In its own coordinates a runs along its first dimension and b along its
// second, the rings go a -> a+1 and b -> b+1, and a reversed order mirrors both physical
// coordinates.
struct Order {
  bool rows_first = true;  // first stage along X (rows), else along Y (columns)
  bool reverse = false;    // rings toward lower coordinates
};

// The orders of a W x H grid: both unless a side is 1 (a plain ring), both directions unless
// a side is 2 (one link each way, which both directions would share).
inline std::vector<Order> orders(uint32_t W, uint32_t H) {
  const bool both_orders = W > 1 && H > 1;
  const bool both_ways = W != 2 && H != 2;
  std::vector<Order> out;
  for (bool rows_first : {true, false}) {
    if (!rows_first && !both_orders) break;
    for (bool reverse : {false, true}) {
      if (reverse && !both_ways) break;
      out.push_back({rows_first, reverse});
    }
  }
  return out;
}

// The node at (a, b) of an order's coordinates.
inline uint32_t node(const Topology& topo, Order o, uint32_t a, uint32_t b) {
  uint32_t x = o.rows_first ? a : b, y = o.rows_first ? b : a;
  if (o.reverse) {
    x = topo.width() - 1 - x;
    y = topo.height() - 1 - y;
  }
  return y * topo.width() + x;
}

// Steps of the longest first-stage and second-stage ring over all orders (orders()): with
// both orders each stage is as long as the longer side's ring, so the two orders never use the
// same dimension in the same step; with one order (a 1-wide grid) the sides' own rings.
struct StageSteps {
  uint32_t first = 0;
  uint32_t second = 0;
};
inline StageSteps stage_steps(uint32_t W, uint32_t H) {
  if (W > 1 && H > 1) return {std::max(W, H) - 1, std::max(W, H) - 1};
  return {W - 1, H - 1};
}

}  // namespace mt::grid_rings
