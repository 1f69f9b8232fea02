#include "algorithms/hierarchy.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {
namespace {

[[noreturn]] void not_hierarchy(const Topology& topo, const std::string& algorithm,
                                const std::string& why) {
  throw InputError(fmt::format("{}: topology {} is not a hierarchy of machines (hier:A+B+..., "
                               "or a file of that shape): {}", algorithm, topo.spec(), why));
}

// The vertices v links to, each with the number of parallel links.
std::map<uint32_t, uint32_t> neighbours(const Topology& topo, uint32_t v) {
  std::map<uint32_t, uint32_t> out;
  for (uint32_t l : topo.out_links(v)) ++out[topo.links()[l].dst];
  return out;
}

}  // namespace

uint32_t Hierarchy::learners() const {
  uint32_t n = 0;
  for (const Machine& m : machines) n += static_cast<uint32_t>(m.learners.size());
  return n;
}

bool Hierarchy::symmetric() const {
  for (const Machine& m : machines) {
    const Machine& a = machines.front();
    if (m.learners.size() != a.learners.size() || m.learner_width != a.learner_width ||
        m.uplink_width != a.uplink_width) {
      return false;
    }
  }
  return true;
}

Hierarchy read_hierarchy(const Topology& topo, const std::string& algorithm) {
  if (topo.direct()) not_hierarchy(topo, algorithm, "it has no switches");
  Hierarchy h;
  std::map<uint32_t, size_t> machine_of_switch;
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    const auto nb = neighbours(topo, n);
    if (nb.size() != 1 || !topo.is_switch(nb.begin()->first)) {
      not_hierarchy(topo, algorithm, fmt::format("node {} does not link to exactly one switch", n));
    }
    const auto [sw, width] = *nb.begin();
    auto [it, fresh] = machine_of_switch.emplace(sw, h.machines.size());
    if (fresh) h.machines.push_back({{}, sw, width, 0});
    Machine& m = h.machines[it->second];
    if (m.learner_width != width) {
      not_hierarchy(topo, algorithm, fmt::format("the learners of switch {} link to it by "
                                                 "different widths", sw - topo.nodes()));
    }
    m.learners.push_back(n);
    h.machine_of.push_back(static_cast<uint32_t>(it->second));
  }
  bool have_root = false;
  for (Machine& m : h.machines) {
    uint32_t up = 0, up_width = 0;
    for (const auto& [v, width] : neighbours(topo, m.switch_vertex)) {
      if (!topo.is_switch(v)) continue;
      ++up;
      h.root_vertex = have_root ? h.root_vertex : v;
      if (v != h.root_vertex || machine_of_switch.count(v)) {
        not_hierarchy(topo, algorithm, fmt::format("switch {} is not linked to one root switch "
                                                   "without learners", m.switch_vertex - topo.nodes()));
      }
      have_root = true;
      up_width = width;
    }
    if (up != 1) {
      not_hierarchy(topo, algorithm, fmt::format("switch {} has {} links to other switches; a "
                                                 "machine has one uplink", m.switch_vertex - topo.nodes(), up));
    }
    m.uplink_width = up_width;
  }
  if (topo.switches() != h.machines.size() + 1) {
    not_hierarchy(topo, algorithm, fmt::format("{} switches for {} machines and a root",
                                               topo.switches(), h.machines.size()));
  }
  return h;
}

std::vector<uint32_t> hierarchy_path(const void* context, uint32_t a, uint32_t b) {
  const Hierarchy& h = *static_cast<const Hierarchy*>(context);
  const uint32_t sa = h.machines[h.machine_of[a]].switch_vertex;
  const uint32_t sb = h.machines[h.machine_of[b]].switch_vertex;
  if (sa == sb) return {a, sa, b};
  return {a, sa, h.root_vertex, sb, b};
}

}  // namespace mt
