// The data an all-reduce run starts with and the exact result it must end with. Every node's
// buffer holds distinct seeded values; fp32 values are small integers, so every partial sum
// is exact in any summation order and the check needs no tolerance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace mt::noc {

class GradientData {
 public:
  GradientData(uint32_t nodes, uint64_t bytes, DType dtype, uint64_t seed);

  // Writes node n's initial buffer (bytes, little-endian elements) and adds it to the
  // expected sum. Call once per node before check().
  void fill(uint32_t node, uint8_t* buffer);
  // Empty if `buffer` holds the sum of every node's initial buffer; otherwise names the
  // first wrong element, its value and the expected one.
  std::string check(uint32_t node, const uint8_t* buffer) const;

 private:
  uint32_t value(uint32_t node, uint64_t element) const;  // raw bits

  uint32_t nodes_;
  DType dtype_;
  uint64_t seed_;
  uint32_t filled_ = 0;
  // Per element, the exact sum of the values filled so far: int32 takes its low 32 bits (the
  // NI's adder wraps), fp32 is exact since every value is a small integer.
  std::vector<int64_t> sum_;
};

}  // namespace mt::noc
