#include "topology/routing.hpp"

#include <deque>
#include <limits>

#include "common/error.hpp"

namespace mt {
namespace {

uint32_t link_between(const Topology& topo, uint32_t a, uint32_t b) {
  const uint32_t l = topo.first_link(a, b);
  if (l == Topology::kNoLink) throw std::logic_error("route: no link between adjacent vertices");
  return l;
}

// Steps one coordinate from `from` toward `to` on a dimension of `size`, the shorter way
// round when it wraps. A tie (half a ring, size > 2) goes + to an even and - to an odd
// destination coordinate, as the routers do (systemc/router/dor_route.cpp).
int dim_step(uint32_t from, uint32_t to, uint32_t size, bool wrap) {
  if (from == to) return 0;
  if (!wrap) return to > from ? 1 : -1;
  const uint32_t fwd = (to + size - from) % size;
  if (2 * fwd == size && size > 2) return to % 2 == 0 ? 1 : -1;
  return fwd <= size - fwd ? 1 : -1;
}

}  // namespace

std::vector<uint32_t> route(const Topology& topo, uint32_t src, uint32_t dst) {
  std::vector<uint32_t> path;
  if (src == dst) return path;
  const TopologyKind k = topo.kind();
  if (k == TopologyKind::kTorus || k == TopologyKind::kMesh || k == TopologyKind::kRing) {
    const uint32_t w = topo.width(), h = topo.height();
    const bool wrap = topo.wraps();
    uint32_t x = topo.x_of(src), y = topo.y_of(src);
    const uint32_t tx = topo.x_of(dst), ty = topo.y_of(dst);
    while (x != tx) {
      const int d = dim_step(x, tx, w, wrap);
      const uint32_t nx = d > 0 ? (x + 1) % w : (x + w - 1) % w;
      path.push_back(link_between(topo, y * w + x, y * w + nx));
      x = nx;
    }
    while (y != ty) {
      const int d = dim_step(y, ty, h, wrap);
      const uint32_t ny = d > 0 ? (y + 1) % h : (y + h - 1) % h;
      path.push_back(link_between(topo, y * w + x, ny * w + x));
      y = ny;
    }
    return path;
  }
  // Breadth-first over switches, in neighbour order; first found is the route.
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> via(topo.vertices(), kNone);
  std::deque<uint32_t> queue{src};
  std::vector<bool> seen(topo.vertices(), false);
  seen[src] = true;
  while (!queue.empty() && !seen[dst]) {
    const uint32_t u = queue.front();
    queue.pop_front();
    if (u != src && !topo.forwards(u)) continue;
    for (uint32_t l : topo.out_links(u)) {
      const uint32_t v = topo.links()[l].dst;
      if (seen[v]) continue;
      seen[v] = true;
      via[v] = l;
      queue.push_back(v);
    }
  }
  if (!seen[dst]) throw std::logic_error("route: destination unreachable");
  for (uint32_t v = dst; v != src; v = topo.links()[via[v]].src) path.push_back(via[v]);
  return {path.rbegin(), path.rend()};
}

}  // namespace mt
