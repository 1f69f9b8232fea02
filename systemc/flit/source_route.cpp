#include "flit/source_route.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {

uint32_t encode_source_route(const std::vector<uint8_t>& ports, const std::string& what) {
  if (ports.size() > kRouteHops) {
    throw InputError(fmt::format("{}: a route through {} routers; a head flit's source route "
                                 "holds {} hops", what, ports.size(), kRouteHops));
  }
  uint32_t route = 0;
  for (size_t i = ports.size(); i-- > 0;) {
    if (ports[i] > kRouteMaxPort) {
      throw InputError(fmt::format("{}: output port {} of hop {}; a source route names ports "
                                   "0..{}", what, ports[i], i, kRouteMaxPort));
    }
    route = route << kRouteHopBits | (ports[i] + 1u);
  }
  return route;
}

}  // namespace mt::noc
