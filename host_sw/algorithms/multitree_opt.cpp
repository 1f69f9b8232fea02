// MultiTree with the fewest steps per phase on a torus (and on a ring, a torus one node wide):
// the step lower bound max(diameter, ceil((N - 1) / links per node)) of DESIGN.md, wherever
// the search below finds it. The plan has the shape of Algorithm 1's (paper §III-C): a tree
// per root over every node, one-hop edges, a reduce-scatter phase and an all-gather phase,
// no directed link used twice in a step, so the same verifier, compiler and NI run it.
//
// A torus is vertex-transitive: moving every node by one offset (x + a, y + b) maps the
// network onto itself, link directions included. So one all-gather tree is built, rooted at
// node 0, each edge labelled with its step and its direction (x-1, x+1, y-1, y+1; a dimension
// of size 2 has one direction, its two links being one; a dimension of size 1 none), and the
// tree of root r is that tree moved by r's offset. When no two edges of the base tree share a
// (step, direction), no link carries two transfers in a step: link (v, d) at step s belongs
// to the base edge (u, d, s) moved by v - u, that is to the one tree rooted at v - u.
// Algorithm 1 keeps its trees apart by taking links out of each step's graph (lines 9-12);
// here one tree keeps apart from its own moved copies.
//
// The base tree grows greedily, a step at a time; as in Algorithm 1 only nodes that joined at
// an earlier step send (line 9). In each step every direction sends once, from a node of the
// tree to a node the tree lacks, the node farthest from the root first (ties broken by a hash
// of the node and the attempt number). Far nodes first leaves the near ones for the last
// steps; their neighbours are all in the tree by then, so every direction still finds a node
// to send to, and no step leaves idle a direction the bound needs.
//
// In the NI a send waits for the data it forwards, which arrives a memory read, a link and a
// memory write after its sender sent it (systemc/ni/README.md), and in lockstep the whole step
// waits with it. So a step sends only from nodes that joined some steps before (its gap) when
// that keeps every direction busy, the largest gap up to a limit first, then smaller ones,
// down to nodes that joined in the step before (a tight step). How many steps of slack a
// forward needs depends on how long a step lasts, that is on the chunk size: StepCost
// estimates each step's wait from its gap for the plan's size. In reduce-scatter, reduce step
// T - t + 1 waits as all-gather step t + 1 does. Step 2 is always tight (the root has sent to
// every neighbour in step 1). On torus:8x8 at 2 MiB only step 2 is tight (grown far-first
// alone, about ten steps were); on torus:16x16 at 32 KiB the all-reduce takes 17,497 cycles in
// mtsim (Algorithm 1: 20,636; trees whose steps have a gap of 2 at most: 25,112).
//
// kTieOrders tie orders for each gap limit of kMaxGaps are tried, and the tree with the fewest
// steps, then the least estimated waiting, then the fewest tight steps is kept. An attempt
// never beats the bound; the plan states its steps per phase and mtc and mtsim print the bound
// beside them: every torus from 1x2 to 24x24 reaches it, and so do 3x100, 2x200, 5x99, 32x32,
// 48x48 and 64x64. Where a torus's diameter is the bound (4x4) the paths to the farthest nodes
// must send in every step, and every step is tight.
//
// The reduce-scatter is the all-gather reversed in time (Algorithm 1, lines 16-18): the edge
// p -> c of all-gather step t becomes c -> p at step T - t + 1, and the all-gather moves to
// step T + t. The reversed edges use the opposite directions, still one per (step, direction).
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/multitree_opt_switch.hpp"
#include "common/cpu_deadline.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
// Tie orders tried for each largest gap (file comment).
constexpr uint32_t kTieOrders = 16;
constexpr uint32_t kMaxGaps[] = {2, 3, 4, 6};
constexpr uint32_t kAttempts = kTieOrders * (sizeof(kMaxGaps) / sizeof(kMaxGaps[0]));

// A torus (or ring) as a group of offsets: node y * W + x is the offset (x, y), a direction
// is an offset of one hop, and moving node v by node r adds their offsets.
class TorusMoves {
 public:
  explicit TorusMoves(const Topology& topo) : w_(topo.width()), h_(topo.height()) {
    if (!(topo.kind() == TopologyKind::kTorus || topo.kind() == TopologyKind::kRing)) {
      throw InputError(fmt::format(
          "multitree-opt: topology {} is not a torus, ring, BiGraph or two-level fat-tree "
          "(multitree-opt moves one tree to every root, which needs a network that looks the "
          "same from every node; use multitree there)", topo.spec()));
    }
    if (!topo.failed_links().empty()) {
      throw InputError(fmt::format(
          "multitree-opt: topology {} has failed links (multitree-opt moves one tree to every "
          "root, which needs a network that looks the same from every node, and the failed "
          "links break that; multitree plans around them)", topo.spec()));
    }
    add_dimension(w_, 1, 0);
    add_dimension(h_, 0, 1);
  }

