#include "ni/reduction_sequencer.hpp"

#include <algorithm>

namespace mt::noc {

ReductionSequencer::ReductionSequencer(sc_core::sc_module_name name, const ReductionConfig& cfg)
    : sc_core::sc_module(name), cfg_(cfg) {
  cfg_.validate();
}

uint64_t ReductionSequencer::admit(uint64_t bytes, uint64_t ready) {
  const uint64_t n = elements_of(bytes, name());
  const uint64_t start = std::max(ready, free_);
  const uint64_t cycles = (n + cfg_.elements_per_cycle - 1) / cfg_.elements_per_cycle;
  free_ = start + cycles;
  elements_ += n;
  busy_cycles_ += cycles;
  return free_ + cfg_.latency;
}

}  // namespace mt::noc
