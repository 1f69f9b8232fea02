// The NetReduce models' parameters (netreduce.hpp) and Eq. (6)'s two ratios.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"
#include "cost_model/netreduce.hpp"

namespace mt {
namespace {

// `v` in the unit the message shows it in: `scale` of it per unit.
void require_positive(double v, double scale, const std::string& what, const std::string& unit) {
  if (!std::isfinite(v) || v <= 0) {
    throw InputError(fmt::format("{} {:g} {}: must be a finite number above 0", what, v / scale,
                                 unit));
  }
}

}  // namespace

void check_alpha_beta(const AlphaBetaParams& p) {
  if (p.learners < 2) {
    throw InputError(fmt::format("P (learners) {}: an all-reduce needs at least 2", p.learners));
  }
  if (p.per_machine < 1 || p.per_machine > p.learners / 2) {
    throw InputError(fmt::format("n (learners per machine) {}: must be 1 to P / 2 = {} (the "
                                 "models are of at least 2 machines)",
                                 p.per_machine, p.learners / 2));
  }
  if (p.learners % p.per_machine != 0) {
    throw InputError(fmt::format("P (learners) {} is not a multiple of n (learners per machine) "
                                 "{}: every machine holds n learners",
                                 p.learners, p.per_machine));
  }
  require_positive(p.bytes, 1, "M (message size)", "bytes");
  require_positive(p.b_intra, 1e9, "B_intra (intra-machine bandwidth)", "GB/s");
  require_positive(p.b_inter, 1e9, "B_inter (inter-machine bandwidth)", "GB/s");
  if (!std::isfinite(p.alpha) || p.alpha < 0) {
    throw InputError(fmt::format("alpha (latency per message) {:g} us: must be a finite number, "
                                 "0 or more", p.alpha * 1e6));
  }
}

double eq6_ratio(int64_t learners) {
  const double P = static_cast<double>(learners);
  return 2 * P / (P - 2);
}

double eq5_exact_ratio(int64_t learners, int64_t per_machine) {
  const double P = static_cast<double>(learners), n = static_cast<double>(per_machine);
  return 2 * (n - 1) * P / (n * (P - 2));
}

}  // namespace mt
