// FastModulo and VectorModulo against the `%` they replace, on divisors and dividends chosen
// for the edges of their arithmetic as well as at random.
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "allreduce/fast_modulo.hpp"

namespace mt::noc {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

std::vector<uint64_t> dividends(uint64_t d, std::mt19937_64& rng) {
  std::vector<uint64_t> x = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, kMax, kMax - 1,
                             kMax - d, kMax / d * d, kMax / d * d - 1, uint64_t{1} << 63,
                             (uint64_t{1} << 63) - 1, uint64_t{1} << 32, (uint64_t{1} << 32) - 1};
  for (int i = 0; i < 2000; ++i) x.push_back(rng());
  return x;
}

TEST(FastModulo, EqualsTheRemainderOfEveryDividendTried) {
  std::mt19937_64 rng(15);
  std::vector<uint64_t> divisors = {1, 2, 3, 5, 7, 255, 256, 257, 65535, 65537, kMax, kMax - 1,
                                    uint64_t{1} << 63, (uint64_t{1} << 63) + 1};
  // GradientData's divisors: 2 * (2^23 / nodes) + 1 for every node count up to 4096.
  for (uint64_t nodes = 1; nodes <= 4096; ++nodes) divisors.push_back(2 * ((1u << 23) / nodes) + 1);
  for (int i = 0; i < 200; ++i) divisors.push_back(rng() >> (rng() % 64));
  for (uint64_t d : divisors) {
    if (d == 0) continue;
    const FastModulo mod(d);
    EXPECT_EQ(mod.divisor(), d);
    for (uint64_t x : dividends(d, rng)) {
      ASSERT_EQ(mod(x), x % d) << x << " % " << d;
    }
  }
}

TEST(FastModulo, RefusesDivisorZero) { EXPECT_THROW(FastModulo(0), std::invalid_argument); }

TEST(VectorModulo, EqualsTheRemainderOfEveryDividendTried) {
  std::mt19937_64 rng(25);
  constexpr uint64_t kLimit = VectorModulo::kDivisorLimit;
  std::vector<uint64_t> divisors = {1, 2, 3, 5, 7, 255, 256, 257, 65535, 65537, kLimit - 1,
                                    kLimit - 2, kLimit / 2, kLimit / 2 + 1, kLimit / 2 - 1};
  for (uint64_t nodes = 1; nodes <= 4096; ++nodes) divisors.push_back(2 * ((1u << 23) / nodes) + 1);
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + rng() % (kLimit - 1));
  for (uint64_t d : divisors) {
    const VectorModulo mod(d);
    EXPECT_EQ(mod.divisor(), d);
    for (uint64_t x : dividends(d, rng)) {
      ASSERT_EQ(mod(x), x % d) << x << " % " << d;
    }
  }
}

TEST(VectorModulo, RefusesDivisorsOutsideOneTo2To25) {
  EXPECT_THROW(VectorModulo{0}, std::invalid_argument);
  EXPECT_THROW(VectorModulo{VectorModulo::kDivisorLimit}, std::invalid_argument);
  EXPECT_THROW(VectorModulo{kMax}, std::invalid_argument);
}

}  // namespace
}  // namespace mt::noc
