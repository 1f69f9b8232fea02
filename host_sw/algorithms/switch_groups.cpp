#include "algorithms/switch_groups.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {
namespace {

uint32_t gcd(uint32_t a, uint32_t b) { return b == 0 ? a : gcd(b, a % b); }

}  // namespace

SwitchGroups::SwitchGroups(const Topology& topo) : topo_(topo) {
  const bool bigraph = topo.kind() == TopologyKind::kBiGraph;
  if (bigraph) {
    groups_ = topo.switches();
  } else if (topo.kind() == TopologyKind::kFatTree && topo.fattree_levels() == 2) {
    groups_ = topo.fattree_arity();
  } else {
    throw InputError(fmt::format(
        "multitree-opt: topology {} is not a torus, ring, BiGraph or two-level fat-tree "
        "(multitree-opt moves one tree to every root, which needs a network that looks the "
        "same from every node; use multitree there)", topo.spec()));
  }
  per_group_ = topo.nodes() / groups_;
  if (per_group_ < 2) {
    throw InputError(fmt::format(
        "multitree-opt: topology {} has one node per switch (multitree-opt's trees stay on "
        "a switch between crossings, which needs two or more; use multitree there)",
        topo.spec()));
  }
  // Directions: units of Z_G (a unit walks every group); on a fat-tree also distinct down
  // offsets d - h, h the direction's index (the up offset).
  std::vector<bool> down(groups_, false);
  for (uint32_t d = 1; d < groups_; ++d) {
    if (gcd(d, groups_) != 1) continue;
    if (!bigraph) {
      const uint32_t off = (d + groups_ - static_cast<uint32_t>(dirs_.size()) % groups_) % groups_;
      if (down[off]) continue;
      down[off] = true;
    }
    dirs_.push_back(d);
  }
}

bool SwitchGroups::one_hop(uint32_t d) const {
  return d % groups_ != 0 && (topo_.kind() == TopologyKind::kFatTree || d % 2 == 1);
}

std::vector<uint32_t> SwitchGroups::route(uint32_t src, uint32_t a, uint32_t dst, uint32_t b,
                                          uint32_t dir) const {
  const uint32_t n = topo_.nodes();
  std::vector<uint32_t> path{n + switch_of(a)};
  if (a != b && topo_.kind() == TopologyKind::kFatTree) {
    path.push_back(n + groups_ + (a + dir) % groups_);  // top switch a + h
  }
  if (a != b) path.push_back(n + switch_of(b));
  std::vector<uint32_t> links;
  uint32_t from = src;
  for (uint32_t v : path) {
    links.push_back(link(from, v));
    from = v;
  }
  links.push_back(link(from, dst));
  return links;
}

uint32_t SwitchGroups::link(uint32_t a, uint32_t b) const {
  const uint32_t l = topo_.first_link(a, b);
  if (l == Topology::kNoLink) {
    throw std::logic_error("multitree-opt: hop between unlinked vertices");
  }
  return l;
}

std::vector<uint32_t> reversed(const Topology& topo, const std::vector<uint32_t>& links) {
  std::vector<uint32_t> back;
  for (auto l = links.rbegin(); l != links.rend(); ++l) {
    back.push_back(topo.first_link(topo.links()[*l].dst, topo.links()[*l].src));
  }
  return back;
}

}  // namespace mt
