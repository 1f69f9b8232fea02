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

// Every line of the object at p, its size known at compile time: a fixed sequence of
// prefetches (one per 64 bytes from p, and its last byte's), no loop. For the per-flit queues,
// which prefetch an entry of a line or two at every push and pop, prefetch_lines' loop costs
// several times the prefetches themselves.
template <int kWrite, typename T>
inline void prefetch_object(const T* p) {
  static_assert(sizeof(T) <= 4 * kCacheLineBytes, "for small objects; use prefetch_lines");
  const char* at = reinterpret_cast<const char*>(p);
  for (std::size_t offset = 0; offset < sizeof(T); offset += kCacheLineBytes) {
    __builtin_prefetch(at + offset, kWrite);
  }
  __builtin_prefetch(at + sizeof(T) - 1, kWrite);
}
template <typename T>
inline void prefetch_read(const T* p) { prefetch_object<0>(p); }
template <typename T>
inline void prefetch_write(const T* p) { prefetch_object<1>(p); }

}  // namespace mt
