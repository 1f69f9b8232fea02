#include "spec/checked_math.hpp"

#include <fmt/format.h>

#include <limits>

#include "common/error.hpp"

namespace mt::workload {

uint64_t checked_mul(uint64_t a, uint64_t b, const std::string& what) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) {
    throw InputError(fmt::format("{}: {} x {} does not fit in 64 bits", what, a, b));
  }
  return a * b;
}

uint64_t checked_add(uint64_t a, uint64_t b, const std::string& what) {
  if (b > std::numeric_limits<uint64_t>::max() - a) {
    throw InputError(fmt::format("{}: {} + {} does not fit in 64 bits", what, a, b));
  }
  return a + b;
}

}  // namespace mt::workload
