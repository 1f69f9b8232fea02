// BlueConnect (Cho et al., SysML 2019; the FlexReduce paper's §II-A and Fig. 1 (d)-(f)) on a
// symmetric hierarchy of d learners in each of m machines: a ring reduce-scatter among the d
// learners of every machine (level 0), then among the m learners of the same local index in
// every machine (level 1), each on what the level before left it; the all-gather is the same
// in reverse. Its cost is the FlexReduce paper's Eq. (3) (cost_model/blueconnect.cpp).
//
// Piece (i, j), j-th of m pieces of the i-th of d chunks, is reduced into local learner i of
// every machine by the ring of level 0 (at step s, local (i + s) mod d sends to (i + s + 1)
// mod d, as algorithms/ring.cpp), then into machine j by the ring of level 1 over the local
// i's (steps d - 1 + s). On an asymmetric hierarchy BlueConnect has no factorisation and falls
// back to the ring over every learner (the paper's §V), which is what build_blueconnect plans.
#include "algorithms/algorithms.hpp"
#include "algorithms/hierarchy.hpp"
#include "algorithms/segment_trees.hpp"

namespace mt {

Plan build_blueconnect(const Topology& topo, const PlanOptions& opt) {
  const Hierarchy h = read_hierarchy(topo, "blueconnect");
  if (!h.symmetric()) {
    Plan plan = build_ring(topo, opt);
    plan.algorithm = "blueconnect";
    return plan;
  }
  const uint32_t d = static_cast<uint32_t>(h.machines.front().learners.size());
  const uint32_t m = static_cast<uint32_t>(h.machines.size());
  auto node = [&](uint32_t machine, uint32_t local) { return h.machines[machine].learners[local]; };
  std::vector<PieceTree> pieces;
  for (uint32_t i = 0; i < d; ++i) {
    for (uint32_t j = 0; j < m; ++j) {
      PieceTree p{uint64_t{i} * m + j, uint64_t{i} * m + j + 1, node(j, i), {}};
      for (uint32_t machine = 0; machine < m; ++machine) {
        for (uint32_t s = 1; s < d; ++s) {
          p.edges.push_back({s, node(machine, (i + s) % d), node(machine, (i + s + 1) % d)});
        }
      }
      for (uint32_t s = 1; s < m; ++s) {
        p.edges.push_back({d - 1 + s, node((j + s) % m, i), node((j + s + 1) % m, i)});
      }
      pieces.push_back(std::move(p));
    }
  }
  const PieceLayout layout{uint64_t{d} * m, h.machines.front().learner_width, d + m - 2};
  return plan_from_piece_trees("blueconnect", topo, opt, layout, pieces, hierarchy_path, &h);
}

}  // namespace mt
