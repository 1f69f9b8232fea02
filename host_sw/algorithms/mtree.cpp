// MTREE's planner (the seed's §III, Fig. 4): GOST's trees (mtree_gost.cpp), the MILP's rates
// (mtree_milp.cpp), the buffer split across the selected trees in proportion to their rates
// (§III-B, "the i-th tree T_i could be responsible for r_i / sum r_j of the tensors"), and every
// tree pipelined in lambda chunks (§III-C, Eqs. (2)-(8) with v restored in (7)-(8):
// docs/mtc.md).
//
// Each chunk of each tree is a flow of its own, reduced up its tree and broadcast back down
// (the seed's §III: the broadcast goes "exactly the same but reversed rooted tree"): a node at
// hop depth d of a tree of hop height h sends chunk c to its parent at step c + h - d + 1, after
// its children sent theirs (a Reduce of its subtree's sum, disjoint from its parent's own and
// its siblings'); the broadcast replays those steps backwards (Gathers of the full sum). So a
// link of the tree carries one chunk of it a step, as Eq. (2) assumes, and every Reduce of a
// flow covers exactly the flow's bytes (algorithms/segment_trees.hpp).
#include "algorithms/mtree.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/segment_trees.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

// ITH's rho (Algorithm 3): 1 keeps every bit of the total rate GBST reaches under H, and
// takes the least bound that does.
constexpr double kMtreeRho = 1.0;

void check_options(const MtreeGraph& g, const MtreeOptions& o) {
  if (o.trees == 0) throw InputError("mtree: tree count 0 (--mtree-trees): at least one tree");
  if (!(o.min_rate > 0) || !std::isfinite(o.min_rate)) {
    throw InputError(fmt::format("mtree: minimum rate {} (--mtree-min-rate): must be a positive "
                                 "number of links", o.min_rate));
  }
  double widest = 0;
  for (const MtreeEdge& e : g.edges) widest = std::max(widest, e.capacity);
  if (o.min_rate > widest) {
    throw InputError(fmt::format("mtree: minimum rate {} (--mtree-min-rate): no link is that "
                                 "wide (the widest is {} links), so no tree reaches it",
                                 o.min_rate, widest));
  }
}

// Hop depth of every node of t.
std::vector<uint32_t> hop_depths(const MtreeTree& t) {
  std::vector<uint32_t> depth(t.parent.size(), 0);
  for (uint32_t v = 0; v < t.parent.size(); ++v) {
    for (uint32_t p = v; p != t.root; p = t.parent[p]) ++depth[v];
  }
  return depth;
}

// The path of t's weighted height, its deepest node to the root: l and max alpha of Eq. (7).
// The plan model runs the reduce (steps 1..T) before the broadcast (T+1..2T), so the chunks
// cross this path twice, one phase after the other, rather than the round trip at once that
// the seed's overlapped all-reduce assumes (§III-C).
void longest_path(const MtreeGraph& g, const MtreeTree& t, MtreePipeline& p) {
  auto latency = [&](uint32_t a, uint32_t b) {
    for (uint32_t j : t.edges) {
      const MtreeEdge& e = g.edges[j];
      if ((e.u == a && e.v == b) || (e.u == b && e.v == a)) return e.latency;
    }
    return uint64_t{0};
  };
  uint64_t deepest = 0;
  p.path = {t.root};
  for (uint32_t v = 0; v < t.parent.size(); ++v) {
    uint64_t sum = 0, worst = 0;
    std::vector<uint32_t> path{v};
    for (uint32_t x = v; x != t.root; x = t.parent[x]) {
      sum += latency(x, t.parent[x]);
      worst = std::max(worst, latency(x, t.parent[x]));
      path.push_back(t.parent[x]);
    }
    if (sum > deepest) {
      deepest = sum;
      p.path = std::move(path);
      p.hops = static_cast<uint32_t>(p.path.size() - 1);
      p.max_latency = worst;
    }
  }
}

uint64_t unbounded_height(const MtreeGraph& g) {
  uint64_t sum = 0;
  for (const MtreeEdge& e : g.edges) sum += e.latency;
  return sum;
}

}  // namespace

