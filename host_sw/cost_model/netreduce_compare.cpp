// Eqs. (4) and (5) of the NetReduce appendix as printed: what hierarchical NetReduce (Eq. (3))
// saves over Tencent's all-reduce (Eq. (2)) and over the flat ring (Eq. (1)).
//   dT_tr-nh = (2 P / n + 3 log2 n - n - 2) alpha
//            + ((P - 2 n) n B_intra + 2 (n - 1) P B_inter) / (n P B_intra B_inter) M   (4)
//   dT_fr-nh = (2 P - 2 n - 1) alpha
//            + ((P - 2) n B_intra - 2 (n - 1) P B_inter) / (n P B_intra B_inter) M     (5)
#include <cmath>

#include "cost_model/netreduce.hpp"

namespace mt {

double dt_tencent_netreduce(const AlphaBetaParams& p) {
  const double P = static_cast<double>(p.learners), n = static_cast<double>(p.per_machine);
  const double bi = p.b_intra, be = p.b_inter;
  return (2 * P / n + 3 * std::log2(n) - n - 2) * p.alpha +
         ((P - 2 * n) * n * bi + 2 * (n - 1) * P * be) / (n * P * bi * be) * p.bytes;
}

double dt_ring_netreduce_per_byte(const AlphaBetaParams& p) {
  const double P = static_cast<double>(p.learners), n = static_cast<double>(p.per_machine);
  const double bi = p.b_intra, be = p.b_inter;
  return ((P - 2) * n * bi - 2 * (n - 1) * P * be) / (n * P * bi * be);
}

double dt_ring_netreduce(const AlphaBetaParams& p) {
  const double P = static_cast<double>(p.learners), n = static_cast<double>(p.per_machine);
  return (2 * P - 2 * n - 1) * p.alpha + dt_ring_netreduce_per_byte(p) * p.bytes;
}

}  // namespace mt
