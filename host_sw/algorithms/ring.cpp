// Ring all-reduce (Baidu; paper §II-B, Fig. 1) over a Hamiltonian cycle of the network, in one
// direction (ring) or in both with half of the data each way (ring-bi).
//
// With the cycle as positions 0..N-1, chunk c is reduced into position c: at reduce-scatter
// step s position i sends chunk (i - s) mod N to position i+1, and at all-gather step s it
// sends chunk (i - s + 1) mod N. A node always forwards at step s the chunk that arrived at
// step s-1, so labelling every transfer of chunk c with flow c is all the NI needs to wait for.
#include "algorithms/algorithms.hpp"
#include "algorithms/hamiltonian_cycle.hpp"
#include "topology/routing.hpp"

namespace mt {
namespace {

Plan ring_plan(const Topology& topo, const PlanOptions& opt, const char* name) {
  Plan plan = plan_header(name, topo, opt);
  plan.steps_per_phase = topo.nodes() - 1;
  return plan;
}

// One direction: flows [first, first + N) own ranges [first, first + N), chunk c rooted at
// cycle[c].
void add_ring(Plan& plan, const std::vector<uint32_t>& cycle, uint32_t first) {
  const uint32_t n = static_cast<uint32_t>(cycle.size());
  for (uint32_t c = 0; c < n; ++c) plan.flows.push_back({cycle[c], plan.ranges[first + c]});
}

void add_ring_transfers(Plan& plan, const std::vector<uint32_t>& cycle, uint32_t first,
                        uint32_t s, Op op) {
  const uint32_t n = static_cast<uint32_t>(cycle.size());
  const uint32_t T = n - 1;
  // Reduce-scatter step s sends chunk i - s; all-gather step s sends chunk i - s + 1.
  const uint32_t back = op == Op::kReduce ? s : s - 1;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t f = first + (i + n - back) % n;
    if (plan.ranges[f].size == 0) continue;  // fewer 16-byte grains than chunks
    plan.transfers.push_back({f, cycle[i], cycle[(i + 1) % n], f,
                              op == Op::kReduce ? s : T + s, op});
  }
}

void add_routes(Plan& plan, const Topology& topo) {
  if (topo.direct()) return;  // the verifier routes multi-hop packets itself
  plan.routes = Router(topo).routes(plan.transfers);
}

}  // namespace

Plan build_ring(const Topology& topo, const PlanOptions& opt) {
  const RingCycle cycle = hamiltonian_cycle(topo);
  const uint32_t n = topo.nodes();
  Plan plan = ring_plan(topo, opt, "ring");
  // Multi-hop hops are normal packets; their link sharing is reported, not promised away.
  plan.neighbour_only = cycle.one_hop && topo.direct();
  plan.contention_free = plan.neighbour_only;
  plan.ranges = split_bytes(opt.bytes, n);
  add_ring(plan, cycle.order, 0);
  for (uint32_t s = 1; s <= n - 1; ++s) add_ring_transfers(plan, cycle.order, 0, s, Op::kReduce);
  for (uint32_t s = 1; s <= n - 1; ++s) add_ring_transfers(plan, cycle.order, 0, s, Op::kGather);
  add_routes(plan, topo);
  return plan;
}

Plan build_ring_bi(const Topology& topo, const PlanOptions& opt) {
  const uint32_t n = topo.nodes();
  if (n == 2) {
    // Both directions of a 2-cycle are the same two directed links: two rings would put two
    // transfers on each link per step. One ring moves the same bytes per link and step.
    Plan plan = build_ring(topo, opt);
    plan.algorithm = "ring-bi";
    return plan;
  }
  const RingCycle cycle = hamiltonian_cycle(topo);
  // Counter-clockwise: the same cycle read backwards from the same start.
  std::vector<uint32_t> ccw(n);
  for (uint32_t j = 0; j < n; ++j) ccw[j] = cycle.order[(n - j) % n];
  Plan plan = ring_plan(topo, opt, "ring-bi");
  // On a one-hop cycle the two directions use opposite directed links, so no link is shared.
  plan.neighbour_only = cycle.one_hop && topo.direct();
  plan.contention_free = plan.neighbour_only;
  plan.ranges = split_bytes(opt.bytes, 2 * n);  // first half clockwise, second half back
  add_ring(plan, cycle.order, 0);
  add_ring(plan, ccw, n);
  for (uint32_t s = 1; s <= n - 1; ++s) {
    add_ring_transfers(plan, cycle.order, 0, s, Op::kReduce);
    add_ring_transfers(plan, ccw, n, s, Op::kReduce);
  }
  for (uint32_t s = 1; s <= n - 1; ++s) {
    add_ring_transfers(plan, cycle.order, 0, s, Op::kGather);
    add_ring_transfers(plan, ccw, n, s, Op::kGather);
  }
  add_routes(plan, topo);
  return plan;
}

}  // namespace mt
