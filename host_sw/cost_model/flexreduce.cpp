// FlexReduce's cost (its paper's Eqs. (4)-(6)) on a hierarchy of machines, L = 2 levels:
//   T_FR = 2 (T_0 + T_1),
//   T_0 = max over machines x of T_r(n, d_x, w_x)                                  (Eq. (4))
//   T_1 = max(T_r(n, m, w_root), max over machines x of T_r(n / d_x, m, w_x))       (Eq. (5))
// with T_r the ring reduce-scatter of Eq. (2), d_x the learners of machine x, m the machines,
// w_x the bandwidth of machine x's learners (their links' width times a link's bytes per cycle,
// at most what the NI sends and receives: one link's on a switch network)
// and w_root that of the uplinks at the root (the narrowest). alpha, the time of a message, is
// the flight over the network's diameter. The model charges (d - 1) alpha per reduce-scatter
// as the ring's steps do, though the planner (algorithms/flexreduce.cpp) moves a level in one
// step; at 1 MiB alpha is about 1% of the whole.
#include <algorithm>

#include "algorithms/hierarchy.hpp"
#include "cost_model/cost_model.hpp"

namespace mt {

double predict_flexreduce(const Topology& topo, uint64_t bytes, const CostParams& p) {
  const Hierarchy h = read_hierarchy(topo, "flexreduce");
  const double n = static_cast<double>(bytes), m = static_cast<double>(h.machines.size());
  const double alpha = topo.diameter() * p.link_latency;
  double t0 = 0, t1 = 0, w_root = 0;
  for (const Machine& x : h.machines) {
    const double w_up = x.uplink_width * p.link_bytes_per_cycle;
    w_root = w_root == 0 ? w_up : std::min(w_root, w_up);
  }
  if (m > 1) t1 = ring_reduce_scatter(n, m, w_root, alpha);
  for (const Machine& x : h.machines) {
    const double d = static_cast<double>(x.learners.size());
    const double w = std::min(x.learner_width * p.link_bytes_per_cycle, p.ni_bytes_per_cycle);
    t0 = std::max(t0, ring_reduce_scatter(n, d, w, alpha));
    if (m > 1) t1 = std::max(t1, ring_reduce_scatter(n / d, m, w, alpha));
  }
  return 2 * (t0 + t1);
}

}  // namespace mt
