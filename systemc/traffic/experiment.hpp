// A BookSim-style traffic experiment on one network at one offered load: warm up, measure the
// packets offered during a window, then keep the traffic running until they have all arrived
// or a drain timeout passes.
//
//   cycles [0, warmup)                    warm-up: traffic runs, nothing is measured
//   [warmup, warmup + measure)            window: its packets are measured, its ejected flits
//                                         count as accepted throughput, link loads are taken
//   [warmup + measure, + drain_timeout)   drain: sources keep offering (so the measured packets
//                                         see the same load to the end); the run stops when the
//                                         last measured packet arrives
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "noc/noc_config.hpp"
#include "stats/packet_log.hpp"
#include "stats/run_stats.hpp"
#include "topology/topology.hpp"
#include "traffic/pattern.hpp"

namespace mt::noc {

struct TrafficConfig {
  std::string topology = "torus:8x8";  // torus:WxH, mesh:WxH or ring:N
  NocConfig noc;
  Pattern pattern;
  double rate = 0.1;          // flits/node/cycle; 0 runs an idle network
  uint32_t packet_flits = 4;
  uint64_t warmup = 2000;
  uint64_t measure = 4000;    // >= 1
  uint64_t drain_timeout = 10000;
  uint64_t seed = 1;

  // Parses and checks the topology (a torus, mesh or ring) and checks everything else against
  // it; throws InputError. Under virtual cut-through a packet must fit one VC buffer.
  Topology checked_topology() const;
};

// Elaborates the network, one Endpoint and TrafficSource per node and a supervisor in the
// current SystemC context, simulates, and returns the statistics. SystemC elaborates once per
// process: call it once, in a process of its own (run_traffic_isolated). `inspect`, if given,
// sees every packet before the statistics are returned. Throws InputError for a bad
// configuration and std::runtime_error when the network breaks the protocol (a misrouted,
// reordered, corrupted or lost flit).
RunStats run_traffic(const TrafficConfig& cfg,
                     const std::function<void(const Topology&, const PacketLog&)>& inspect = {});

// run_traffic in a forked child (run_in_children), rethrowing its InputError as InputError and
// any other failure as std::runtime_error.
RunStats run_traffic_isolated(const TrafficConfig& cfg);

}  // namespace mt::noc
