#include "algorithms/hamiltonian_cycle.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace mt {
namespace {

// Collects grid coordinates as node ids (id = y*W + x); `swap` reads (x, y) as (y, x) so one
// construction serves both orientations.
class GridWalk {
 public:
  GridWalk(uint32_t w, bool swap) : w_(w), swap_(swap) {}
  void visit(uint32_t x, uint32_t y) { order.push_back(swap_ ? x * w_ + y : y * w_ + x); }
  std::vector<uint32_t> order;

 private:
  uint32_t w_;
  bool swap_;
};

// a x b grid (a columns, b rows), b even, a >= 2: snake the rows over columns 1..a-1, then
// come back up column 0. Every hop is a link, on a mesh too.
std::vector<uint32_t> comb(uint32_t w, uint32_t a, uint32_t b, bool swap) {
  GridWalk g(w, swap);
  g.visit(0, 0);
  for (uint32_t y = 0; y < b; ++y) {
    for (uint32_t i = 1; i < a; ++i) g.visit(y % 2 == 0 ? i : a - i, y);
  }
  for (uint32_t y = b - 1; y >= 1; --y) g.visit(0, y);
  return std::move(g.order);
}

// Odd x odd torus (w, h >= 3): snake the columns 0..w-3 top to bottom, cover the last two
// columns in a two-wide snake going back up to (w-1, 0); the X wrap link closes it.
std::vector<uint32_t> torus_odd(uint32_t w, uint32_t h) {
  GridWalk g(w, false);
  for (uint32_t x = 0; x + 2 < w; ++x) {
    for (uint32_t i = 0; i < h; ++i) g.visit(x, x % 2 == 0 ? i : h - 1 - i);
  }
  for (uint32_t k = 0; k < h; ++k) {
    const uint32_t y = h - 1 - k;
    g.visit(k % 2 == 0 ? w - 2 : w - 1, y);
    g.visit(k % 2 == 0 ? w - 1 : w - 2, y);
  }
  return std::move(g.order);
}

// Odd x odd mesh (w, h >= 3) has no Hamiltonian cycle (bipartite, odd node count). This path
// runs row 0, snakes columns w-1..2 over rows 1..h-1 and ends with a two-wide snake at (1, 1),
// so the one hop that is not a link, (1,1) -> (0,0), is only two links long.
std::vector<uint32_t> mesh_odd(uint32_t w, uint32_t h) {
  GridWalk g(w, false);
  for (uint32_t x = 0; x < w; ++x) g.visit(x, 0);
  for (uint32_t c = w - 1; c >= 2; --c) {
    const bool down = (w - 1 - c) % 2 == 0;
    for (uint32_t i = 1; i < h; ++i) g.visit(c, down ? i : h - i);
  }
  for (uint32_t k = 0; k + 1 < h; ++k) {
    const uint32_t y = h - 1 - k;
    g.visit(k % 2 == 0 ? 1 : 0, y);
    g.visit(k % 2 == 0 ? 0 : 1, y);
  }
  return std::move(g.order);
}

std::vector<uint32_t> id_order(uint32_t n) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

// Exact search over subsets (Held-Karp style reachability): bounded work, deterministic
// (lowest ids first when reconstructing). Empty when the nodes have no one-hop cycle.
std::vector<uint32_t> search_cycle(const Topology& topo) {
  const uint32_t n = topo.nodes();
  std::vector<uint32_t> adj(n, 0);  // adj[v] bit u: link v -> u
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t l : topo.out_links(v)) {
      const uint32_t u = topo.links()[l].dst;
      if (u < n) adj[v] |= 1u << u;
    }
  }
  const uint32_t full = (1u << n) - 1;
  // ends[mask] bit v: some path from node 0 visits exactly `mask` and ends at v.
  std::vector<uint32_t> ends(static_cast<size_t>(full) + 1, 0);
  ends[1] = 1;
  for (uint32_t mask = 1; mask <= full; mask += 2) {  // masks containing node 0
    for (uint32_t v = 0; v < n; ++v) {
      if (!(ends[mask] >> v & 1)) continue;
      const uint32_t next = adj[v] & ~mask;
      for (uint32_t u = 0; u < n; ++u) {
        if (next >> u & 1) ends[mask | (1u << u)] |= 1u << u;
      }
    }
  }
  uint32_t last = n;
  for (uint32_t v = 1; v < n && last == n; ++v) {
    if ((ends[full] >> v & 1) && (adj[v] & 1)) last = v;
  }
  if (last == n) return {};
  std::vector<uint32_t> rev{last};
  uint32_t mask = full, cur = last;
  while (cur != 0) {
    mask &= ~(1u << cur);
    uint32_t prev = 0;
    while (!((ends[mask] >> prev & 1) && (adj[prev] >> cur & 1))) ++prev;
    rev.push_back(prev);
    cur = prev;
  }
  return {rev.rbegin(), rev.rend()};
}

