// MTREE's cost (the seed's Eq. (2), §III-C) for the plan of algorithms/mtree.cpp: every
// selected tree moves its share v_i of the buffer in lambda_i chunks of mu_i = v_i / lambda_i
// bytes along the path of its weighted height (l_i links of latencies alpha_1 .. alpha_l) at
// its rate r_i (beta_i = 1 / (r_i w), w a link's bytes a cycle), up in the reduce and down in
// the broadcast, one phase after the other as the plan model runs them:
//   t_i = 2 (sum_k alpha_k + (lambda_i - 1) max_k alpha_k + (l_i - 1) beta_i mu_i + beta_i v_i)
// and the all-reduce ends with the slowest tree: T = max_i t_i. The alphas are the links'
// latencies on the run's network (a file's `latency`, else the simulator's link latency).
#include <algorithm>

#include "algorithms/mtree.hpp"
#include "cost_model/cost_model.hpp"

namespace mt {
namespace {

double path_time(const Topology& topo, const MtreePipeline& p,
                 const CostParams& params) {
  auto alpha = [&](uint32_t a, uint32_t b) {
    const uint32_t l = topo.first_link(a, b);
    return topo.link_latency(l) != 0 ? double(topo.link_latency(l)) : params.link_latency;
  };
  double sum = 0, worst = 0;
  for (size_t k = 0; k + 1 < p.path.size(); ++k) {
    const double a = alpha(p.path[k], p.path[k + 1]);
    sum += a;
    worst = std::max(worst, a);
  }
  const double l = p.hops, lambda = p.chunks, v = static_cast<double>(p.bytes);
  const double beta = 1.0 / (p.rate * params.link_bytes_per_cycle), mu = v / lambda;
  return 2 * (sum + (lambda - 1) * worst + (l - 1) * beta * mu + beta * v);  // Eq. (2), twice
}

}  // namespace

double predict_mtree(const Topology& topo, const MtreeResult& r, const CostParams& p) {
  double t = 0;
  for (const MtreePipeline& tree : r.selected) t = std::max(t, path_time(topo, tree, p));
  return t;
}

}  // namespace mt
