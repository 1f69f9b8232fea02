#include "allreduce/gradient_data.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace mt::noc {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64 finaliser: a fixed, portable hash
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace

GradientData::GradientData(uint32_t nodes, uint64_t bytes, DType dtype, uint64_t seed)
    : nodes_(nodes), dtype_(dtype), seed_(seed), sum_(bytes / 4, 0) {}

uint32_t GradientData::value(uint32_t node, uint64_t element) const {
  const uint64_t h = mix(seed_ ^ mix((uint64_t{node} << 40) ^ element));
  if (dtype_ == DType::kInt32) return static_cast<uint32_t>(h);
  // |value| <= 2^23 / nodes: every partial sum of up to `nodes` values is below 2^23.
  const int64_t range = (int64_t{1} << 23) / nodes_;
  const int64_t v = static_cast<int64_t>(h % static_cast<uint64_t>(2 * range + 1)) - range;
  return float_bits(static_cast<float>(v));
}

void GradientData::fill(uint32_t node, uint8_t* buffer) {
  for (uint64_t e = 0; e < sum_.size(); ++e) {
    const uint32_t v = value(node, e);
    std::memcpy(buffer + 4 * e, &v, 4);
    sum_[e] += dtype_ == DType::kInt32 ? int64_t{v} : static_cast<int64_t>(as_float(v));
  }
  ++filled_;
  // A tail shorter than an element is left as it is (plans split on element boundaries).
}

std::string GradientData::check(uint32_t node, const uint8_t* buffer) const {
  if (filled_ != nodes_) {
    throw std::logic_error(fmt::format("GradientData::check after {} of {} fills", filled_, nodes_));
  }
  for (uint64_t e = 0; e < sum_.size(); ++e) {
    uint32_t got;
    std::memcpy(&got, buffer + 4 * e, 4);
    const uint32_t want = dtype_ == DType::kInt32 ? static_cast<uint32_t>(sum_[e])
                                                  : float_bits(static_cast<float>(sum_[e]));
    if (got == want) continue;
    if (dtype_ == DType::kInt32) {
      return fmt::format("node {}, element {} (byte {}): {} instead of {}", node, e, 4 * e,
                         static_cast<int32_t>(got), static_cast<int32_t>(want));
    }
    return fmt::format("node {}, element {} (byte {}): {} instead of {}", node, e, 4 * e,
                       as_float(got), as_float(want));
  }
  return {};
}

}  // namespace mt::noc
