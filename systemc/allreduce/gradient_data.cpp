#include "allreduce/gradient_data.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "ni/accel_memory.hpp"

namespace mt::noc {
namespace {

constexpr uint64_t kPerLine = AccelMemory::kLineBytes / 4;  // elements in a sampled line

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

GradientData::GradientData(uint32_t nodes, uint64_t bytes, DType dtype, uint64_t seed,
                           std::shared_ptr<const std::vector<uint64_t>> sample)
    : nodes_(nodes), dtype_(dtype), seed_(seed), elements_(bytes / 4), sample_(std::move(sample)),
      sum_(sample_ ? kPerLine * sample_->size() : elements_, 0) {
  for_each_checked([this](uint64_t, uint64_t) { ++checked_; });
}

template <typename F>
void GradientData::for_each_checked(F f) const {
  if (!sample_) {
    for (uint64_t e = 0; e < elements_; ++e) f(e, e);
    return;
  }
  for (size_t i = 0; i < sample_->size(); ++i) {
    for (uint64_t j = 0; j < kPerLine; ++j) {
      const uint64_t e = (*sample_)[i] / 4 + j;
      if (e < elements_) f(kPerLine * i + j, e);
    }
  }
}

GradientData::Values GradientData::values_of(uint32_t node) const {
  // |value| <= 2^23 / nodes: every partial sum of up to `nodes` values is below 2^23.
  const int64_t range = (int64_t{1} << 23) / nodes_;
  return Values{seed_, uint64_t{node} << 40, dtype_ == DType::kInt32, range,
                FastModulo(static_cast<uint64_t>(2 * range + 1))};
}

inline uint32_t GradientData::Values::operator()(uint64_t element, int64_t& addend) const {
  const uint64_t h = mix(seed ^ mix(node_bits ^ element));
  if (int32) {
    addend = int64_t{static_cast<uint32_t>(h)};
    return static_cast<uint32_t>(h);
  }
  // h % (2 range + 1) - range, a small integer: its float and the sum's addend are exact.
  addend = static_cast<int64_t>(modulo(h)) - range;
  return float_bits(static_cast<float>(addend));
}

void GradientData::fill(uint32_t node, uint8_t* stored) {
  const Values values = values_of(node);  // a copy: the stores below cannot alias it
  int64_t* sum = sum_.data();
  for_each_checked([&](uint64_t k, uint64_t e) {
    int64_t addend;
    const uint32_t v = values(e, addend);
    std::memcpy(stored + 4 * k, &v, 4);
    sum[k] += addend;
  });
  ++filled_;
}

std::string GradientData::check(uint32_t node, const uint8_t* stored) const {
  if (filled_ != nodes_) {
    throw std::logic_error(fmt::format("GradientData::check after {} of {} fills", filled_, nodes_));
  }
  std::string error;
  const int64_t* sum = sum_.data();
  for_each_checked([&](uint64_t k, uint64_t e) {
    if (!error.empty()) return;
    uint32_t got;
    std::memcpy(&got, stored + 4 * k, 4);
    const uint32_t want = dtype_ == DType::kInt32 ? static_cast<uint32_t>(sum[k])
                                                  : float_bits(static_cast<float>(sum[k]));
    if (got == want) return;
    error = dtype_ == DType::kInt32
                ? fmt::format("node {}, element {} (byte {}): {} instead of {}", node, e, 4 * e,
                              static_cast<int32_t>(got), static_cast<int32_t>(want))
                : fmt::format("node {}, element {} (byte {}): {} instead of {}", node, e, 4 * e,
                              as_float(got), as_float(want));
  });
  return error;
}

bool GradientData::add_one(uint8_t* stored, uint64_t element) const {
  if (element >= elements_) return false;
  uint64_t k = element;
  if (sample_) {
    const uint64_t line = 4 * element - 4 * element % AccelMemory::kLineBytes;
    const auto it = std::lower_bound(sample_->begin(), sample_->end(), line);
    if (it == sample_->end() || *it != line) return false;
    k = kPerLine * static_cast<uint64_t>(it - sample_->begin()) + element % kPerLine;
  }
  uint32_t v;
  std::memcpy(&v, stored + 4 * k, 4);
  v = dtype_ == DType::kInt32 ? v + 1 : float_bits(as_float(v) + 1.0f);
  std::memcpy(stored + 4 * k, &v, 4);
  return true;
}

}  // namespace mt::noc
