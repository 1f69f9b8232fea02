// The regular topologies: torus, mesh, ring, fat-tree, BiGraph, hierarchies of machines.
#include <fmt/format.h>

#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt {

std::string grid_spec(TopologyKind kind, uint32_t w, uint32_t h) {
  if (kind == TopologyKind::kRing) return fmt::format("ring:{}", w);
  return fmt::format("{}:{}x{}", kind == TopologyKind::kMesh ? "mesh" : "torus", w, h);
}

namespace {

Topology make_grid(TopologyKind kind, uint32_t w, uint32_t h) {
  grid_size(kind, w, h);
  std::vector<Link> links;
  links.reserve(static_cast<size_t>(w) * h * 4);
  for (uint32_t n = 0; n < w * h; ++n) {
    const GridNeighbours nb = grid_neighbours(kind, w, h, n);
    for (uint32_t i = 0; i < nb.count; ++i) links.push_back({n, nb.id[i]});
  }
  Topology t(kind, grid_spec(kind, w, h), w * h, 0, std::move(links));
  t.set_grid(w, h);
  return t;
}

}  // namespace

GridNeighbours grid_neighbours(TopologyKind kind, uint32_t w, uint32_t h, uint32_t n) {
  const bool wrap = kind != TopologyKind::kMesh;
  const uint32_t x = n % w, y = n / w;
  GridNeighbours nb;
  // A neighbour once: a dimension of size 2 has a single link per direction (DESIGN.md).
  auto add = [&nb](uint32_t m) {
    if (!nb.has(m)) nb.id[nb.count++] = m;
  };
  // Neighbour order y-1, y+1, x-1, x+1 (paper §III-C1).
  if (y > 0 || (wrap && h > 1)) add(((y + h - 1) % h) * w + x);
  if (y + 1 < h || (wrap && h > 1)) add(((y + 1) % h) * w + x);
  if (x > 0 || (wrap && w > 1)) add(y * w + (x + w - 1) % w);
  if (x + 1 < w || (wrap && w > 1)) add(y * w + (x + 1) % w);
  return nb;
}

TopologySize grid_size(TopologyKind kind, uint32_t w, uint32_t h) {
  const std::string spec = grid_spec(kind, w, h);
  if (w == 0 || h == 0) throw InputError(fmt::format("topology {}: sizes must be >= 1", spec));
  const uint64_t nodes = static_cast<uint64_t>(w) * h;
  if (nodes > (1u << 24)) {
    throw InputError(fmt::format("topology {}: {} nodes is more than the 2^24 supported", spec,
                                 nodes));
  }
  // Per dimension of size k, across `lines` lines: each pair of neighbours linked both ways,
  // and round the end where it wraps with 3 or more (size 2 has a single link each way).
  const bool wrap = kind != TopologyKind::kMesh;
  auto links = [wrap](uint64_t k, uint64_t lines) {
    return 2 * (wrap && k >= 3 ? k : k - 1) * lines;
  };
  // Links a node has per dimension: none in a dimension of 1, one in a dimension of 2 and at
  // a mesh's edge, else two.
  auto degree = [wrap](uint32_t k) { return k == 1 ? 0u : k == 2 || !wrap ? 1u : 2u; };
  return {nodes, 0, links(w, h) + links(h, w), w, h, degree(w) + degree(h), kind};
}

Topology make_torus(uint32_t w, uint32_t h) { return make_grid(TopologyKind::kTorus, w, h); }

Topology make_mesh(uint32_t w, uint32_t h) { return make_grid(TopologyKind::kMesh, w, h); }

Topology make_ring(uint32_t n) { return make_grid(TopologyKind::kRing, n, 1); }

TopologySize fattree_size(uint32_t m, uint32_t levels) {
  const std::string spec = fmt::format("fattree:{}x{}", m, levels);
  if (m < 2) throw InputError(fmt::format("topology {}: arity must be >= 2", spec));
  if (levels < 1) throw InputError(fmt::format("topology {}: levels must be >= 1", spec));
  uint64_t nodes = 1;
  for (uint32_t i = 0; i < levels; ++i) {
    nodes *= m;
    if (nodes > (1u << 24)) {
      throw InputError(fmt::format("topology {}: more than 2^24 nodes", spec));
    }
  }
  // m^(levels-1) switches per level; a link each way between each node and its leaf switch
  // and between each switch below the top and m switches above it.
  const uint64_t per_level = nodes / m;
  return {nodes, per_level * levels, 2 * nodes + 2 * m * per_level * (levels - 1), 0, 0, 1,
          TopologyKind::kFatTree};
}

Topology make_fattree(uint32_t m, uint32_t levels) {
  const std::string spec = fmt::format("fattree:{}x{}", m, levels);
  const uint32_t nodes = static_cast<uint32_t>(fattree_size(m, levels).nodes);
  const uint32_t per_level = nodes / m;  // m^(levels-1) switches per level
  auto sw = [&](uint32_t level, uint32_t index) { return nodes + level * per_level + index; };
  std::vector<Link> links;
  // Nodes hang m to a leaf switch.
  for (uint32_t n = 0; n < nodes; ++n) links.push_back({n, sw(0, n / m)});
  for (uint32_t n = 0; n < nodes; ++n) links.push_back({sw(0, n / m), n});
  // Switch <level, w> links up to <level+1, w'> where w' equals w except in digit `level`
  // (base m): the m-ary n-tree of Petrini and Vanneschi.
  uint32_t digit = 1;
  for (uint32_t level = 0; level + 1 < levels; ++level, digit *= m) {
    for (uint32_t w = 0; w < per_level; ++w) {
      const uint32_t base = w - (w / digit % m) * digit;
      for (uint32_t k = 0; k < m; ++k) {
        const uint32_t up = base + k * digit;
        links.push_back({sw(level, w), sw(level + 1, up)});
        links.push_back({sw(level + 1, up), sw(level, w)});
      }
    }
  }
  Topology t(TopologyKind::kFatTree, spec, nodes, per_level * levels, std::move(links));
  // Two nodes whose ids differ in the top base-m digit meet only at the top level: up from
  // the node through `levels` switches and down again, 2 * levels links.
  t.set_known_diameter(2 * levels);
  t.set_fattree(m, levels);
  return t;
}

