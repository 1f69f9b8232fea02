#include "verifier/aggregation_check.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace mt {
namespace {

using Entries = std::map<uint32_t, const SwitchAggregation*>;  // switch -> its entry
constexpr uint32_t kNoNode = SwitchAggregation::kTop;

// Each entry alone: a switch, children one link away, a parent that lists it.
void check_entries(const Topology& topo, uint32_t flow, const Entries& tree, ErrorList& errors) {
  uint32_t tops = 0;
  for (const auto& [s, a] : tree) {
    const std::string at = fmt::format("aggregation flow {}: switch vertex {}", flow, s);
    if (!topo.is_switch(s)) errors.add(at + ": is not a switch");
    if (a->children.empty()) errors.add(at + ": has no children");
    for (uint32_t c : a->children) {
      if (c >= topo.vertices() || !topo.adjacent(c, s) || !topo.adjacent(s, c)) {
        errors.add(fmt::format("{}: child {} is not one link away", at, c));
      }
    }
    if (a->parent == SwitchAggregation::kTop) {
      ++tops;
      continue;
    }
    const auto p = tree.find(a->parent);
    if (a->parent >= topo.vertices() || !topo.adjacent(s, a->parent)) {
      errors.add(fmt::format("{}: parent {} is not one link away", at, a->parent));
    } else if (p == tree.end() || std::count(p->second->children.begin(),
                                             p->second->children.end(), s) != 1) {
      errors.add(fmt::format("{}: parent {} does not list it as a child once", at, a->parent));
    }
  }
  if (tops != 1) {
    errors.add(fmt::format("aggregation flow {}: {} tops; a tree has one", flow, tops));
  }
}

// The nodes whose buffers switch s's sum holds; a node counted twice is an error.
std::vector<bool> sum_at(const Topology& topo, uint32_t flow, uint32_t s, const Entries& tree,
                         uint32_t depth, ErrorList& errors) {
  std::vector<bool> held(topo.nodes(), false);
  const auto it = tree.find(s);
  if (it == tree.end() || depth > tree.size()) {
    errors.add(fmt::format("aggregation flow {}: switch vertex {} {}", flow, s,
                           it == tree.end() ? "sends to no switch of the flow" : "is in a cycle"));
    return held;
  }
  for (uint32_t c : it->second->children) {
    std::vector<bool> part(topo.nodes(), false);
    if (c < topo.nodes()) {
      part[c] = true;
    } else if (topo.is_switch(c)) {
      part = sum_at(topo, flow, c, tree, depth + 1, errors);
    }
    for (uint32_t n = 0; n < topo.nodes(); ++n) {
      if (part[n] && held[n]) {
        errors.add(fmt::format("aggregation flow {}: switch vertex {} adds node {}'s buffer "
                               "twice", flow, s, n));
      }
      held[n] = held[n] || part[n];
    }
  }
  return held;
}

// The NIs' side of flow f: one Reduce into the tree and one Gather back per node that takes
// part (every node, unless `mixed`: the nodes that send or wait for any message of the flow),
// of the flow's chunk, the Gather from the node the Reduce names. Returns who takes part.
std::vector<bool> check_nodes(const Plan& plan, const Topology& topo, uint32_t f,
                              const Entries& tree, bool mixed, ErrorList& errors) {
  const uint32_t T = plan.steps_per_phase;
  std::vector<uint32_t> reduces(plan.nodes, 0), gathers(plan.nodes, 0), named(plan.nodes, kNoNode);
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer& t = plan.transfers[i];
    if (t.flow != f) continue;
    const ByteRange& r = plan.ranges[t.range];
    if (r.offset != plan.flows[f].chunk.offset || r.size != plan.flows[f].chunk.size) {
      errors.add(fmt::format("flow {}: node {} -> {} carries bytes [{}, {}), not the flow's "
                             "chunk", f, t.src, t.dst, r.offset, r.end()));
    }
    if (t.op == Op::kGather) {
      ++gathers[t.dst];
      if (t.step <= T || t.step > 2 * T) {
        errors.add(fmt::format("flow {}: node {}'s Gather is not in steps {}..{}", f, t.dst,
                               T + 1, 2 * T));
      }
      continue;
    }
    ++reduces[t.src];
    named[t.src] = t.dst;
    const uint32_t s = plan.routes.empty() ? kNoNode : topo.links()[plan.routes[i].front()].dst;
    const auto e = tree.find(s);
    if (t.step < 1 || t.step > T || e == tree.end() ||
        std::count(e->second->children.begin(), e->second->children.end(), t.src) != 1) {
      errors.add(fmt::format("flow {}: node {}'s Reduce does not enter the tree in steps "
                             "1..{} at a switch that lists it as a child", f, t.src, T));
    }
  }
  for (const Transfer& t : plan.transfers) {
    if (t.flow == f && t.op == Op::kGather && named[t.dst] != t.src) {
      errors.add(fmt::format("flow {}: node {} waits for the sum from node {}, but its Reduce "
                             "names another", f, t.dst, t.src));
    }
  }
  std::vector<bool> part(plan.nodes, true);
  for (uint32_t n = 0; n < plan.nodes && !errors.full(); ++n) {
    part[n] = !mixed || reduces[n] != 0 || gathers[n] != 0;
    if (part[n] && (reduces[n] != 1 || gathers[n] != 1)) {
      errors.add(fmt::format("flow {}: node {} sends {} Reduce(s) into the tree and waits for "
                             "{} Gather(s); one of each", f, n, reduces[n], gathers[n]));
    }
  }
  return part;
}

