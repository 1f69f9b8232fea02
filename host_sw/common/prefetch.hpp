// Host-speed hints, never model behaviour: they ask the CPU to fetch every cache line of
// [p, p + bytes) before a use, and change no state. A simulation gives the same cycles and
// bytes with them or without them; only its speed differs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mt {

inline constexpr std::uintptr_t kCacheLineBytes = 64;

template <int kWrite>
inline void prefetch_lines(const void* p, std::size_t bytes) {
  if (bytes == 0) return;
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t last = at + bytes - 1;
  for (std::uintptr_t line = at & ~(kCacheLineBytes - 1); line <= last; line += kCacheLineBytes) {
    __builtin_prefetch(reinterpret_cast<const void*>(line), kWrite);
  }
}

// Lines about to be read.
inline void prefetch_read(const void* p, std::size_t bytes) { prefetch_lines<0>(p, bytes); }
// Lines about to be written.
inline void prefetch_write(const void* p, std::size_t bytes) { prefetch_lines<1>(p, bytes); }

}  // namespace mt
