// One node's traffic: offers packets by a Bernoulli process to pattern destinations, hands
// them to the node's Endpoint in order and records (through the endpoint's on_send and
// on_receive) when each head leaves and each flit for this node arrives. Packets queue at the source without bound (BookSim's source
// queue): the latency of a packet counts its wait there.
#pragma once

#include <cstdint>
#include <deque>
#include <random>

#include <systemc>

#include "endpoint/endpoint.hpp"
#include "stats/packet_log.hpp"
#include "traffic/bernoulli.hpp"
#include "traffic/pattern.hpp"

namespace mt::noc {

struct SourceConfig {
  Pattern pattern;
  uint32_t width = 0, height = 0;  // the grid the pattern works on
  double rate = 0.0;               // flits/node/cycle; 0: offers nothing
  uint32_t packet_flits = 1;
  uint64_t seed = 1;               // the run's seed; node n draws from node_seed(seed, n)
  uint64_t stop_cycle = ~0ull;     // no packet is offered in this cycle or later
};

class TrafficSource : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TrafficSource);
  // Takes over endpoint.on_send and on_receive. clock_ps: NocConfig::clock_ps.
  TrafficSource(sc_core::sc_module_name name, Endpoint& endpoint, const SourceConfig& cfg,
                uint64_t clock_ps, PacketLog& log);

  uint64_t packets_offered() const { return offered_; }

 private:
  // Runs on cycle boundaries (Endpoint::send counts "the next cycle" from the current one):
  // offers the packet due this cycle and keeps the endpoint fed.
  void generate();
  uint64_t cycle_now() const;
  sc_core::sc_time until_cycle(uint64_t cycle) const;

  struct Waiting {
    uint64_t id;
    uint32_t dest;
  };

  Endpoint& endpoint_;
  SourceConfig cfg_;
  PacketLog& log_;
  uint32_t node_;
  BernoulliInjection injection_;
  std::mt19937_64 rng_;
  sc_core::sc_time period_;
  uint64_t next_start_;            // cycle of the next packet offer (BernoulliInjection::kNever)
  uint64_t offered_ = 0;
  std::deque<Waiting> backlog_;    // offered, not handed to the endpoint yet
};

}  // namespace mt::noc
