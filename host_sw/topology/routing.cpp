#include "topology/routing.hpp"

#include <algorithm>
#include <stdexcept>

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

// Dimension order on a grid (routing.hpp).
std::vector<uint32_t> grid_route(const Topology& topo, uint32_t src, uint32_t dst) {
  std::vector<uint32_t> path;
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

}  // namespace

std::vector<uint32_t> route(const Topology& topo, uint32_t src, uint32_t dst) {
  return Router(topo).route(src, dst);
}

// The search's buffers grow on the first search, so grid and fat-tree routes allocate none.
Router::Router(const Topology& topo) : topo_(topo) {}

std::vector<uint32_t> Router::route(uint32_t src, uint32_t dst) {
  if (src == dst) return {};
  if (topo_.whole_grid()) return grid_route(topo_, src, dst);
  if (topo_.kind() == TopologyKind::kFatTree) return fattree_walk(src, dst);
  return search(src, dst);
}

bool Router::searches() const {
  return !topo_.whole_grid() && topo_.kind() != TopologyKind::kFatTree;
}

std::vector<std::vector<uint32_t>> Router::routes_of(const Pairs& pairs) {
  std::vector<std::vector<uint32_t>> out(pairs.size());
  if (!searches()) {
    for (size_t i = 0; i < pairs.size(); ++i) out[i] = route(pairs[i].first, pairs[i].second);
    return out;
  }
  // A search's marks and links are the same however far it goes, so the paths are those of
  // a search per pair.
  std::vector<size_t> order(pairs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return pairs[a].first < pairs[b].first; });
  for (size_t i = 0, j = 0; i < order.size(); i = j) {
    const uint32_t src = pairs[order[i]].first;
    targets_.clear();
    for (j = i; j < order.size() && pairs[order[j]].first == src; ++j) {
      targets_.push_back(pairs[order[j]].second);
    }
    search_until(src, targets_.data(), targets_.data() + targets_.size());
    for (size_t k = i; k < j; ++k) out[order[k]] = path_to(src, pairs[order[k]].second);
  }
  return out;
}

std::vector<uint32_t> Router::search(uint32_t src, uint32_t dst) {
  search_until(src, &dst, &dst + 1);
  return path_to(src, dst);
}

// Breadth-first over switches, in neighbour order (routing.hpp).
void Router::search_until(uint32_t src, const uint32_t* first, const uint32_t* last) {
  if (seen_.empty()) {
    seen_.assign(topo_.vertices(), 0);
    via_.assign(topo_.vertices(), 0);
    queue_.reserve(topo_.vertices());
  }
  if (++search_ == 0) {  // the numbers wrapped: forget every old mark
    std::fill(seen_.begin(), seen_.end(), 0);
    search_ = 1;
  }
  auto all_seen = [&] {
    for (; first != last && seen_[*first] == search_; ++first) {}
    return first == last;
  };
  queue_.assign(1, src);
  seen_[src] = search_;
  for (size_t head = 0; head < queue_.size() && !all_seen(); ++head) {
    const uint32_t u = queue_[head];
    if (u != src && !topo_.forwards(u)) continue;
    for (uint32_t l : topo_.out_links(u)) {
      const uint32_t v = topo_.links()[l].dst;
      if (seen_[v] == search_) continue;
      seen_[v] = search_;
      via_[v] = l;
      queue_.push_back(v);
    }
  }
}

std::vector<uint32_t> Router::path_to(uint32_t src, uint32_t dst) const {
  if (src == dst) return {};
  if (seen_[dst] != search_) throw std::logic_error("route: destination unreachable");
  std::vector<uint32_t> path;
  for (uint32_t v = dst; v != src; v = topo_.links()[via_[v]].src) path.push_back(via_[v]);
  return {path.rbegin(), path.rend()};
}

// Hops from vertex v to node dst in make_fattree's m-ary L-level tree, where switch (level
// k, index w) is vertex nodes + k * m^(L-1) + w and links to (k+1, w') for every w' that
// differs from w in base-m digit k only. Going up from level k changes digit k, going down
// to it changes digit k-1, so (k, w) is above leaf x when w and x agree from digit k up; from
// (k, w) the route climbs to the lowest level j >= k where that holds, and descends:
// (j - k) + j + 1 hops. A node other than dst relays nothing.
uint32_t Router::fattree_distance(uint32_t v, uint32_t dst) const {
  constexpr uint32_t kFar = 0xffffffffu;
  const uint32_t n = topo_.nodes(), m = topo_.fattree_arity();
  if (v == dst) return 0;
  if (v < n) return kFar;
  const uint32_t per_level = n / m;
  const uint32_t k = (v - n) / per_level;
  uint32_t w = (v - n) % per_level, x = dst / m, j = k;
  for (uint32_t i = 0; i < k; ++i) {
    w /= m;
    x /= m;
  }
  for (; w != x; ++j) {
    w /= m;
    x /= m;
  }
  return (j - k) + j + 1;
}

// The greedy walk (class comment) with fattree_distance.
std::vector<uint32_t> Router::fattree_walk(uint32_t src, uint32_t dst) const {
  std::vector<uint32_t> path;
  uint32_t u = src;
  // A node's own distance is its links' best: nodes hang on one leaf switch each.
  uint32_t d = 0xffffffffu;
  for (uint32_t l : topo_.out_links(src)) d = std::min(d, fattree_distance(topo_.links()[l].dst, dst));
  if (d == 0xffffffffu) throw std::logic_error("route: destination unreachable");
  for (++d; u != dst; --d) {
    uint32_t next = Topology::kNoLink;
    for (uint32_t l : topo_.out_links(u)) {
      if (fattree_distance(topo_.links()[l].dst, dst) == d - 1) {
        next = l;
        break;
      }
    }
    if (next == Topology::kNoLink) throw std::logic_error("route: fat-tree walk lost its way");
    path.push_back(next);
    u = topo_.links()[next].dst;
  }
  return path;
}

}  // namespace mt
