// The link protocol: every link direction and every injection/ejection port is a TLM-2.0
// initiator/target socket pair carrying Flits (a custom protocol, not the generic payload).
//
//   forward  nb_transport_fw(flit, BEGIN_REQ, delay): the sender puts `flit` on the link in
//            the current cycle; `delay` is the link latency, so the flit is in the receiver's
//            input buffer at now + delay. The receiver copies the flit and returns
//            TLM_ACCEPTED; nothing else travels forward.
//   backward nb_transport_bw(credit, CREDIT, delay): the receiver frees one buffer slot of
//            VC credit.vc in the current cycle; the credit reaches the sender at now + delay
//            (the credit latency). credit.type is ignored.
//
// Delays are whole cycles; a flit sent at cycle t with latency L can be used by the receiver
// from cycle t + L on. No blocking transport, no DMI, no debug transport.
#pragma once

#include <tlm>

#include "flit/flit.hpp"

namespace mt::noc {

DECLARE_EXTENDED_PHASE(CREDIT);

struct FlitProtocol {
  typedef Flit tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

constexpr unsigned kFlitBits = 128;

// The sockets: link/flit_sockets.hpp.

}  // namespace mt::noc
