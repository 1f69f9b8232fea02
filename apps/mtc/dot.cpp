#include "mtc/dot.hpp"

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plan/plan.hpp"

namespace mt {
namespace {

// A colour per step, so each level of a tree reads at a glance.
const char* step_colour(uint32_t step) {
  static const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                  "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  return palette[(step - 1) % 10];
}

bool grid(const Topology& t) {
  return t.kind() == TopologyKind::kTorus || t.kind() == TopologyKind::kMesh ||
         t.kind() == TopologyKind::kRing;
}

// Physical links, once per pair, and failed links dashed red; a torus's wrap-around links
// would cross the grid, so only the tree edges that use them are drawn (curved around the
// nodes).
std::string physical_links(const Topology& topo, const std::string& p, bool wrap_links_hidden) {
  auto hidden = [&](uint32_t a, uint32_t b) {
    auto gap = [](uint32_t u, uint32_t v) { return u > v ? u - v : v - u; };
    return wrap_links_hidden &&
           gap(topo.x_of(a), topo.x_of(b)) + gap(topo.y_of(a), topo.y_of(b)) > 1;
  };
  std::string s;
  std::set<std::pair<uint32_t, uint32_t>> drawn;
  for (const Link& l : topo.links()) {
    if (!drawn.insert({std::min(l.src, l.dst), std::max(l.src, l.dst)}).second) continue;
    if (hidden(l.src, l.dst)) continue;
    s += fmt::format("  {}{} -> {}{} [dir=none, color=gray80];\n", p, l.src, p, l.dst);
  }
  for (const auto& [a, b] : topo.failed_links()) {
    if (hidden(a, b)) continue;
    s += fmt::format("  {}{} -> {}{} [dir=none, color=red, style=dashed];\n", p, a, p, b);
  }
  return s;
}

std::string tree(const Plan& plan, const Topology& topo, uint32_t f, double dx, double dy) {
  const std::string p = fmt::format("f{}_", f);
  std::string s;
  const bool pinned = grid(topo);
  const bool wrap_links_hidden = pinned && topo.wraps();
  s += fmt::format("  label_{} [shape=plaintext, label=\"flow {} (root {}){}\"{}];\n", f, f,
                   plan.flows[f].root, wrap_links_hidden ? "\\nwrap-around links not drawn" : "",
                   pinned ? fmt::format(", pos=\"{},{}!\"", dx + (topo.width() - 1) * 0.6,
                                        dy + 0.8)
                          : "");
  for (uint32_t v = 0; v < topo.vertices(); ++v) {
    const bool sw = topo.is_switch(v);
    std::string attrs = sw ? fmt::format("shape=box, label=\"s{}\", color=gray", v - topo.nodes())
                           : fmt::format("label=\"{}\"", v);
    if (!sw && v == plan.flows[f].root) attrs += ", style=filled, fillcolor=gold";
    if (pinned) attrs += fmt::format(", pos=\"{},{}!\"", dx + topo.x_of(v) * 1.2, dy - topo.y_of(v) * 1.2);
    s += fmt::format("  {}{} [{}];\n", p, v, attrs);
  }
  s += physical_links(topo, p, wrap_links_hidden);
  for (const Transfer& t : plan.transfers) {
    if (t.flow != f || t.op != Op::kGather) continue;
    const uint32_t step = t.step - plan.steps_per_phase;
    s += fmt::format("  {}{} -> {}{} [penwidth=2.5, color=\"{}\", label=\"{}\", fontcolor=\"{}\"];\n",
                     p, t.src, p, t.dst, step_colour(step), step, step_colour(step));
  }
  return s;
}

}  // namespace

std::string plan_dot(const Plan& plan, const Topology& topo, const std::string& flow) {
  std::vector<uint32_t> flows;
  if (flow == "all") {
    for (uint32_t f = 0; f < plan.flows.size(); ++f) flows.push_back(f);
  } else {
    if (flow.empty() || ((flow[0] < '0' || flow[0] > '9') && flow[0] != '-')) {
      throw InputError(fmt::format("--flow \"{}\": expected a flow id (0, 1, ...) or \"all\"", flow));
    }
    const uint64_t f = parse_unsigned(flow, "--flow");
    if (f >= plan.flows.size()) {
      throw InputError(fmt::format("--flow {}: the plan has flows 0..{}", f, plan.flows.size() - 1));
    }
    flows.push_back(static_cast<uint32_t>(f));
  }
  std::string s = fmt::format(
      "// {} on {}: all-gather trees (edge labels: all-gather step; reduce-scatter runs them "
      "backwards).\n// Render: {} -Tpng this.dot -o trees.png\n",
      plan.algorithm, plan.topology, grid(topo) ? "neato" : "dot");
  s += "digraph multitree {\n  graph [splines=curved];\n  node [shape=circle, fontname=Helvetica];\n"
       "  edge [fontname=Helvetica];\n";
  const uint32_t cols = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(flows.size()))));
  for (size_t i = 0; i < flows.size(); ++i) {
    const double dx = static_cast<double>(i % cols) * (topo.width() + 1) * 1.2;
    const double dy = -static_cast<double>(i / cols) * (topo.height() + 1.0) * 1.2;
    if (grid(topo)) {
      s += tree(plan, topo, flows[i], dx, dy);
    } else {
      s += fmt::format(" subgraph cluster_{} {{\n", flows[i]) + tree(plan, topo, flows[i], 0, 0) + " }\n";
    }
  }
  return s + "}\n";
}

}  // namespace mt
