// The verifier's proof of an in-network aggregation plan (Plan::aggregations; docs/ina.md),
// where a switch contributes a sum: the sums a flow's switches send are the sets of nodes
// whose buffers they hold, as check_sums.hpp keeps them for nodes.
#pragma once

#include "plan/plan.hpp"
#include "topology/topology.hpp"
#include "verifier/error_list.hpp"

namespace mt {

// Proves, per flow: its switches' entries form one tree (each a switch with children, one
// link away from each child and from its parent, which lists it; exactly one top); every
// node sends the flow's chunk once, as a Reduce in steps 1..T into a switch that lists it as
// a child, and waits for it once, as a Gather in steps T+1..2T from the node its Reduce names;
// a switch's sum is the disjoint union of its children's, so the top holds every node's
// contribution exactly once; and the flows' chunks cover the buffer exactly once. Errors
// name the flow, switch and node.
//
// In a mixed plan (mixed_aggregation: some flows have no tree, and move between nodes) the
// nodes that take part in a flow with a tree are those that send or wait for any of its
// messages, each once of each kind; the top's sum must hold exactly those. The node-to-node
// flows, and the cover of the buffer, are proved by the wait rules and sums (aggregation_sums.hpp).
void check_aggregation(const Plan& plan, const Topology& topo, ErrorList& errors);

// Whether the plan has switch aggregation and flows without a tree (hierarchical NetReduce).
bool mixed_aggregation(const Plan& plan);

}  // namespace mt
