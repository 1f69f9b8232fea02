#include "flit/source_route.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "common/error.hpp"

namespace mt::noc {

RouteHopCode::RouteHopCode(std::vector<uint8_t> link_ports) : ports_(std::move(link_ports)) {
  while ((size_t{1} << bits_) < ports_.size()) ++bits_;
}

uint8_t RouteHopCode::link_of(uint8_t port) const {
  for (size_t i = 0; i < ports_.size(); ++i) {
    if (ports_[i] == port) return static_cast<uint8_t>(i);
  }
  return kNoLink;
}

uint32_t encode_source_route(const std::vector<RouteHop>& hops, const std::string& what) {
  uint32_t bits = 0;
  for (const RouteHop& h : hops) bits += h.code->bits();
  if (bits > kRouteBits) {
    throw InputError(fmt::format("{}: a route through {} routers needs {} bits; a head flit's "
                                 "source route holds {}", what, hops.size(), bits, kRouteBits));
  }
  uint32_t route = 0;
  for (size_t i = hops.size(); i-- > 0;) {
    const uint8_t link = hops[i].code->link_of(hops[i].port);
    if (link == RouteHopCode::kNoLink) {
      throw std::logic_error(fmt::format("{}: hop {} leaves by port {}, not a link", what, i,
                                         hops[i].port));
    }
    route = route << hops[i].code->bits() | link;
  }
  return route;
}

}  // namespace mt::noc
