// The first hop of a send on a grid or a network of neighbours (rtl/first_hop.sv, its RTL
// twin): the router port a send from this node leaves by. A neighbour's node leaves by the port
// of its link (the highest such port, where two links reach it); on a grid any other node
// leaves by the port of its first dimension-order hop (systemc/router/dor_route.hpp).
#pragma once

#include <cstdint>

#include "ni/ni_model.hpp"

namespace mt::noc {

struct FirstHop {
  uint8_t port = kPortLocal;  // kPortLocal: no route (this node, past the network, no grid)
  bool neighbour = false;     // the destination is across the port's link
};

FirstHop first_hop(const NiPlace& place, uint32_t dest);

}  // namespace mt::noc
