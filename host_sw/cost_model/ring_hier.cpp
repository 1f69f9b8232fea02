// The ring's cost on a hierarchy of machines: 2 (N - 1) steps of n / N bytes (Eq. (2) for the
// reduce-scatter, the same again for the all-gather), each step's message on one link of the
// learners' and, where the ring crosses machines, on an uplink: w is one link's bandwidth.
#include "algorithms/hierarchy.hpp"
#include "cost_model/cost_model.hpp"

namespace mt {

double predict_ring_hier(const Topology& topo, uint64_t bytes, const CostParams& p) {
  const Hierarchy h = read_hierarchy(topo, "ring");
  const double n = static_cast<double>(bytes), N = h.learners();
  return 2 * ring_reduce_scatter(n, N, p.link_bytes_per_cycle, topo.diameter() * p.link_latency);
}

}  // namespace mt