  uint32_t nodes() const { return w_ * h_; }
  uint32_t directions() const { return static_cast<uint32_t>(moves_.size()); }
  // v's neighbour in direction d.
  uint32_t neighbour(uint32_t v, uint32_t d) const {
    return at(v % w_ + moves_[d].dx, v / w_ + moves_[d].dy);
  }
  // v moved by the offset of node r: where tree r has the base tree's node v.
  uint32_t shift(uint32_t v, uint32_t r) const { return at(v % w_ + r % w_, v / w_ + r / w_); }
  // Hops from node 0 to v.
  uint32_t hops(uint32_t v) const {
    const uint32_t x = v % w_, y = v / w_;
    return std::min(x, w_ - x) + std::min(y, h_ - y);
  }

 private:
  struct Move {
    uint32_t dx, dy;  // added modulo the sides: W - 1 is one step down
  };

  void add_dimension(uint32_t size, uint32_t ux, uint32_t uy) {
    if (size >= 3) moves_.push_back({ux * (w_ - 1), uy * (h_ - 1)});
    if (size >= 2) moves_.push_back({ux, uy});
  }
  uint32_t at(uint32_t x, uint32_t y) const { return (y % h_) * w_ + x % w_; }

  uint32_t w_, h_;
  std::vector<Move> moves_;
};

struct BaseEdge {  // all-gather edge parent -> child of the base tree
  uint32_t parent, child, step, direction;
};

// A fixed pseudo-random 32-bit value for (attempt, node): the tie-break, the same on every
// machine (splitmix64).
uint32_t tie_break(uint64_t attempt, uint32_t v) {
  uint64_t z = (attempt << 32 | v) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
}

// What a step of the lockstep NI waits for data, estimated from how many steps before its
// youngest sender joined (its gap). A forwarded message's data can leave about
// `forward_cycles` after it was sent: the default configuration's memory read (100 cycles),
// link (150) and memory write (100), about 20 cycles of NI pipeline, and the message's flits.
// A step that waits for nothing lasts `step_cycles`: its flits and the 100-cycle memory read
// of its first burst. The flits a forward waits for are counted up to 128, an empirical
// limit: the whole message (or the NI buffer's 318 flits) picked trees with more tight steps
// on torus:8x8 at 512 KiB, 18,841 cycles against 18,534. The estimate only orders trees that
// all reach the step bound; in mtsim on torus:16x16 at 32 KiB (8 flits a step) steps last
// 107 cycles with a gap of 5 or more, 164, 271, 378 and 485 with gaps 4, 3, 2 and 1.
struct StepCost {
  double step_cycles, forward_cycles;
  StepCost(uint64_t bytes, uint32_t nodes) {
    const double flits = std::ceil(double(bytes) / std::max(1u, nodes) / kChunkGrainBytes);
    step_cycles = flits + 100;
    forward_cycles = 370 + std::min(flits, 128.0);
  }
  double wait(uint32_t gap) const {
    return std::max(0.0, forward_cycles - (gap - 1) * step_cycles);
  }
};

struct BaseTree {
  std::vector<BaseEdge> edges;  // in step order
  uint32_t steps = 0;
  double wait_cycles = 0;    // the steps' estimated waits (StepCost), each phase
  uint32_t tight_steps = 0;  // steps 2.. in which a node sends what it received the step before
};

// One greedy attempt at the base tree (file comment): each step sends from the nodes that
// joined `max_gap` or more steps before if that keeps every direction busy, else from those
// one step younger, and so on down to every node that joined before the step.
class TreeGrower {
 public:
  TreeGrower(const TorusMoves& g, uint32_t attempt, uint32_t max_gap)
      : g_(g), max_gap_(max_gap), key_(g.nodes()), joined_(g.nodes(), kNone), live_{0} {
    for (uint32_t v = 0; v < g.nodes(); ++v) {
      key_[v] = uint64_t{g.hops(v)} << 32 | tie_break(attempt, v);
    }
    joined_[0] = 0;
  }

