// The weakest cut by max-flow min-cut (cut_bound.hpp has the reasoning).
#include "topology/cut_bound.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <fmt/format.h>

namespace mt {
namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, int64_t,
                    boost::property<boost::edge_residual_capacity_t, int64_t,
                                    boost::property<boost::edge_reverse_t,
                                                    Traits::edge_descriptor>>>>;
using Edge = Traits::edge_descriptor;

// The network as a flow graph: one edge per adjacent ordered pair, its capacity the number of
// parallel directed links (a link k times wider is k links), each with a reverse edge of
// capacity 0 for the residual graph.
FlowGraph flow_graph(const Topology& topo) {
  std::map<std::pair<uint32_t, uint32_t>, int64_t> width;
  for (const Link& l : topo.links()) ++width[{l.src, l.dst}];
  FlowGraph g(topo.vertices());
  auto capacity = boost::get(boost::edge_capacity, g);
  auto reverse = boost::get(boost::edge_reverse, g);
  for (const auto& [pair, w] : width) {
    const Edge e = boost::add_edge(pair.first, pair.second, g).first;
    const Edge r = boost::add_edge(pair.second, pair.first, g).first;
    capacity[e] = w;
    capacity[r] = 0;
    reverse[e] = r;
    reverse[r] = e;
  }
  return g;
}

// The vertices reachable from s in the residual graph after a max-flow from s: the sending
// side of a minimum s -> t cut, whose links out are exactly the flow's value.
std::vector<uint32_t> source_side(const FlowGraph& g, uint32_t s) {
  auto residual = boost::get(boost::edge_residual_capacity, g);
  std::vector<char> seen(boost::num_vertices(g), 0);
  std::vector<uint32_t> side{s}, queue{s};
  seen[s] = 1;
  while (!queue.empty()) {
    const uint32_t v = queue.back();
    queue.pop_back();
    for (const Edge e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const auto w = static_cast<uint32_t>(boost::target(e, g));
      if (residual[e] > 0 && !seen[w]) {
        seen[w] = 1;
        side.push_back(w);
        queue.push_back(w);
      }
    }
  }
  std::sort(side.begin(), side.end());
  return side;
}

uint32_t count_nodes(const Topology& topo, const std::vector<uint32_t>& side) {
  return static_cast<uint32_t>(std::count_if(side.begin(), side.end(),
                                             [&](uint32_t v) { return !topo.is_switch(v); }));
}

// The single-node cut of the node with the fewest links out: a cut of every network, and the
// weakest where a closed form says so.
WeakestCut least_linked_node(const Topology& topo, std::string method) {
  uint32_t best = 0;
  for (uint32_t n = 1; n < topo.nodes(); ++n) {
    if (topo.degree(n) < topo.degree(best)) best = n;
  }
  return {topo.degree(best), {best}, 1, true, std::move(method)};
}

// The closed forms of cut_bound.hpp, or nothing where the max-flow has to run.
std::optional<WeakestCut> closed_form(const Topology& topo) {
  if (topo.min_node_degree() == 1) {
    return least_linked_node(topo, "a one-link node; every cut has a link");
  }
  if (topo.whole_grid()) {
    return least_linked_node(topo, "grid: edge connectivity = least degree");
  }
  return std::nullopt;
}

// lambda by 2 (N - 1) max-flows between node 0 and every other node, each way, within the
// work limit; the single-node cut of the least-linked node bounds it from the start.
WeakestCut max_flow_cut(const Topology& topo, const CutOptions& opt) {
  WeakestCut best = least_linked_node(topo, "");
  FlowGraph g = flow_graph(topo);
  const double per_flow = static_cast<double>(topo.vertices() + 2 * topo.links().size());
  const double budget_flows = std::max(2.0, opt.max_work / per_flow);
  const uint32_t n = topo.nodes();
  uint64_t runs = 0;
  for (uint32_t t = 1; t < n && best.exact; ++t) {
    for (const auto& [s, d] : {std::pair{0u, t}, std::pair{t, 0u}}) {
      if (static_cast<double>(runs) >= budget_flows) {
        best.exact = false;  // the rest left out: the least cut so far is still a cut
        break;
      }
      ++runs;
      const int64_t flow = boost::push_relabel_max_flow(g, s, d);
      if (flow < static_cast<int64_t>(best.links)) {
        best.links = static_cast<uint32_t>(flow);
        best.side = source_side(g, s);
        best.side_nodes = count_nodes(topo, best.side);
      }
    }
  }
  best.method = best.exact
                    ? fmt::format("max-flow between node 0 and each of {} nodes", n - 1)
                    : fmt::format("max-flow within the work limit: {} of the {} runs (a "
                                  "valid bound, maybe below the exact one)",
                                  runs, 2 * (uint64_t{n} - 1));
  return best;
}

}  // namespace

