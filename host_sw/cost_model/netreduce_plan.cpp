// Eq. (3) of the NetReduce appendix (netreduce_hier.cpp) for the netreduce plan on a
// hierarchy of machines: P learners on machines of n, B_intra a learner's rate (its link,
// at most its NI's one port pair), B_inter a machine's uplink, alpha the diameter's link
// latencies, all in bytes and cycles.
#include <algorithm>

#include "algorithms/hierarchy.hpp"
#include "cost_model/cost_model.hpp"
#include "cost_model/netreduce.hpp"

namespace mt {

double predict_netreduce(const Topology& topo, uint64_t bytes, const CostParams& p) {
  const Hierarchy h = read_hierarchy(topo, "netreduce");
  const Machine& m = h.machines.front();
  AlphaBetaParams a;
  a.learners = h.learners();
  a.per_machine = static_cast<int64_t>(m.learners.size());
  a.bytes = static_cast<double>(bytes);
  a.b_intra = std::min(p.ni_bytes_per_cycle, m.learner_width * p.link_bytes_per_cycle);
  a.b_inter = m.uplink_width * p.link_bytes_per_cycle;
  a.alpha = topo.diameter() * p.link_latency;
  check_alpha_beta(a);
  return t_netreduce_hier(a);
}

}  // namespace mt
