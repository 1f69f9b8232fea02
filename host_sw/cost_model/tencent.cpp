// Eq. (2) of the NetReduce appendix: Tencent's hierarchical all-reduce, Rabenseifner's reduce
// inside each machine, a ring across the P / n machines, Van de Geijn's broadcast inside each
// machine; n a power of 2. Its closed form
//   T_tr = (n^2 + 3 n log2 n - 3 n + 2 P) / n * alpha
//        + (4 (n - 1) P B_inter + 2 (P - n) n B_intra) / (n P B_intra B_inter) * M
// is Rabenseifner's reduce at 2 (n - 1) / n * M / B_intra; the first printed bracket has
// M / (n B_intra) there instead (docs/mtc.md, errata).
#include <cmath>

#include "cost_model/netreduce.hpp"

namespace mt {

bool tencent_applies(const AlphaBetaParams& p) {
  return p.per_machine >= 1 && (p.per_machine & (p.per_machine - 1)) == 0;
}

double t_tencent(const AlphaBetaParams& p) {
  const double P = static_cast<double>(p.learners), n = static_cast<double>(p.per_machine);
  const double lg = std::log2(n), bi = p.b_intra, be = p.b_inter;
  return (n * n + 3 * n * lg - 3 * n + 2 * P) / n * p.alpha +
         (4 * (n - 1) * P * be + 2 * (P - n) * n * bi) / (n * P * bi * be) * p.bytes;
}

double t_tencent_brackets(const AlphaBetaParams& p) {
  const double P = static_cast<double>(p.learners), n = static_cast<double>(p.per_machine);
  const double lg = std::log2(n), M = p.bytes, a = p.alpha, m = P / n;
  const double reduce = 2 * a * lg + 2 * (n - 1) / n * M / (n * p.b_intra);       // T_tr1
  const double ring = 2 * (m - 1) * a + 2 * (m - 1) / m * M / p.b_inter;          // T_tr2
  const double broadcast = (lg + n - 1) * a + 2 * (n - 1) / n * M / p.b_intra;    // T_tr3
  return reduce + ring + broadcast;
}

}  // namespace mt
