// Clock cycles as the routers and NIs count them (one clock_ps period): SystemC time to cycles
// and back.
//
// Components convert the current time and every link delay to cycles on each flit and credit.
// A 64-bit `div` costs tens of core cycles, so cycles() multiplies by the reciprocal in double
// (within one of the quotient for times below 2^53, which a double holds exactly) and corrects
// the result: exact. Longer times (over 104 simulated days at 1 ps) are divided. now()
// converts the current time once per time step, and a DelayCycles a link's delay once.
#pragma once

#include <cstdint>

#include <systemc>

namespace mt::noc {

class CycleClock {
 public:
  explicit CycleClock(uint64_t clock_ps)
      : period_(sc_core::sc_time(static_cast<double>(clock_ps), sc_core::SC_PS).value()),
        inverse_(1.0 / static_cast<double>(period_)) {}

  // One cycle in sc_time units (sc_time::value()).
  uint64_t period() const { return period_; }
  // floor(value / period).
  uint64_t cycles(uint64_t value) const {
    if (value >= kExactInDouble) return value / period_;
    uint64_t q = static_cast<uint64_t>(static_cast<double>(value) * inverse_);
    while (q != 0 && q * period_ > value) --q;
    while (value - q * period_ >= period_) ++q;
    return q;
  }
  uint64_t cycles(const sc_core::sc_time& t) const { return cycles(t.value()); }
  // The current cycle.
  uint64_t now() const {
    const uint64_t t = sc_core::sc_time_stamp().value();
    if (t != now_time_) {
      now_time_ = t;
      now_cycle_ = cycles(t);
    }
    return now_cycle_;
  }
  // `n` cycles as a SystemC time.
  sc_core::sc_time time_of(uint64_t n) const { return sc_core::sc_time::from_value(n * period_); }

 private:
  static constexpr uint64_t kExactInDouble = uint64_t{1} << 53;
  uint64_t period_;
  double inverse_;
  mutable uint64_t now_time_ = 0, now_cycle_ = 0;  // now() of the last time step asked
};

// The cycles of one link's delay, which arrives with every flit or credit over that link and
// hardly ever changes: converted once per change, then one compare.
class DelayCycles {
 public:
  uint64_t operator()(const CycleClock& clock, const sc_core::sc_time& delay) {
    if (delay.value() != time_) {
      time_ = delay.value();
      cycles_ = clock.cycles(time_);
    }
    return cycles_;
  }

 private:
  uint64_t time_ = 0, cycles_ = 0;  // cycles(0) is 0
};

}  // namespace mt::noc
