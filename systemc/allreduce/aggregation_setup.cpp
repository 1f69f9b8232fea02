#include "allreduce/aggregation_setup.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "aggregation/switch_aggregator.hpp"
#include "common/error.hpp"

namespace mt::noc {
namespace {

// The port code of switch s's link to and from neighbour v (one port code both ways).
uint8_t port_toward(const Network& net, uint32_t s, uint32_t v, uint32_t flow) {
  const Topology& topo = net.topology();
  for (uint32_t l : topo.out_links(s)) {
    if (topo.links()[l].dst != v) continue;
    const uint8_t out = net.layout().out_port(l);
    for (uint32_t back : topo.out_links(v)) {
      if (topo.links()[back].dst == s && net.layout().in_port(back) == out) return out;
    }
  }
  throw InputError(fmt::format("aggregation flow {}: switch {} has no link to and from vertex "
                               "{}", flow, s, v));
}

}  // namespace

void load_aggregation(Network& net, const Plan& plan, const AggregationConfig& cfg) {
  const Topology& topo = net.topology();
  // The Src a node's sum comes back with: the node its Gather of the flow names.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> label;  // (flow, node) -> Src
  for (const Transfer& t : plan.transfers) {
    if (t.op == Op::kGather) label[{t.flow, t.dst}] = t.src;
  }
  std::map<uint32_t, std::vector<AggregationEntry>> tables;  // switch vertex -> entries
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.vertex >= topo.vertices() || !topo.is_switch(a.vertex)) {
      throw InputError(fmt::format("aggregation flow {}: vertex {} is not a switch", a.flow,
                                   a.vertex));
    }
    AggregationEntry e;
    e.flow = a.flow;
    for (uint32_t c : a.children) {
      e.child_ports.push_back(port_toward(net, a.vertex, c, a.flow));
      const auto it = label.find({a.flow, c});
      e.child_labels.push_back(topo.is_switch(c) || it == label.end() ? a.vertex : it->second);
    }
    if (a.parent != SwitchAggregation::kTop) e.parent_port = port_toward(net, a.vertex, a.parent, a.flow);
    tables[a.vertex].push_back(std::move(e));
  }
  const NocConfig& noc = net.config();
  size_t most_flows = 0;
  for (const auto& [vertex, entries] : tables) most_flows = std::max(most_flows, entries.size());
  const OutputSharing sharing = output_sharing_for(most_flows, noc.vcs);
  // The lanes: the VCs a message between switches starts on, 0 .. lanes - 1 (its class 0:
  // every VC on a fat-tree or a hierarchy).
  const SwitchRoutes* routes = net.switch_routes();
  const uint32_t lanes = routes ? routes->class_vcs(0).second : noc.vcs;
  for (auto& [vertex, entries] : tables) {
    Router& r = net.router(vertex);
    r.attach_aggregator(std::make_unique<SwitchAggregator>(
        vertex, std::move(entries), cfg, sharing, lanes, noc.vcs, noc.vc_depth,
        noc.subpacket_flits, r.hop_code()));
  }
}

}  // namespace mt::noc
