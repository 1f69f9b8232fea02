// Deterministic routes between nodes, for multi-hop normal packets and for link accounting.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace mt {

// Directed link ids from node src to node dst. Torus, mesh and ring with every link
// (Topology::whole_grid): dimension order, X then Y, the shorter way round on a wrapped
// dimension (a tie, half a ring away, goes + to an even and - to an odd destination
// coordinate, as the routers). Other networks, grids with failed links among them: a
// shortest path, the first found breadth-first in neighbour order. Empty when src == dst.
std::vector<uint32_t> route(const Topology& topo, uint32_t src, uint32_t dst);

// The same routes, for many pairs. The first shortest path a breadth-first search finds in
// neighbour order is the shortest path whose sequence of out-link positions is smallest
// (the search discovers a vertex from the earliest discovered neighbour, by its earliest
// link), so where distances have a closed form (fat-trees) the route is walked greedily:
// from each vertex, the first link to a vertex one hop closer. Elsewhere the search reuses
// its buffers (marked by a search number, never cleared), so a route costs the vertices it
// visits, not all vertices of the network.
class Router {
 public:
  explicit Router(const Topology& topo);
  std::vector<uint32_t> route(uint32_t src, uint32_t dst);
  // Whether routes are searched for (files, BiGraph, grids with failed links), not walked
  // (whole grids, fat-trees).
  bool searches() const;
  // The routes of many transfers (anything with src and dst), route(src, dst) each, with a
  // search from each source for all of its destinations at once instead of one per transfer
  // (dbtree on a 20,000-node file took 25 s for its routes).
  template <typename Transfers>
  std::vector<std::vector<uint32_t>> routes(const Transfers& transfers) {
    Pairs pairs;
    pairs.reserve(transfers.size());
    for (const auto& t : transfers) pairs.emplace_back(t.src, t.dst);
    return routes_of(pairs);
  }

 private:
  using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;
  std::vector<std::vector<uint32_t>> routes_of(const Pairs& pairs);
  std::vector<uint32_t> search(uint32_t src, uint32_t dst);
  // Breadth-first from src until every vertex in [first, last) is reached.
  void search_until(uint32_t src, const uint32_t* first, const uint32_t* last);
  std::vector<uint32_t> path_to(uint32_t src, uint32_t dst) const;
  std::vector<uint32_t> fattree_walk(uint32_t src, uint32_t dst) const;
  uint32_t fattree_distance(uint32_t v, uint32_t dst) const;

  const Topology& topo_;
  uint32_t search_ = 0;
  std::vector<uint32_t> seen_;   // seen_[v] == search_: v was reached in this search
  std::vector<uint32_t> via_;    // the link v was reached by
  std::vector<uint32_t> queue_;
  std::vector<uint32_t> targets_;
};

}  // namespace mt
