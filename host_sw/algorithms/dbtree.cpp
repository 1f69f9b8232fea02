// Double binary tree (NCCL 2.4+; Sanders et al.), topology-oblivious: ranks are node ids.
//
// Trees follow NCCL's src/graph/trees.cc: tree A is ncclGetBtree (root 0, which has a single
// child; every other rank r finds its lowest set bit `bit`, its parent is (r ^ bit) | (bit << 1)
// or r ^ bit when that is out of range, its children r -/+ bit/2, the right one shrunk into
// range). Tree B is ncclGetDtree's second tree: tree A mirrored (rank r -> N-1-r) when N is
// even, shifted by one rank (r -> r+1 mod N) when N is odd, so that a leaf of one tree is an
// interior node of the other. Flow 0 carries the first half of the buffer on tree A (root 0),
// flow 1 the second half on tree B (root N-1, or 1 when N is odd).
//
// Schedule (paper §III-B, Fig. 4b): a node reduces up as soon as its subtree is summed (tree
// level h = height above the deepest leaf below it) and the broadcast goes down one tree
// level per round (level = depth). Round l of tree A is step 2l-1 of its phase, round l of
// tree B step 2l, so a node never sends or receives in both trees in the same step. Both
// trees have NCCL's height H = ceil(log2 N), hence T = 2H.
#include <algorithm>
#include <stdexcept>

#include "algorithms/algorithms.hpp"
#include "topology/routing.hpp"

namespace mt {
namespace {

constexpr int kNone = -1;

struct BtreeLinks {
  int up = kNone, down0 = kNone, down1 = kNone;
};

// ncclGetBtree, as NCCL writes it (including its way of shrinking down1 into range).
BtreeLinks nccl_btree(int nranks, int rank) {
  BtreeLinks r;
  int bit = 1;
  for (; bit < nranks; bit <<= 1) {
    if (bit & rank) break;
  }
  if (rank == 0) {
    r.down1 = nranks > 1 ? bit >> 1 : kNone;
    return r;
  }
  r.up = (rank ^ bit) | (bit << 1);
  if (r.up >= nranks) r.up = rank ^ bit;
  int lowbit = bit >> 1;
  r.down0 = lowbit == 0 ? kNone : rank - lowbit;
  int down1 = lowbit == 0 ? kNone : rank + lowbit;
  while (down1 >= nranks) {
    down1 = lowbit == 0 ? kNone : rank + lowbit;
    lowbit >>= 1;
  }
  r.down1 = down1;
  return r;
}

// Parents of both trees, by rank (kNone at the roots), per ncclGetDtree.
void nccl_dtree(int n, std::vector<int>& parent_a, std::vector<int>& parent_b) {
  parent_a.assign(static_cast<size_t>(n), kNone);
  parent_b.assign(static_cast<size_t>(n), kNone);
  for (int r = 0; r < n; ++r) {
    parent_a[static_cast<size_t>(r)] = nccl_btree(n, r).up;
    if (n % 2 == 1) {
      const int u = nccl_btree(n, (r - 1 + n) % n).up;
      parent_b[static_cast<size_t>(r)] = u == kNone ? kNone : (u + 1) % n;
    } else {
      const int u = nccl_btree(n, n - 1 - r).up;
      parent_b[static_cast<size_t>(r)] = u == kNone ? kNone : n - 1 - u;
    }
  }
}

struct Tree {
  uint32_t root = 0;
  std::vector<int> parent;
  std::vector<uint32_t> height;  // 1 for a leaf: the round in which it reduces up
  std::vector<uint32_t> depth;   // 0 at the root: the round in which it receives the broadcast
  uint32_t rounds = 0;           // tree height in edges
};

Tree make_tree(std::vector<int> parent) {
  const size_t n = parent.size();
  Tree t;
  t.parent = std::move(parent);
  t.height.assign(n, 1);
  t.depth.assign(n, 0);
  for (size_t v = 0; v < n; ++v) {
    if (t.parent[v] == kNone) t.root = static_cast<uint32_t>(v);
    uint32_t d = 0;
    for (int u = t.parent[v]; u != kNone; u = t.parent[static_cast<size_t>(u)]) {
      ++d;
      if (d > n) throw std::logic_error("dbtree: NCCL tree has a cycle");
    }
    t.depth[v] = d;
    // Pushes heights up the path: a node is one above its highest child.
    uint32_t h = 1;
    for (int u = t.parent[v]; u != kNone; u = t.parent[static_cast<size_t>(u)]) {
      ++h;
      uint32_t& up = t.height[static_cast<size_t>(u)];
      up = std::max(up, h);
    }
    t.rounds = std::max(t.rounds, d);
  }
  return t;
}

}  // namespace

Plan build_dbtree(const Topology& topo, const PlanOptions& opt) {
  const uint32_t n = topo.nodes();
  std::vector<int> pa, pb;
  nccl_dtree(static_cast<int>(n), pa, pb);
  const Tree trees[2] = {make_tree(std::move(pa)), make_tree(std::move(pb))};

  Plan plan = plan_header("dbtree", topo, opt);
  plan.neighbour_only = false;  // tree edges ignore the topology: normal multi-hop packets
  plan.contention_free = false;
  plan.ranges = split_bytes(opt.bytes, 2);
  for (uint32_t f = 0; f < 2; ++f) plan.flows.push_back({trees[f].root, plan.ranges[f]});
  // Tree A on odd steps, tree B on even steps of each phase.
  const uint32_t T = std::max(2 * trees[0].rounds - 1, 2 * trees[1].rounds);
  plan.steps_per_phase = T;

  for (uint32_t s = 1; s <= T; ++s) {  // reduce: a node sends up in round = its height
    const uint32_t f = (s + 1) % 2, round = (s + 1) / 2;
    if (plan.ranges[f].size == 0) continue;
    for (uint32_t v = 0; v < n; ++v) {
      const int p = trees[f].parent[v];
      if (p != kNone && trees[f].height[v] == round) {
        plan.transfers.push_back({f, v, static_cast<uint32_t>(p), f, s, Op::kReduce});
      }
    }
  }
  for (uint32_t s = 1; s <= T; ++s) {  // broadcast: a node receives in round = its depth
    const uint32_t f = (s + 1) % 2, round = (s + 1) / 2;
    if (plan.ranges[f].size == 0) continue;
    for (uint32_t v = 0; v < n; ++v) {
      const int p = trees[f].parent[v];
      if (p != kNone && trees[f].depth[v] == round) {
        plan.transfers.push_back({f, static_cast<uint32_t>(p), v, f, T + s, Op::kGather});
      }
    }
  }
  if (!topo.direct()) {
    for (const Transfer& t : plan.transfers) plan.routes.push_back(route(topo, t.src, t.dst));
  }
  return plan;
}

}  // namespace mt
