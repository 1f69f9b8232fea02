#include "interop/msccl_flows.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace mt {
namespace {

class Components {
 public:
  explicit Components(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
  uint32_t find(uint32_t a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<uint32_t> parent_;
};

// A node's view of one chunk while its transfers are walked in step order.
struct ChunkAtNode {
  std::vector<uint32_t> children;  // Reduces received since its last Reduce of the chunk
  std::vector<uint32_t> summed;    // the Reduces a root sends the sum of
  int64_t parent = -1;             // the last Gather or Put received since then
};

void join_at_node(const Plan& plan, uint32_t v, const std::vector<uint32_t>& ids,
                  Components& trees) {
  std::unordered_map<uint32_t, ChunkAtNode> at;  // by chunk
  for (uint32_t id : ids) {
    const Transfer& t = plan.transfers[id];
    ChunkAtNode& c = at[t.range];
    if (t.dst == v) {
      if (t.op == Op::kReduce) {
        // A Reduce after the sum went on, or after a Gather or Put came, starts another tree.
        c.summed.clear();
        c.parent = -1;
        c.children.push_back(id);
      } else {
        c.parent = id;
        c.summed.clear();
      }
    } else if (t.op == Op::kReduce) {
      for (uint32_t child : c.children) trees.join(id, child);
      c = ChunkAtNode{};
    } else if (c.parent >= 0) {
      trees.join(id, static_cast<uint32_t>(c.parent));
    } else {
      c.summed.insert(c.summed.end(), c.children.begin(), c.children.end());
      c.children.clear();
      for (uint32_t r : c.summed) trees.join(id, r);
    }
  }
}

// Each node's transfers in step order, its sends of a step before its receives.
std::vector<std::vector<uint32_t>> per_node(const Plan& plan) {
  std::vector<std::vector<uint32_t>> ids(plan.nodes);
  for (uint32_t id = 0; id < plan.transfers.size(); ++id) {
    ids[plan.transfers[id].src].push_back(id);
    ids[plan.transfers[id].dst].push_back(id);
  }
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    auto key = [&](uint32_t id) {
      const Transfer& t = plan.transfers[id];
      return std::make_tuple(t.step, t.dst == v, id);
    };
    std::sort(ids[v].begin(), ids[v].end(),
              [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  }
  return ids;
}

// Per flow, the node that sends its Gathers or Puts and receives none, else the last to
// receive a Reduce of it.
void set_roots(Plan& plan) {
  std::vector<std::set<uint32_t>> storing(plan.flows.size()), stored(plan.flows.size());
  for (const Transfer& t : plan.transfers) {
    if (t.op == Op::kReduce) plan.flows[t.flow].root = t.dst;
    if (writes(t.op)) {
      storing[t.flow].insert(t.src);
      stored[t.flow].insert(t.dst);
    }
  }
  for (uint32_t f = 0; f < plan.flows.size(); ++f) {
    for (uint32_t v : storing[f]) {
      if (stored[f].count(v) == 0) plan.flows[f].root = v;
    }
  }
}

}  // namespace

void assign_msccl_flows(Plan& plan, uint32_t chunks) {
  Components trees(plan.transfers.size());
  const std::vector<std::vector<uint32_t>> ids = per_node(plan);
  for (uint32_t v = 0; v < plan.nodes; ++v) join_at_node(plan, v, ids[v], trees);
  // A flow per tree, chunk by chunk; a chunk no transfer moves keeps one.
  std::vector<std::vector<uint32_t>> by_chunk(chunks);
  for (uint32_t id = 0; id < plan.transfers.size(); ++id) {
    by_chunk[plan.transfers[id].range].push_back(id);
  }
  std::unordered_map<uint32_t, uint32_t> flow_of;  // a tree's first transfer -> its flow
  plan.flows.clear();
  for (uint32_t c = 0; c < chunks; ++c) {
    if (by_chunk[c].empty()) plan.flows.push_back({0, plan.ranges[c]});
    for (uint32_t id : by_chunk[c]) {
      const auto [it, added] =
          flow_of.emplace(trees.find(id), static_cast<uint32_t>(plan.flows.size()));
      if (added) plan.flows.push_back({0, plan.ranges[c]});
      plan.transfers[id].flow = it->second;
    }
  }
  set_roots(plan);
}

}  // namespace mt
