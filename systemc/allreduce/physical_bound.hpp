// The bandwidth lower bound of an all-reduce (DESIGN.md "Physical limits"): every node must
// send and receive (N-1)/N of the buffer twice (reduce-scatter and all-gather) through its
// d outgoing links of b bytes per cycle: T >= 2 (N-1) M / (N d b). d = 4 on a torus gives
// (N-1) M / (2 N b); a mesh's corner (d = 2) gives (N-1) M / (N b).
#pragma once

#include <cstdint>

#include "topology/topology.hpp"

namespace mt::noc {

uint64_t allreduce_bound_cycles(const Topology& topo, uint64_t bytes, uint64_t link_bytes_per_cycle);

}  // namespace mt::noc
