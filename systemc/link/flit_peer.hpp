// A module at one end of a flit link that a module of the same simulation may hand flits and
// credits to directly, with the cycle each becomes usable, instead of through nb_transport_fw
// and nb_transport_bw (flit_protocol.hpp). The TLM call carries the link's latency as a delay
// that the receiver adds to the current cycle; a direct call carries the sum, which the sender
// knows (the latency is fixed per link). Everything else is what the TLM callback does, which
// calls the same function. The sockets (flit_sockets.hpp) find a peer when they are bound; a
// module bound to any other TLM-2.0 socket (the RTL NI's transactor) is called through TLM.
#pragma once

#include <cstdint>

#include "flit/flit.hpp"

namespace mt::noc {

class FlitPeer {
 public:
  // `flit` arrives at input `port` on VC `vc`, usable from cycle `usable` on (the current cycle
  // plus the link's latency). The VC comes beside the flit, and flit.vc is not read: a sender
  // that wrote it into the flit just before the call would make the receiver's copy of the
  // flit wait for that one-byte store (a store-to-load forwarding stall).
  virtual void accept_flit(unsigned port, const Flit& flit, uint8_t vc, uint64_t usable) = 0;
  // A credit for VC `vc` of the receiver's buffer arrives at output `port`, usable from cycle
  // `usable` on.
  virtual void accept_credit(unsigned port, uint8_t vc, uint64_t usable) = 0;

 protected:
  ~FlitPeer() = default;
};

}  // namespace mt::noc
