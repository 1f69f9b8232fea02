// The bandwidth lower bound of an all-reduce (DESIGN.md "Physical limits"): every node must
// send and receive (N-1)/N of the buffer twice (reduce-scatter and all-gather) through its
// d outgoing links of b bytes per cycle: T >= 2 (N-1) M / (N d b). d = 4 on a torus gives
// (N-1) M / (2 N b); a mesh's corner (d = 2) gives (N-1) M / (N b). On a switch network every
// node has its one link to a switch (d = 1): 2 (N-1) M / (N b). There the switches' cuts are
// no tighter on a fat-tree (full bisection) or a BiGraph (S*S links between halves of S*K nodes
// each carry at least M each way: M / (S*S b), below the node bound for K <= 2 S*S); a file
// whose cuts are thinner has a higher true bound than this one.
#pragma once

#include <cstdint>
#include <string>

#include "topology/topology.hpp"

namespace mt {

uint64_t allreduce_bound_cycles(const Topology& topo, uint64_t bytes, uint64_t link_bytes_per_cycle);
// How the bound is derived, in a few words for a report: "each node's d links: ...".
std::string allreduce_bound_basis(const Topology& topo);

}  // namespace mt
