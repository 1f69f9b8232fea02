// Failed links: read from a spec's failed= option, checked against the network, and taken
// out of it (README.md here).
#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

using VertexPair = Topology::VertexPair;

// A vertex id of a pair: digits only, below 2^30 (more than any network has).
uint32_t pair_vertex(const std::string& s, const std::string& pair, const std::string& spec) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError(fmt::format("topology \"{}\": failed link \"{}\" is not two node ids "
                                 "joined by '-' (as in failed=0-1+9-10)", spec, pair));
  }
  return static_cast<uint32_t>(std::stoul(s));
}

void check_in_range(const VertexPair& p, uint64_t vertices, const std::string& spec) {
  for (uint32_t v : {p.first, p.second}) {
    if (v >= vertices) {
      throw InputError(fmt::format("topology {}: failed link {}-{} names node {}, which does "
                                   "not exist (nodes 0..{})", spec, p.first, p.second, v,
                                   vertices - 1));
    }
  }
}

[[noreturn]] void throw_not_linked(const VertexPair& p, const std::string& spec) {
  throw InputError(fmt::format("topology {}: failed link {}-{} does not exist: {} and {} are "
                               "not neighbours", spec, p.first, p.second, p.first, p.second));
}

// The network of `t`'s kind on `links`, or InputError saying that the failed links cut it.
Topology connected_rest(const Topology& t, const std::string& spec, std::vector<Link> links) {
  try {
    return Topology(t.kind(), spec, t.nodes(), t.switches(), std::move(links));
  } catch (const InputError& e) {
    throw InputError(fmt::format("{} (the failed links cut it apart)", e.what()));
  }
}

}  // namespace

std::vector<VertexPair> parse_failed_links(const std::string& list, const std::string& spec) {
  if (list.empty()) {
    throw InputError(fmt::format("topology \"{}\": failed= names no link; expected node pairs "
                                 "joined by '+', as in failed=0-1+9-10", spec));
  }
  std::vector<VertexPair> pairs;
  size_t start = 0;
  while (true) {
    const size_t plus = list.find('+', start);
    const std::string pair =
        list.substr(start, plus == std::string::npos ? plus : plus - start);
    const size_t dash = pair.find('-');
    if (dash == std::string::npos) pair_vertex("", pair, spec);  // throws: not a pair
    const uint32_t a = pair_vertex(pair.substr(0, dash), pair, spec);
    const uint32_t b = pair_vertex(pair.substr(dash + 1), pair, spec);
    if (a == b) {
      throw InputError(fmt::format("topology \"{}\": failed link \"{}\" joins node {} to itself",
                                   spec, pair, a));
    }
    pairs.emplace_back(std::min(a, b), std::max(a, b));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  std::sort(pairs.begin(), pairs.end());
  const auto twice = std::adjacent_find(pairs.begin(), pairs.end());
  if (twice != pairs.end()) {
    throw InputError(fmt::format("topology \"{}\": failed link {}-{} is named twice", spec,
                                 twice->first, twice->second));
  }
  return pairs;
}

std::string failed_links_text(const std::vector<VertexPair>& failed) {
  std::string s;
  for (const VertexPair& p : failed) {
    s += fmt::format("{}{}-{}", s.empty() ? "" : "+", p.first, p.second);
  }
  return s;
}

TopologySize failed_grid_size(TopologySize grid, const std::vector<VertexPair>& failed,
                              const std::string& spec) {
  // Links lost by each node that loses any, to find the least-linked node.
  std::vector<std::pair<uint32_t, uint32_t>> lost;  // (node, links lost)
  for (const VertexPair& p : failed) {
    check_in_range(p, grid.nodes, spec);
    if (!grid_neighbours(grid.kind, grid.width, grid.height, p.first).has(p.second)) {
      throw_not_linked(p, spec);
    }
    lost.emplace_back(p.first, 1);
    lost.emplace_back(p.second, 1);
  }
  std::sort(lost.begin(), lost.end());
  for (size_t i = 0; i < lost.size(); ++i) {
    uint32_t k = 1;
    for (; i + 1 < lost.size() && lost[i + 1].first == lost[i].first; ++i) ++k;
    const uint32_t n = lost[i].first;
    const uint32_t degree = grid_neighbours(grid.kind, grid.width, grid.height, n).count;
    grid.min_node_degree = std::min(grid.min_node_degree, degree - k);
  }
  grid.links -= 2 * failed.size();  // a grid link is one link each way
  return grid;
}

Topology without_links(const Topology& t, const std::vector<VertexPair>& failed,
                       const std::string& spec) {
  if (t.kind() == TopologyKind::kFatTree || t.kind() == TopologyKind::kBiGraph) {
    // Their routes and planners rely on every link of the builder (routing.cpp).
    throw std::logic_error("without_links: a grid or a file's network only");
  }
  const std::set<VertexPair> out(failed.begin(), failed.end());
  for (const VertexPair& p : failed) {
    check_in_range(p, t.vertices(), spec);
    if (!t.adjacent(p.first, p.second)) throw_not_linked(p, spec);
  }
  std::vector<Link> links;
  std::vector<uint32_t> latency;
  for (uint32_t l = 0; l < t.links().size(); ++l) {
    const Link& k = t.links()[l];
    if (out.count({std::min(k.src, k.dst), std::max(k.src, k.dst)}) != 0) continue;
    links.push_back(k);
    latency.push_back(t.link_latency(l));
  }
  Topology r = connected_rest(t, spec, std::move(links));
  r.set_grid(t.width(), t.height());
  r.set_link_latencies(std::move(latency));
  r.set_failed_links(failed);
  // Searched for once, here: a grid's closed form no longer holds.
  r.set_known_diameter(r.diameter());
  return r;
}

}  // namespace mt
