// Link utilisation: flits a router sent over each directed link of the topology during a
// window, divided by the window's cycles (a link carries at most one flit per cycle).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mt::noc {

class Network;

struct LinkLoad {
  uint32_t router = 0;  // the vertex the link leaves
  std::string port;     // its output port (Router::port_label: y-, y+, x-, x+ on a grid)
  uint32_t to = 0;      // the vertex at the other end
  uint64_t flits = 0;
  double utilisation = 0.0;
};

// Flits sent so far on each directed link, indexed by the topology's link id.
std::vector<uint64_t> link_flits(const Network& net);

// Per-link loads between two link_flits snapshots over `cycles` cycles, in link id order (on a
// grid: by router, then y-, y+, x-, x+).
std::vector<LinkLoad> link_loads(const Network& net, const std::vector<uint64_t>& before,
                                 const std::vector<uint64_t>& after, uint64_t cycles);

nlohmann::json to_json(const LinkLoad& l);
LinkLoad link_load_from_json(const nlohmann::json& j);

}  // namespace mt::noc
