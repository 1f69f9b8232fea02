// Little-endian 32-bit elements as bytes and back, and a float's bits: the shared helpers of
// the reduction-unit tests (SystemC and RTL), independent of the host's byte order.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace mt::test {

inline std::vector<uint8_t> le_bytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> out;
  for (uint32_t w : words) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
  return out;
}

inline std::vector<uint32_t> le_words(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> out(bytes.size() / 4, 0);
  for (size_t i = 0; i < bytes.size(); ++i) out[i / 4] |= uint32_t{bytes[i]} << (8 * (i % 4));
  return out;
}

inline uint32_t float_bits(float f) {
  uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

}  // namespace mt::test
