// Zero-load latency: what a packet takes through an empty network (systemc/README.md, "Timing
// contract"), per hop count and averaged over a traffic pattern.
#pragma once

#include <cstdint>

#include "noc/noc_config.hpp"
#include "topology/topology.hpp"
#include "traffic/pattern.hpp"

namespace mt::noc {

// A packet offered in cycle t is handed to the endpoint in cycle t, which sends its head from
// cycle t + 1 on ("from the next cycle"): offered-to-arrival latency is network latency + 1.
constexpr uint64_t kSourceDelay = 1;

// Head sent -> tail usable over `hops` router-to-router hops:
// 2 * local_latency + (hops + 1) * R + hops * link_latency + (flits - 1).
uint64_t zero_load_network_latency(const NocConfig& cfg, uint32_t hops, uint32_t flits);

struct ZeroLoad {
  double network = 0.0;  // mean head-sent -> tail-arrived latency
  double total = 0.0;    // mean offered -> tail-arrived latency (network + kSourceDelay)
  double hops = 0.0;     // mean router-to-router hops
};

// Averaged over every source (all inject at the same rate) and the pattern's destination
// distribution, with minimal hop counts (what dimension-order routing takes on a torus, mesh
// or ring).
ZeroLoad mean_zero_load(const Topology& topo, const NocConfig& cfg, const Pattern& pattern,
                        uint32_t flits);

}  // namespace mt::noc