// Hops of a cycle that are not one link, counting no further than `limit`.
uint32_t missing_hops(const Topology& topo, const std::vector<uint32_t>& order, uint32_t limit) {
  const size_t n = order.size();
  uint32_t missing = 0;
  for (size_t i = 0; i < n && missing < limit; ++i) {
    missing += topo.adjacent(order[i], order[(i + 1) % n]) ? 0 : 1;
  }
  return missing;
}

// The symmetries of a grid (moved_cycle): 8 on a square, 4 on another rectangle, each after
// every translation on a torus.
uint32_t grid_symmetries(const Topology& topo) {
  const uint32_t shapes = topo.width() == topo.height() ? 8 : 4;
  return topo.kind() == TopologyKind::kTorus ? shapes * topo.nodes() : shapes;
}

// The grid's cycle moved by one of its symmetries, k: shape k % 8 (bit 0 mirrors x, bit 1
// mirrors y, bit 2 swaps x and y, square grids only), then on a torus translation k / 8
// (node (x, y) to (x + dx, y + dy)).
std::vector<uint32_t> moved_cycle(const Topology& topo, const std::vector<uint32_t>& order,
                                  uint32_t k) {
  const uint32_t w = topo.width(), h = topo.height();
  const uint32_t shape = w == h ? k % 8 : k % 4, shift = w == h ? k / 8 : k / 4;
  std::vector<uint32_t> out(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    uint32_t x = topo.x_of(order[i]), y = topo.y_of(order[i]);
    if (shape & 1) x = w - 1 - x;
    if (shape & 2) y = h - 1 - y;
    if (shape & 4) std::swap(x, y);
    out[i] = ((y + shift / w) % h) * w + (x + shift % w) % w;
  }
  return out;
}

// Most symmetries tried on a grid with failed links (each costs a pass over the cycle).
constexpr uint32_t kMaxMoves = 1024;

// A grid with failed links: its cycle moved by the first of its symmetries that crosses no
// failed link (the cycle itself when it crosses none), else by the one with the fewest hops
// that are not a link, whose multi-hop packets then go round the failures.
std::vector<uint32_t> cycle_around_failures(const Topology& topo, std::vector<uint32_t> order) {
  const uint32_t moves = std::min(kMaxMoves, grid_symmetries(topo));
  uint32_t best = missing_hops(topo, order, topo.nodes());
  for (uint32_t k = 1; k < moves && best > 0; ++k) {
    std::vector<uint32_t> candidate = moved_cycle(topo, order, k);
    const uint32_t missing = missing_hops(topo, candidate, best);
    if (missing < best) {
      best = missing;
      order = std::move(candidate);
    }
  }
  return order;
}

}  // namespace

RingCycle hamiltonian_cycle(const Topology& topo) {
  const uint32_t n = topo.nodes();
  const uint32_t w = topo.width(), h = topo.height();
  RingCycle c;
  switch (topo.kind()) {
    case TopologyKind::kRing:
      c.order = id_order(n);
      break;
    case TopologyKind::kTorus:
      if (w == 1 || h == 1) c.order = id_order(n);  // a ring along the one long dimension
      else if (h % 2 == 0) c.order = comb(w, w, h, false);
      else if (w % 2 == 0) c.order = comb(w, h, w, true);
      else c.order = torus_odd(w, h);
      break;
    case TopologyKind::kMesh:
      if (w == 1 || h == 1) c.order = id_order(n);  // a line: the closing hop runs back
      else if (h % 2 == 0) c.order = comb(w, w, h, false);
      else if (w % 2 == 0) c.order = comb(w, h, w, true);
      else c.order = mesh_odd(w, h);
      break;
    case TopologyKind::kFile:
      if (n <= kCycleSearchMaxNodes) c.order = search_cycle(topo);
      if (c.order.empty()) c.order = id_order(n);
      break;
    case TopologyKind::kFatTree:
    case TopologyKind::kBiGraph:
      c.order = id_order(n);
      break;
  }
  if (!topo.failed_links().empty() && topo.kind() != TopologyKind::kFile) {
    c.order = cycle_around_failures(topo, std::move(c.order));
  }
  c.one_hop = true;
  for (uint32_t i = 0; i < n; ++i) {
    c.one_hop = c.one_hop && topo.adjacent(c.order[i], c.order[(i + 1) % n]);
  }
  return c;
}

}  // namespace mt
