#include "traffic/bernoulli.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "traffic/random.hpp"

namespace mt::noc {

BernoulliInjection::BernoulliInjection(double rate, uint32_t packet_flits)
    : rate_(rate), packet_flits_(packet_flits) {
  if (!(rate >= 0.0 && rate <= 1.0)) {
    throw InputError(fmt::format("injection rate {} must be in [0, 1] flits/node/cycle", rate));
  }
  if (packet_flits < 1) throw InputError("packets need at least 1 flit");
  p_ = rate / packet_flits;
  log_miss_ = std::log1p(-p_);
}

bool BernoulliInjection::fires(std::mt19937_64& rng) const { return uniform01(rng) < p_; }

uint64_t BernoulliInjection::gap(std::mt19937_64& rng) const {
  if (p_ <= 0.0) return kNever;
  if (p_ >= 1.0) return 1;
  // Inversion: P(gap > k) = (1 - p)^k, so gap = 1 + floor(ln U / ln(1 - p)), U in (0, 1].
  const double u = 1.0 - uniform01(rng);
  const double k = std::floor(std::log(u) / log_miss_);
  if (!(k < 1e18)) return kNever;  // far beyond any simulation
  return 1 + static_cast<uint64_t>(k);
}

}  // namespace mt::noc
