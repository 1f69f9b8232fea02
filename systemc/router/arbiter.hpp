// Round-robin arbitration over a bit mask of requesters, with an optional priority that wins
// before round robin. Used by both separable allocators (VC and switch) of the router.
#pragma once

#include <cstdint>

namespace mt::noc {

// Masks are 64-bit: the VC allocator arbitrates over all of a router's input VCs (index
// port code * vcs + vc, which NocConfig::validate keeps below 64).

// The first requester in `mask` (non-zero) at or after bit `ptr`, wrapping around.
inline unsigned round_robin_pick(uint64_t mask, unsigned ptr) {
  const uint64_t upper = ptr < 64 ? mask & (~uint64_t{0} << ptr) : 0u;
  return static_cast<unsigned>(__builtin_ctzll(upper != 0 ? upper : mask));
}

// The highest-priority requester in `mask`; ties go round robin from `ptr`. `prio(i)` gives
// requester i's priority; skipped entirely when `use_priority` is false.
template <typename PriorityOf>
unsigned arbitrate(uint64_t mask, unsigned ptr, bool use_priority, PriorityOf prio) {
  if (use_priority && (mask & (mask - 1)) != 0) {
    uint32_t best = 0;
    uint64_t best_mask = 0;
    for (uint64_t m = mask; m != 0; m &= m - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(m));
      const uint32_t p = prio(i);
      if (best_mask == 0 || p > best) {
        best = p;
        best_mask = uint64_t{1} << i;
      } else if (p == best) {
        best_mask |= uint64_t{1} << i;
      }
    }
    mask = best_mask;
  }
  return round_robin_pick(mask, ptr);
}

}  // namespace mt::noc
