// Bit masks over a router's input or output VCs (index port code * vcs + vc). A switch of
// radix up to kMaxRouterPorts with 4 VCs has 128 of them, so the masks are 128 bits wide.
#pragma once

#include <cstdint>

namespace mt::noc {

__extension__ typedef unsigned __int128 VcMask;  // GCC/Clang extension; -Wpedantic accepts it so

constexpr unsigned kVcMaskBits = 128;

constexpr VcMask vc_bit(unsigned i) { return VcMask{1} << i; }

// The index of the lowest set bit of a non-zero mask.
inline unsigned lowest_bit(VcMask m) {
  const auto lo = static_cast<uint64_t>(m);
  if (lo != 0) return static_cast<unsigned>(__builtin_ctzll(lo));
  return 64u + static_cast<unsigned>(__builtin_ctzll(static_cast<uint64_t>(m >> 64)));
}
inline unsigned lowest_bit(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)); }
inline unsigned lowest_bit(uint32_t m) { return static_cast<unsigned>(__builtin_ctz(m)); }

}  // namespace mt::noc
