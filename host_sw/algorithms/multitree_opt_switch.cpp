// multitree-opt on one-link switch networks (BiGraph, two-level fat-tree): N - 1 steps per
// phase, the bound of a network where every node has one link (N - 1 messages in, N - 1 out).
// The plan has Algorithm 1's shape (paper §III-C): a tree per root over every node, edges
// between tree members, the reduce-scatter the all-gather reversed in time (lines 16-18), no
// directed link used twice in a step; so the same verifier, compiler and NI run it.
//
// Reaching N - 1 leaves no slack: in every step every node sends exactly once and receives
// exactly once, and no switch-to-switch link carries two messages. Algorithm 1's trees take
// turns for the free links of each step (lines 7-14); on bigraph:4x8 (eight nodes on a switch,
// four links to the other half) the first trees to look take a switch's links, the others
// find none and wait a step, and the phase takes 105 steps. Here each step's transfers are
// laid out in advance, as in an all-to-all schedule.
//
// Groups. The switches with nodes (a BiGraph's switches, a fat-tree's leaves) are G groups of
// K nodes, the group numbers a cyclic group Z_G in which moving every group by an offset maps
// the network onto itself: on a BiGraph group z is upper switch z/2 when z is even and lower
// switch S + z/2 when odd (so an odd offset is a hop across the halves, every upper switch
// being linked to every lower one); on a fat-tree group z is leaf z, every leaf linked to
// every top switch. Node (z, i) is local i of group z. A hop from group z to group z + d
// with d a unit of Z_G (a "direction"; odd on a BiGraph) takes one switch-to-switch link on a
// BiGraph, and on a fat-tree the up link to top switch z + h and the down link from it, h
// the direction's index: directions 1, 3, 5, ... with h = 0, 1, 2, ... give distinct up and
// down offsets. So in a step where every group sends one message in each of several distinct
// directions, no link carries two.
//
// Trees. The tree of root (z, j) is base tree j moved by z. Base tree j is rooted at (0, j),
// and in all-gather step t (1 <= t <= N - 1) it adds one node, of local j + t (mod K), from
// the node it added in step t - D (the root when t <= D):
//   group(j, t) = ((t + K - (j + 1)) div K) * d_j   (mod G),   d_j = direction (j mod m)
// Steps that share t mod K take distinct groups (the quotient runs over G consecutive values
// and d_j is a unit), so the tree holds every node once. The quotient moves up by one every
// K steps: the base tree walks its groups in direction d_j, a block of K steps on each, and
// the D steps after a block ends cross to the next group (one hop in direction d_j); the
// others stay on the group's switch. Tree j's blocks start at steps = j + 1 (mod K), so in
// each step the trees crossing are D consecutive ones mod K; their directions differ when
// D <= m and m divides K. m is the largest divisor of K up to the number of directions the
// network has (odd units of Z_2S on bigraph:SxK, 4 on bigraph:4x8; on a fat-tree those whose
// down offsets differ), and D = min(m, K - 1): 4 on bigraph:4x16 (bigraph:4x8 takes the
// labelled trees of "Slack" below).
//
// Every node sends and receives exactly once a step: in step t base tree j sends from local
// j + max(t - D, 0) to local j + t, one tree for each local, and the moved copies one for
// each group. A sender forwards what it received D steps before (the root its own data), so
// no step waits for a forward (the torus planner's gap, multitree_opt.cpp) once D steps
// outlast a memory read, a link and a memory write; each tree is the root's D children and
// a chain from each. The reduce-scatter reverses the all-gather: the edge p -> c of step t
// becomes c -> p at step T - t + 1, on the reversed route, again one message per link.
//
// Slack. A forward waits for its data: a memory read, three links (node, switch, switch,
// node) and a memory write, about 700 cycles at 64 KiB on bigraph:4x8 (mtsim), where a step
// lasts 107; D = 4 steps do not cover it and every fourth step waits. The walking trees
// cannot take D above the number of directions, since D trees cross in every step. On a
// BiGraph with as many nodes on a switch as switches (K = G, every odd offset a direction,
// S = K / 2 of them: bigraph:4x8, bigraph:2x4) the trees are laid out by labels instead, with
// D = K - 1. A base tree adds in step t (1..N-1) the node of local j + t (mod K) from the node
// it added in step t - D (the root up to D), as above, so every node still sends and receives
// once a step; what is free is the group of each step, a label L(t) in Z_G (L(0) = 0), with
// two rules: a group's K steps have distinct locals (t mod K), and where L(t) differs from
// its parent's label (a crossing) the two differ by an odd offset (one link across). The
// tree of root (z, j) takes template j mod 2 with every label multiplied by direction
// d = j / 2: group z + d L(t). Two templates, A and B, cross at disjoint steps, and the S
// trees of a template cross at its crossing steps with offsets d * (L(t) - L(t - D)), distinct
// for distinct d: one message per link. Template A is built: step r + e D is row r (1..K-1)
// and column e; column 0 and the root are group 0 (locals 0..K-1); rows r and r + K/2 share
// an odd group in columns 1..K/2 and an even group after, row K/2 one odd group throughout
// (its K steps have K locals); it crosses 2K - 3 times. Template B is found by a depth-first
// search over the steps in order that keeps a step on its parent's group where it can and
// crosses only at steps A does not (bigraph:4x8: 31 crossings, 2,191 steps visited); if the
// search gives up (kLabelSearchBudget) the walking trees are kept. Which trees take which
// template matters in mtsim although the links each step uses do not: template j / S instead
// of j mod 2 gives 145,322 cycles at 1 MiB on bigraph:4x8 against 138,239, and 585,454 at
// 4 MiB against 525,532. bigraph:4x16 (K = 2G) keeps the walking trees: docs/mtc.md.
//
// Small message-based all-reduces, where D steps are shorter than a forward and the chains
// wait, take shallow trees instead (multitree_opt_shallow.cpp, "When").
//
// Networks this does not fit are refused: K = 1 (no switch-local hop to stay on), fat-trees
// of three or more levels (a leaf-to-leaf route is not one top switch), files.
#include "algorithms/multitree_opt_switch.hpp"

