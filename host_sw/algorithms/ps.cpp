// Parameter server (the NetReduce appendix's baseline, seed 002): one server node receives
// every worker's whole buffer, reduces it, and sends the sum back to every worker.
//
// One flow over the whole buffer, rooted at the server, node 0. Reduce-scatter is one step:
// every worker sends its buffer to the server at step 1, and all of it arrives over the
// server's links at once (incast). All-gather sends the sum to the workers, K of them a step
// (the NI table's children slots), so T = ceil((N - 1) / K) and the server's sends follow
// one another over its links. Switch networks only (fat-tree, BiGraph, hierarchies, files with
// switches), where every transfer takes the network's route: on a direct network the NI's
// scoreboard holds the Reduces of a flow from 4 senders (NiConfig::arrival_slots), fewer than
// a server hears from.
#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "topology/routing.hpp"

namespace mt {

Plan build_ps(const Topology& topo, const PlanOptions& opt) {
  const uint32_t n = topo.nodes();
  if (n < 2) throw InputError("ps: a parameter server needs at least 2 nodes");
  if (topo.direct()) {
    throw InputError(fmt::format("ps: topology {} is a direct network; the parameter server "
                                 "runs on switch networks (fattree, bigraph, hier, files with "
                                 "switches), where the server's NI records a Reduce from every "
                                 "worker", topo.spec()));
  }
  constexpr uint32_t kServer = 0;
  constexpr uint32_t kPerStep = 4;  // the table's children slots (TableOptions)
  Plan plan = plan_header("ps", topo, opt);
  plan.neighbour_only = false;  // workers reach the server over multi-hop paths
  plan.contention_free = false;
  plan.steps_per_phase = (n - 1 + kPerStep - 1) / kPerStep;
  plan.ranges = split_bytes(opt.bytes, 1);
  plan.flows.push_back({kServer, plan.ranges[0]});
  for (uint32_t w = 1; w < n; ++w) plan.transfers.push_back({0, w, kServer, 0, 1, Op::kReduce});
  for (uint32_t w = 1; w < n; ++w) {
    const uint32_t step = plan.steps_per_phase + 1 + (w - 1) / kPerStep;
    plan.transfers.push_back({0, kServer, w, 0, step, Op::kGather});
  }
  if (!topo.direct()) plan.routes = Router(topo).routes(plan.transfers);
  return plan;
}

}  // namespace mt
