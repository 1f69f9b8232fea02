// multitree-opt's shallow trees on one-link switch networks (BiGraph, two-level fat-tree), for
// small all-reduces with message flow control.
//
// Why. The N - 1-step plan (multitree_opt_switch.cpp) sends once per node and step, and each
// of its trees is the root's D children and a chain from each, (N - 1) / D nodes long, every
// node of a chain forwarding what arrived D steps before. A forward is a memory read, three
// links (node, switch, switch, node), the message and a memory write: about 650 cycles plus
// the message in the default configuration. Where D steps are shorter, every step waits for
// its forward and the phase takes about (N - 1) / D forwards: bigraph:4x16 at 64 KiB takes
// 42,226 cycles, where HDRM's 14 steps take 23,202. Shallow trees have few levels instead, each
// node sending several messages a step, so a phase waits for as many forwards as levels.
//
// Trees. One base tree over the offsets (dz, di) of Z_G x Z_K (switch_groups.hpp), rooted at
// (0, 0); the tree of root (z, j) is the base tree moved by (z, j), which maps the network onto
// itself (groups by z, a switch's nodes among themselves by j). A node has at most
// kShallowFanout children: the NI's scoreboard holds 4 senders per (op, flow) row
// (NiConfig::arrival_slots, the RTL's SLOTS), and a node's Reduce row holds its children. The
// tree is filled level by level, each level in three passes over its nodes: first each sends
// one child (the root up to kShallowFanout - 1) to a group the tree has not entered, one hop
// across; then each takes children from its own group; then from groups one hop away. So each
// group is entered once, early, and filled from within: on bigraph:4x16 the levels hold 1, 4,
// 16, 64 and 43 nodes, and 8 of the 127 edges cross between switches (3, 4 and 1 in the first
// three levels).
//
// Steps. All-gather step T + L carries the base edges into level L and reduce-scatter step
// T - L + 1 the same edges reversed, T the depth (4 on bigraph:4x16). Within a step every
// node sends along the level's base edges in one order, the same for every node: at each place
// in that order all nodes send along one base edge moved to them, a permutation of the nodes,
// so while the nodes keep step each receives one message at a time. The order is that of the
// edges' parents in the level before, so a node forwards first what it received first.
//
// When (shallow_trees_pay). multitree-opt takes these trees for a message-based run whose
// chunks are whole 256-byte lines, when the N - 1-step plan waits for its forwards and the
// shallow trees are estimated faster. With f the flits of a chunk and the default
// configuration's memory and link latencies (100 and 150 cycles; the torus planner estimates
// its steps the same way, multitree_opt.cpp, StepCost), a step of the N - 1-step plan is at
// least a chunk and a memory read, f + 100, and a forward between switches is a memory read,
// three links (four on a fat-tree, through a top switch), the message and a memory write:
// F = 650 + f (800 + f). The N - 1-step plan waits when D (f + 100) < F, and a phase then
// takes about
//   (N - 1) max(f + 100, F / D);
// a phase of shallow trees takes, level by level, the messages its busiest link carries
// (each node's own link carries the level's edges; a link between switches, or a fat-tree
// leaf's link to a top switch, K messages for each of the level's crossings it takes) and a
// forward:  sum over levels (load (f + 1) + F).  At 1 MiB on bigraph:1x2 the N - 1-step
// plan waits (D = 1) but the link between the two switches carries 4 messages a node where a
// node's own carries 3, and the N - 1-step plan is kept (102,385 cycles against 163,960).
// Packet-based runs keep the N - 1-step plan: a node's one link delivers every message to one
// ejection port, which holds 4 packet-mode messages open at once (NiConfig::packet_messages,
// the RTL's PKT_MSGS), and a level's messages arrive together. Chunks below a line put several
// flows in one line, whose Reduces wait for each other in the NI's interlock, and the messages
// open at once pass the NI's 32 (NiConfig::open_messages).
#include "algorithms/multitree_opt_shallow.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "algorithms/algorithms.hpp"