#include <optional>
#include <utility>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/multitree_opt_shallow.hpp"
#include "algorithms/switch_groups.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

// Walking base trees (file comment, "Trees"): base tree j adds, in all-gather step t, the node
// of group group(j, t) and local local(j, t), from the node it added in step parent_step(t).
struct BaseTrees {
  uint32_t G, K, m, D;
  std::vector<uint32_t> dirs;  // d_j = dirs[j % m]

  explicit BaseTrees(const SwitchGroups& g) : G(g.groups()), K(g.per_group()), m(1) {
    for (uint32_t c = 1; c <= std::min(K, g.directions()); ++c) {
      if (K % c == 0) m = c;
    }
    D = std::min(m, K - 1);
    for (uint32_t i = 0; i < m; ++i) dirs.push_back(g.direction(i));
  }
  uint32_t group(uint32_t j, uint32_t t) const {
    return static_cast<uint32_t>((uint64_t{(t + K - (j + 1)) / K} * dirs[j % m]) % G);
  }
};

// Labelled base trees (file comment, "Slack"): steps 0..N-1, each labelled with a group of
// Z_G, the root (step 0) with group 0; step t's parent is step t - D (the root up to D).
using Labels = std::vector<uint32_t>;

uint32_t slack_parent(uint32_t t, uint32_t D) { return t > D ? t - D : 0; }

// The steps at which a labelled tree crosses (its node's group differs from its parent's).
std::vector<uint32_t> crossing_steps(const Labels& label, uint32_t D) {
  std::vector<uint32_t> steps;
  for (uint32_t t = 1; t < label.size(); ++t) {
    if (label[t] != label[slack_parent(t, D)]) steps.push_back(t);
  }
  return steps;
}

