#include "allreduce/gradient_data.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "memory/accel_memory.hpp"

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

// The loop of a whole buffer's fill, inlined into each version below, so that each is
// compiled for its own instruction set: the values of elements 0 .. n - 1, stored and added
// to their sums.
template <bool kInt32, typename Values, typename Modulo>
[[gnu::always_inline]] inline void fill_loop(const Values& values, const Modulo& mod,
                                             uint8_t* __restrict stored,
                                             int64_t* __restrict sum, uint64_t n) {
  for (uint64_t e = 0; e < n; ++e) {
    int64_t addend;
    const uint32_t v = values.template of<kInt32>(e, mod, addend);
    std::memcpy(stored + 4 * e, &v, 4);
    sum[e] += addend;
  }
}

template <typename Values, typename Modulo>
[[gnu::always_inline]] inline void fill_elements(const Values& values, const Modulo& mod,
                                                 uint8_t* stored, int64_t* sum, uint64_t n) {
  if (values.int32) {
    fill_loop<true>(values, mod, stored, sum, n);
  } else {
    fill_loop<false>(values, mod, stored, sum, n);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define MT_FILL_AVX512 1
#endif

#ifdef MT_FILL_AVX512
// AVX-512 has the 64-bit products and int64 <-> double conversions the hash and VectorModulo
// need, eight lanes at a time (4x as fast as the scalar loop on the AMD EPYC we measure on).
// Without them (AVX2 and older) that loop is slower than the scalar one, which runs there.
template <typename Values>
[[gnu::target("avx512f,avx512dq")]] void fill_elements_avx512(const Values& values,
                                                              uint8_t* stored, int64_t* sum,
                                                              uint64_t n) {
  fill_elements(values, values.vector_modulo, stored, sum, n);
}

bool has_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return yes;
}
#endif

// A whole buffer's fill (no sample), vectorised where the machine has AVX-512.
template <typename Values>
void fill_whole(const Values& values, uint8_t* stored, int64_t* sum, uint64_t n) {
#ifdef MT_FILL_AVX512
  if (has_avx512()) return fill_elements_avx512(values, stored, sum, n);
#endif
  fill_elements(values, values.modulo, stored, sum, n);
}

// The word an element holding `sum` stores: int32 wraps to its low 32 bits; an fp32 sum is
// exact (GradientData::values_of).
template <bool kInt32>
uint32_t sum_word(int64_t sum) {
  return kInt32 ? static_cast<uint32_t>(sum) : float_bits(static_cast<float>(sum));
}

// Whether the n elements stored are the sums' words: the check of a whole buffer as one
// branch-free pass (a run that passes pays only this).
template <bool kInt32>
bool holds_sums(const uint8_t* stored, const int64_t* sum, uint64_t n) {
  uint32_t diff = 0;
  for (uint64_t k = 0; k < n; ++k) {
    uint32_t got;
    std::memcpy(&got, stored + 4 * k, 4);
    diff |= got ^ sum_word<kInt32>(sum[k]);
  }
  return diff == 0;
}

bool holds_sums(const uint8_t* stored, const int64_t* sum, uint64_t n, bool int32) {
  return int32 ? holds_sums<true>(stored, sum, n) : holds_sums<false>(stored, sum, n);
}

}  // namespace

GradientData::GradientData(uint32_t nodes, uint64_t bytes, DType dtype, uint64_t seed,
                           std::shared_ptr<const SampledLines> sample)
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
  const auto divisor = static_cast<uint64_t>(2 * range + 1);
  return Values{seed_, uint64_t{node} << 40, dtype_ == DType::kInt32, range,
                FastModulo(divisor), VectorModulo(divisor)};
}

template <bool kInt32, typename Modulo>
inline uint32_t GradientData::Values::of(uint64_t element, const Modulo& mod,
                                         int64_t& addend) const {
  const uint64_t h = mix(seed ^ mix(node_bits ^ element));
  if constexpr (kInt32) {
    addend = int64_t{static_cast<uint32_t>(h)};
    return static_cast<uint32_t>(h);
  }
  // h % (2 range + 1) - range, a small integer: its float and the sum's addend are exact.
  addend = static_cast<int64_t>(mod(h)) - range;
  return float_bits(static_cast<float>(addend));
}

void GradientData::fill(uint32_t node, uint8_t* stored) {
  const Values values = values_of(node);  // a copy: the stores below cannot alias it
  int64_t* sum = sum_.data();
  ++filled_;
  if (!sample_) return fill_whole(values, stored, sum, elements_);
  for_each_checked([&](uint64_t k, uint64_t e) {
    int64_t addend;
    const uint32_t v = values(e, addend);
    std::memcpy(stored + 4 * k, &v, 4);
    sum[k] += addend;
  });
}

std::string GradientData::check(uint32_t node, const uint8_t* stored) const {
  if (filled_ != nodes_) {
    throw std::logic_error(fmt::format("GradientData::check after {} of {} fills", filled_, nodes_));
  }
  const int64_t* sum = sum_.data();
  if (!sample_ && holds_sums(stored, sum, elements_, dtype_ == DType::kInt32)) return {};
  std::string error;  // names the first wrong element
  for_each_checked([&](uint64_t k, uint64_t e) {
    if (!error.empty()) return;
    uint32_t got;
    std::memcpy(&got, stored + 4 * k, 4);
    const uint32_t want =
        dtype_ == DType::kInt32 ? sum_word<true>(sum[k]) : sum_word<false>(sum[k]);
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
    const size_t i = sample_->first_from(line);
    if (i == sample_->size() || (*sample_)[i] != line) return false;
    k = kPerLine * i + element % kPerLine;
  }
  uint32_t v;
  std::memcpy(&v, stored + 4 * k, 4);
  v = dtype_ == DType::kInt32 ? v + 1 : float_bits(as_float(v) + 1.0f);
  std::memcpy(stored + 4 * k, &v, 4);
  return true;
}

}  // namespace mt::noc
