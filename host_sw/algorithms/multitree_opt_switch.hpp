// multitree-opt on one-link switch networks (multitree_opt_switch.cpp): BiGraph and two-level
// fat-tree plans at N - 1 steps per phase, or shallow trees for small message-based
// all-reduces (multitree_opt_shallow.cpp); build_multitree_opt sends those networks here.
#pragma once

#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

// InputError naming the network for a switch network the construction does not fit.
Plan build_multitree_opt_switch(const Topology& topo, const PlanOptions& opt);

}  // namespace mt
