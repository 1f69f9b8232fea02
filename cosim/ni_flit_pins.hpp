// The flit pins of the RTL NI's K ports (rtl/network_interface.sv): per port p, a flit is
// rx_valid_i[p], rx_type_i[3p +: 3], rx_vc_i[kVcBits p +: kVcBits] and the four 32-bit words
// rx_data_i[4p .. 4p + 3] arriving, and the same tx_*_o fields leaving. `kVcBits` is the
// width of a VC number in the model (the bits of VCS - 1, at least 1).
#pragma once

#include <cstdint>

#include "flit/flit.hpp"
#include "port_bits.hpp"

namespace mt::cosim {

// Puts `f` on port p's arriving-flit pins with rx_valid_i set, or clears rx_valid_i when `f`
// is null (the other fields keep their values).
template <uint32_t kVcBits, class Model>
void drive_rx_flit(Model& d, uint32_t p, const noc::Flit* f) {
  put(d.rx_valid_i, p, 1, f != nullptr);
  if (f == nullptr) return;
  const noc::WireFlit w = noc::pack(*f);
  put(d.rx_type_i, 3 * p, 3, static_cast<uint32_t>(w.type));
  put(d.rx_vc_i, kVcBits * p, kVcBits, w.vc);
  for (uint32_t k = 0; k < 4; ++k) d.rx_data_i[4 * p + k] = w.data[k];
}

// The flit on port p's leaving-flit pins (valid when tx_valid_o[p] is set).
template <uint32_t kVcBits, class Model>
noc::WireFlit tx_flit(const Model& d, uint32_t p) {
  noc::WireFlit w;
  w.type = static_cast<noc::FlitType>(get(d.tx_type_o, 3 * p, 3));
  w.vc = static_cast<uint8_t>(get(d.tx_vc_o, kVcBits * p, kVcBits));
  for (uint32_t k = 0; k < 4; ++k) w.data[k] = d.tx_data_o[4 * p + k];
  return w;
}

}  // namespace mt::cosim
