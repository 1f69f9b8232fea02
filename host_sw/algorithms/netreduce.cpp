// Hierarchical NetReduce (the NetReduce appendix, seed 002, Eq. (3); docs/ina.md): on m
// machines of n learners, a ring reduce-scatter inside each machine, in-network aggregation
// across machines of each learner's reduced chunk, and a ring all-gather inside each machine.
//
// The buffer is split into n chunks. Machine k's learners, ascending, are the ring positions
// 0..n-1; as in ring.cpp, reduce-scatter step s (1..n-1) has position i send chunk
// (i - s) mod n to position i+1, which leaves chunk c's machine sum at position c. Step n:
// position c of every machine sends chunk c into aggregation flow n + c, whose tree is every
// machine's switch (one child: that learner) under the root switch (every machine's switch);
// step n+1 brings the sum of all machines back. All-gather step s (1..n-1), plan step
// n + 1 + s, has position i send chunk (i - s + 1) mod n to position i+1. Ring transfers of
// chunk c are flow c; the switches take only the aggregation flows' messages (flow n + c).
// T = n steps per phase: the ring's n - 1 and the tree's one. A node's Reduce into the tree
// names position c of machine 0 (machine 0's names position c of machine 1), and its Gather
// comes back in that node's name, as in ina.cpp.
#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/hierarchy.hpp"
#include "common/error.hpp"
#include "topology/routing.hpp"

namespace mt {
namespace {

// The machines' learners, refused unless m >= 2 machines of the same n learners.
Hierarchy netreduce_machines(const Topology& topo) {
  const Hierarchy h = read_hierarchy(topo, "netreduce");
  if (h.machines.size() < 2) {
    throw InputError(fmt::format("netreduce: topology {} has {} machine(s); hierarchical "
                                 "NetReduce aggregates across at least 2", topo.spec(),
                                 h.machines.size()));
  }
  for (const Machine& m : h.machines) {
    if (m.learners.size() != h.machines.front().learners.size()) {
      throw InputError(fmt::format("netreduce: topology {}: machines of {} and {} learners; "
                                   "hierarchical NetReduce needs machines of equal size "
                                   "(every machine's position c reduces chunk c)", topo.spec(),
                                   h.machines.front().learners.size(), m.learners.size()));
    }
  }
  return h;
}

// One ring step of every machine: reduce-scatter (op Reduce) or all-gather (op Gather).
void add_ring_step(Plan& plan, const Hierarchy& h, uint32_t s, Op op) {
  const uint32_t n = plan.steps_per_phase;
  const uint32_t back = op == Op::kReduce ? s : s - 1;
  const uint32_t step = op == Op::kReduce ? s : n + 1 + s;
  for (const Machine& m : h.machines) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t c = (i + n - back) % n;
      if (plan.ranges[c].size == 0) continue;  // fewer 16-byte grains than chunks
      plan.transfers.push_back({c, m.learners[i], m.learners[(i + 1) % n], c, step, op});
    }
  }
}

// Aggregation flow n + c: position c of every machine into the tree and back.
void add_tree(Plan& plan, const Hierarchy& h, uint32_t c) {
  const uint32_t n = plan.steps_per_phase, f = n + c;
  const uint32_t root = h.machines[0].learners[c];
  plan.flows.push_back({root, plan.ranges[f]});
  if (plan.ranges[f].size == 0) return;
  SwitchAggregation top{f, h.root_vertex, {}, SwitchAggregation::kTop};
  for (size_t k = 0; k < h.machines.size(); ++k) {
    const uint32_t w = h.machines[k].learners[c];
    const uint32_t named = k != 0 ? root : h.machines[1].learners[c];
    plan.transfers.push_back({f, w, named, f, n, Op::kReduce});
    plan.transfers.push_back({f, named, w, f, n + 1, Op::kGather});
    plan.aggregations.push_back({f, h.machines[k].switch_vertex, {w}, h.root_vertex});
    top.children.push_back(h.machines[k].switch_vertex);
  }
  plan.aggregations.push_back(top);
}

}  // namespace

Plan build_netreduce(const Topology& topo, const PlanOptions& opt) {
  const Hierarchy h = netreduce_machines(topo);
  const uint32_t n = static_cast<uint32_t>(h.machines.front().learners.size());
  Plan plan = plan_header("netreduce", topo, opt);
  plan.neighbour_only = false;
  plan.contention_free = false;
  plan.steps_per_phase = n;
  // Ranges 0..n-1 are the ring flows' chunks, n..2n-1 the same bytes for the trees' flows.
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t c = 0; c < n; ++c) plan.ranges.push_back(plan.ranges[c]);
  for (uint32_t c = 0; c < n; ++c) plan.flows.push_back({h.machines[0].learners[c], plan.ranges[c]});
  for (uint32_t s = 1; s < n; ++s) add_ring_step(plan, h, s, Op::kReduce);
  for (uint32_t c = 0; c < n; ++c) add_tree(plan, h, c);
  for (uint32_t s = 1; s < n; ++s) add_ring_step(plan, h, s, Op::kGather);
  plan.routes = Router(topo).routes(plan.transfers);
  return plan;
}

}  // namespace mt
