#include "network/port_layout.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"
#include "flit/flit.hpp"
#include "router/router.hpp"

namespace mt::noc {
namespace {

// The port of node `a` whose link leads to its grid neighbour `b`, from their coordinates. In
// a dimension of size 2 the single link is + when b's coordinate is larger.
uint8_t port_toward(const Topology& t, uint32_t a, uint32_t b) {
  const uint32_t w = t.width(), h = t.height();
  const uint32_t ax = t.x_of(a), ay = t.y_of(a), bx = t.x_of(b), by = t.y_of(b);
  auto pick = [](uint32_t from, uint32_t to, uint32_t size, uint8_t minus, uint8_t plus) {
    const bool is_plus = (from + 1) % size == to, is_minus = (from + size - 1) % size == to;
    if (is_plus && is_minus) return to > from ? plus : minus;
    if (is_plus) return plus;
    if (is_minus) return minus;
    return static_cast<uint8_t>(kPorts);
  };
  uint8_t p = kPorts;
  if (ay == by && ax != bx) p = pick(ax, bx, w, kPortXMinus, kPortXPlus);
  if (ax == bx && ay != by) p = pick(ay, by, h, kPortYMinus, kPortYPlus);
  if (p == kPorts) {
    throw std::logic_error(fmt::format("network {}: link {} -> {} joins no grid neighbours",
                                       t.spec(), a, b));
  }
  return p;
}

}  // namespace

bool is_grid(const Topology& topo) { return topo.whole_grid(); }

GridPlace grid_place(const Topology& topo, uint32_t node) {
  GridPlace place;
  place.x = topo.x_of(node);
  place.y = topo.y_of(node);
  place.width = topo.width();
  place.height = topo.height();
  place.wraps = topo.wraps();
  return place;
}

std::array<uint8_t, 5> grid_step_ports(const GridPlace& place, uint32_t node,
                                       const std::vector<uint32_t>& neighbours) {
  std::array<uint8_t, 5> step;
  step.fill(kMaxRouterPorts);
  const uint32_t w = place.width, h = place.height, x = place.x, y = place.y;
  const uint32_t targets[5] = {node, y * w + (x + 1) % w, y * w + (x + w - 1) % w,
                               ((y + 1) % h) * w + x, ((y + h - 1) % h) * w + x};
  const bool along_x[5] = {false, true, true, false, false};
  for (size_t s = 1; s < 5; ++s) {
    for (uint8_t p = 1; p < kPorts && p < neighbours.size(); ++p) {
      const bool x_port = p == kPortXMinus || p == kPortXPlus;
      if (x_port == along_x[s] && neighbours[p] == targets[s] && targets[s] != node) step[s] = p;
    }
  }
  return step;
}

PortLayout::PortLayout(const Topology& topo, uint32_t ni_ports) {
  const uint32_t routers = is_grid(topo) ? topo.nodes() : topo.vertices();
  neighbours_.resize(routers);
  out_port_.assign(topo.links().size(), 0);
  in_port_.assign(topo.links().size(), 0);
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    // Codes up to the highest local port: kPorts - 1 + ni_ports.
    neighbours_[n].assign(kPorts - 1u + ni_ports, kNoNeighbour);
    for (uint32_t k = 0; k < ni_ports; ++k) neighbours_[n][local_port(k)] = n;
  }
  if (is_grid(topo)) {
    place_grid_links(topo);
  } else {
    place_switch_links(topo);
  }
  pair_reverse_links(topo);
}

void PortLayout::place_grid_links(const Topology& topo) {
  for (uint32_t a = 0; a < topo.nodes(); ++a) {
    for (uint32_t l : topo.out_links(a)) {
      const uint32_t b = topo.links()[l].dst;
      const uint8_t p = port_toward(topo, a, b);
      if (neighbours_[a][p] != kNoNeighbour) {
        throw std::logic_error(fmt::format("network {}: node {} has two links on port {}",
                                           topo.spec(), a, port_name(p)));
      }
      neighbours_[a][p] = b;
      out_port_[l] = p;
    }
  }
}

void PortLayout::place_switch_links(const Topology& topo) {
  for (uint32_t v = 0; v < topo.vertices(); ++v) {
    const LinkIds links = topo.out_links(v);
    const bool node = !topo.is_switch(v);
    const size_t limit = node ? kPorts - 1u : kMaxRouterPorts;
    if (links.size() > limit) {
      throw InputError(fmt::format(
          "network {}: {} {} has {} links; the router network gives {} at most {}", topo.spec(),
          node ? "node" : "switch", v, links.size(), node ? "a node" : "a switch", limit));
    }
    if (!node) neighbours_[v].assign(links.size(), kNoNeighbour);
    uint8_t p = node ? 1 : 0;
    for (uint32_t l : links) {
      neighbours_[v][p] = topo.links()[l].dst;
      out_port_[l] = p++;
    }
  }
}

// Link a -> b enters b by the port of the reverse link b -> a of the same rank among the
// parallel links (on a grid there is one of each).
void PortLayout::pair_reverse_links(const Topology& topo) {
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> parallel;
  for (uint32_t l = 0; l < topo.links().size(); ++l) {
    parallel[{topo.links()[l].src, topo.links()[l].dst}].push_back(l);
  }
  for (const auto& [ends, ids] : parallel) {
    const auto back = parallel.find({ends.second, ends.first});
    if (back == parallel.end() || back->second.size() != ids.size()) {
      throw InputError(fmt::format(
          "network {}: {} link(s) {} -> {} but {} back; the router network needs every link "
          "in both directions", topo.spec(), ids.size(), ends.first, ends.second,
          back == parallel.end() ? 0 : back->second.size()));
    }
    for (size_t i = 0; i < ids.size(); ++i) in_port_[ids[i]] = out_port_[back->second[i]];
  }
}

}  // namespace mt::noc
