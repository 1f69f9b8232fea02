// The groups of a one-link switch network (a BiGraph, a two-level fat-tree) as multitree-opt
// numbers them (multitree_opt_switch.cpp, "Groups"): the switches with nodes are G groups of
// K nodes, numbered as the cyclic group Z_G so that moving every group by an offset maps the
// network onto itself; node (z, i) is local i of group z. A direction is a unit d of Z_G that
// takes one switch-to-switch link on a BiGraph (odd), or one top switch on a fat-tree.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace mt {

class SwitchGroups {
 public:
  // InputError naming the network when it is not a BiGraph or a two-level fat-tree, or has
  // one node per switch.
  explicit SwitchGroups(const Topology& topo);

  // A two-level fat-tree (groups are leaves, crossings go through a top switch), else a
  // BiGraph (crossings take the link between two switches).
  bool fattree() const { return topo_.kind() == TopologyKind::kFatTree; }
  uint32_t groups() const { return groups_; }
  uint32_t per_group() const { return per_group_; }
  uint32_t directions() const { return static_cast<uint32_t>(dirs_.size()); }
  uint32_t direction(uint32_t i) const { return dirs_[i]; }
  // Whether a hop from group a to group a + d takes one switch-to-switch link or top switch
  // (on a BiGraph an even offset stays in a half, whose switches are not linked).
  bool one_hop(uint32_t d) const;

  uint32_t node(uint32_t group, uint32_t local) const {
    return switch_of(group) * per_group_ + local;
  }
  // The group of node `node` (its local is node % per_group()).
  uint32_t group_of(uint32_t node) const {
    const uint32_t s = node / per_group_;
    if (topo_.kind() == TopologyKind::kFatTree) return s;
    return s < groups_ / 2 ? 2 * s : 2 * (s - groups_ / 2) + 1;
  }

  // The links of the all-gather hop from node `src` of group a to node `dst` of group b:
  // through their switch when a == b, else across by direction index `dir` (on a fat-tree
  // the top switch a + dir; on a BiGraph b - a must be odd).
  std::vector<uint32_t> route(uint32_t src, uint32_t a, uint32_t dst, uint32_t b,
                              uint32_t dir) const;

 private:
  // A fat-tree's leaf z is switch z; a BiGraph's group z alternates between the halves.
  uint32_t switch_of(uint32_t z) const {
    if (topo_.kind() == TopologyKind::kFatTree) return z;
    return z % 2 == 0 ? z / 2 : groups_ / 2 + z / 2;
  }
  uint32_t link(uint32_t a, uint32_t b) const;

  const Topology& topo_;
  uint32_t groups_ = 0, per_group_ = 0;
  std::vector<uint32_t> dirs_;
};

// The route of `links` walked backwards: each link's opposite direction, last first.
std::vector<uint32_t> reversed(const Topology& topo, const std::vector<uint32_t>& links);

}  // namespace mt
