// FlexReduce (Lee et al., "FlexReduce: Flexible All-reduce for Distributed Deep Learning on
// Asymmetric Network Topology"): an uneven reduce-scatter level by level up a hierarchy of
// machines, then the all-gather in reverse (§III).
//
// The paper's reduce(subrange, participants) adds, for each subrange of a learner's next range,
// the partial sums of the learners whose current range holds it (find_bounds), with NCCL's
// reduce, a ring. Here every piece of the common refinement of all levels' ranges is reduced
// along a tree of its own (segment_trees.hpp): at level 0 along the ring of its machine's
// learners (steps 1 .. d - 1) into the one whose range holds it, as the reduce-scatter of
// Eq. (4); at level 1 along the ring of those holders, one per machine (steps d_max .. d_max +
// m - 2), into its final owner. On a symmetric hierarchy the ranges and rings are BlueConnect's
// (algorithms/blueconnect.cpp), as the paper's Eqs. (7)-(11) find for the costs. A final owner whose
// machine's level-0 range of a piece is another learner's would receive a partial sum that
// already holds its own contribution, which a Reduce (adding into what it holds) counts twice:
// there the piece's level-0 target in that machine is the final owner itself, so every Reduce
// adds a disjoint set. The sort of assign_range keeps most next ranges inside current ones, so
// this moves few pieces (docs/results.md gives how many bytes).
#include "algorithms/flexreduce.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/hierarchy.hpp"
#include "algorithms/segment_trees.hpp"
#include "common/error.hpp"

namespace mt {
namespace {

// assign_range (Fig. 3 (b)): the leaves `ids` sorted by their current range's end, then start,
// then id, each given [progress, progress + portion).
void assign_range(std::vector<uint32_t> ids, const std::vector<UnitRange>& current,
                  const std::vector<uint64_t>& portion, std::vector<UnitRange>& next) {
  std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
    if (current[a].end != current[b].end) return current[a].end < current[b].end;
    if (current[a].begin != current[b].begin) return current[a].begin < current[b].begin;
    return a < b;
  });
  uint64_t progress = 0;
  for (uint32_t v : ids) {
    next[v] = {progress, progress + portion[v]};
    progress += portion[v];
  }
}

// The ring of Eq. (2) as a chain into `order[last]`: at step first + s - 1 (s = 1 .. size - 1)
// order[(last + s) mod size] sends to the next, so the piece gathers every member's value.
void chain(const std::vector<uint32_t>& order, size_t last, uint32_t first, PieceTree& p) {
  const size_t d = order.size();
  for (size_t s = 1; s < d; ++s) {
    p.edges.push_back({first + static_cast<uint32_t>(s) - 1, order[(last + s) % d],
                       order[(last + s + 1) % d]});
  }
}

std::vector<PieceTree> flex_pieces(const Hierarchy& h, const FlexRanges& r, uint32_t d_max) {
  std::vector<uint64_t> cuts{0, r.units};
  for (const auto& level : r.range) {
    for (const UnitRange& u : level) {
      cuts.push_back(u.begin);
      cuts.push_back(u.end);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const uint32_t n = h.learners();
  std::vector<PieceTree> pieces;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    PieceTree p{cuts[i], cuts[i + 1], 0, {}};
    for (uint32_t v = 0; v < n; ++v) {
      if (r.range[1][v].contains(p.first)) p.root = v;
    }
    std::vector<uint32_t> holders;  // level 0's target in each machine
    for (size_t m = 0; m < h.machines.size(); ++m) {
      const std::vector<uint32_t>& ids = h.machines[m].learners;
      // The learner whose range holds the piece, or in the owner's machine the owner.
      size_t target = 0;
      for (size_t k = 0; k < ids.size(); ++k) {
        const bool owner_here = h.machine_of[p.root] == m;
        if (owner_here ? ids[k] == p.root : r.range[0][ids[k]].contains(p.first)) target = k;
      }
      chain(ids, target, 1, p);
      holders.push_back(ids[target]);
    }
    chain(holders, h.machine_of[p.root], d_max, p);
    pieces.push_back(std::move(p));
  }
  return pieces;
}

}  // namespace

FlexRanges flexreduce_ranges(const std::vector<uint32_t>& learners) {
  FlexRanges r;
  const uint64_t machines = learners.size();
  uint64_t l = 1;
  for (uint32_t d : learners) l = std::lcm(l, uint64_t{d});
  r.units = machines * l;
  uint32_t n = 0;
  for (uint32_t d : learners) n += d;
  // Fig. 3 (a), lines 3-4: every leaf's portion is everything and its range all of it.
  std::vector<uint64_t> portion(n, r.units);
  std::vector<UnitRange> current(n, {0, r.units}), next(n);
  // Level 0: each machine's leaves; line 8 divides their portions by the machine's degree.
  uint32_t first = 0;
  for (uint32_t d : learners) {
    std::vector<uint32_t> ids(d);
    std::iota(ids.begin(), ids.end(), first);
    for (uint32_t v : ids) portion[v] /= d;
    assign_range(ids, current, portion, next);
    first += d;
  }
  r.range.push_back(next);
  current = next;
  // Level 1: the root, whose degree is the number of machines, over every leaf.
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  for (uint32_t v : all) portion[v] /= machines;
  assign_range(all, current, portion, next);
  r.range.push_back(next);
  return r;
}

Plan build_flexreduce(const Topology& topo, const PlanOptions& opt) {
  const Hierarchy h = read_hierarchy(topo, "flexreduce");
  std::vector<uint32_t> learners;
  uint32_t lanes = h.machines.front().learner_width;
  for (const Machine& m : h.machines) {
    learners.push_back(static_cast<uint32_t>(m.learners.size()));
    lanes = std::min(lanes, m.learner_width);
  }
  const FlexRanges r = flexreduce_ranges(learners);
  const uint32_t d_max = *std::max_element(learners.begin(), learners.end());
  const uint32_t machines = static_cast<uint32_t>(learners.size());
  const PieceLayout layout{r.units, lanes, d_max - 1 + machines - 1};
  return plan_from_piece_trees("flexreduce", topo, opt, layout, flex_pieces(h, r, d_max),
                               hierarchy_path, &h);
}

}  // namespace mt
