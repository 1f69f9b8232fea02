// In-network aggregation (the NetReduce appendix, seed 002; docs/ina.md): every node sends
// its buffer once into an aggregation tree of switches, which adds the nodes' buffers as they
// pass and sends the sum back down to every node. Each node's link carries M bytes each way,
// so the bound is M / b, not the 2 (N - 1) M / (N b) every endpoint reduction must obey.
//
// One flow over the whole buffer. A node's first switch (the first link of its route) takes
// its Reduce into the tree; the tree's top is the switch closest to the farthest of those
// first switches (fewest switch-to-switch hops, then lowest id), and every other switch on a
// shortest path from the top to a first switch joins it, its parent the switch before it on
// the first such path a breadth-first search from the top finds. The NI's tables: a Reduce
// at step 1 that names the flow's root (or, at the root, the node after it) and a Gather at
// step 2 from the same node, which the network sends in that node's name.
#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "topology/routing.hpp"

namespace mt {
namespace {

constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();

// Switch-to-switch hops from `from` to every vertex (kFar: not reached over switches).
std::vector<uint32_t> switch_distances(const Topology& topo, uint32_t from,
                                       std::vector<uint32_t>* parent) {
  std::vector<uint32_t> dist(topo.vertices(), kFar), queue{from};
  if (parent) parent->assign(topo.vertices(), kFar);
  dist[from] = 0;
  for (size_t q = 0; q < queue.size(); ++q) {
    const uint32_t v = queue[q];
    for (uint32_t l : topo.out_links(v)) {
      const uint32_t w = topo.links()[l].dst;
      if (!topo.is_switch(w) || dist[w] != kFar) continue;
      dist[w] = dist[v] + 1;
      if (parent) (*parent)[w] = v;
      queue.push_back(w);
    }
  }
  return dist;
}

// The top: the switch whose farthest first switch is nearest (then the lowest id).
uint32_t tree_top(const Topology& topo, const std::vector<uint32_t>& firsts) {
  uint32_t best = kFar, best_reach = kFar;
  for (uint32_t s = topo.nodes(); s < topo.vertices(); ++s) {
    const std::vector<uint32_t> dist = switch_distances(topo, s, nullptr);
    uint32_t reach = 0;
    for (uint32_t f : firsts) reach = std::max(reach, dist[f]);
    if (reach < best_reach) {
      best = s;
      best_reach = reach;
    }
  }
  if (best_reach == kFar) {
    throw InputError(fmt::format("ina: topology {}: the nodes' first switches are not "
                                 "connected through switches", topo.spec()));
  }
  return best;
}

// The tree of flow `flow`: every first switch and the switches on its path up to the top.
void add_tree(Plan& plan, const Topology& topo, uint32_t flow,
              const std::vector<uint32_t>& first_switch) {
  const uint32_t top = tree_top(topo, first_switch);
  std::vector<uint32_t> parent;
  switch_distances(topo, top, &parent);
  std::map<uint32_t, SwitchAggregation> tree;  // switch -> its entry, in id order
  tree[top];
  for (uint32_t n = 0; n < topo.nodes(); ++n) tree[first_switch[n]].children.push_back(n);
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    for (uint32_t s = first_switch[n]; s != top && tree[s].parent == SwitchAggregation::kTop;
         s = parent[s]) {
      tree[s].parent = parent[s];
      tree[parent[s]].children.push_back(s);
    }
  }
  for (auto& [s, a] : tree) {
    a.flow = flow;
    a.vertex = s;
    std::sort(a.children.begin(), a.children.end());
    plan.aggregations.push_back(a);
  }
}

}  // namespace

Plan build_ina(const Topology& topo, const PlanOptions& opt) {
  const uint32_t n = topo.nodes();
  if (topo.direct()) {
    throw InputError(fmt::format("ina: topology {} has no switches; in-network aggregation "
                                 "runs on switch networks (fattree, bigraph, hier, files with "
                                 "switches)", topo.spec()));
  }
  if (n < 2) throw InputError("ina: an all-reduce needs at least 2 nodes");
  Plan plan = plan_header("ina", topo, opt);
  plan.neighbour_only = false;
  plan.contention_free = false;
  plan.steps_per_phase = 1;
  plan.ranges = split_bytes(opt.bytes, 1);
  constexpr uint32_t kRoot = 0;
  plan.flows.push_back({kRoot, plan.ranges[0]});
  for (uint32_t w = 0; w < n; ++w) {
    const uint32_t named = w != kRoot ? kRoot : (kRoot + 1) % n;
    plan.transfers.push_back({0, w, named, 0, 1, Op::kReduce});
  }
  for (uint32_t w = 0; w < n; ++w) {
    const uint32_t named = w != kRoot ? kRoot : (kRoot + 1) % n;
    plan.transfers.push_back({0, named, w, 0, 2, Op::kGather});
  }
  plan.routes = Router(topo).routes(plan.transfers);
  std::vector<uint32_t> first_switch(n);
  for (uint32_t w = 0; w < n; ++w) {
    first_switch[w] = topo.links()[plan.routes[w].front()].dst;
    if (!topo.is_switch(first_switch[w])) {
      throw InputError(fmt::format("ina: topology {}: node {}'s route starts with a link to "
                                   "node {}, not to a switch", topo.spec(), w, first_switch[w]));
    }
  }
  add_tree(plan, topo, 0, first_switch);
  return plan;
}

}  // namespace mt
