// MultiTree (paper Algorithm 1, §III-C), with the indirect-network extension of §III-C3.
//
// All-gather trees are built top-down, one time step (tree level) at a time, each step on a
// fresh copy of the topology graph; trees take turns adding one node, each looking breadth-
// first over the nodes it had before this step for a free edge to a node it lacks. The
// reduce-scatter schedule is the all-gather schedule reversed in time (lines 16-18).
#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

struct Edge {  // all-gather edge p -> c of tree `tree` at step `step`
  uint32_t tree, parent, child, step;
  std::vector<uint32_t> path;  // links used (indirect networks only)
};

class TreeBuilder {
 public:
  TreeBuilder(const Topology& topo, bool prioritize_height)
      : topo_(topo), n_(topo.nodes()), prioritize_height_(prioritize_height),
        link_step_(topo.links().size(), 0), in_tree_(n_, std::vector<bool>(n_, false)),
        members_(n_), live_(n_), dead_(n_, 0), eligible_(n_), cursor_(n_),
        seen_(topo.vertices(), 0), via_(topo.vertices(), kNone), in_links_(topo.vertices()) {
    for (uint32_t l = 0; l < topo.links().size(); ++l) in_links_[topo.links()[l].dst].push_back(l);
    if (topo.direct()) outside_.assign(static_cast<size_t>(n_) * n_, 0);
    for (uint32_t t = 0; t < n_; ++t) {
      // Lines 1-2: every node roots its own tree.
      Edge root{t, kNone, t, 0, {}};
      add(root);
    }
  }

  std::vector<Edge> build() {
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(n_) * (n_ - 1));
    uint32_t complete = 0;
    for (uint32_t step = 1; complete < n_; ++step) {  // lines 4-6
      std::vector<uint32_t> order = tree_order();
      for (uint32_t t : order) start_step(t);
      // Lines 7-14: trees take turns; a tree that finds no edge is done for this step, since
      // edges only disappear and its node set stays the same until the next step.
      size_t added_this_step = 0;
      while (!order.empty()) {
        size_t kept = 0;
        for (uint32_t t : order) {
          Edge e{t, kNone, kNone, step, {}};
          if (!find_child(t, step, e)) continue;
          order[kept++] = t;
          add(e);
          complete += members_[t].size() == n_ ? 1 : 0;
          edges.push_back(std::move(e));
          ++added_this_step;
        }
        order.resize(kept);
      }
      if (added_this_step == 0) throw std::logic_error("multitree: a step added no node");
    }
    return edges;
  }

 private:
  // Root id ascending (line 8); optionally larger remaining height first (§III-C1).
  std::vector<uint32_t> tree_order() {
    std::vector<uint32_t> order;
    for (uint32_t t = 0; t < n_; ++t) {
      if (members_[t].size() < n_) order.push_back(t);
    }
    if (prioritize_height_) {
      std::vector<uint32_t> height(n_, 0);
      for (uint32_t t : order) height[t] = remaining_height(t);
      std::stable_sort(order.begin(), order.end(),
                       [&](uint32_t a, uint32_t b) { return height[a] > height[b]; });
    }
    return order;
  }

  // Hops from the tree's nodes to the farthest node it lacks.
  uint32_t remaining_height(uint32_t t) const {
    std::vector<uint32_t> dist(topo_.vertices(), kNone);
    std::deque<uint32_t> queue;
    for (uint32_t v : members_[t]) {
      dist[v] = 0;
      queue.push_back(v);
    }
    uint32_t h = 0;
    while (!queue.empty()) {
      const uint32_t u = queue.front();
      queue.pop_front();
      if (!in_tree_[t][u] && !topo_.forwards(u)) {
        h = std::max(h, dist[u]);
        continue;  // nodes do not forward
      }
      for (uint32_t l : topo_.out_links(u)) {
        const uint32_t v = topo_.links()[l].dst;
        if (dist[v] == kNone) {
          dist[v] = dist[u] + 1;
          queue.push_back(v);
        }
      }
    }
    return h;
  }

  // Only nodes added by previous steps may be parents (line 9). Nodes found dead (every
  // neighbour already in the tree) were marked kNone; sweep them out once they are many.
  void start_step(uint32_t t) {
    std::vector<uint32_t>& live = live_[t];
    if (dead_[t] * 2 > live.size()) {
      live.erase(std::remove(live.begin(), live.end(), kNone), live.end());
      dead_[t] = 0;
    }
    eligible_[t] = live.size();
    cursor_[t] = 0;
  }

  // Lines 9-12: the first eligible node, breadth-first, with a free edge to a node the tree
  // lacks. A node that has none now has none for the rest of the step, so a cursor skips it.
  bool find_child(uint32_t t, uint32_t step, Edge& e) {
    for (; cursor_[t] < eligible_[t]; ++cursor_[t]) {
      uint32_t& p = live_[t][cursor_[t]];
      if (p == kNone) continue;
      if (topo_.direct() && outside_[static_cast<size_t>(t) * n_ + p] == 0) {
        p = kNone;  // never again a parent in this tree
        ++dead_[t];
        continue;
      }
      if (topo_.direct() ? find_direct(t, p, step, e) : find_indirect(t, p, step, e)) return true;
    }
    return false;
  }

  bool find_direct(uint32_t t, uint32_t p, uint32_t step, Edge& e) {
    for (uint32_t l : topo_.out_links(p)) {
      const uint32_t c = topo_.links()[l].dst;
      if (link_step_[l] != step && !in_tree_[t][c]) {
        link_step_[l] = step;  // line 12: remove p -> c from E'
        e.parent = p;
        e.child = c;
        return true;
      }
    }
    return false;
  }

  // §III-C3: breadth-first from p through switches over free connections (node-to-switch,
  // switch-to-node, switch-to-switch) to the nearest node the tree lacks; every connection on
  // the path is removed.
  bool find_indirect(uint32_t t, uint32_t p, uint32_t step, Edge& e) {
    ++search_;
    std::deque<uint32_t> queue{p};
    seen_[p] = search_;
    while (!queue.empty()) {
      const uint32_t u = queue.front();
      queue.pop_front();
      for (uint32_t l : topo_.out_links(u)) {
        if (link_step_[l] == step) continue;
        const uint32_t v = topo_.links()[l].dst;
        if (seen_[v] == search_) continue;
        if (!topo_.is_switch(v)) {
          if (in_tree_[t][v]) continue;
          for (uint32_t w = u; w != p; w = topo_.links()[via_[w]].src) e.path.push_back(via_[w]);
          std::reverse(e.path.begin(), e.path.end());
          e.path.push_back(l);
          for (uint32_t used : e.path) link_step_[used] = step;
          e.parent = p;
          e.child = v;
          return true;
        }
        seen_[v] = search_;
        via_[v] = l;
        queue.push_back(v);
      }
    }
    return false;
  }

  void add(const Edge& e) {
    const uint32_t t = e.tree, c = e.child;
    in_tree_[t][c] = true;
    members_[t].push_back(c);
    live_[t].push_back(c);  // eligible from the next step on
    if (!topo_.direct()) return;
    // Keep, per member, how many of its links lead out of the tree.
    uint32_t& out = outside_[static_cast<size_t>(t) * n_ + c];
    for (uint32_t l : topo_.out_links(c)) out += in_tree_[t][topo_.links()[l].dst] ? 0u : 1u;
    for (uint32_t l : in_links_[c]) {
      const uint32_t q = topo_.links()[l].src;
      if (in_tree_[t][q] && q != c) --outside_[static_cast<size_t>(t) * n_ + q];
    }
  }

  const Topology& topo_;
  const uint32_t n_;
  const bool prioritize_height_;
  std::vector<uint32_t> link_step_;  // step in which a link was last taken (fresh G' per step)
  std::vector<std::vector<bool>> in_tree_;
  std::vector<std::vector<uint32_t>> members_;  // in the order they were added
  std::vector<std::vector<uint32_t>> live_;     // members that may still gain a child
  std::vector<size_t> dead_;                    // kNone marks in live_
  std::vector<size_t> eligible_;                // live_ entries added before this step
  std::vector<size_t> cursor_;
  std::vector<uint32_t> seen_;  // breadth-first search marks, by search number
  std::vector<uint32_t> via_;
  uint32_t search_ = 0;
  std::vector<std::vector<uint32_t>> in_links_;
  std::vector<uint32_t> outside_;  // direct networks: [tree * N + node] links out of the tree
};

