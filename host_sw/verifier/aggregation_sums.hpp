// The sums of a mixed plan (verifier/aggregation_check.hpp, mixed_aggregation): transfers
// between nodes beside switch aggregation trees (hierarchical NetReduce, docs/ina.md).
#pragma once

#include "plan/plan.hpp"
#include "verifier/error_list.hpp"

namespace mt {

// The plan with each aggregation flow's tree replaced by what it computes between nodes, for
// the symbolic sums: check_aggregation proves that the tree's top adds each taking part
// node's Reduce exactly once and sends the sum back to each of them, which is what a Reduce
// from every other taking part node into the first one (the lowest id), and a Gather from it
// back to every other, compute in the same steps. Transfers of flows without a tree are kept
// as they are; the result has no aggregations and no routes.
Plan switch_sums_between_nodes(const Plan& plan);

// check_sums (verifier/check_sums.hpp) of switch_sums_between_nodes(plan): every node ends
// with every byte summed over all nodes exactly once. Errors name the flow's first taking part
// node where the plan's tree top holds the sum.
void check_mixed_sums(const Plan& plan, ErrorList& errors);

}  // namespace mt
