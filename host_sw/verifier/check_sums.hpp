// The verifier's symbolic execution of the sums (verifier.cpp runs it on every plan).
#pragma once

#include "plan/plan.hpp"
#include "verifier/error_list.hpp"

namespace mt {

// Proves that every node ends with every byte summed over all nodes exactly once: every
// node's value of every byte segment is the set of nodes whose contributions it holds. A
// Reduce adds a disjoint set; a Gather passes a complete one. Segments are the pieces of the
// buffer no transfer boundary cuts. Errors name the node, flow, step and bytes.
void check_sums(const Plan& plan, ErrorList& errors);

}  // namespace mt