// The flows' chunks cover the buffer exactly once.
void check_cover(const Plan& plan, ErrorList& errors) {
  std::vector<ByteRange> chunks;
  for (const Flow& f : plan.flows) {
    if (f.chunk.size != 0) chunks.push_back(f.chunk);
  }
  std::sort(chunks.begin(), chunks.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  uint64_t at = 0;
  for (const ByteRange& c : chunks) {
    if (c.offset != at) {
      errors.add(fmt::format("the flows' chunks leave bytes [{}, {}) {}", std::min(at, c.offset),
                             std::max(at, c.offset), c.offset > at ? "unsummed" : "summed twice"));
    }
    at = std::max(at, c.end());
  }
  if (at != plan.bytes) {
    errors.add(fmt::format("the flows' chunks end at byte {} of {}", at, plan.bytes));
  }
}

}  // namespace

void check_aggregation(const Plan& plan, const Topology& topo, ErrorList& errors) {
  std::vector<Entries> trees(plan.flows.size());
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.flow >= plan.flows.size()) {
      errors.add(fmt::format("aggregation flow {} does not exist", a.flow));
    } else if (!trees[a.flow].emplace(a.vertex, &a).second) {
      errors.add(fmt::format("aggregation flow {}: switch vertex {} listed twice", a.flow,
                             a.vertex));
    }
  }
  const bool mixed = mixed_aggregation(plan);
  for (uint32_t f = 0; f < plan.flows.size() && !errors.full(); ++f) {
    if (trees[f].empty()) {
      if (!mixed) errors.add(fmt::format("flow {}: no aggregation tree", f));
      continue;
    }
    check_entries(topo, f, trees[f], errors);
    const std::vector<bool> part = check_nodes(plan, topo, f, trees[f], mixed, errors);
    uint32_t top = kNoNode;
    for (const auto& [s, a] : trees[f]) top = a->parent == SwitchAggregation::kTop ? s : top;
    if (errors.full() || top == kNoNode) continue;
    const std::vector<bool> held = sum_at(topo, f, top, trees[f], 0, errors);
    for (uint32_t n = 0; n < plan.nodes && !errors.full(); ++n) {
      if (part[n] != held[n]) {
        errors.add(fmt::format("flow {}: the sum at the top, switch vertex {}, {} node {}'s "
                               "buffer", f, top, held[n] ? "holds" : "lacks", n));
      }
    }
  }
  // A mixed plan's chunks are moved by both kinds of flow; its sums prove the cover.
  if (!mixed) check_cover(plan, errors);
}

bool mixed_aggregation(const Plan& plan) {
  if (plan.aggregations.empty()) return false;
  std::vector<bool> has_tree(plan.flows.size(), false);
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.flow < has_tree.size()) has_tree[a.flow] = true;
  }
  return std::find(has_tree.begin(), has_tree.end(), false) != has_tree.end();
}

}  // namespace mt
