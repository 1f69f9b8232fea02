// A network of virtual-channel routers built from a host_sw Topology (network/port_layout.hpp):
// a 2D torus, mesh or ring, router r serving node r; or a switch network (fat-tree, BiGraph, a
// file with switches), a router per vertex: node n's router, then the switches, with the
// routing of router/switch_routes.hpp. Each of node n's NocConfig::ni_ports local ports is a
// pair of sockets an NI (or a test endpoint) binds to.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "link/flit_protocol.hpp"
#include "noc/noc_config.hpp"
#include "network/port_layout.hpp"
#include "network/switch_routing.hpp"
#include "router/router.hpp"
#include "router/switch_routes.hpp"
#include "topology/topology.hpp"

namespace mt::noc {

class Router;

// Each router of the SystemC model (with its NI) takes tens of kilobytes: throws InputError
// with the estimate when `routers` of `bytes_each` would not fit this machine's memory, so a
// network too large to simulate is refused up front rather than after minutes of elaboration.
void check_network_fits(const std::string& spec, uint64_t routers, uint64_t bytes_each);

class Network : public sc_core::sc_module {
 public:
  // Throws mt::InputError for topologies it cannot model (PortLayout, build_switch_routes), and
  // for a bad configuration (NocConfig::validate).
  Network(sc_core::sc_module_name name, const Topology& topo, const NocConfig& cfg);
  ~Network() override;

  // Node n's injection port `port_index` (0..ni_ports-1, local port code
  // local_port(port_index)): the NI's initiator socket binds here (flits in, credits out).
  // Throws mt::InputError for a port index >= ni_ports.
  tlm::tlm_target_socket<kFlitBits, FlitProtocol>& inject(uint32_t node,
                                                          uint32_t port_index = 0);
  // Node n's ejection port `port_index`: binds to the NI's target socket (flits out, credits
  // in). Normal packets arriving over link port p leave by port index (p - 1) % ni_ports;
  // messages by the port their head names (router/router.hpp).
  tlm::tlm_initiator_socket<kFlitBits, FlitProtocol>& eject(uint32_t node,
                                                            uint32_t port_index = 0);
  // SystemC requires every socket to be bound, so every local port pair of every router
  // (ni_ports per router) must be; elaboration fails naming the socket otherwise.

  // Optional allocation priority of a head flit (higher wins; the authors used the schedule
  // step). Ties, and the default, fall back to round robin.
  void set_priority(std::function<uint32_t(const Flit&)> priority);

  const Topology& topology() const { return topo_; }
  const PortLayout& layout() const { return *layout_; }
  bool switched() const { return switch_routes_ != nullptr; }
  // Switch networks: their routing (VC classes included); null on a grid.
  const SwitchRoutes* switch_routes() const { return switch_routes_.get(); }
  // Switch networks: the Route field (flit/source_route.hpp) of a message that follows the
  // directed links `links` (a host plan's route) from a node to a node, or the tables' own
  // route; InputError naming `what` when a route does not fit the head or needs more VC
  // classes than there are VCs (the classes grow to fit: call before the simulation starts).
  uint32_t source_route(const std::vector<uint32_t>& links, const std::string& what);
  uint32_t table_route(uint32_t src, uint32_t dst) const;
  // The Route field of the tables' first hop alone from node src toward node dst (on a direct
  // network given as a file: a neighbour's link, or where a packet to dst leaves src).
  uint32_t table_first_hop(uint32_t src, uint32_t dst) const;
  const NocConfig& config() const { return cfg_; }
  // Routers: one per node on a grid, one per vertex (nodes first) on a switch network.
  uint32_t routers() const;
  // Flits that left router r through port p so far (link utilisation = flits / cycles); for a
  // local port, the flits it ejected. Throws std::out_of_range for codes >= kMaxPorts.
  uint64_t flits_out(uint32_t router, uint8_t port) const;
  // Router-cycles simulated so far: how many times a router evaluated its pipeline (idle
  // routers are not evaluated).
  uint64_t router_cycles() const;
  // Runs the routers each cycle they ask for; NIs on this network run on it too. Each router
  // is a group of its own on it (with its node's NI: group key = the router's vertex id).
  CycleScheduler& scheduler() { return scheduler_; }
  const CycleScheduler& scheduler() const { return scheduler_; }
  // The fewest cycles after which what a router sends to another takes effect: a flit's
  // switch traversal and link latency, a credit's latency (>= 1). Between routers nothing
  // travels faster, so the scheduler may run each router's group that far ahead
  // (CycleScheduler::set_lookahead) when nothing but routers and their NIs' runs on the
  // scheduler act on the network.
  uint64_t lookahead() const;
  // Two colours of the routers' groups (CycleScheduler::set_colours), by vertex id, such that
  // no link joins two routers of one colour; empty when the network has an odd cycle.
  std::vector<uint8_t> group_colours() const;
  // The longest latency of a link's flits or credits: the link and credit latency of the
  // configuration, or a topology link's own (Topology::link_latency).
  uint64_t longest_link_latency() const;

