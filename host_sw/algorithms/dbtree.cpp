// Double binary tree (NCCL 2.4+; Sanders et al.), pipelined as NCCL runs it,
// topology-oblivious: ranks are node ids.
//
// Trees follow NCCL's src/graph/trees.cc: tree A is ncclGetBtree (root 0, which has a single
// child; every other rank r finds its lowest set bit `bit`, its parent is (r ^ bit) | (bit << 1)
// or r ^ bit when that is out of range, its children r -/+ bit/2, the right one shrunk into
// range). Tree B is ncclGetDtree's second tree: tree A mirrored (rank r -> N-1-r) when N is
// even, shifted by one rank (r -> r+1 mod N) when N is odd, so that a leaf of one tree is an
// interior node of the other. Tree A carries the first half of the buffer (root 0), tree B
// the second half (root N-1, or 1 when N is odd).
//
// Pipeline (NCCL's tree all-reduce): each half is cut into C chunks, flow t*C + k being chunk
// k of tree t, and both trees run at once (a node is interior in at most one of them). A node
// of height h (1 for a leaf) sends chunk k up in reduce round h + k, as soon as its children
// have sent it theirs; a node at depth d receives chunk k of the broadcast in round d + k and
// forwards it in the next. With R = ceil(log2 N) levels below the root, each phase takes
// T = R + C - 1 steps: the tree's depth to fill the pipeline, then one step per further
// chunk, so as C grows every link carries its share of the data at full rate (bandwidth
// optimal, Table I), while each step adds one fixed cost (link, router and memory latency).
// Reduce and broadcast are the two phases of the plan (steps 1..T and T+1..2T): a node
// forwards the broadcast of a chunk only after the reduce phase, as the lockstep plan has it.
//
// Default C (PlanOptions::chunks == 0): the classic optimum of a pipeline of depth R with a
// fixed cost per stage, C = sqrt((R - 1) * S / s0), S the bytes per tree and s0 = 16 KiB, the
// bytes a link carries during one step's fixed cost (about 1000 cycles: 150-cycle links over
// a few hops, 4-cycle routers and the memory latency, at 16 bytes per cycle). Fewer chunks
// leave the tree's levels idle while the pipeline fills; more pay the fixed cost more often.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
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

// Chunks per tree: the option, or the default above; at most one 16-byte grain per chunk
// (kChunkGrainBytes; a larger option is refused, the default is held to it).
uint32_t dbtree_chunks(const PlanOptions& opt, uint32_t levels) {
  const uint64_t per_tree = opt.bytes / 2;
  const uint64_t most = std::max<uint64_t>(1, per_tree / kChunkGrainBytes);
  uint64_t c = opt.chunks;
  if (c > most) {
    throw InputError(fmt::format("--dbtree-chunks {}: each tree carries half of the {}-byte "
                                 "buffer, at most {} chunks of {} bytes",
                                 c, opt.bytes, most, kChunkGrainBytes));
  }
  if (c == 0) {
    constexpr double kStepCostBytes = 16 * 1024;
    const double depth = std::max(1.0, static_cast<double>(levels) - 1.0);
    c = static_cast<uint64_t>(std::lround(std::sqrt(depth * static_cast<double>(per_tree) / kStepCostBytes)));
  }
  return static_cast<uint32_t>(std::clamp<uint64_t>(c, 1, most));
}

namespace {

// Tree t's transfers of chunk k (flow f): up in round height + k, down in round depth + k.
void add_chunk(Plan& plan, const Tree& tree, uint32_t f, uint32_t k) {
  if (plan.ranges[f].size == 0) return;  // fewer grains than chunks
  const uint32_t T = plan.steps_per_phase;
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    const int p = tree.parent[v];
    if (p == kNone) continue;
    const uint32_t up = static_cast<uint32_t>(p);
    plan.transfers.push_back({f, v, up, f, tree.height[v] + k, Op::kReduce});
    plan.transfers.push_back({f, up, v, f, T + tree.depth[v] + k, Op::kGather});
  }
}

}  // namespace

Plan build_dbtree(const Topology& topo, const PlanOptions& opt) {
  const uint32_t n = topo.nodes();
  std::vector<int> pa, pb;
  nccl_dtree(static_cast<int>(n), pa, pb);
  const Tree trees[2] = {make_tree(std::move(pa)), make_tree(std::move(pb))};
  const uint32_t levels = std::max(trees[0].rounds, trees[1].rounds);
  const uint32_t chunks = dbtree_chunks(opt, levels);

  Plan plan = plan_header("dbtree", topo, opt);
  plan.neighbour_only = false;  // tree edges ignore the topology: normal multi-hop packets
  plan.contention_free = false;
  plan.steps_per_phase = levels + chunks - 1;
  plan.ranges = split_bytes(opt.bytes, 2 * chunks);
  for (uint32_t f = 0; f < 2 * chunks; ++f) plan.flows.push_back({trees[f / chunks].root, plan.ranges[f]});
  for (uint32_t f = 0; f < 2 * chunks; ++f) add_chunk(plan, trees[f / chunks], f, f % chunks);
  // Plan order within a step: reduces before broadcasts, tree by tree, chunk by chunk.
  std::stable_sort(plan.transfers.begin(), plan.transfers.end(),
                   [](const Transfer& a, const Transfer& b) { return a.step < b.step; });
  if (!topo.direct()) {
    plan.routes = Router(topo).routes(plan.transfers);
  }
  return plan;
}

}  // namespace mt
