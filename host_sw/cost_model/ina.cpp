// Appendix A of the NetReduce appendix: in-network aggregation, every learner (one per
// machine) sends its M bytes once and receives the switch's sum as the acknowledgement:
//   T_INA = alpha + M / B, here with B = B_inter.
// It is Eq. (3) at n = 1, B_intra = B_inter.
#include "cost_model/netreduce.hpp"

namespace mt {

double t_ina(const AlphaBetaParams& p) { return p.alpha + p.bytes / p.b_inter; }

}  // namespace mt
