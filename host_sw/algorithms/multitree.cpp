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
#include "common/cpu_deadline.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

struct Edge {  // all-gather edge p -> c of tree `tree` at step `step`
  uint32_t tree, parent, child, step;
  uint32_t path_begin = 0, path_end = 0;  // links used, in TreeBuilder::paths (indirect only)
};

class TreeBuilder {
 public:
  TreeBuilder(const Topology& topo, bool prioritize_height)
      : topo_(topo), n_(topo.nodes()), prioritize_height_(prioritize_height),
        link_step_(topo.links().size(), 0), in_tree_(n_, std::vector<bool>(n_, false)),
        size_(n_, 0), live_(n_), dead_(n_, 0), eligible_(n_), cursor_(n_),
        used_links_(topo.vertices(), 0), seen_(topo.vertices(), 0), via_(topo.vertices(), kNone),
        exhausted_(topo.vertices(), 0), terminal_(topo.vertices(), 0),
        has_nodes_(topo.vertices(), false) {
    // Flat adjacency: the search below touches it for every node it looks at.
    adj_start_.push_back(0);
    for (uint32_t v = 0; v < topo.vertices(); ++v) {
      for (uint32_t l : topo.out_links(v)) {
        adj_.push_back({l, topo.links()[l].dst});
        if (topo.is_switch(v) && !topo.is_switch(topo.links()[l].dst)) has_nodes_[v] = true;
      }
      adj_start_.push_back(static_cast<uint32_t>(adj_.size()));
    }
    for (uint32_t t = 0; t < n_; ++t) {
      // Lines 1-2: every node roots its own tree.
      Edge root{t, kNone, t, 0};
      add(root);
    }
  }

  std::vector<uint32_t> paths;  // the links of every indirect edge, back to back

