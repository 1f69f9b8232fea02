#pragma once

#include <string>

#include "plan/plan.hpp"
#include "topology/topology.hpp"

namespace mt {

// Graphviz of the all-gather tree of `flow` ("all" for every tree side by side) drawn over the
// physical network: gray links, tree edges in bold labelled with their all-gather step. Grids
// pin nodes at their coordinates (render with neato); other networks let dot place them.
std::string plan_dot(const Plan& plan, const Topology& topo, const std::string& flow);

}  // namespace mt
