#include "network/switch_routing.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {
namespace {

constexpr uint32_t kFar = 0xffffffffu;

// Links into each vertex, for the searches backward from a destination.
std::vector<std::vector<uint32_t>> in_links(const Topology& topo) {
  std::vector<std::vector<uint32_t>> in(topo.vertices());
  for (uint32_t l = 0; l < topo.links().size(); ++l) in[topo.links()[l].dst].push_back(l);
  return in;
}

// Hops from every vertex to node `dest`, relaying only through switches.
void distances_to(const Topology& topo, const std::vector<std::vector<uint32_t>>& in,
                  uint32_t dest, std::vector<uint32_t>& dist, std::vector<uint32_t>& queue) {
  std::fill(dist.begin(), dist.end(), kFar);
  queue.clear();
  dist[dest] = 0;
  queue.push_back(dest);
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    for (uint32_t l : in[u]) {
      const uint32_t v = topo.links()[l].src;
      if (dist[v] != kFar) continue;
      dist[v] = dist[u] + 1;
      if (topo.is_switch(v)) queue.push_back(v);  // nodes are end points
    }
  }
}

// Switches by (hops from the nearest node, id), as ranks (router/switch_routes.hpp); nodes
// rank below every switch.
std::vector<uint32_t> switch_order(const Topology& topo) {
  std::vector<uint32_t> dist(topo.vertices(), kFar), queue;
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    dist[n] = 0;
    queue.push_back(n);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    for (uint32_t l : topo.out_links(queue[head])) {
      const uint32_t v = topo.links()[l].dst;
      if (dist[v] != kFar) continue;
      dist[v] = dist[queue[head]] + 1;
      queue.push_back(v);
    }
  }
  std::vector<uint32_t> by_rank(topo.vertices());
  for (uint32_t v = 0; v < topo.vertices(); ++v) by_rank[v] = v;
  std::stable_sort(by_rank.begin(), by_rank.end(),
                   [&](uint32_t a, uint32_t b) { return dist[a] < dist[b]; });
  std::vector<uint32_t> order(topo.vertices());
  for (uint32_t r = 0; r < by_rank.size(); ++r) order[by_rank[r]] = r;
  return order;
}

// Down-to-up turns along a sequence of vertices.
uint32_t turns_along(const SwitchRoutes& routes, const std::vector<uint32_t>& at) {
  uint32_t turns = 0;
  for (size_t i = 2; i < at.size(); ++i) turns += routes.turn(at[i - 2], at[i - 1], at[i]) ? 1 : 0;
  return turns;
}

// Turns of the tables' route from node s to node d (`at`: storage for its vertices).
uint32_t path_turns(const SwitchRoutes& routes, const PortLayout& layout, uint32_t s,
                    uint32_t d, std::vector<uint32_t>& at) {
  at.assign(1, s);
  while (at.back() != d && at.size() <= layout.routers()) {
    at.push_back(layout.neighbours(at.back()).at(routes.port(at.back(), d)));
  }
  return turns_along(routes, at);
}

// Up*/down* (Schroeder et al., Autonet, 1991) on the breadth-first spanning tree from node 0:
// a link is "up" when it leads to a smaller (tree level, id), "down" otherwise, and a route is
// up links, then down links. No route turns from down to up, so the channels wait on each
// other without a cycle: free of deadlock on one VC class, for every deterministic choice.
// Per destination d, `down[v]` is the length of the shortest all-down route from v (down
// links only go to larger (level, id), so none returns), `legal[v]` that of the shortest
// up*/down* route. The table takes a down link whenever an all-down route exists (a packet
// that came down stays on down links) and otherwise an up link along the shortest legal
// route; among equal links, the (d mod count)-th in port order, as on switches. A neighbour's
// route is its link: one of the two is down, or it is up and no all-down route exists.
void build_up_down_routes(const Topology& topo, const PortLayout& layout, SwitchRoutes& routes) {
  const std::vector<uint32_t> level = topo.distances_from(0);
  auto up = [&](const Link& k) {
    return std::make_pair(level[k.dst], k.dst) < std::make_pair(level[k.src], k.src);
  };
  const auto in = in_links(topo);
  std::vector<uint32_t> down(topo.nodes()), legal(topo.nodes()), queue, next;
  for (uint32_t d = 0; d < topo.nodes(); ++d) {
    // All-down routes, backward from d over down links.
    std::fill(down.begin(), down.end(), kFar);
    down[d] = 0;
    queue.assign(1, d);
    for (size_t head = 0; head < queue.size(); ++head) {
      for (uint32_t l : in[queue[head]]) {
        const uint32_t v = topo.links()[l].src;
        if (up(topo.links()[l]) || down[v] != kFar) continue;
        down[v] = down[queue[head]] + 1;
        queue.push_back(v);
      }
    }
    // Legal routes: an all-down route, or an up link to a vertex with a legal route. Down
    // distances are settled in queue order, so one pass in order of distance relaxes them all.
    legal = down;
    // (A legal route passes each vertex once on the way up and once down: < 2N links.)
    std::vector<std::vector<uint32_t>> by_dist(2 * topo.nodes());
    for (uint32_t v : queue) by_dist[down[v]].push_back(v);
    for (uint32_t dist = 0; dist + 1 < by_dist.size(); ++dist) {
      for (size_t i = 0; i < by_dist[dist].size(); ++i) {
        const uint32_t w = by_dist[dist][i];
        if (legal[w] != dist) continue;  // settled shorter already
        for (uint32_t l : in[w]) {
          const uint32_t v = topo.links()[l].src;
          if (!up(topo.links()[l]) || legal[v] <= dist + 1) continue;
          legal[v] = dist + 1;
          by_dist[dist + 1].push_back(v);
        }
      }
    }
    for (uint32_t v = 0; v < topo.nodes(); ++v) {
      if (v == d) continue;
      const bool go_down = down[v] != kFar;
      next.clear();
      for (uint32_t l : topo.out_links(v)) {
        const uint32_t w = topo.links()[l].dst;
        if (go_down ? !up(topo.links()[l]) && down[w] + 1 == down[v]
                    : up(topo.links()[l]) && legal[w] + 1 == legal[v]) {
          next.push_back(l);
        }
      }
      routes.set_port(v, d, layout.out_port(next.at(d % next.size())));
    }
  }
  routes.set_nodes_forward(true);
}

}  // namespace

