// Bernoulli injection: at `rate` flits/node/cycle with packets of `packet_flits` flits, a node
// starts a packet in each cycle independently with probability p = rate / packet_flits.
#pragma once

#include <cstdint>
#include <random>

namespace mt::noc {

class BernoulliInjection {
 public:
  // rate in [0, 1] flits/node/cycle (0: never), packet_flits >= 1; InputError otherwise.
  BernoulliInjection(double rate, uint32_t packet_flits);

  double rate() const { return rate_; }
  uint32_t packet_flits() const { return packet_flits_; }
  double probability() const { return p_; }  // per cycle

  // One cycle's coin flip.
  bool fires(std::mt19937_64& rng) const;
  // Cycles from one packet start to the next (>= 1), drawn from the same process as a coin
  // flip per cycle (the gaps of a Bernoulli process are geometric), so a source wakes once per
  // packet instead of once per cycle. kNever when rate is 0.
  uint64_t gap(std::mt19937_64& rng) const;
  static constexpr uint64_t kNever = ~0ull;

 private:
  double rate_;
  uint32_t packet_flits_;
  double p_;
  double log_miss_;  // ln(1 - p)
};

}  // namespace mt::noc
