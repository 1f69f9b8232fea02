// BlueConnect's cost (the FlexReduce paper's Eq. (3), in the corrected form of its Eq. (10):
// docs/mtc.md) on a symmetric hierarchy of m machines of d learners:
//   T_blc = 2 sum over levels l of T_r(n / prod_{i<l} delta_i, delta_l,
//                                      min_{k<=l} omega_k / prod_{j<k} delta_j)
// with delta_0 = d, delta_1 = m, omega_0 the learner links' bandwidth and omega_1 the
// uplinks'; the delta_0 rings of level 1 share each uplink. On an asymmetric hierarchy
// BlueConnect is the ring over every learner (algorithms/blueconnect.cpp), and so is its cost.
#include <algorithm>

#include "algorithms/hierarchy.hpp"
#include "cost_model/cost_model.hpp"

namespace mt {

double predict_blueconnect(const Topology& topo, uint64_t bytes, const CostParams& p) {
  const Hierarchy h = read_hierarchy(topo, "blueconnect");
  if (!h.symmetric()) return predict_ring_hier(topo, bytes, p);
  const Machine& x = h.machines.front();
  const double n = static_cast<double>(bytes), alpha = topo.diameter() * p.link_latency;
  const double delta0 = static_cast<double>(x.learners.size());
  const double delta1 = static_cast<double>(h.machines.size());
  const double omega0 = std::min(x.learner_width * p.link_bytes_per_cycle, p.ni_bytes_per_cycle);
  const double omega1 = x.uplink_width * p.link_bytes_per_cycle;
  const double level0 = ring_reduce_scatter(n, delta0, omega0, alpha);
  const double level1 = ring_reduce_scatter(n / delta0, delta1, std::min(omega0, omega1 / delta0), alpha);
  return 2 * (level0 + level1);
}

}  // namespace mt
