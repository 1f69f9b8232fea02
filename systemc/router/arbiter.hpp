// Round-robin arbitration over a bit mask of requesters, with an optional priority that wins
// before round robin. Used by both separable allocators (VC and switch) of the router.
#pragma once

#include <cstdint>
#include <type_traits>

#include "router/vc_mask.hpp"

namespace mt::noc {

// Masks are VcMask (the VC allocator arbitrates over all of a router's input VCs), PortMask
// (the switch allocator's output stage, over input ports) or 32-bit (over one port's VCs).

// The first requester in `mask` (non-zero) at or after bit `ptr`, wrapping around.
template <typename Mask>
unsigned round_robin_pick(Mask mask, unsigned ptr) {
  if constexpr (std::is_signed_v<Mask>) {  // a plain int literal
    return round_robin_pick(static_cast<uint64_t>(mask), ptr);
  } else {
    constexpr unsigned kBits = sizeof(Mask) * 8;
    const Mask upper = ptr < kBits ? mask & static_cast<Mask>(~Mask{0} << ptr) : Mask{0};
    return lowest_bit(upper != 0 ? upper : mask);
  }
}

// The highest-priority requester in `mask`; ties go round robin from `ptr`. `prio(i)` gives
// requester i's priority; skipped entirely when `use_priority` is false.
template <typename Mask, typename PriorityOf>
unsigned arbitrate(Mask mask, unsigned ptr, bool use_priority, PriorityOf prio) {
  if constexpr (std::is_signed_v<Mask>) {  // a plain int literal
    return arbitrate(static_cast<uint64_t>(mask), ptr, use_priority, prio);
  } else {
    if ((mask & (mask - 1)) == 0) return lowest_bit(mask);  // one requester: it wins
    if (use_priority) {
      uint32_t best = 0;
      Mask best_mask = 0;
      for (Mask m = mask; m != 0; m &= m - 1) {
        const unsigned i = lowest_bit(m);
        const uint32_t p = prio(i);
        if (best_mask == 0 || p > best) {
          best = p;
          best_mask = Mask{1} << i;
        } else if (p == best) {
          best_mask |= Mask{1} << i;
        }
      }
      mask = best_mask;
    }
    return round_robin_pick(mask, ptr);
  }
}

}  // namespace mt::noc
