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
// down offsets differ), and D = min(m, K - 1): bigraph:4x8 and 4x16 take D = 4.
//
// Every node sends and receives exactly once a step: in step t base tree j sends from local
// j + max(t - D, 0) to local j + t, one tree for each local, and the moved copies one for
// each group. A sender forwards what it received D steps before (the root its own data), so
// no step waits for a forward (the torus planner's gap, multitree_opt.cpp) once D steps
// outlast a memory read, a link and a memory write; each tree is the root's D children and
// a chain from each. The reduce-scatter reverses the all-gather: the edge p -> c of step t
// becomes c -> p at step T - t + 1, on the reversed route, again one message per link.
//
// Networks this does not fit are refused: K = 1 (no switch-local hop to stay on), fat-trees
// of three or more levels (a leaf-to-leaf route is not one top switch), files.
#include "algorithms/multitree_opt_switch.hpp"

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

uint32_t gcd(uint32_t a, uint32_t b) { return b == 0 ? a : gcd(b, a % b); }

// The groups of a BiGraph or two-level fat-tree, their directions and the routes of hops.
class SwitchGroups {
 public:
  explicit SwitchGroups(const Topology& topo) : topo_(topo) {
    const bool bigraph = topo.kind() == TopologyKind::kBiGraph;
    if (bigraph) {
      groups_ = topo.switches();
    } else if (topo.kind() == TopologyKind::kFatTree && topo.fattree_levels() == 2) {
      groups_ = topo.fattree_arity();
    } else {
      throw InputError(fmt::format(
          "multitree-opt: topology {} is not a torus, ring, BiGraph or two-level fat-tree "
          "(multitree-opt moves one tree to every root, which needs a network that looks the "
          "same from every node; use multitree there)", topo.spec()));
    }
    per_group_ = topo.nodes() / groups_;
    if (per_group_ < 2) {
      throw InputError(fmt::format(
          "multitree-opt: topology {} has one node per switch (multitree-opt's trees stay on "
          "a switch between crossings, which needs two or more; use multitree there)",
          topo.spec()));
    }
    // Directions: units of Z_G (a unit walks every group); on a fat-tree also distinct down
    // offsets d - h, h the direction's index (the up offset).
    std::vector<bool> down(groups_, false);
    for (uint32_t d = 1; d < groups_; ++d) {
      if (gcd(d, groups_) != 1) continue;
      if (!bigraph) {
        const uint32_t off = (d + groups_ - static_cast<uint32_t>(dirs_.size()) % groups_) % groups_;
        if (down[off]) continue;
        down[off] = true;
      }
      dirs_.push_back(d);
    }
  }

  uint32_t groups() const { return groups_; }
  uint32_t per_group() const { return per_group_; }
  uint32_t directions() const { return static_cast<uint32_t>(dirs_.size()); }
  uint32_t direction(uint32_t i) const { return dirs_[i]; }

  uint32_t node(uint32_t group, uint32_t local) const { return switch_of(group) * per_group_ + local; }

  // The links of the all-gather hop from node `src` of group a to node `dst` of group b:
  // through their switch when a == b, else across by direction index `dir` (file comment).
  std::vector<uint32_t> route(uint32_t src, uint32_t a, uint32_t dst, uint32_t b,
                              uint32_t dir) const {
    const uint32_t n = topo_.nodes();
    std::vector<uint32_t> path{n + switch_of(a)};
    if (a != b && topo_.kind() == TopologyKind::kFatTree) {
      path.push_back(n + groups_ + (a + dir) % groups_);  // top switch a + h
    }
    if (a != b) path.push_back(n + switch_of(b));
    std::vector<uint32_t> links;
    uint32_t from = src;
    for (uint32_t v : path) {
      links.push_back(link(from, v));
      from = v;
    }
    links.push_back(link(from, dst));
    return links;
  }

 private:
  // A fat-tree's leaf z is switch z; a BiGraph's group z alternates between the halves.
  uint32_t switch_of(uint32_t z) const {
    if (topo_.kind() == TopologyKind::kFatTree) return z;
    return z % 2 == 0 ? z / 2 : groups_ / 2 + z / 2;
  }
  uint32_t link(uint32_t a, uint32_t b) const {
    const uint32_t l = topo_.first_link(a, b);
    if (l == Topology::kNoLink) throw std::logic_error("multitree-opt: hop between unlinked vertices");
    return l;
  }

  const Topology& topo_;
  uint32_t groups_ = 0, per_group_ = 0;
  std::vector<uint32_t> dirs_;
};

// The route of `links` walked backwards: each link's opposite direction, last first.
std::vector<uint32_t> reversed(const Topology& topo, const std::vector<uint32_t>& links) {
  std::vector<uint32_t> back;
  for (auto l = links.rbegin(); l != links.rend(); ++l) {
    back.push_back(topo.first_link(topo.links()[*l].dst, topo.links()[*l].src));
  }
  return back;
}

// Base tree j's walk (file comment): the group and local of the node it adds in all-gather
// step t (t = 0: the root), and the step its parent joined at.
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
  uint32_t local(uint32_t j, uint32_t t) const { return (j + t) % K; }
  uint32_t parent_step(uint32_t t) const { return t > D ? t - D : 0; }
};

}  // namespace

Plan build_multitree_opt_switch(const Topology& topo, const PlanOptions& opt) {
  const SwitchGroups g(topo);
  const BaseTrees base(g);
  const uint32_t n = topo.nodes(), G = base.G, K = base.K, T = n - 1;
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
              fn(gather, [&] { return g.route(pn, pa, cn, ca, j % base.m); });
            } else {
              fn(Transfer{root, cn, pn, root, s, Op::kReduce},
                 [&] { return reversed(topo, g.route(pn, pa, cn, ca, j % base.m)); });
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
