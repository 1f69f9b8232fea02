// Loads the switches' aggregation tables of an in-network aggregation plan (Plan::aggregations)
// into the network's switches (router/router.hpp, "Aggregation"): per switch, each flow's
// children's ports and the Src of the sum each child gets back (for a node, the node its
// Gather names in the plan; docs/ina.md).
#pragma once

#include "aggregation/aggregation_table.hpp"
#include "network/network.hpp"
#include "plan/plan.hpp"

namespace mt::noc {

// mt::InputError naming the switch and flow when the plan's tree does not fit the network
// (a child or parent that is not one link away) or a table is bad (aggregation_table.hpp).
void load_aggregation(Network& net, const Plan& plan, const AggregationConfig& cfg);

}  // namespace mt::noc