  // Throws InputError when the deadline passes: the up-front estimate (registry.cpp) cannot
  // know how long the trees of every network take (a 1,000-node random network given as a
  // file takes 2.3 s, a 64x64 mesh 10 s).
  std::vector<Edge> build(const CpuDeadline& deadline) {
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(n_) * (n_ - 1));
    uint32_t complete = 0;
    for (uint32_t step = 1; complete < n_; ++step) {  // lines 4-6
      if (deadline.passed()) {
        throw InputError(fmt::format(
            "topology {}: building the {} MultiTree trees took more than the {:g} s limit "
            "(step {}, {} of them complete; mtc and mtsim --time-limit set it)",
            topo_.spec(), n_, deadline.seconds(), step, complete));
      }
      std::vector<uint32_t> order = tree_order();
      std::fill(used_links_.begin(), used_links_.end(), 0);
      for (uint32_t t : order) start_step(t);
      // Lines 7-14: trees take turns; a tree that finds no edge is done for this step, since
      // edges only disappear and its node set stays the same until the next step.
      size_t added_this_step = 0;
      while (!order.empty()) {
        size_t kept = 0;
        for (uint32_t t : order) {
          Edge e{t, kNone, kNone, step};
          if (!find_child(t, step, e)) continue;
          order[kept++] = t;
          add(e);
          complete += size_[t] == n_ ? 1 : 0;
          edges.push_back(e);
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
      if (size_[t] < n_) order.push_back(t);
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
    for (uint32_t v = 0; v < n_; ++v) {
      if (!in_tree_[t][v]) continue;
      dist[v] = 0;
      queue.push_back(v);
    }
    uint32_t h = 0;
    while (!queue.empty()) {
      const uint32_t u = queue.front();
      queue.pop_front();
      if (!topo_.is_switch(u) && !in_tree_[t][u]) {
        h = std::max(h, dist[u]);
        if (!topo_.forwards(u)) continue;  // a switch network's nodes are end points
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
      if (!topo_.direct()) {
        if (find_indirect(t, p, step, e)) return true;
        continue;
      }
      const Found found = find_direct(t, p, step, e);
      if (found == Found::kYes) return true;
      if (found == Found::kNever) {
        p = kNone;  // every neighbour is in the tree: never again a parent
        ++dead_[t];
      }
    }
    return false;
  }

  enum class Found { kYes, kNotNow, kNever };

  Found find_direct(uint32_t t, uint32_t p, uint32_t step, Edge& e) {
    // Every link of p already taken this step: nothing to check (the common case late in a
    // step, and one read of a small array instead of p's links).
    if (used_links_[p] == adj_start_[p + 1] - adj_start_[p]) return Found::kNotNow;
    const std::vector<bool>& members = in_tree_[t];
    bool outside = false;
    for (uint32_t i = adj_start_[p]; i < adj_start_[p + 1]; ++i) {
      const auto [l, c] = adj_[i];
      if (members[c]) continue;
      outside = true;
      if (link_step_[l] != step) {
        link_step_[l] = step;  // line 12: remove p -> c from E'
        ++used_links_[p];
        e.parent = p;
        e.child = c;
        return Found::kYes;
      }
    }
    return outside ? Found::kNotNow : Found::kNever;
  }

  // §III-C3: breadth-first from p through switches over free connections (node-to-switch,
  // switch-to-node, switch-to-switch) to the nearest node the tree lacks; every connection on
  // the path is removed. Beyond p's own switch, a path goes on only through switches without
  // nodes (a fat-tree's upper levels): a switch with nodes that the search enters from another
  // switch offers its nodes and ends the path there, as in the authors' simulator, whose
  // search descends into a switch with nodes only to look for a child. A node on a switch
  // beyond it is reached by a relay through that switch's nodes, a tree edge each, which
  // keeps the trees shallow and the links free: on a BiGraph, where every switch has nodes,
  // passing through let each tree take two switch-to-switch links where one would do, and the
  // halves' links ran out; the paper's 4x8 and 4x16 BiGraphs (bigraph:4x4 and bigraph:8x4)
  // took 43 and 91 steps per phase, now 31 and 63, the one-link bound N - 1 (as Ring, §VI-A).
  //
  // A search that finds none leaves the switches it went through exhausted for the tree
  // until the step ends (links are only taken and the tree only grows), and later searches
  // pass them by: each switch is searched through once per tree and step, not once per
  // member (a 300-node network took 30 s). What a search finds is unchanged: anything
  // reachable from an exhausted switch is an exhausted switch or a member. A switch the search
  // only looked into (terminal) is not exhausted: a later search may start there.
  bool find_indirect(uint32_t t, uint32_t p, uint32_t step, Edge& e) {
    ++search_;
    const uint64_t tree_step = (uint64_t{step} << 32) | t;
    queue_.assign(1, p);
    seen_[p] = search_;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const uint32_t u = queue_[head];
      for (uint32_t l : topo_.out_links(u)) {
        if (link_step_[l] == step) continue;
        const uint32_t v = topo_.links()[l].dst;
        if (seen_[v] == search_ || exhausted_[v] == tree_step) continue;
        if (!topo_.is_switch(v)) {
          if (in_tree_[t][v]) continue;
          take_path(p, u, l, step, e);
          e.parent = p;
          e.child = v;
          return true;
        }
        if (terminal_[u] == search_) continue;
        seen_[v] = search_;
        via_[v] = l;
        if (topo_.is_switch(u) && has_nodes_[v]) terminal_[v] = search_;
        queue_.push_back(v);
      }
    }
    for (size_t i = 1; i < queue_.size(); ++i) {
      if (terminal_[queue_[i]] != search_) exhausted_[queue_[i]] = tree_step;
    }
    return false;
  }

  // Records the path p ... u -l-> child in `paths` (the links of the search tree back to p)
  // and removes its links from this step's graph.
  void take_path(uint32_t p, uint32_t u, uint32_t l, uint32_t step, Edge& e) {
    e.path_begin = static_cast<uint32_t>(paths.size());
    for (uint32_t w = u; w != p; w = topo_.links()[via_[w]].src) paths.push_back(via_[w]);
    std::reverse(paths.begin() + e.path_begin, paths.end());
    paths.push_back(l);
    e.path_end = static_cast<uint32_t>(paths.size());
    for (uint32_t i = e.path_begin; i < e.path_end; ++i) link_step_[paths[i]] = step;
  }

  void add(const Edge& e) {
    const uint32_t t = e.tree, c = e.child;
    in_tree_[t][c] = true;
    ++size_[t];
    live_[t].push_back(c);  // eligible from the next step on
  }

  const Topology& topo_;
  const uint32_t n_;
  const bool prioritize_height_;
  std::vector<uint32_t> link_step_;  // step in which a link was last taken (fresh G' per step)
  std::vector<std::vector<bool>> in_tree_;
  std::vector<uint32_t> size_;  // nodes in each tree
  std::vector<std::vector<uint32_t>> live_;     // members that may still gain a child
  std::vector<size_t> dead_;                    // kNone marks in live_
  std::vector<size_t> eligible_;                // live_ entries added before this step
  std::vector<size_t> cursor_;
  std::vector<uint32_t> used_links_;  // direct networks: links of each node taken this step
  std::vector<uint32_t> seen_;  // breadth-first search marks, by search number
  std::vector<uint32_t> via_;
  std::vector<uint32_t> queue_;
  std::vector<uint64_t> exhausted_;  // (step << 32 | tree) a search found no node beyond
  std::vector<uint32_t> terminal_;  // search number: a switch with nodes entered from a switch
  std::vector<bool> has_nodes_;     // switches with a link to a node
  uint32_t search_ = 0;
  struct Hop {
    uint32_t link, dst;
  };
  std::vector<Hop> adj_;  // out-links of vertex v: adj_[adj_start_[v] .. adj_start_[v+1])
  std::vector<uint32_t> adj_start_;
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
  TreeBuilder builder(topo, opt.prioritize_height);
  const std::vector<Edge> edges = builder.build(CpuDeadline(opt.max_plan_seconds));
  const uint32_t n = topo.nodes();
  Plan plan = plan_header("multitree", topo, opt);
  plan.neighbour_only = topo.direct();
  plan.contention_free = true;
  plan.steps_per_phase = edges.empty() ? 0 : edges.back().step;  // line 15
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t f = 0; f < n; ++f) plan.flows.push_back({f, plan.ranges[f]});

  const uint32_t T = plan.steps_per_phase;
  // Lines 16-18: reduce-scatter is the all-gather reversed in time (and in allocation order
  // within a step), c -> p; all-gather moves after it. Calls fn(transfer, edge) in that order.
  auto each = [&](auto&& fn) {
    for (auto it = edges.rbegin(); it != edges.rend(); ++it) {
      if (plan.ranges[it->tree].size == 0) continue;  // fewer 16-byte grains than flows
      fn(Transfer{it->tree, it->child, it->parent, it->tree, T - it->step + 1, Op::kReduce}, *it);
    }
    for (const Edge& e : edges) {
      if (plan.ranges[e.tree].size == 0) continue;
      fn(Transfer{e.tree, e.parent, e.child, e.tree, T + e.step, Op::kGather}, e);
    }
  };
  // Stored sender by sender (each sender's transfers keep that order), so that per-node work
  // on large plans reads memory in sequence.
  std::vector<size_t> next(n + 1, 0);
  each([&](const Transfer& t, const Edge&) { ++next[t.src + 1]; });
  for (uint32_t v = 0; v < n; ++v) next[v + 1] += next[v];
  plan.transfers.resize(next[n]);
  if (!topo.direct()) plan.routes.resize(next[n]);
  each([&](const Transfer& t, const Edge& e) {
    const size_t i = next[t.src]++;
    plan.transfers[i] = t;
    if (topo.direct()) return;
    const auto first = builder.paths.begin() + e.path_begin, last = builder.paths.begin() + e.path_end;
    if (t.op == Op::kGather) {
      plan.routes[i].assign(first, last);
    } else {
      for (auto l = last; l != first;) plan.routes[i].push_back(reverse_link(topo, *--l));
    }
  });
  return plan;
}

}  // namespace mt
