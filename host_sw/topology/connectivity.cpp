// The connectivity check of every topology: each node reaches each other node along paths
// traffic can take, so every algorithm and the router can serve every pair.
#include <deque>
#include <limits>

#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

constexpr uint32_t kInf = std::numeric_limits<uint32_t>::max();

// Vertices reachable from `start` (forward) or reaching it (backward) through vertices that
// `through` accepts (start itself always relays).
template <typename Through>
std::vector<bool> flood(uint32_t vertices, const std::vector<Link>& links, uint32_t start,
                        bool backward, Through through) {
  std::vector<std::vector<uint32_t>> adj(vertices);
  for (const Link& l : links) {
    if (backward) adj[l.dst].push_back(l.src);
    else adj[l.src].push_back(l.dst);
  }
  std::vector<bool> seen(vertices, false);
  std::deque<uint32_t> queue{start};
  seen[start] = true;
  while (!queue.empty()) {
    const uint32_t u = queue.front();
    queue.pop_front();
    if (u != start && !through(u)) continue;
    for (uint32_t w : adj[u]) {
      if (!seen[w]) {
        seen[w] = true;
        queue.push_back(w);
      }
    }
  }
  return seen;
}

}  // namespace

void Topology::check_connected() const {
  if (direct()) {
    check_connected_direct();
    return;
  }
  check_switch_reaches_a_node();
  if (switched_fast_path()) return;
  // The exact check: a search from every node.
  const uint64_t work = uint64_t{nodes_} * (vertices() + links_.size());
  if (work > 4'000'000'000ull) {
    throw InputError(fmt::format(
        "topology {}: the switches are not one strongly connected network that every node is "
        "linked to and from, and {} nodes are too many to check every pair", spec_, nodes_));
  }
  for (uint32_t a = 0; a < nodes_; ++a) {
    const std::vector<uint32_t> d = distances_from(a);
    for (uint32_t b = 0; b < nodes_; ++b) {
      if (d[b] == kInf) {
        throw InputError(fmt::format("topology {}: disconnected, node {} cannot be reached from "
                                     "node {} (nodes do not forward traffic in a network with "
                                     "switches)", spec_, b, a));
      }
    }
  }
}

// Every vertex forwards: strongly connected iff node 0 reaches every node and back.
void Topology::check_connected_direct() const {
  const std::vector<bool> from0 = flood(vertices(), links_, 0, false, [](uint32_t) { return true; });
  const std::vector<bool> to0 = flood(vertices(), links_, 0, true, [](uint32_t) { return true; });
  for (uint32_t n = 0; n < nodes_; ++n) {
    if (!from0[n]) {
      throw InputError(fmt::format("topology {}: disconnected, node {} cannot be reached from "
                                   "node 0", spec_, n));
    }
    if (!to0[n]) {
      throw InputError(fmt::format("topology {}: disconnected, node 0 cannot be reached from "
                                   "node {}", spec_, n));
    }
  }
}

// Sufficient and linear: the switches are strongly connected among themselves and every node
// has a link to a switch and one from a switch.
bool Topology::switched_fast_path() const {
  const uint32_t s0 = nodes_;
  auto only_switches = [this](uint32_t v) { return is_switch(v); };
  std::vector<Link> between;
  for (const Link& l : links_) {
    if (is_switch(l.src) && is_switch(l.dst)) between.push_back(l);
  }
  const std::vector<bool> fwd = flood(vertices(), between, s0, false, only_switches);
  const std::vector<bool> bwd = flood(vertices(), between, s0, true, only_switches);
  for (uint32_t s = nodes_; s < vertices(); ++s) {
    if (!fwd[s] || !bwd[s]) return false;
  }
  std::vector<bool> up(nodes_, false), down(nodes_, false);
  for (const Link& l : links_) {
    if (l.src < nodes_ && is_switch(l.dst)) up[l.src] = true;
    if (l.dst < nodes_ && is_switch(l.src)) down[l.dst] = true;
  }
  for (uint32_t n = 0; n < nodes_; ++n) {
    if (!up[n] || !down[n]) return false;
  }
  return true;
}

// A switch that no node can be reached from is a mistake in the network description.
void Topology::check_switch_reaches_a_node() const {
  // Backward from every node at once: a virtual vertex linked from every node. Letting nodes
  // relay here changes nothing: a path through a node reaches that node first.
  std::vector<Link> links = links_;
  const uint32_t sink = vertices();
  for (uint32_t n = 0; n < nodes_; ++n) links.push_back({n, sink});
  const std::vector<bool> reaches = flood(sink + 1, links, sink, true, [](uint32_t) { return true; });
  for (uint32_t s = nodes_; s < vertices(); ++s) {
    if (!reaches[s]) {
      throw InputError(fmt::format("topology {}: switch {} reaches no node", spec_, s - nodes_));
    }
  }
}

}  // namespace mt
