// multitree-opt's shallow trees on one-link switch networks (multitree_opt_shallow.cpp): for
// small message-based all-reduces, where the N - 1-step plan (multitree_opt_switch.cpp) waits
// for its forwards.
#pragma once

#include <cstdint>

#include "algorithms/switch_groups.hpp"
#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

// Whether multitree-opt takes the shallow trees for `opt` on the network of `g`, whose
// N - 1-step trees forward what arrived `slack` steps before (file comment, "When").
bool shallow_trees_pay(const PlanOptions& opt, const SwitchGroups& g, uint32_t slack);

// The plan of the shallow trees (file comment).
Plan build_multitree_opt_shallow(const Topology& topo, const PlanOptions& opt,
                                 const SwitchGroups& g);

}  // namespace mt