// The opposite direction of a link (same parallel index), for reversing indirect paths.
uint32_t reverse_link(const Topology& topo, uint32_t l) {
  const Link& fwd = topo.links()[l];
  uint32_t index = 0;
  for (uint32_t o : topo.out_links(fwd.src)) {
    if (o == l) break;
    index += topo.links()[o].dst == fwd.dst ? 1 : 0;
  }
  for (uint32_t o : topo.out_links(fwd.dst)) {
    if (topo.links()[o].dst == fwd.src && index-- == 0) return o;
  }
  throw std::logic_error("multitree: link has no reverse");
}

}  // namespace

Plan build_multitree(const Topology& topo, const PlanOptions& opt) {
  const std::vector<Edge> edges = TreeBuilder(topo, opt.prioritize_height).build();
  const uint32_t n = topo.nodes();
  Plan plan;
  plan.algorithm = "multitree";
  plan.topology = topo.spec();
  plan.nodes = n;
  plan.bytes = opt.bytes;
  plan.dtype = opt.dtype;
  plan.neighbour_only = topo.direct();
  plan.contention_free = true;
  plan.steps_per_phase = edges.empty() ? 0 : edges.back().step;  // line 15
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t f = 0; f < n; ++f) plan.flows.push_back({f, plan.ranges[f]});

  const uint32_t T = plan.steps_per_phase;
  const bool routed = !topo.direct();
  plan.transfers.reserve(2 * edges.size());
  // Lines 16-17: reversed in time (and in allocation order within a step), c -> p.
  for (auto it = edges.rbegin(); it != edges.rend(); ++it) {
    if (plan.ranges[it->tree].size == 0) continue;  // fewer elements than flows
    plan.transfers.push_back({it->tree, it->child, it->parent, it->tree, T - it->step + 1,
                              Op::kReduce});
    if (routed) {
      std::vector<uint32_t> back;
      for (auto l = it->path.rbegin(); l != it->path.rend(); ++l) back.push_back(reverse_link(topo, *l));
      plan.routes.push_back(std::move(back));
    }
  }
  // Line 18: all-gather moves after reduce-scatter.
  for (const Edge& e : edges) {
    if (plan.ranges[e.tree].size == 0) continue;
    plan.transfers.push_back({e.tree, e.parent, e.child, e.tree, T + e.step, Op::kGather});
    if (routed) plan.routes.push_back(e.path);
  }
  return plan;
}

}  // namespace mt
