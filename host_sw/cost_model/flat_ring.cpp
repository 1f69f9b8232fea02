// Eq. (1) of the NetReduce appendix: the flat ring all-reduce over every learner, whose
// messages cross machines at B_inter:
//   T_fr = 2 (P - 1) alpha + 2 (P - 1) / P * M / B_inter.
#include "cost_model/netreduce.hpp"

namespace mt {

double t_flat_ring(const AlphaBetaParams& p) {
  const double P = static_cast<double>(p.learners);
  return 2 * (P - 1) * p.alpha + 2 * (P - 1) / P * p.bytes / p.b_inter;
}

}  // namespace mt
