#include "ni/reduction_unit.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {
namespace {

// Little-endian element layout whatever the host's byte order (compilers make these one load).
uint32_t load_le(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void store_le(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

float to_float(uint32_t bits) {
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t to_bits(float f) {
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// One fp32 addition as the RTL adder does it (rtl/fp32_adder.sv): the host's sum, except that
// every NaN sum is the canonical NaN, whatever the CPU makes of the operands' payloads and signs.
uint32_t fp32_add(uint32_t x, uint32_t y) {
  const float sum = to_float(x) + to_float(y);
  return std::isnan(sum) ? kCanonicalNan : to_bits(sum);
}

}  // namespace

void ReductionConfig::validate() const {
  if (elements_per_cycle < 1) {
    throw InputError(fmt::format(
        "reduction configuration: elements_per_cycle = {}: must be at least 1",
        elements_per_cycle));
  }
}

ReductionUnit::ReductionUnit(sc_core::sc_module_name name, const ReductionConfig& cfg,
                             mt::DType dtype)
    : sc_core::sc_module(name), cfg_(cfg), dtype_(dtype) {
  cfg_.validate();
  if (dtype != DType::kInt32 && dtype != DType::kFp32) {
    throw InputError(fmt::format("{}: unsupported element type {}", this->name(),
                                 static_cast<unsigned>(dtype)));
  }
}

uint64_t ReductionUnit::reduce(uint8_t* acc, const uint8_t* src, uint64_t bytes,
                               uint64_t ready) {
  if (bytes % kElementBytes != 0) {
    throw InputError(fmt::format("{}: {} bytes is not a whole number of {}-byte elements",
                                 name(), bytes, kElementBytes));
  }
  const uint64_t n = bytes / kElementBytes;
  // Byte-wise loads and stores: no alignment or aliasing assumptions, acc may be src. One
  // loop per type, so that the compiler can vectorise each.
  if (dtype_ == DType::kInt32) {
    for (uint64_t i = 0; i < n; ++i) {
      uint8_t* a = acc + i * kElementBytes;
      // int32 in uint32_t: wraps like two's complement without signed overflow.
      store_le(a, load_le(a) + load_le(src + i * kElementBytes));
    }
  } else {
    for (uint64_t i = 0; i < n; ++i) {
      uint8_t* a = acc + i * kElementBytes;
      store_le(a, fp32_add(load_le(a), load_le(src + i * kElementBytes)));
    }
  }

  const uint64_t start = std::max(ready, free_);
  const uint64_t cycles = (n + cfg_.elements_per_cycle - 1) / cfg_.elements_per_cycle;
  free_ = start + cycles;
  elements_ += n;
  busy_cycles_ += cycles;
  return free_ + cfg_.latency;
}

}  // namespace mt::noc
