// A plain memory-mapped access on a TLM-2.0 generic payload: the whole data at one address,
// no byte enables, streaming width = length, response not yet known. The DMA requester, the
// host that loads the NIs' tables and the tests build their transactions with it.
#pragma once

#include <cstdint>

#include <tlm>

namespace mt::noc {

inline void set_plain_access(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, uint64_t addr,
                             uint8_t* data, uint64_t len) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(static_cast<unsigned>(len));
  t.set_streaming_width(static_cast<unsigned>(len));
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace mt::noc
