#include "verifier/aggregation_sums.hpp"

#include <limits>
#include <vector>

#include "verifier/check_sums.hpp"

namespace mt {

Plan switch_sums_between_nodes(const Plan& plan) {
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  std::vector<bool> tree(plan.flows.size(), false);
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.flow < tree.size()) tree[a.flow] = true;
  }
  // Each tree's first taking part node: the lowest id that sends a Reduce of the flow.
  std::vector<uint32_t> first(plan.flows.size(), kNone);
  for (const Transfer& t : plan.transfers) {
    if (t.flow < tree.size() && tree[t.flow] && t.op == Op::kReduce && t.src < first[t.flow]) {
      first[t.flow] = t.src;
    }
  }
  Plan out = plan;
  out.aggregations.clear();
  out.routes.clear();
  out.transfers.clear();
  for (const Transfer& t : plan.transfers) {
    if (t.flow >= tree.size() || !tree[t.flow]) {
      out.transfers.push_back(t);
      continue;
    }
    Transfer u = t;
    if (t.op == Op::kReduce) {
      u.dst = first[t.flow];
      if (u.src == u.dst) continue;  // it holds its own part
    } else {
      u.src = first[t.flow];
      if (u.src == u.dst) continue;  // it holds the sum
    }
    out.transfers.push_back(u);
  }
  return out;
}

void check_mixed_sums(const Plan& plan, ErrorList& errors) {
  check_sums(switch_sums_between_nodes(plan), errors);
}

}  // namespace mt
