// The network side of an NI, for tests and traffic generators: injects queued flits one per
// cycle as credits allow, and sinks every arriving flit at once (returning its credit).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "link/flit_protocol.hpp"
#include "noc/noc_config.hpp"

namespace mt::noc {

class Endpoint : public sc_core::sc_module {
 public:
  Endpoint(sc_core::sc_module_name name, uint32_t node, const NocConfig& cfg);

  FlitInitiatorSocket<Endpoint> out;  // bind to Network::inject(node)
  FlitTargetSocket<Endpoint> in;      // Network::eject(node) binds to this

  // Queues one packet or message (its flits in order; Flit::vc is ignored: the endpoint picks
  // the injection VC per packet, round robin over VCs with credits). Flits leave at most one
  // per cycle, from the next cycle on.
  void send(std::vector<Flit> flits);
  size_t queued_flits() const;

  // Called for every flit that arrives, in its arrival cycle.
  std::function<void(const Flit& flit, uint64_t cycle)> on_receive;

  uint32_t node() const { return node_; }
  uint64_t flits_sent() const { return sent_; }
  uint64_t flits_received() const { return received_; }
  // The current cycle of the simulation (clock_ps per cycle).
  uint64_t cycle() const;

 private:
  // (The implementation adds what it needs below.)
  uint32_t node_;
  NocConfig cfg_;
  uint64_t sent_ = 0, received_ = 0;
};

}  // namespace mt::noc
