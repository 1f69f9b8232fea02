// The routing of a switch network (router/switch_routes.hpp says what it is and why it is
// free of deadlock): the tables built from a topology, and the source routes of messages.
#pragma once

#include <cstdint>
#include <vector>

#include "network/port_layout.hpp"
#include "router/switch_routes.hpp"
#include "topology/topology.hpp"

namespace mt::noc {

// Shortest-path tables toward every node, the up link chosen by the destination; VC classes
// for the most down-to-up turns among them (router/switch_routes.hpp). Throws mt::InputError
// when those need more classes than `vcs`.
SwitchRoutes build_switch_routes(const Topology& topo, const PortLayout& layout, uint32_t vcs);

// A router a path leaves and the output port it leaves by.
struct PathHop {
  uint32_t vertex;
  uint8_t port;
};
// The hops along a path of directed link ids from a node to a node (a host plan's route):
// one per router the message leaves, the first at the source node's router. Throws
// mt::InputError when the links do not form such a path.
std::vector<PathHop> path_hops(const Topology& topo, const PortLayout& layout,
                               const std::vector<uint32_t>& links);
// The same hops along the tables' own path from node src to node dst.
std::vector<PathHop> table_path_hops(const Topology& topo, const SwitchRoutes& routes,
                                     const PortLayout& layout, uint32_t src, uint32_t dst);
// Down-to-up turns (router/switch_routes.hpp) on a path of link ids.
uint32_t route_turns(const Topology& topo, const SwitchRoutes& routes,
                     const std::vector<uint32_t>& links);

}  // namespace mt::noc