// Template A (file comment): K = G even, D = K - 1. Step r + e D is row r (1..K-1), column
// e (0..K); its local is r - e (mod K). Column 0 is group 0 with the root; rows r and r + K/2
// (r < K/2) share odd group 2r - 1 in columns 1..K/2 and even group 2r after; row K/2 keeps
// odd group K - 1 in columns 1..K.
Labels paired_rows(uint32_t K) {
  const uint32_t D = K - 1, h = K / 2;
  Labels label(size_t{K} * K, 0);
  for (uint32_t r = 1; r < K; ++r) {
    for (uint32_t e = 1; e <= K; ++e) {
      const uint32_t base = r < h ? r : r - h;  // the pair's index, 1..h-1 (r != h)
      label[r + e * D] = r == h ? K - 1 : 2 * base - (e <= h ? 1 : 0);
    }
  }
  return label;
}

// Template B (file comment): a depth-first search, step by step, for labels that cross
// only where `taken` is false. A step keeps its parent's group if that group still lacks
// the step's local, else (or on backtracking) it crosses to a group of the other half that
// lacks it; groups not used yet are interchangeable within a half, so only the first of each
// half is tried. Gives up after `budget` visited steps.
class LabelSearch {
 public:
  LabelSearch(uint32_t G, uint32_t K, uint32_t D, std::vector<bool> taken, uint64_t budget)
      : G_(G), K_(K), D_(D), taken_(std::move(taken)), left_(budget), label_(size_t{G} * K, 0),
        has_(size_t{G} * K, false), used_(G, false) {
    has_[0] = used_[0] = true;  // the root: group 0, local 0
  }
  std::optional<Labels> run() {
    if (!step(1)) return std::nullopt;
    return label_;
  }

 private:
  bool step(uint32_t t) {
    if (t == label_.size()) return true;
    if (left_ == 0) return false;
    --left_;
    const uint32_t p = label_[slack_parent(t, D_)], local = t % K_;
    std::vector<uint32_t> options;
    if (!has(p, local)) options.push_back(p);
    bool fresh[2] = {false, false};
    for (uint32_t c = 0; c < G_ && !taken_[t]; ++c) {
      if (c % 2 == p % 2 || has(c, local) || (!used_[c] && std::exchange(fresh[c % 2], true))) {
        continue;
      }
      options.push_back(c);
    }
    for (uint32_t c : options) {
      const bool first = !used_[c];
      label_[t] = c;
      has_[c * K_ + local] = used_[c] = true;
      if (step(t + 1)) return true;
      has_[c * K_ + local] = false;
      used_[c] = !first;
    }
    return false;
  }
  bool has(uint32_t c, uint32_t local) const { return has_[c * K_ + local]; }

  uint32_t G_, K_, D_;
  std::vector<bool> taken_;
  uint64_t left_;
  Labels label_;
  std::vector<bool> has_, used_;
};

// Visited steps the template B search may take before multitree-opt keeps the walking trees
// (bigraph:4x8 needs 2,191; bigraph:2x4 34).
constexpr uint64_t kLabelSearchBudget = 1'000'000;

// The two templates with disjoint crossing steps where they apply (a BiGraph with as many
// nodes on a switch as switches, G = K, every odd offset a direction), else none.
std::vector<Labels> slack_templates(const Topology& topo, const SwitchGroups& g) {
  const uint32_t G = g.groups(), K = g.per_group();
  if (topo.kind() != TopologyKind::kBiGraph || K != G || 2 * g.directions() != K) return {};
  Labels a = paired_rows(K);
  std::vector<bool> taken(a.size(), false);
  for (uint32_t t : crossing_steps(a, K - 1)) taken[t] = true;
  std::optional<Labels> b = LabelSearch(G, K, K - 1, taken, kLabelSearchBudget).run();
  if (!b) return {};
  return {std::move(a), std::move(*b)};
}

