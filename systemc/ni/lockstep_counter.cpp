#include "ni/lockstep_counter.hpp"

namespace mt::noc {

uint64_t lockstep_estimate(uint64_t bytes, const NiConfig& cfg) {
  const uint64_t flits = send_flits(bytes, cfg);
  return flits <= cfg.buffer_flits ? flits : flits - cfg.buffer_flits;
}

}  // namespace mt::noc
