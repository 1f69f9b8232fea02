// Products and sums of layer sizes and cycle counts, refused rather than wrapped when they do not
// fit in 64 bits (a geometry that large is bad input, not a model to round).
#pragma once

#include <cstdint>
#include <string>

namespace mt::workload {

// a * b; InputError "<what>: ... does not fit in 64 bits" on overflow.
uint64_t checked_mul(uint64_t a, uint64_t b, const std::string& what);
// a + b; InputError as above on overflow.
uint64_t checked_add(uint64_t a, uint64_t b, const std::string& what);
// ceil(a / b) for b > 0.
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
  return a / b + (a % b != 0 ? 1 : 0);
}

}  // namespace mt::workload