// The trees of a plan: walking (BaseTrees) or labelled (tree j: template j mod 2, its groups
// multiplied by direction j / 2; file comment). Group and local of the node tree j adds in
// step t, the step its parent joined at, and the direction index of a crossing's route.
struct TreeLayout {
  const SwitchGroups& g;
  BaseTrees walk;
  std::vector<Labels> templates;
  uint32_t D;

  TreeLayout(const Topology& topo, const SwitchGroups& groups)
      : g(groups), walk(groups), templates(slack_templates(topo, groups)),
        D(templates.empty() ? walk.D : groups.per_group() - 1) {}

  uint32_t group(uint32_t j, uint32_t t) const {
    if (templates.empty()) return walk.group(j, t);
    return static_cast<uint32_t>(uint64_t{g.direction(j / 2)} * templates[j % 2][t] % g.groups());
  }
  uint32_t local(uint32_t j, uint32_t t) const { return (j + t) % g.per_group(); }
  uint32_t parent_step(uint32_t t) const { return slack_parent(t, D); }
  uint32_t dir(uint32_t j) const { return templates.empty() ? j % walk.m : 0; }
};

}  // namespace

Plan build_multitree_opt_switch(const Topology& topo, const PlanOptions& opt) {
  const SwitchGroups g(topo);
  const TreeLayout base(topo, g);
  // Small message-based runs, where these trees would wait for their forwards, take shallow
  // trees (multitree_opt_shallow.cpp).
  if (shallow_trees_pay(opt, g, base.D)) return build_multitree_opt_shallow(topo, opt, g);
  const uint32_t n = topo.nodes(), G = g.groups(), K = g.per_group(), T = n - 1;
  Plan plan = plan_header("multitree-opt", topo, opt);
  plan.neighbour_only = false;
  plan.contention_free = true;
  plan.steps_per_phase = T;
  plan.ranges = split_bytes(opt.bytes, n);
  for (uint32_t f = 0; f < n; ++f) plan.flows.push_back({f, plan.ranges[f]});

  // Reduce-scatter (all-gather step t reversed, at T - t + 1), then all-gather (at T + t); in
  // each, step by step, base tree by base tree, moved to every group. Calls fn(transfer, route).
  auto each = [&](auto&& fn) {
    for (int phase = 0; phase < 2; ++phase) {
      for (uint32_t s = 1; s <= T; ++s) {
        const uint32_t t = phase == 0 ? T - s + 1 : s, p = base.parent_step(t);
        for (uint32_t j = 0; j < K; ++j) {
          for (uint32_t z = 0; z < G; ++z) {
            const uint32_t root = g.node(z, j);
            if (plan.ranges[root].size == 0) continue;  // fewer 16-byte grains than flows
            const uint32_t pa = (z + base.group(j, p)) % G, ca = (z + base.group(j, t)) % G;
            const uint32_t pn = g.node(pa, base.local(j, p)), cn = g.node(ca, base.local(j, t));
            const Transfer gather{root, pn, cn, root, T + t, Op::kGather};
            if (phase == 1) {
              fn(gather, [&] { return g.route(pn, pa, cn, ca, base.dir(j)); });
            } else {
              fn(Transfer{root, cn, pn, root, s, Op::kReduce},
                 [&] { return reversed(topo, g.route(pn, pa, cn, ca, base.dir(j))); });
            }
          }
        }
      }
    }
  };
  // Stored sender by sender, each sender's transfers in that order (as build_multitree).
  std::vector<size_t> next(n + 1, 0);
  each([&](const Transfer& t, auto&&) { ++next[t.src + 1]; });
  for (uint32_t v = 0; v < n; ++v) next[v + 1] += next[v];
  plan.transfers.resize(next[n]);
  plan.routes.resize(next[n]);
  each([&](const Transfer& t, auto&& route) {
    const size_t i = next[t.src]++;
    plan.transfers[i] = t;
    plan.routes[i] = route();
  });
  return plan;
}

}  // namespace mt
