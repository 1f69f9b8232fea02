// The statistics of one traffic run at one offered load: one point of a latency-throughput
// curve. Its JSON is the `points[]` entry of noc-sim's output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/latency_summary.hpp"
#include "stats/link_load.hpp"

namespace mt::noc {

struct RunStats {
  double offered = 0.0;    // nominal injection rate, flits/node/cycle
  double injected = 0.0;   // flits/node/cycle offered during the measurement window
  double accepted = 0.0;   // flits/node/cycle ejected during the measurement window
  // The same per node, flits/cycle: ejected at each node, and each node's own flits ejected
  // anywhere (a starved source shows as a low entry here).
  std::vector<double> accepted_at, accepted_from;
  uint64_t packets = 0;    // measured packets (offered in the window) that arrived
  uint64_t unfinished = 0;  // measured packets still out when the drain timed out
  LatencySummary latency;          // offered (head generated) -> tail arrived
  LatencySummary network_latency;  // head sent by the source endpoint -> tail arrived
  // Flits offered but not yet delivered (source queues + network), at the window's ends.
  uint64_t in_system_start = 0, in_system_end = 0;
  bool drained = false;        // every measured packet arrived before the drain timeout
  bool saturated = false;      // saturation_reason is not empty
  std::string saturation_reason;
  uint64_t cycles = 0;         // cycles simulated
  uint64_t router_cycles = 0;  // Network::router_cycles() at the end
  uint32_t routers = 0;
  double max_link_utilisation = 0.0;
  double mean_link_utilisation = 0.0;
  std::vector<LinkLoad> links;
  uint64_t errors = 0;  // protocol violations seen by the packet log (0 in a correct network)
  // Wall-clock seconds: not part of the deterministic JSON.
  double elaboration_seconds = 0.0;
  double simulation_seconds = 0.0;
};

// The flits of one flow (all traffic, or the traffic to one node) over the measurement window.
struct FlowBalance {
  uint64_t injected = 0;         // flits offered during the window
  uint64_t accepted = 0;         // flits ejected during the window
  uint64_t in_system_start = 0;  // offered but not yet ejected, at the window's start
  uint64_t in_system_end = 0;    // ... and at its end
};

// Whether the flow's backlog grew during the window beyond noise. The growth in_system_end -
// in_system_start equals injected - accepted. Below saturation the in-system count is
// stationary and fluctuates like a Poisson count of packets (Little: throughput x latency),
// so the allowance is four standard deviations of the difference of two such counts,
// 4 * sqrt(packet_flits * (in_system_start + in_system_end)), plus 1% of the injected flits
// for what the Poisson model misses. A bare accepted < injected test would misfire at low
// loads, where a window holds few packets. Source queues alone are no guide either: deep VC
// buffers (318 flits at the defaults) soak up thousands of excess flits before any source
// has to wait.
bool backlog_grows(const FlowBalance& f, uint32_t packet_flits);

// Why a run is saturated, or "" when it is not: its measured packets did not all arrive
// before the drain timeout, or the backlog of all flits grew (a network bottleneck), or the
// backlog of flits for one node grew (that node's ejection port is a bottleneck: hotspot
// traffic, whose excess is too small to stand out of the whole network's noise).
std::string saturation_reason(bool drained, const FlowBalance& total,
                              const std::vector<FlowBalance>& per_destination,
                              uint32_t packet_flits);

// The points[] entry: offered, accepted, injected, latency_{mean,p99,min,max},
// network_latency_{mean,p99,min,max}, packets, unfinished, max_link_utilisation,
// mean_link_utilisation, accepted_at[] and accepted_from[] (per node, flits/cycle ejected at
// the node and of the node's own flits), accepted_min and accepted_max (the least and most
// of accepted_from), in_system_start, in_system_end, drained, saturated,
// saturation_reason (null when not saturated), cycles,
// router_cycles, routers, errors and
// links[]; latencies are null when no packet was measured. With `timing`, also the wall-clock
// seconds (for passing results between processes; never in noc-sim's output).
nlohmann::json to_json(const RunStats& s, bool timing = false);
RunStats run_stats_from_json(const nlohmann::json& j);

// One row per run: offered, accepted, packets, mean/p99/max latency, mean network latency,
// busiest link, saturated.
std::string points_table(const std::vector<RunStats>& runs);
// One row per link, busiest first.
std::string links_table(const RunStats& run);

}  // namespace mt::noc
