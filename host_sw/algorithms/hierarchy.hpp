// A hierarchy of machines read from a network's graph (hier:A+B+... or a file of that shape):
// the tree FlexReduce and BlueConnect plan over (FlexReduce paper, Table I).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace mt {

struct Machine {
  std::vector<uint32_t> learners;  // node ids, ascending
  uint32_t switch_vertex = 0;
  uint32_t learner_width = 0;      // parallel links between each learner and the switch
  uint32_t uplink_width = 0;       // parallel links between the switch and the root
};

// Level 0 of the tree is the machines (branch nodes whose leaves are learners), level 1 the
// root (whose children are the machines): L = 2 levels, counted from the bottom as in the
// paper's Table I.
struct Hierarchy {
  std::vector<Machine> machines;
  std::vector<uint32_t> machine_of;  // by node id
  uint32_t root_vertex = 0;
  uint32_t learners() const;
  // Every machine has the same learners, learner width and uplink width (Eq. (7)).
  bool symmetric() const;
};

// The hierarchy of `topo`; InputError naming `algorithm` and what does not fit when the network
// is not one: every node on exactly one switch (all its links there, equally wide), every
// such machine switch with one uplink to a root switch that has no learners of its own.
Hierarchy read_hierarchy(const Topology& topo, const std::string& algorithm);

// The vertices from learner a to learner b of a Hierarchy (`context`): through their switch,
// or up to the root and down (a VertexPath, algorithms/segment_trees.hpp).
std::vector<uint32_t> hierarchy_path(const void* context, uint32_t a, uint32_t b);

}  // namespace mt
