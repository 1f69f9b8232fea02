// The lockstep down-counter (paper Fig. 6): a NOP loads it with the estimated step time and
// it counts down once per cycle; the timestep counter may advance only when it is zero.
#pragma once

#include <cstdint>

#include <systemc>

#include "ni/ni_config.hpp"

namespace mt::noc {

// Footnote 4: the step time of a NOP whose per-step chunk is `bytes`: the flits of that
// chunk if the NI buffer holds them all, else those flits minus the NI buffer.
uint64_t lockstep_estimate(uint64_t bytes, const NiConfig& cfg);

class LockstepCounter : public sc_core::sc_module {
 public:
  explicit LockstepCounter(sc_core::sc_module_name name) : sc_module(name) {}

  // The host's reset: the counter reads zero.
  void reset() { zero_at_ = 0; }
  // Loads `cycles` in cycle `now`; it reads zero from cycle now + cycles on.
  void load(uint64_t now, uint64_t cycles) { zero_at_ = now + cycles; }
  // The value in cycle `now`.
  uint64_t value(uint64_t now) const { return zero_at_ > now ? zero_at_ - now : 0; }
  bool zero(uint64_t now) const { return value(now) == 0; }
  // First cycle it reads zero (idle NIs sleep until then instead of counting every cycle).
  uint64_t zero_at() const { return zero_at_; }

 private:
  uint64_t zero_at_ = 0;
};

}  // namespace mt::noc
