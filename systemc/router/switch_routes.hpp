// Routing of a switch network (fat-tree, BiGraph, topology files with switches), or of a direct
// network given as a file, as every router of it reads it: the output port toward each node
// for normal packets, and the VC classes that keep both normal packets and source-routed
// messages free of deadlock. (A direct file network's tables are up*/down* routes, free of
// deadlock with one class: network/switch_routing.hpp.)
//
// Normal packets go a shortest path, fixed per (router, destination): among the output links
// one hop closer to the destination, the (dest mod count)-th in port order (on a fat-tree the
// up link is chosen by the destination, "d-mod-k"; down links are unique). Built by
// network/switch_routing.hpp.
//
// Deadlock freedom, by VC classes counted in turns: switches are ordered by (hops from the
// nearest node, id), a switch-to-switch link is "up" toward the larger and "down" toward the
// smaller, and a route's k-th turn from a down link to an up link moves it to VC class k
// (class 0 from its first switch-to-switch link); links from a node to a switch and from a
// switch to a node take any VC. Within a class a route goes up, then down (up*/down*), so its
// channels cannot wait on each other in a cycle; across classes they wait only upward; so no
// cycle exists, whatever the routes (the planner's source routes included), as long as no
// route turns more often than there are classes less one. A fat-tree's shortest routes (up,
// then down) need one class at any height; a BiGraph's lower-upper-lower routes turn once.
// The classes split the VCs evenly, the last class keeping the remainder: classes() <= vcs.
// (The torus's dateline classes play the same role on a grid.)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "router/vc_mask.hpp"

namespace mt::noc {

// Port codes a router may have: the allocators' port masks hold 64 (vc_mask.hpp). Their VC
// masks hold 128 VCs, so with `vcs` VCs a router has at most max_router_ports(vcs): 32 with 4
// VCs, 64 with 2. (A port code >= kMaxRouterPorts means "none".)
constexpr uint32_t kMaxRouterPorts = kPortMaskBits;
constexpr uint32_t max_router_ports(uint32_t vcs) { return kVcMaskBits >> vc_shift(vcs); }

class SwitchRoutes {
 public:
  SwitchRoutes(uint32_t nodes, uint32_t vertices, uint32_t vcs)
      : nodes_(nodes), vcs_(vcs), next_(static_cast<size_t>(nodes) * vertices, kNoPort) {}

  static constexpr uint8_t kNoPort = 0xff;

  uint32_t nodes() const { return nodes_; }
  // A direct network given as a file: its nodes' routers forward (up*/down* tables, no VC
  // classes needed: network/switch_routing.hpp).
  bool nodes_forward() const { return nodes_forward_; }
  void set_nodes_forward(bool f) { nodes_forward_ = f; }
  // The output port of vertex v's router toward node dest (kNoPort at dest itself).
  uint8_t port(uint32_t v, uint32_t dest) const {
    return next_[static_cast<size_t>(v) * nodes_ + dest];
  }
  void set_port(uint32_t v, uint32_t dest, uint8_t p) {
    next_[static_cast<size_t>(v) * nodes_ + dest] = p;
  }

  // Switch order (see above): a link from switch a to switch b is up when order(b) > order(a).
  void set_order(std::vector<uint32_t> order) { order_ = std::move(order); }
  bool up(uint32_t a, uint32_t b) const { return order_[b] > order_[a]; }
  // Whether vertices a -> b -> c turn from a down switch-to-switch link to an up one.
  bool turn(uint32_t a, uint32_t b, uint32_t c) const {
    const bool switches = a >= nodes_ && b >= nodes_ && c >= nodes_;
    return switches && !up(a, b) && up(b, c);
  }

  uint32_t classes() const { return classes_; }
  // Raises the number of classes to `c`; false when more than vcs.
  bool allow_classes(uint32_t c) {
    if (c > vcs_) return false;
    if (c > classes_) classes_ = c;
    return true;
  }
  // VCs [first, second) of class c < classes().
  std::pair<uint8_t, uint8_t> class_vcs(uint32_t c) const {
    const uint32_t per = vcs_ / classes_;
    const uint32_t lo = c * per, hi = c + 1 == classes_ ? vcs_ : lo + per;
    return {static_cast<uint8_t>(lo), static_cast<uint8_t>(hi)};
  }
  uint32_t class_of_vc(uint32_t vc) const {
    const uint32_t c = vc / (vcs_ / classes_);
    return c < classes_ ? c : classes_ - 1;
  }

 private:
  uint32_t nodes_;
  uint32_t vcs_;
  uint32_t classes_ = 1;
  bool nodes_forward_ = false;
  std::vector<uint8_t> next_;    // [vertex * nodes + dest]
  std::vector<uint32_t> order_;  // per vertex
};

}  // namespace mt::noc
