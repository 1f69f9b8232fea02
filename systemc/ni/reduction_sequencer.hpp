// The NI's reduction sequencer (rtl/reduction_sequencer.sv): feeds Reduce blocks whose local
// read is in through the reduction unit (ReductionUnit, the arithmetic), one block at a time
// in the order their reads complete, and says when each block's sum is complete, the cycle
// its write-back is asked for. tb/reduction_sequencer_test.cpp checks the RTL against it
// every cycle.
//
// Timing contract (cycles; the RTL copies it): the unit takes elements_per_cycle elements a
// cycle (a beat) in order and is `latency` stages deep. A block of e elements whose read
// completes in cycle `ready` starts at start = max(ready, free), `free` being the cycle after
// the previous block's last beat entered (0 at first); its beats enter in the cycles from
// start to free' - 1, free' = start + ceil(e / elements_per_cycle), the last leaves the unit in
// cycle free' - 1 + latency, and the sum is complete (its write-back asked for) at done =
// free' + latency, which admit() returns. A block of no elements takes no beat but still waits
// for its turn and the latency.
#pragma once

#include <cstdint>

#include <systemc>

#include "ni/reduction_unit.hpp"

namespace mt::noc {

class ReductionSequencer : public sc_core::sc_module {
 public:
  // Validates `cfg` (mt::InputError).
  ReductionSequencer(sc_core::sc_module_name name, const ReductionConfig& cfg);

  // A block of `bytes` whose local read completes in cycle `ready`, after every block admitted
  // before it: the cycle its sum is complete (see the timing contract above). `bytes` must be a
  // multiple of 4, else mt::InputError and nothing changes.
  uint64_t admit(uint64_t bytes, uint64_t ready);

  const ReductionConfig& config() const { return cfg_; }
  uint64_t elements() const { return elements_; }        // admitted so far
  uint64_t busy_cycles() const { return busy_cycles_; }  // cycles a beat entered the unit
  uint64_t free_cycle() const { return free_; }

 private:
  ReductionConfig cfg_;
  uint64_t free_ = 0;
  uint64_t elements_ = 0, busy_cycles_ = 0;
};

}  // namespace mt::noc
