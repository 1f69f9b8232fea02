#include "verifier/tree_links.hpp"

namespace mt {

TreeLinks::TreeLinks(const Plan& plan, const Topology& topo) : plan_(plan), topo_(topo) {
  for (const SwitchAggregation& a : plan.aggregations) {
    up_[a.flow];
    down_[a.flow];
    for (uint32_t c : a.children) {
      if (!topo.is_switch(c)) switch_of_[{a.flow, c}] = a.vertex;
    }
    if (a.parent == SwitchAggregation::kTop) continue;
    up_[a.flow].push_back(hop(a.vertex, a.parent));
    down_[a.flow].push_back(hop(a.parent, a.vertex));
  }
}

TreeLinks::Hop TreeLinks::hop(uint32_t a, uint32_t b) const {
  return {topo_.first_link(a, b), topo_.multiplicity(a, b)};
}

std::vector<TreeLinks::Hop> TreeLinks::hops(uint32_t id) {
  const Transfer& t = plan_.transfers[id];
  std::vector<Hop> r;
  const bool reduce = t.op == Op::kReduce;
  const uint32_t node = reduce ? t.src : t.dst;
  const uint32_t s = switch_of_.at({t.flow, node});
  r.push_back(reduce ? hop(node, s) : hop(s, node));
  std::vector<Hop>& between = reduce ? up_.at(t.flow) : down_.at(t.flow);
  r.insert(r.end(), between.begin(), between.end());
  between.clear();  // once per flow and direction
  return r;
}

}  // namespace mt
