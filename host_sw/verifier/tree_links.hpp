// The links an in-network aggregation plan's trees put bytes on (VerifyReport::link_bytes;
// docs/ina.md): a transfer of a flow with a tree does not travel its route between nodes.
// A node's Reduce into the tree crosses the node's link to the switch that lists it; a Gather
// of the sum crosses that switch's link back to the node; and between the tree's switches the
// flow's chunk crosses every hop once up, in the step of the flow's first Reduce, and once
// down, in the step of its first Gather.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

class TreeLinks {
 public:
  // A directed link (the first of its bundle) and the parallel links that share the load.
  struct Hop {
    uint32_t link = 0;
    uint32_t parallel = 1;
  };

  // `plan`'s aggregation entries must have passed check_aggregation (one switch lists each
  // taking part node, parents one link away).
  TreeLinks(const Plan& plan, const Topology& topo);

  // Whether flow `flow` has a tree: its transfers are counted by hops(), not by their routes.
  bool has_tree(uint32_t flow) const { return up_.count(flow) != 0; }
  // The hops transfer `id` (of a flow with a tree) puts its bytes on: its node's link, and the
  // first time a Reduce (a Gather) of its flow is asked for, the tree's hops up (down).
  std::vector<Hop> hops(uint32_t id);

 private:
  Hop hop(uint32_t a, uint32_t b) const;

  const Plan& plan_;
  const Topology& topo_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> switch_of_;  // (flow, node) -> its switch
  std::map<uint32_t, std::vector<Hop>> up_, down_;  // per flow: hops between its switches
};

}  // namespace mt
