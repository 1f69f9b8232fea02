// A router's local input, scripted, for the benches of an injection port (endpoint_test.cpp,
// send_channel_test.cpp): takes the flits the SystemC Endpoint injects and returns a credit
// for the oldest one when the bench says so.
#pragma once

#include <cstdint>
#include <deque>

#include <systemc>

#include "flit/flit.hpp"
#include "link/flit_sockets.hpp"
#include "noc/noc_config.hpp"

namespace mt::tb {

class ScriptedLocalInput : public sc_core::sc_module {
 public:
  ScriptedLocalInput(sc_core::sc_module_name name, const noc::NocConfig& cfg)
      : sc_module(name), in("in"), out("out"), cfg_(cfg) {
    in.register_nb_transport_fw(this, &ScriptedLocalInput::take);
  }
  noc::FlitTargetSocket<ScriptedLocalInput> in;
  noc::FlitInitiatorSocket<ScriptedLocalInput> out;
  std::deque<uint8_t> held;  // VCs of flits taken and not yet freed, oldest first

  // Frees the oldest held flit's slot now; the credit is usable local_latency later.
  uint8_t free_one() {
    noc::Flit c;
    c.vc = held.front();
    held.pop_front();
    tlm::tlm_phase phase = noc::CREDIT;
    sc_core::sc_time delay(static_cast<double>(cfg_.local_latency * cfg_.clock_ps),
                           sc_core::SC_PS);
    in->nb_transport_bw(c, phase, delay);
    return c.vc;
  }

 private:
  tlm::tlm_sync_enum take(noc::Flit& f, tlm::tlm_phase&, sc_core::sc_time&) {
    held.push_back(f.vc);
    return tlm::TLM_ACCEPTED;
  }
  noc::NocConfig cfg_;
};

}  // namespace mt::tb
