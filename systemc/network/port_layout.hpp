// Which router port every directed link of a topology leaves and enters by, and where a grid
// router sits: the one place that turns a host_sw Topology into router ports.
//
// Torus, mesh, ring: router r serves node r; ports y-, y+, x-, x+ (1..4) by grid geometry (in a
// dimension of size 2 the single link is + toward the larger coordinate), NI ports 0, 5, 6, 7.
// Switch networks (fat-tree, BiGraph, files with switches) and direct networks given as a
// file: a router per vertex (a direct file's nodes forward, as a grid's do). A node's
// router has its NI ports (0, 5, 6, 7) and its links, in neighbour order, on codes 1..4 (at
// most 4 links); a switch's links take codes 0, 1, ... in neighbour order (parallel links of
// a multiplicity-k link are k ports). Link l from a to b enters b by the port of the link from
// b to a of the same rank among the parallel links.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "router/dor_route.hpp"
#include "topology/topology.hpp"

namespace mt::noc {

// Where node n of a torus, mesh or ring sits.
GridPlace grid_place(const Topology& topo, uint32_t node);
// Whether the router network models this topology as a grid: a torus, mesh or ring with no
// failed link. A grid with failed links is a direct network as a file gives one (a router per
// node, a port per link in neighbour order, up*/down* tables).
bool is_grid(const Topology& topo);
// The port of a grid router (place, node, neighbours by port code) that leads one step along
// each Step (dor_route.hpp), kMaxRouterPorts where none does; in a dimension of size 2 both
// steps go through its single port.
std::array<uint8_t, 5> grid_step_ports(const GridPlace& place, uint32_t node,
                                       const std::vector<uint32_t>& neighbours);

class PortLayout {
 public:
  // Throws mt::InputError for a topology the router network cannot model (a node with more
  // than 4 links, a switch with more ports than a router has, a link without a reverse link).
  PortLayout(const Topology& topo, uint32_t ni_ports);

  // Vertex across each port code of vertex v's router (RouterSpec::neighbour).
  const std::vector<uint32_t>& neighbours(uint32_t v) const { return neighbours_.at(v); }
  uint8_t out_port(uint32_t link) const { return out_port_.at(link); }
  uint8_t in_port(uint32_t link) const { return in_port_.at(link); }
  uint32_t routers() const { return static_cast<uint32_t>(neighbours_.size()); }

 private:
  void place_grid_links(const Topology& topo);
  void place_switch_links(const Topology& topo);
  void pair_reverse_links(const Topology& topo);

  std::vector<std::vector<uint32_t>> neighbours_;
  std::vector<uint8_t> out_port_, in_port_;  // per link id
};

}  // namespace mt::noc
