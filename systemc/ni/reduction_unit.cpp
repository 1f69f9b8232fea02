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

// Four fp32 additions at once, each as fp32_add: on a little-endian host (whose byte order
// is the elements'), the elements of 16 bytes are four lanes; every NaN lane becomes the
// canonical NaN. IEEE single addition rounds each lane as the scalar addition does.
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr bool kLanes = true;
using Lanes = float __attribute__((vector_size(16)));
using LaneBits = uint32_t __attribute__((vector_size(16)));
using LaneMask = int32_t __attribute__((vector_size(16)));
void fp32_add4(uint8_t* acc, const uint8_t* src) {
  Lanes x, y;
  std::memcpy(&x, acc, sizeof x);
  std::memcpy(&y, src, sizeof y);
  const Lanes sum = x + y;
  LaneBits bits;
  std::memcpy(&bits, &sum, sizeof bits);
  const LaneBits nan = reinterpret_cast<LaneBits>(LaneMask(sum != sum));  // all ones: NaN
  const LaneBits canonical = {kCanonicalNan, kCanonicalNan, kCanonicalNan, kCanonicalNan};
  bits = (bits & ~nan) | (canonical & nan);
  std::memcpy(acc, &bits, sizeof bits);
}
#else
constexpr bool kLanes = false;
void fp32_add4(uint8_t*, const uint8_t*) {}
#endif

}  // namespace

void ReductionConfig::validate() const {
  if (elements_per_cycle < 1) {
    throw InputError(fmt::format(
        "reduction configuration: elements_per_cycle = {}: must be at least 1",
        elements_per_cycle));
  }
}

uint64_t elements_of(uint64_t bytes, const char* who) {
  if (bytes % kElementBytes != 0) {
    throw InputError(fmt::format("{}: {} bytes is not a whole number of {}-byte elements", who,
                                 bytes, kElementBytes));
  }
  return bytes / kElementBytes;
}

ReductionUnit::ReductionUnit(sc_core::sc_module_name name, mt::DType dtype)
    : sc_core::sc_module(name), dtype_(dtype) {
  if (dtype != DType::kInt32 && dtype != DType::kFp32) {
    throw InputError(fmt::format("{}: unsupported element type {}", this->name(),
                                 static_cast<unsigned>(dtype)));
  }
}

void ReductionUnit::add(uint8_t* acc, const uint8_t* src, uint64_t bytes) const {
  const uint64_t n = elements_of(bytes, name());
  // No alignment assumed; acc may be src (or else does not overlap it). One loop per type.
  if (dtype_ == DType::kInt32) {
    for (uint64_t i = 0; i < n; ++i) {
      uint8_t* a = acc + i * kElementBytes;
      // int32 in uint32_t: wraps like two's complement without signed overflow.
      store_le(a, load_le(a) + load_le(src + i * kElementBytes));
    }
  } else {
    uint64_t i = 0;
    if (kLanes) {  // four at a time, then the rest one by one
      for (; i + 4 <= n; i += 4) fp32_add4(acc + i * kElementBytes, src + i * kElementBytes);
    }
    for (; i < n; ++i) {
      uint8_t* a = acc + i * kElementBytes;
      store_le(a, fp32_add(load_le(a), load_le(src + i * kElementBytes)));
    }
  }
}

}  // namespace mt::noc
