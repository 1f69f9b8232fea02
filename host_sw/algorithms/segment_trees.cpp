#include "algorithms/segment_trees.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "algorithms/algorithms.hpp"

namespace mt {
namespace {

// Position p of `total` (p <= total) as a byte offset: a whole number of grains, at most `bytes`.
uint64_t byte_at(uint64_t p, uint64_t total, uint64_t bytes, uint64_t grain) {
  const uint64_t grains = (bytes + grain - 1) / grain;
  const long double scaled = std::floor(static_cast<long double>(p) * grains / total + 0.5L);
  return std::min<uint64_t>(bytes, static_cast<uint64_t>(scaled) * grain);
}

// The links of a transfer along `vertices`, each hop's among its parallel links the one that
// carries the fewest transfers of the same step so far.
class LinkPicker {
 public:
  explicit LinkPicker(const Topology& topo) : topo_(topo) {}
  std::vector<uint32_t> pick(const std::vector<uint32_t>& vertices, uint32_t step) {
    std::vector<uint32_t> links;
    for (size_t i = 0; i + 1 < vertices.size(); ++i) {
      uint32_t best = Topology::kNoLink, best_load = 0;
      for (uint32_t l : topo_.out_links(vertices[i])) {
        if (topo_.links()[l].dst != vertices[i + 1]) continue;
        const uint32_t load = load_[{step, l}];
        if (best == Topology::kNoLink || load < best_load) {
          best = l;
          best_load = load;
        }
      }
      ++load_[{step, best}];
      links.push_back(best);
    }
    return links;
  }

 private:
  const Topology& topo_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> load_;
};

}  // namespace

Plan plan_from_piece_trees(const std::string& algorithm, const Topology& topo,
                           const PlanOptions& opt, const PieceLayout& layout,
                           const std::vector<PieceTree>& pieces, VertexPath path,
                           const void* context) {
  Plan plan = plan_header(algorithm, topo, opt);
  plan.steps_per_phase = layout.steps;
  plan.neighbour_only = path == nullptr;
  plan.contention_free = false;  // link sharing is reported, not promised away
  const uint64_t total = layout.units * layout.lanes;
  const uint64_t flows = pieces.size() * layout.lanes;
  const uint64_t grain = opt.bytes >= kChunkLineBytes * flows ? kChunkLineBytes : kChunkGrainBytes;
  const uint32_t T = layout.steps;
  for (const PieceTree& piece : pieces) {
    for (uint32_t lane = 0; lane < layout.lanes; ++lane) {
      const uint64_t span = piece.last - piece.first;
      const uint64_t lo = byte_at(piece.first * layout.lanes + span * lane, total, opt.bytes, grain);
      const uint64_t hi = byte_at(piece.first * layout.lanes + span * (lane + 1), total, opt.bytes, grain);
      if (hi <= lo) continue;  // fewer grains than flows
      const uint32_t f = static_cast<uint32_t>(plan.flows.size());
      plan.ranges.push_back({lo, hi - lo});
      plan.flows.push_back({piece.root, plan.ranges.back()});
      for (const TreeEdge& e : piece.edges) {
        plan.transfers.push_back({f, e.child, e.parent, f, e.step, Op::kReduce});
        plan.transfers.push_back({f, e.parent, e.child, f, 2 * T - e.step + 1, Op::kGather});
      }
    }
  }
  std::stable_sort(plan.transfers.begin(), plan.transfers.end(),
                   [](const Transfer& a, const Transfer& b) { return a.step < b.step; });
  if (path == nullptr) return plan;
  LinkPicker picker(topo);
  for (const Transfer& t : plan.transfers) plan.routes.push_back(picker.pick(path(context, t.src, t.dst), t.step));
  return plan;
}

}  // namespace mt