  // The tree, or one with no edges once `max_steps` steps did not span the network.
  BaseTree grow(uint32_t max_steps, const StepCost& cost) {
    const uint32_t n = g_.nodes();
    BaseTree tree;
    tree.edges.reserve(n - 1);
    for (uint32_t step = 1; tree.edges.size() + 1 < n; ++step) {
      if (step > max_steps) return {};
      const size_t busy = std::min<size_t>(g_.directions(), n - 1 - tree.edges.size());
      std::vector<BaseEdge> picked;
      for (uint32_t gap = std::min(max_gap_, step); gap >= 1 && picked.size() < busy; --gap) {
        picked = pick(step, step - gap);
      }
      if (picked.empty()) throw std::logic_error("multitree-opt: a step added no node");
      uint32_t gap = step;
      for (const BaseEdge& e : picked) gap = std::min(gap, step - joined_[e.parent]);
      tree.wait_cycles += cost.wait(gap);
      tree.tight_steps += step >= 2 && gap == 1 ? 1 : 0;
      for (const BaseEdge& e : picked) {
        joined_[e.child] = step;
        live_.push_back(e.child);
        tree.edges.push_back(e);
      }
      prune();
      tree.steps = step;
    }
    return tree;
  }

 private:
  // At most one edge per direction, each from a member that joined at step `latest` or
  // before to a distinct node outside, the farthest first.
  std::vector<BaseEdge> pick(uint32_t step, uint32_t latest) const {
    std::vector<BaseEdge> picked;
    std::vector<bool> sent(g_.directions(), false);
    auto taken = [&](uint32_t c) {
      if (joined_[c] != kNone) return true;
      for (const BaseEdge& e : picked) {
        if (e.child == c) return true;
      }
      return false;
    };
    for (uint32_t round = 0; round < g_.directions(); ++round) {
      BaseEdge best{kNone, kNone, step, kNone};
      for (uint32_t u : live_) {
        if (joined_[u] > latest) break;  // live_ is in joining order
        for (uint32_t d = 0; d < g_.directions(); ++d) {
          const uint32_t c = g_.neighbour(u, d);
          if (sent[d] || (best.child != kNone && key_[c] <= key_[best.child]) || taken(c)) continue;
          best = {u, c, step, d};
        }
      }
      if (best.child == kNone) break;  // no direction left with a node to send to
      sent[best.direction] = true;
      picked.push_back(best);
    }
    return picked;
  }

  // Members with every neighbour in the tree never send again.
  void prune() {
    live_.erase(std::remove_if(live_.begin(), live_.end(), [&](uint32_t v) {
      for (uint32_t d = 0; d < g_.directions(); ++d) {
        if (joined_[g_.neighbour(v, d)] == kNone) return false;
      }
      return true;
    }), live_.end());
  }

  const TorusMoves& g_;
  const uint32_t max_gap_;
  std::vector<uint64_t> key_;     // the farther, the sooner; then the tie-break
  std::vector<uint32_t> joined_;  // the step a node joined at; kNone outside the tree
  std::vector<uint32_t> live_;    // members that may still have a neighbour outside
};

// The best base tree over the attempts, kTieOrders tie orders for each largest gap of
// kMaxGaps: the fewest steps, then the least estimated waiting, then the fewest tight steps.
BaseTree search_tree(const TorusMoves& g, uint32_t bound, const StepCost& cost,
                     const CpuDeadline& deadline, const std::string& spec) {
  BaseTree best;
  best.steps = kNone;
  auto better = [](const BaseTree& a, const BaseTree& b) {
    return std::tie(a.steps, a.wait_cycles, a.tight_steps) <
           std::tie(b.steps, b.wait_cycles, b.tight_steps);
  };
  uint32_t tried = 0;
  for (uint32_t max_gap : kMaxGaps) {
    for (uint32_t attempt = 0; attempt < kTieOrders; ++attempt, ++tried) {
      if (deadline.passed()) {
        const std::string found = best.edges.empty()
                                      ? std::string("no tree yet")
                                      : fmt::format("best {} steps per phase", best.steps);
        throw InputError(fmt::format(
            "topology {}: searching the multitree-opt tree took more than the {:g} s limit "
            "({} of {} attempts, {}, the bound {}; mtc and mtsim --time-limit set it)", spec,
            deadline.seconds(), tried, kAttempts, found, bound));
      }
      BaseTree tree = TreeGrower(g, attempt, max_gap).grow(best.steps, cost);
      if (!tree.edges.empty() && better(tree, best)) best = std::move(tree);
    }
  }
  return best;
}

