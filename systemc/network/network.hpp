// A 2D torus, mesh or ring of virtual-channel routers built from a host_sw Topology. Router r
// serves node r; its local port is a pair of sockets an NI (or a test endpoint) binds to.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "link/flit_protocol.hpp"
#include "noc/noc_config.hpp"
#include "topology/topology.hpp"

namespace mt::noc {

class Router;

class Network : public sc_core::sc_module {
 public:
  // Throws mt::InputError for topologies that are not a torus, mesh or ring, and for a bad
  // configuration (NocConfig::validate).
  Network(sc_core::sc_module_name name, const Topology& topo, const NocConfig& cfg);
  ~Network() override;

  // Node n's injection port: the NI's initiator socket binds here (flits in, credits out).
  tlm::tlm_target_socket<kFlitBits, FlitProtocol>& inject(uint32_t node);
  // Node n's ejection port: binds to the NI's target socket (flits out, credits in).
  tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>& eject(uint32_t node);

  // Optional allocation priority of a head flit (higher wins; the authors used the schedule
  // step). Ties, and the default, fall back to round robin.
  void set_priority(std::function<uint32_t(const Flit&)> priority);

  const Topology& topology() const { return topo_; }
  const NocConfig& config() const { return cfg_; }
  uint32_t routers() const;
  // Flits that left router r through port p so far (link utilisation = flits / cycles).
  uint64_t flits_out(uint32_t router, uint8_t port) const;
  // Router-cycles simulated so far: how many times a router evaluated its pipeline (idle
  // routers are not evaluated).
  uint64_t router_cycles() const;

 private:
  Topology topo_;
  NocConfig cfg_;
  std::vector<std::unique_ptr<Router>> routers_;
};

}  // namespace mt::noc