  Router& router(uint32_t r) { return *routers_.at(r); }
  const Router& router(uint32_t r) const { return *routers_.at(r); }
  // Largest input VC fill seen in any router (see Router::max_vc_occupancy); <= vc_depth.
  uint32_t max_vc_occupancy() const;
  // Flits inside the routers (input buffers, links into them, switch traversal).
  uint64_t flits_buffered() const;
  // Every busy input VC of every router: what it holds and what it waits for.
  std::string state_report() const;

  // Tests: evaluate every router every cycle once it has seen a flit, to show that idle
  // skipping changes no cycle count. Call before sc_start.
  void set_idle_skipping(bool on) { shared_.always_evaluate = !on; }
  // Whether routers and endpoints of this simulation hand each other flits and credits by
  // direct calls with the usable cycle (link/flit_peer.hpp; on by default) or through their
  // TLM sockets' calls, for tests: the cycles are the same. Set it before the simulation
  // starts; a module bound to a plain TLM-2.0 socket (the RTL NI's transactor) is always
  // called through TLM.
  void set_direct_calls(bool on) { shared_.direct_calls = on; }

  // Deadlock watchdog, off by default: while flits are in the network it checks every
  // `stall_cycles` cycles that some router sent a flit since the last check; if none did it
  // records stall_report() (with state_report()) and calls sc_stop(). Choose stall_cycles
  // well above link_latency + credit_latency + the router delay, the longest legitimate quiet
  // time. 0 turns it off.
  void set_watchdog(uint64_t stall_cycles);
  bool stalled() const { return !stall_report_.empty(); }
  const std::string& stall_report() const { return stall_report_; }

 private:
  SC_HAS_PROCESS(Network);
  // The code of node's local port `port_index`; InputError naming `what` if out of range.
  uint8_t local_port_code(const char* what, uint32_t node, uint32_t port_index) const;
  void watchdog_check();
  uint64_t flits_moved() const;
  // Router v's per-port latencies (RouterSpec::port_latency); empty when no link has one.
  std::vector<uint32_t> port_latencies(uint32_t v) const;
  // The Route field of a path (flit/source_route.hpp), each hop in its router's code.
  uint32_t encode_route(const std::vector<PathHop>& path, const std::string& what) const;

  Topology topo_;
  NocConfig cfg_;
  std::unique_ptr<PortLayout> layout_;
  std::unique_ptr<SwitchRoutes> switch_routes_;  // switch networks only
  CycleScheduler scheduler_;  // runs the routers (and the NIs on the network)
  RouterShared shared_;
  std::vector<std::unique_ptr<Router>> routers_;
  sc_core::sc_event watchdog_event_;
  bool watchdog_fresh_ = true;  // first check after arming only takes a reference count
  uint64_t watchdog_moved_ = 0;
  std::string stall_report_;
};

}  // namespace mt::noc
