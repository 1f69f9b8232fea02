// Round-robin arbitration over a bit mask of requesters, with an optional priority that wins
// before round robin. Used by both separable allocators (VC and switch) of the router.
#pragma once

#include <cstdint>

namespace mt::noc {

// The first requester in `mask` (non-zero) at or after bit `ptr`, wrapping around.
inline unsigned round_robin_pick(uint32_t mask, unsigned ptr) {
  const uint32_t upper = ptr < 32 ? mask & (~0u << ptr) : 0u;
  return static_cast<unsigned>(__builtin_ctz(upper != 0 ? upper : mask));
}

// The highest-priority requester in `mask`; ties go round robin from `ptr`. `prio(i)` gives
// requester i's priority; skipped entirely when `use_priority` is false.
template <typename PriorityOf>
unsigned arbitrate(uint32_t mask, unsigned ptr, bool use_priority, PriorityOf prio) {
  if (use_priority && (mask & (mask - 1)) != 0) {
    uint32_t best = 0, best_mask = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(m));
      const uint32_t p = prio(i);
      if (best_mask == 0 || p > best) {
        best = p;
        best_mask = 1u << i;
      } else if (p == best) {
        best_mask |= 1u << i;
      }
    }
    mask = best_mask;
  }
  return round_robin_pick(mask, ptr);
}

}  // namespace mt::noc