namespace mt {
namespace {

constexpr uint32_t kShallowFanout = 4;
constexpr uint32_t kNone = ~0u;
// The default configuration's memory and link latencies (file comment, "When").
constexpr double kMemoryCycles = 100;
constexpr double kLinkCycles = 150;

// The base tree over offsets, offset (dz, di) as index dz * K + di; the root is 0.
struct ShallowTree {
  std::vector<uint32_t> parent, level;  // per offset
  std::vector<std::vector<uint32_t>> levels;  // levels[L]: the offsets of level L, in step order
};

class ShallowTreeBuilder {
 public:
  explicit ShallowTreeBuilder(const SwitchGroups& g)
      : g_(g), G_(g.groups()), K_(g.per_group()), entered_(G_, false) {
    const uint32_t n = G_ * K_;
    t_.parent.assign(n, kNone);
    t_.level.assign(n, kNone);
    children_.assign(n, 0);
    t_.level[0] = 0;
    t_.levels.push_back({0});
    entered_[0] = true;
    placed_ = 1;
  }

  ShallowTree build() {
    while (placed_ < G_ * K_) {
      const std::vector<uint32_t>& last = t_.levels.back();
      std::vector<uint32_t> next;
      for (uint32_t p : last) enter_groups(p, next);
      for (uint32_t p : last) fill_from(p, p / K_, next);
      for (uint32_t p : last) {
        for (uint32_t d = 1; d < G_ && children_[p] < kShallowFanout; ++d) {
          if (g_.one_hop(d)) fill_from(p, (p / K_ + d) % G_, next);
        }
      }
      if (next.empty()) throw std::logic_error("multitree-opt: a shallow tree level added no node");
      t_.levels.push_back(std::move(next));
    }
    return std::move(t_);
  }

 private:
  // First pass: one child (the root up to kShallowFanout - 1) in a group not yet entered.
  void enter_groups(uint32_t p, std::vector<uint32_t>& next) {
    const uint32_t most = p == 0 ? kShallowFanout - 1 : 1;
    uint32_t crossed = 0;
    for (uint32_t d = 1; d < G_ && crossed < most; ++d) {
      const uint32_t z = (p / K_ + d) % G_;
      if (!g_.one_hop(d) || entered_[z]) continue;
      add(p, free_node(z, p % K_), next);
      ++crossed;
    }
  }
  // Children of p from group z while it has room and z has nodes left.
  void fill_from(uint32_t p, uint32_t z, std::vector<uint32_t>& next) {
    for (uint32_t v; children_[p] < kShallowFanout && (v = free_node(z, p % K_ + 1)) != kNone;) {
      add(p, v, next);
    }
  }
  // The first node of group z not in the tree, from local `from` on.
  uint32_t free_node(uint32_t z, uint32_t from) const {
    for (uint32_t k = 0; k < K_; ++k) {
      const uint32_t v = z * K_ + (from + k) % K_;
      if (t_.level[v] == kNone) return v;
    }
    return kNone;
  }
  void add(uint32_t p, uint32_t v, std::vector<uint32_t>& next) {
    t_.parent[v] = p;
    t_.level[v] = t_.level[p] + 1;
    entered_[v / K_] = true;
    ++children_[p];
    ++placed_;
    next.push_back(v);
  }