uint32_t mtree_lambda_star(uint64_t v, uint32_t hops, uint64_t max_latency, double rate) {
  const double grains = std::ceil(static_cast<double>(v) / kChunkGrainBytes);
  if (hops < 2 || max_latency == 0 || grains < 1) return 1;  // (5) < 0: t falls to mu = v
  const double beta = 1.0 / (rate * kChunkGrainBytes);  // cycles a byte at the tree's rate
  const double mu = std::sqrt(static_cast<double>(v) * static_cast<double>(max_latency) /
                              ((hops - 1) * beta));        // Eq. (7), corrected
  const double lambda = std::round(static_cast<double>(v) / mu);  // Eq. (8), corrected
  return static_cast<uint32_t>(std::clamp(lambda, 1.0, grains));
}

MtreeResult mtree_solve(const Topology& topo, const PlanOptions& opt) {
  MtreeResult r;
  r.graph = mtree_graph(topo);
  const MtreeGraph& g = r.graph;
  const MtreeOptions& o = opt.mtree;
  check_options(g, o);
  const uint64_t h = o.height == 0 ? unbounded_height(g) : o.height;
  r.built = mtree_ith(g, h, o.min_rate, kMtreeRho);
  if (r.built.trees.empty()) {
    throw InputError(fmt::format("mtree: height bound {} cycles (--mtree-height) admits no "
                                 "spanning tree of links at least {} wide on {}", h, o.min_rate,
                                 topo.spec()));
  }
  const std::vector<double> rates = mtree_milp(g, r.built, o.trees, o.min_rate);
  double capacity = 0, total = 0;
  for (const MtreeEdge& e : g.edges) capacity += e.capacity;
  r.capacity_bound = capacity / (g.n - 1);
  for (double x : rates) total += x;
  for (size_t i = 0; i < rates.size(); ++i) {
    if (rates[i] <= 0) continue;
    MtreePipeline p;
    p.tree = r.built.trees[i];
    p.rate = rates[i];
    p.bytes = static_cast<uint64_t>(std::llround(static_cast<double>(opt.bytes) * rates[i] / total));
    longest_path(g, p.tree, p);
    p.chunks = o.chunks != 0 ? o.chunks : mtree_lambda_star(p.bytes, p.hops, p.max_latency, p.rate);
    r.selected.push_back(std::move(p));
  }
  return r;
}

Plan build_mtree(const Topology& topo, const PlanOptions& opt) {
  const MtreeResult r = mtree_solve(topo, opt);
  // The buffer in 16-byte grains, cut in proportion to the rates, each share into its chunks.
  const uint64_t units = (opt.bytes + kChunkGrainBytes - 1) / kChunkGrainBytes;
  double total = 0, cumulative = 0;
  for (const MtreePipeline& p : r.selected) total += p.rate;
  std::vector<PieceTree> pieces;
  uint32_t steps = 0;
  uint64_t first = 0;
  for (const MtreePipeline& p : r.selected) {
    cumulative += p.rate;
    const uint64_t last = static_cast<uint64_t>(std::llround(static_cast<double>(units) * (cumulative / total)));
    const std::vector<uint32_t> depth = hop_depths(p.tree);
    const uint32_t h = *std::max_element(depth.begin(), depth.end());
    steps = std::max(steps, h + p.chunks - 1);
    for (uint32_t c = 0; c < p.chunks; ++c) {
      PieceTree piece{first + (last - first) * c / p.chunks, first + (last - first) * (c + 1) / p.chunks,
                      p.tree.root, {}};
      if (piece.last == piece.first) continue;
      for (uint32_t v = 0; v < depth.size(); ++v) {
        if (v != p.tree.root) piece.edges.push_back({c + h - depth[v] + 1, v, p.tree.parent[v]});
      }
      pieces.push_back(std::move(piece));
    }
    first = last;
  }
  const PieceLayout layout{units, 1, steps};
  return plan_from_piece_trees("mtree", topo, opt, layout, pieces, nullptr, nullptr);
}

}  // namespace mt
