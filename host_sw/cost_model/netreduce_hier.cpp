// Eq. (3) of the NetReduce appendix: hierarchical NetReduce,
//   T_nh = [(n - 1) alpha + (n - 1) M / (n B_intra)]   ring reduce-scatter in each machine
//        + (alpha + M / B_inter)                        in-network aggregation across machines
//        + [(n - 1) alpha + (n - 1) M / (n B_intra)]   ring all-gather in each machine
//        = (2 n - 1) alpha + (2 (n - 1) B_inter + n B_intra) / (n B_intra B_inter) M.
// The brackets and the closed form agree; P does not appear.
#include "cost_model/netreduce.hpp"

namespace mt {

double t_netreduce_hier(const AlphaBetaParams& p) {
  const double n = static_cast<double>(p.per_machine), bi = p.b_intra, be = p.b_inter;
  return (2 * n - 1) * p.alpha + (2 * (n - 1) * be + n * bi) / (n * bi * be) * p.bytes;
}

}  // namespace mt
