#include "ni/first_hop.hpp"

#include "router/dor_route.hpp"

namespace mt::noc {
namespace {

uint8_t port_of(Step s) {
  switch (s) {
    case Step::kXPlus: return kPortXPlus;
    case Step::kXMinus: return kPortXMinus;
    case Step::kYPlus: return kPortYPlus;
    case Step::kYMinus: return kPortYMinus;
    case Step::kLocal: break;
  }
  return kPortLocal;
}

}  // namespace

FirstHop first_hop(const NiPlace& place, uint32_t dest) {
  FirstHop h;
  if (dest == place.node || dest >= place.nodes) return h;
  for (uint8_t p = kPortYMinus; p <= kPortXPlus; ++p) {
    if (place.neighbour[p] == dest) h.port = p;
  }
  h.neighbour = h.port != kPortLocal;
  if (!h.neighbour && place.grid.width != 0) {
    h.port = port_of(dimension_order_hop(place.grid, dest, Dim::kNone, 0).step);
  }
  return h;
}

}  // namespace mt::noc
