// Source routes of all-reduce messages on a switch network (format/README.md, "Source
// routes"). The paper's Next field names the output port at the one router a message leaves
// a grid node by; on a switch network a message crosses its node's router and one or more
// switches, so the head carries the output port at each of them: hop i in bits
// [5i + 4 : 5i] of the 30-bit Route field, as port + 1 (0: no hop left). Every router but the
// destination node's reads hop 0 and shifts the field right by one hop; the destination
// node's router ejects what arrives over its link.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ni_formats.hpp"

namespace mt::noc {

constexpr uint32_t kRouteHopBits = format::flit::kRouteHopBits;
constexpr uint32_t kRouteHops = format::flit::kRouteHops;
constexpr uint32_t kRouteMaxPort = (1u << kRouteHopBits) - 2;  // the largest port a hop names
constexpr uint32_t kNoHop = std::numeric_limits<uint32_t>::max();

// The output port of the route's next hop, or kNoHop when none is left.
constexpr uint32_t source_route_hop(uint32_t route) {
  const uint32_t v = route & ((1u << kRouteHopBits) - 1);
  return v == 0 ? kNoHop : v - 1;
}
// The route after its next hop.
constexpr uint32_t source_route_rest(uint32_t route) { return route >> kRouteHopBits; }

// The Route field of the output ports `ports`, first hop first. Throws mt::InputError naming
// `what` when there are more than kRouteHops hops or a port above kRouteMaxPort.
uint32_t encode_source_route(const std::vector<uint8_t>& ports, const std::string& what);

}  // namespace mt::noc
