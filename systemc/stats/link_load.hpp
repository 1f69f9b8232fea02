// Link utilisation: flits a router sent through each of its network ports during a window,
// divided by the window's cycles (a link carries at most one flit per cycle).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "topology/topology.hpp"

namespace mt::noc {

struct LinkLoad {
  uint32_t router = 0;
  uint8_t port = 0;  // Port (flit/flit.hpp): y-, y+, x-, x+
  uint32_t to = 0;   // the router at the other end
  uint64_t flits = 0;
  double utilisation = 0.0;
};

// The router the link out of (router, port) leads to on a torus, mesh or ring, or
// Topology::kNoLink when that port has no link (mesh edges, y ports of a ring, the local port).
uint32_t port_neighbour(const Topology& topo, uint32_t router, uint8_t port);

// Per-link loads between two snapshots of flits_out, indexed [router * kPorts + port], over
// `cycles` cycles; links in router, then port order.
std::vector<LinkLoad> link_loads(const Topology& topo, const std::vector<uint64_t>& before,
                                 const std::vector<uint64_t>& after, uint64_t cycles);

nlohmann::json to_json(const LinkLoad& l);
LinkLoad link_load_from_json(const nlohmann::json& j);

}  // namespace mt::noc