WeakestCut weakest_cut(const Topology& topo, const CutOptions& opt) {
  if (topo.nodes() < 2) return {0, {}, 0, true, "one node: no cut"};
  if (!opt.force_max_flow) {
    if (std::optional<WeakestCut> c = closed_form(topo)) return *c;
  }
  return max_flow_cut(topo, opt);
}

uint64_t cut_bound_cycles(uint64_t bytes, uint32_t links, uint64_t b) {
  if (links == 0 || b == 0) return 0;
  const uint64_t den = uint64_t{links} * b;
  return (bytes + den - 1) / den;
}

std::string cut_bound_basis(const WeakestCut& cut) {
  if (cut.links == 0) return cut.method;
  return fmt::format("{} link(s) out of {} node(s){}, M/({} b) each way ({})", cut.links,
                     cut.side_nodes,
                     cut.side.size() > cut.side_nodes
                         ? fmt::format(" and {} switch(es)", cut.side.size() - cut.side_nodes)
                         : "",
                     cut.links, cut.method);
}

uint64_t partition_bound_cycles(uint64_t bytes, uint64_t groups, uint64_t links, uint64_t b) {
  if (groups < 2 || links == 0 || b == 0) return 0;
  const uint64_t den = links * b;
  return (2 * (groups - 1) * bytes + den - 1) / den;
}

// The larger of the weakest cut's bound and, on a direct network, every node apart's
// (cut_bound.hpp): on a direct network every link joins two nodes, so with each node a group of
// its own every link is between groups.
CutBound cut_bound(const Topology& topo, uint64_t bytes, uint64_t b, const CutOptions& opt) {
  CutBound r;
  r.cut = weakest_cut(topo, opt);
  r.cut_cycles = cut_bound_cycles(bytes, r.cut.links, b);
  if (topo.direct()) {
    r.apart_cycles = partition_bound_cycles(bytes, topo.nodes(), topo.links().size(), b);
  }
  r.cycles = std::max(r.cut_cycles, r.apart_cycles);
  const std::string cut = cut_bound_basis(r.cut);
  const std::string apart = fmt::format("2(N-1) transfers of each element over {} links, "
                                        "2(N-1)M/({} b)",
                                        topo.links().size(), topo.links().size());
  if (r.cycles == 0) {
    r.basis = r.cut.method;
  } else if (r.apart_cycles > r.cut_cycles) {
    r.basis = fmt::format("every node apart: {}; the weakest cut gives {}: {}", apart,
                          r.cut_cycles, cut);
  } else {
    r.basis = "the weakest cut: " + cut;
    if (r.apart_cycles) {
      r.basis += fmt::format("; every node apart gives {}: {}", r.apart_cycles, apart);
    }
  }
  return r;
}

uint64_t cut_bound_cycles(const Topology& topo, uint64_t bytes, uint64_t b) {
  return cut_bound(topo, bytes, b).cycles;
}

std::string tighter_bound_name(uint64_t per_node, uint64_t cut) {
  if (per_node == cut) return "the per-node and cut bounds, equal";
  return per_node > cut ? "the per-node bound, the tighter" : "the cut bound, the tighter";
}

}  // namespace mt