  const SwitchGroups& g_;
  uint32_t G_, K_;
  ShallowTree t_;
  std::vector<bool> entered_;
  std::vector<uint32_t> children_;
  uint32_t placed_ = 0;
};

// Each level in its step order: its edges in the order of their parents in the level before.
void order_levels(ShallowTree& t) {
  std::vector<uint32_t> place(t.parent.size(), 0);
  for (auto& level : t.levels) {
    std::stable_sort(level.begin(), level.end(), [&](uint32_t a, uint32_t b) {
      return t.parent[a] != kNone && place[t.parent[a]] < place[t.parent[b]];
    });
    for (uint32_t i = 0; i < level.size(); ++i) place[level[i]] = i;
  }
}

// The base tree, each level in its step order.
ShallowTree shallow_tree(const SwitchGroups& g) {
  ShallowTree t = ShallowTreeBuilder(g).build();
  order_levels(t);
  return t;
}

// Messages the busiest link carries in level L's step, per node: a node's own link carries
// the level's edges; a switch-to-switch link (a BiGraph's) or a leaf's up or down link (a
// fat-tree's) the level's crossings that share it, once for each of the K locals.
uint32_t level_link_load(const ShallowTree& t, const SwitchGroups& g, uint32_t L) {
  const uint32_t G = g.groups(), K = g.per_group();
  std::map<std::pair<int, uint32_t>, uint32_t> shared;  // (link kind, offset) -> crossings
  const std::vector<uint32_t>& level = t.levels[L];
  for (uint32_t e = 0; e < level.size(); ++e) {
    const uint32_t c = level[e], p = t.parent[c];
    const uint32_t d = (c / K + G - p / K) % G;
    if (d == 0) continue;
    if (!g.fattree()) {
      ++shared[{0, d}];
    } else {
      const uint32_t up = e % G;  // the top switch's offset (route's direction)
      ++shared[{1, up}];
      ++shared[{2, (d + G - up) % G}];
    }
  }
  uint32_t load = static_cast<uint32_t>(level.size());
  for (const auto& [key, count] : shared) load = std::max(load, count * K);
  return load;
}

}  // namespace

bool shallow_trees_pay(const PlanOptions& opt, const SwitchGroups& g, uint32_t slack) {
  const uint32_t n = g.groups() * g.per_group();
  if (!opt.message_flow_control || opt.bytes < uint64_t{kChunkLineBytes} * n) return false;
  const double f = static_cast<double>(opt.bytes / n) / kChunkGrainBytes;
  // A forward across groups: a memory read, the links (node, switch, switch, node; a fat-tree
  // through a top switch: one more), the message and a memory write.
  const double links = g.fattree() ? 4 : 3;
  const double forward = 2 * kMemoryCycles + links * kLinkCycles + f, step = f + kMemoryCycles;
  if (slack * step >= forward) return false;  // the N - 1-step plan does not wait
  const double steps_phase = (n - 1) * std::max(step, forward / slack);
  const ShallowTree t = shallow_tree(g);
  double shallow_phase = 0;
  for (uint32_t L = 1; L < t.levels.size(); ++L) {
    shallow_phase += level_link_load(t, g, L) * (f + 1) + forward;
  }
  return shallow_phase < steps_phase;
}

Plan build_multitree_opt_shallow(const Topology& topo, const PlanOptions& opt,
                                 const SwitchGroups& g) {
  const ShallowTree base = shallow_tree(g);
  const uint32_t n = topo.nodes(), G = g.groups(), K = g.per_group();
  const uint32_t T = static_cast<uint32_t>(base.levels.size()) - 1;
  Plan plan = plan_header("multitree-opt", topo, opt);
  plan.neighbour_only = false;
  plan.contention_free = false;  // a node sends several messages a step
  plan.steps_per_phase = T;
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t f = 0; f < n; ++f) plan.flows.push_back({f, plan.ranges[f]});
  // Sender by sender (as build_multitree), each in step order: reduce-scatter from the last
  // level up, then all-gather from the first down; within a step, the level's order.
  for (uint32_t src = 0; src < n; ++src) {
    const uint32_t zs = g.group_of(src), is = src % K;
    for (uint32_t s = 1; s <= 2 * T; ++s) {
      const bool gather = s > T;
      const uint32_t L = gather ? s - T : T - s + 1;
      for (uint32_t e = 0; e < base.levels[L].size(); ++e) {
        const uint32_t c = base.levels[L][e], p = base.parent[c];
        const uint32_t held = gather ? p : c;  // the offset src is in this tree
        const uint32_t z = (zs + G - held / K) % G, j = (is + K - held % K) % K;
        const uint32_t root = g.node(z, j);
        if (plan.ranges[root].size == 0) continue;  // fewer 16-byte grains than flows
        const uint32_t pa = (z + p / K) % G, ca = (z + c / K) % G;
        const uint32_t pn = g.node(pa, (j + p % K) % K), cn = g.node(ca, (j + c % K) % K);
        // A crossing's top switch on a fat-tree by its place in the level, to spread them.
        std::vector<uint32_t> route = g.route(pn, pa, cn, ca, e % G);
        if (gather) {
          plan.transfers.push_back(Transfer{root, pn, cn, root, s, Op::kGather});
          plan.routes.push_back(std::move(route));
        } else {
          plan.transfers.push_back(Transfer{root, cn, pn, root, s, Op::kReduce});
          plan.routes.push_back(reversed(topo, route));
        }
      }
    }
  }
  return plan;
}

}  // namespace mt
