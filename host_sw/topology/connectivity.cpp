// The connectivity check of every topology: each node reaches each other node along paths
// traffic can take, so every algorithm and the router can serve every pair.
#include <limits>

#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

constexpr uint32_t kInf = std::numeric_limits<uint32_t>::max();

// The links into each vertex, by vertex (the reverse of Topology::out_links): sources of
// vertex v's in-links are src[start[v] .. start[v + 1]).
struct InLinks {
  std::vector<uint32_t> start, src;
};

InLinks in_links(uint32_t vertices, const std::vector<Link>& links) {
  InLinks in;
  in.start.assign(static_cast<size_t>(vertices) + 1, 0);
  for (const Link& l : links) ++in.start[l.dst + 1];
  for (uint32_t v = 0; v < vertices; ++v) in.start[v + 1] += in.start[v];
  in.src.resize(links.size());
  std::vector<uint32_t> next(in.start.begin(), in.start.end() - 1);
  for (const Link& l : links) in.src[next[l.dst]++] = l.src;
  return in;
}

// Vertices reachable from any of `starts` (forward, along out-links) or reaching one of them
// (backward, `in` given), through vertices that `through` accepts (a start always relays).
template <typename Through>
std::vector<bool> flood(const Topology& t, const InLinks* in, const std::vector<uint32_t>& starts,
                        Through through) {
  std::vector<bool> seen(t.vertices(), false);
  std::vector<uint32_t> queue;
  for (uint32_t s : starts) {
    if (!seen[s]) queue.push_back(s);
    seen[s] = true;
  }
  const size_t relaying_starts = queue.size();
  auto visit = [&](uint32_t w) {
    if (!seen[w]) {
      seen[w] = true;
      queue.push_back(w);
    }
  };
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    if (head >= relaying_starts && !through(u)) continue;
    if (in == nullptr) {
      for (uint32_t l : t.out_links(u)) visit(t.links()[l].dst);
    } else {
      for (uint32_t i = in->start[u]; i < in->start[u + 1]; ++i) visit(in->src[i]);
    }
  }
  return seen;
}

// Every vertex forwards: strongly connected iff node 0 reaches every node and back.
void check_connected_direct(const Topology& t, const InLinks& in) {
  auto all = [](uint32_t) { return true; };
  const std::vector<bool> from0 = flood(t, nullptr, {0}, all);
  const std::vector<bool> to0 = flood(t, &in, {0}, all);
  for (uint32_t n = 0; n < t.nodes(); ++n) {
    if (!from0[n]) {
      throw InputError(fmt::format("topology {}: disconnected, node {} cannot be reached from "
                                   "node 0", t.spec(), n));
    }
    if (!to0[n]) {
      throw InputError(fmt::format("topology {}: disconnected, node 0 cannot be reached from "
                                   "node {}", t.spec(), n));
    }
  }
}

// Sufficient and linear: the switches are strongly connected among themselves and every node
// has a link to a switch and one from a switch.
bool switched_fast_path(const Topology& t, const InLinks& in) {
  const uint32_t s0 = t.nodes();
  // Nodes are reached but relay nothing, so only switch-to-switch paths count.
  auto only_switches = [&t](uint32_t v) { return t.is_switch(v); };
  const std::vector<bool> fwd = flood(t, nullptr, {s0}, only_switches);
  const std::vector<bool> bwd = flood(t, &in, {s0}, only_switches);
  for (uint32_t s = t.nodes(); s < t.vertices(); ++s) {
    if (!fwd[s] || !bwd[s]) return false;
  }
  std::vector<bool> up(t.nodes(), false), down(t.nodes(), false);
  for (const Link& l : t.links()) {
    if (l.src < t.nodes() && t.is_switch(l.dst)) up[l.src] = true;
    if (l.dst < t.nodes() && t.is_switch(l.src)) down[l.dst] = true;
  }
  for (uint32_t n = 0; n < t.nodes(); ++n) {
    if (!up[n] || !down[n]) return false;
  }
  return true;
}

// A switch that no node can be reached from is a mistake in the network description.
void check_switch_reaches_a_node(const Topology& t, const InLinks& in) {
  // Backward from every node at once. Letting nodes relay here changes nothing: a path
  // through a node reaches that node first.
  std::vector<uint32_t> nodes(t.nodes());
  for (uint32_t n = 0; n < t.nodes(); ++n) nodes[n] = n;
  const std::vector<bool> reaches = flood(t, &in, nodes, [](uint32_t) { return true; });
  for (uint32_t s = t.nodes(); s < t.vertices(); ++s) {
    if (!reaches[s]) {
      throw InputError(fmt::format("topology {}: switch {} reaches no node", t.spec(), s - t.nodes()));
    }
  }
}

}  // namespace

void Topology::check_connected() const {
  const InLinks in = in_links(vertices(), links_);
  if (direct()) {
    check_connected_direct(*this, in);
    return;
  }
  check_switch_reaches_a_node(*this, in);
  if (switched_fast_path(*this, in)) return;
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

}  // namespace mt
