// Bit masks over a router's input or output VCs (index port code << vc_shift | vc, 128 bits:
// 32 port codes with 4 VCs, 64 with 2) and over its ports (64 bits).
#pragma once

#include <cstdint>

namespace mt::noc {

__extension__ typedef unsigned __int128 VcMask;  // GCC/Clang extension; -Wpedantic accepts it so

constexpr unsigned kVcMaskBits = 128;

using PortMask = uint64_t;
constexpr unsigned kPortMaskBits = 64;
constexpr PortMask port_bit(unsigned p) { return PortMask{1} << p; }

// log2 of the VC-index stride per port: VCs are 2 or 4 (NocConfig::validate).
constexpr unsigned vc_shift(unsigned vcs) { return vcs > 2 ? 2u : 1u; }

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
