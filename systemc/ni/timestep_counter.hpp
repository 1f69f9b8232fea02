// The timestep counter (paper Fig. 6 ③): the step the NI is in. Only the table's head entry
// can issue, and only when its Step equals this counter.
#pragma once

#include <cstdint>

#include <systemc>

namespace mt::noc {

class TimestepCounter : public sc_core::sc_module {
 public:
  explicit TimestepCounter(sc_core::sc_module_name name) : sc_module(name) {}

  // The host's reset. Plans number steps from 1.
  void reset() { step_ = 1; }
  uint32_t value() const { return step_; }
  // Fig. 6 ③: advances by one when the lockstep counter is zero, the all-reduce units are idle
  // and the next table entry belongs to a later step (compiled tables fill every step with an
  // entry, so that is the next step). Returns whether it advanced.
  bool try_advance(bool lockstep_zero, bool units_idle, bool has_next, uint32_t next_step) {
    if (!lockstep_zero || !units_idle || !has_next || next_step <= step_) return false;
    ++step_;
    return true;
  }

 private:
  uint32_t step_ = 1;
};

}  // namespace mt::noc