TopologySize bigraph_size(uint32_t half, uint32_t per_switch) {
  const std::string spec = fmt::format("bigraph:{}x{}", half, per_switch);
  if (half < 1 || per_switch < 1) {
    throw InputError(fmt::format("topology {}: sizes must be >= 1", spec));
  }
  const uint64_t nodes = static_cast<uint64_t>(half) * 2 * per_switch;
  if (nodes > (1u << 24)) throw InputError(fmt::format("topology {}: more than 2^24 nodes", spec));
  // A link each way between each node and its switch and between the halves' switches.
  return {nodes, uint64_t{2} * half, 2 * nodes + 2 * uint64_t{half} * half, 0, 0, 1,
          TopologyKind::kBiGraph};
}

Topology make_bigraph(uint32_t half, uint32_t per_switch) {
  const std::string spec = fmt::format("bigraph:{}x{}", half, per_switch);
  bigraph_size(half, per_switch);
  const uint32_t switches = 2 * half;
  const uint32_t nodes = switches * per_switch;
  std::vector<Link> links;
  for (uint32_t s = 0; s < switches; ++s) {
    for (uint32_t k = 0; k < per_switch; ++k) links.push_back({s * per_switch + k, nodes + s});
  }
  for (uint32_t s = 0; s < switches; ++s) {
    for (uint32_t k = 0; k < per_switch; ++k) links.push_back({nodes + s, s * per_switch + k});
  }
  // Upper half [0, half) to lower half [half, 2*half), both directions.
  for (uint32_t s = 0; s < switches; ++s) {
    const uint32_t first = s < half ? half : 0;
    for (uint32_t t = first; t < first + half; ++t) links.push_back({nodes + s, nodes + t});
  }
  Topology t(TopologyKind::kBiGraph, spec, nodes, switches, std::move(links));
  // Nodes on two switches of one half are 4 links apart (node, switch, a switch of the other
  // half, switch, node); with one switch per half, the farthest are across: 3.
  t.set_known_diameter(half > 1 ? 4 : 3);
  return t;
}

}  // namespace mt

namespace mt {

namespace {

std::string hier_spec(const std::vector<uint32_t>& learners, uint32_t ratio) {
  std::string s = "hier:";
  for (size_t m = 0; m < learners.size(); ++m) s += fmt::format("{}{}", m ? "+" : "", learners[m]);
  return ratio == kHierDefaultRatio ? s : fmt::format("{},ratio={}", s, ratio);
}

}  // namespace

TopologySize hier_size(const std::vector<uint32_t>& learners, uint32_t ratio) {
  const std::string spec = hier_spec(learners, ratio);
  if (learners.empty()) throw InputError("topology hier:: no machines; expected hier:A+B+...");
  // A node's router has 4 link ports (systemc/network/port_layout.hpp).
  if (ratio < 1 || ratio > 4) {
    throw InputError(fmt::format("topology {}: ratio {} is out of range: the intra/inter "
                                 "bandwidth ratio is 1..4 (a node has at most 4 links)", spec,
                                 ratio));
  }
  uint64_t nodes = 0;
  for (size_t m = 0; m < learners.size(); ++m) {
    if (learners[m] == 0) {
      throw InputError(fmt::format("topology {}: machine {} has no learners; every machine "
                                   "needs at least 1", spec, m));
    }
    nodes += learners[m];
  }
  if (nodes > (1u << 24)) throw InputError(fmt::format("topology {}: more than 2^24 nodes", spec));
  if (nodes < 2) {
    throw InputError(fmt::format("topology {}: {} learner in all; an all-reduce needs at least "
                                 "2", spec, nodes));
  }
  const uint64_t machines = learners.size();
  return {nodes, machines + 1, 2 * (nodes * ratio + machines), 0, 0, ratio,
          TopologyKind::kFile};
}

Topology make_hier(const std::vector<uint32_t>& learners, uint32_t ratio) {
  const std::string spec = hier_spec(learners, ratio);
  const TopologySize size = hier_size(learners, ratio);
  const uint32_t nodes = static_cast<uint32_t>(size.nodes);
  const uint32_t machines = static_cast<uint32_t>(learners.size());
  const uint32_t root = nodes + machines;
  std::vector<Link> links;
  // Each vertex's links in neighbour order: a node's to its switch; a machine switch's to its
  // learners, then its uplink; the root's to the machines in order.
  uint32_t first = 0;
  for (uint32_t m = 0; m < machines; ++m) {
    for (uint32_t n = first; n < first + learners[m]; ++n) {
      for (uint32_t k = 0; k < ratio; ++k) links.push_back({n, nodes + m});
    }
    for (uint32_t n = first; n < first + learners[m]; ++n) {
      for (uint32_t k = 0; k < ratio; ++k) links.push_back({nodes + m, n});
    }
    links.push_back({nodes + m, root});
    links.push_back({root, nodes + m});
    first += learners[m];
  }
  Topology t(TopologyKind::kFile, spec, nodes, machines + 1, std::move(links));
  // Node, switch, root, switch, node between machines; node, switch, node within one.
  t.set_known_diameter(machines > 1 ? 4 : 2);
  return t;
}

}  // namespace mt