// The base edges in the order each phase sends them: by step, and within a step the send
// whose data is ready first goes first, since a node's table issues its entries in order and
// one that waits holds back those behind it (systemc/ni/README.md, "Control"). A Gather is
// ready when its sender's own Gather arrived: the step the sender joined. A Reduce is ready
// when its sender's children's Reduces arrived, the last of them sent in reduce step
// T + 1 - (the step of the sender's first child), a leaf's at once.
struct PhaseOrders {
  std::vector<BaseEdge> reduce, gather;
};

PhaseOrders phase_orders(const std::vector<BaseEdge>& tree, uint32_t n, uint32_t T) {
  std::vector<uint32_t> joined(n, 0), first_child(n, kNone);
  for (const BaseEdge& e : tree) {
    joined[e.child] = e.step;
    first_child[e.parent] = std::min(first_child[e.parent], e.step);
  }
  auto reduce_ready = [&](const BaseEdge& e) {
    return first_child[e.child] == kNone ? 0 : T + 1 - first_child[e.child];
  };
  PhaseOrders o{{tree.rbegin(), tree.rend()}, tree};
  std::stable_sort(o.reduce.begin(), o.reduce.end(), [&](const BaseEdge& a, const BaseEdge& b) {
    return std::make_pair(T - a.step, reduce_ready(a)) < std::make_pair(T - b.step, reduce_ready(b));
  });
  std::stable_sort(o.gather.begin(), o.gather.end(), [&](const BaseEdge& a, const BaseEdge& b) {
    return std::make_pair(a.step, joined[a.parent]) < std::make_pair(b.step, joined[b.parent]);
  });
  return o;
}

// max(diameter, ceil((N - 1) / links per node)), as the verifier states it.
uint32_t step_lower_bound(const Topology& topo) {
  const uint32_t n = topo.nodes(), degree = std::max(1u, topo.min_node_degree());
  return std::max(topo.diameter(), (n - 1 + degree - 1) / degree);
}

}  // namespace

double multitree_opt_search_seconds(double nodes, double steps_per_phase) {
  // An attempt looks at each member still sending, every direction, every step: about 5 ns a
  // node, step and attempt with mtc on this 2-core machine (torus:64x64, 64 attempts, 1.3 s
  // of processor time; torus:8x512, 0.8 s); 6 allows for a loaded machine.
  return kAttempts * nodes * steps_per_phase * 6e-9;
}

Plan build_multitree_opt(const Topology& topo, const PlanOptions& opt) {
  if (!topo.direct()) return build_multitree_opt_switch(topo, opt);
  const TorusMoves moves(topo);
  const std::vector<BaseEdge> tree =
      search_tree(moves, step_lower_bound(topo), StepCost(opt.bytes, topo.nodes()),
                  CpuDeadline(opt.max_plan_seconds), topo.spec())
          .edges;
  const uint32_t n = topo.nodes();
  Plan plan = plan_header("multitree-opt", topo, opt);
  plan.neighbour_only = true;
  plan.contention_free = true;
  plan.steps_per_phase = tree.empty() ? 0 : tree.back().step;
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t f = 0; f < n; ++f) plan.flows.push_back({f, plan.ranges[f]});

  const uint32_t T = plan.steps_per_phase;
  // Tree r is the base tree moved by r. Reduce-scatter: the all-gather reversed in time
  // (lines 16-18), then the all-gather; in each, base edge by base edge in phase_orders'
  // order, trees by root ascending. Calls fn(transfer) in that order.
  const PhaseOrders order = phase_orders(tree, n, T);
  auto each = [&](auto&& fn) {
    for (const BaseEdge& e : order.reduce) {
      for (uint32_t r = 0; r < n; ++r) {
        if (plan.ranges[r].size == 0) continue;  // fewer 16-byte grains than flows
        fn(Transfer{r, moves.shift(e.child, r), moves.shift(e.parent, r), r, T - e.step + 1,
                    Op::kReduce});
      }
    }
    for (const BaseEdge& e : order.gather) {
      for (uint32_t r = 0; r < n; ++r) {
        if (plan.ranges[r].size == 0) continue;
        fn(Transfer{r, moves.shift(e.parent, r), moves.shift(e.child, r), r, T + e.step,
                    Op::kGather});
      }
    }
  };
  // Stored sender by sender, each sender's transfers in that order (as build_multitree).
  std::vector<size_t> next(n + 1, 0);
  each([&](const Transfer& t) { ++next[t.src + 1]; });
  for (uint32_t v = 0; v < n; ++v) next[v + 1] += next[v];
  plan.transfers.resize(next[n]);
  each([&](const Transfer& t) { plan.transfers[next[t.src]++] = t; });
  return plan;
}

}  // namespace mt
