// The fixed inputs of the RTL NI (rtl/network_interface.sv), strapped from the node's place
// before reset and held for the whole run: node_id_i, nodes_i, neighbour_i, grid_*_i and
// packet_mode_i. `kNodeW` is the model's NODE_W; every value must fit it (nil is all ones).
#pragma once

#include <cstdint>

#include "ni/ni_model.hpp"
#include "port_bits.hpp"

namespace mt::cosim {

// The node's place: node_id_i, nodes_i, neighbour_i and grid_*_i (also rtl/first_hop.sv's).
template <uint32_t kNodeW, class Model>
void strap_place(Model& d, const noc::NiPlace& place) {
  constexpr uint64_t kNil = (uint64_t{1} << kNodeW) - 1;
  uint64_t nb = 0;
  for (uint32_t dir = 0; dir < 4; ++dir) {  // y-, y+, x-, x+: router ports 1..4
    const uint32_t n = place.neighbour[dir + 1];
    nb |= (n < place.nodes ? n : kNil) << (kNodeW * dir);
  }
  put(d.node_id_i, 0, kNodeW, place.node);
  put(d.nodes_i, 0, kNodeW, place.nodes);
  put(d.neighbour_i, 0, 4 * kNodeW, nb);
  put(d.grid_x_i, 0, kNodeW, place.grid.x);
  put(d.grid_y_i, 0, kNodeW, place.grid.y);
  put(d.grid_width_i, 0, kNodeW, place.grid.width);
  put(d.grid_height_i, 0, kNodeW, place.grid.height);
  d.grid_wraps_i = place.grid.wraps;
}

template <uint32_t kNodeW, class Model>
void strap_ni(Model& d, const noc::NiPlace& place, bool packet_mode) {
  strap_place<kNodeW>(d, place);
  d.packet_mode_i = packet_mode;
}

}  // namespace mt::cosim
