// Source routes of all-reduce messages on a switch network (format/README.md, "Source
// routes"). The paper's Next field names the output port at the one router a message leaves
// a grid node by; on a switch network a message crosses its node's router and one or more
// switches, so the head carries the output link at each of them in the Route field
// (format::flit::kRouteBits, 30 bits), first hop lowest. Each router names one of its own
// links, in port-code order, in the fewest bits that can (RouteHopCode: ceil(log2(links)),
// so 0 bits at a node with one link); it reads that many bits from the field's low end and
// shifts them out. The destination node's router ejects what arrives over its link, so no
// hop count or end marker is needed.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ni_formats.hpp"

namespace mt::noc {

constexpr uint32_t kRouteBits = format::flit::kRouteBits;

// How one router's hop is coded: its links and the bits that name one.
class RouteHopCode {
 public:
  static constexpr uint8_t kNoLink = std::numeric_limits<uint8_t>::max();

  RouteHopCode() = default;
  // A router whose links leave by `link_ports`, in port-code order.
  explicit RouteHopCode(std::vector<uint8_t> link_ports);

  uint32_t bits() const { return bits_; }
  uint32_t links() const { return static_cast<uint32_t>(ports_.size()); }
  // The link number the route's next hop names at this router (maybe not one it has).
  uint32_t link(uint32_t route) const { return route & ((1u << bits_) - 1); }
  // The output port the route's next hop names at this router (kNoLink: none of its links).
  uint8_t port(uint32_t route) const {
    return link(route) < ports_.size() ? ports_[link(route)] : kNoLink;
  }
  // The route after this router's hop.
  uint32_t rest(uint32_t route) const { return route >> bits_; }
  // The link number of output port `port` (kNoLink when it is not a link).
  uint8_t link_of(uint8_t port) const;

 private:
  std::vector<uint8_t> ports_;  // link number -> port code
  uint32_t bits_ = 0;
};

// One hop of a route: the output port at a router, and that router's code.
struct RouteHop {
  uint8_t port;
  const RouteHopCode* code;
};

// The Route field of `hops`, first hop first. Throws mt::InputError naming `what` when the
// hops need more than kRouteBits bits, std::logic_error when a port is not a link.
uint32_t encode_source_route(const std::vector<RouteHop>& hops, const std::string& what);

}  // namespace mt::noc