SwitchRoutes build_switch_routes(const Topology& topo, const PortLayout& layout, uint32_t vcs) {
  SwitchRoutes routes(topo.nodes(), topo.vertices(), vcs);
  if (topo.direct()) {
    build_up_down_routes(topo, layout, routes);
    return routes;
  }
  routes.set_order(switch_order(topo));
  const auto in = in_links(topo);
  std::vector<uint32_t> dist(topo.vertices()), queue, next;
  for (uint32_t d = 0; d < topo.nodes(); ++d) {
    distances_to(topo, in, d, dist, queue);
    for (uint32_t v = 0; v < topo.vertices(); ++v) {
      if (v == d || dist[v] == kFar) continue;
      next.clear();
      for (uint32_t l : topo.out_links(v)) {
        const uint32_t u = topo.links()[l].dst;
        if (dist[u] + 1 == dist[v] && (u == d || topo.is_switch(u))) next.push_back(l);
      }
      routes.set_port(v, d, layout.out_port(next[d % next.size()]));
    }
  }
  // A class for each down-to-up turn of the routes, and one to start in.
  uint32_t turns = 0;
  for (uint32_t s = 0; s < topo.nodes(); ++s) {
    for (uint32_t d = 0; d < topo.nodes(); ++d) {
      if (s != d) turns = std::max(turns, path_turns(routes, layout, s, d, queue));
    }
  }
  if (!routes.allow_classes(turns + 1)) {
    throw InputError(fmt::format(
        "network {}: routes turn from a down switch-to-switch link to an up one up to {} "
        "times, each turn a VC class of its own (deadlock freedom); {} VCs are too few",
        topo.spec(), turns, vcs));
  }
  return routes;
}

std::vector<PathHop> path_hops(const Topology& topo, const PortLayout& layout,
                               const std::vector<uint32_t>& links) {
  std::vector<PathHop> hops;
  for (size_t i = 0; i < links.size(); ++i) {
    const Link& l = topo.links().at(links[i]);
    const bool joined = i == 0 ? !topo.is_switch(l.src)
                               : topo.links()[links[i - 1]].dst == l.src && topo.is_switch(l.src);
    if (!joined) {
      throw InputError(fmt::format("network {}: route link {} ({} -> {}) does not continue a "
                                   "path from a node through switches", topo.spec(), links[i],
                                   l.src, l.dst));
    }
    hops.push_back({l.src, layout.out_port(links[i])});
  }
  if (links.empty() || topo.is_switch(topo.links()[links.back()].dst)) {
    throw InputError(fmt::format("network {}: a route that does not end at a node",
                                 topo.spec()));
  }
  return hops;
}

std::vector<PathHop> table_path_hops(const Topology& topo, const SwitchRoutes& routes,
                                     const PortLayout& layout, uint32_t src, uint32_t dst) {
  std::vector<PathHop> hops;
  uint32_t v = src;
  while (v != dst && hops.size() <= topo.vertices()) {
    const uint8_t p = routes.port(v, dst);
    hops.push_back({v, p});
    v = layout.neighbours(v).at(p);
  }
  return hops;
}

uint32_t route_turns(const Topology& topo, const SwitchRoutes& routes,
                     const std::vector<uint32_t>& links) {
  std::vector<uint32_t> at;
  for (uint32_t l : links) {
    if (at.empty()) at.push_back(topo.links()[l].src);
    at.push_back(topo.links()[l].dst);
  }
  return turns_along(routes, at);
}

}  // namespace mt::noc
