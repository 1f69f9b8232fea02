// The data mtsim starts with and the exact-sum check it ends with.
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allreduce/gradient_data.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

std::vector<std::vector<uint8_t>> filled(GradientData& d, uint32_t nodes, uint64_t bytes) {
  std::vector<std::vector<uint8_t>> b(nodes, std::vector<uint8_t>(bytes));
  for (uint32_t n = 0; n < nodes; ++n) d.fill(n, b[n].data());
  return b;
}

// The data are defined as a seeded hash of (node, element), reduced without a divide since
// FastModulo: the values must still be the definition's, bit for bit.
uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A whole buffer is filled by a vectorised loop where the machine has AVX-512: 1,025
// elements (and 3 bytes that are not one) leave it a remainder past its last full vector.
TEST(GradientData, ValuesAreTheSeededHashOfNodeAndElement) {
  for (uint32_t nodes : {1u, 3u, 64u, 256u, 1000u}) {
    for (DType t : {DType::kInt32, DType::kFp32}) {
      const uint64_t seed = 12345, bytes = 4103;
      GradientData d(nodes, bytes, t, seed);
      for (uint32_t n : {0u, nodes - 1}) {
        std::vector<uint8_t> b(bytes);
        d.fill(n, b.data());
        for (uint64_t e = 0; e < bytes / 4; ++e) {
          const uint64_t h = splitmix(seed ^ splitmix((uint64_t{n} << 40) ^ e));
          uint32_t want = static_cast<uint32_t>(h);
          if (t == DType::kFp32) {
            const int64_t range = (int64_t{1} << 23) / nodes;
            const float v = static_cast<float>(
                static_cast<int64_t>(h % static_cast<uint64_t>(2 * range + 1)) - range);
            std::memcpy(&want, &v, 4);
          }
          uint32_t got;
          std::memcpy(&got, &b[4 * e], 4);
          ASSERT_EQ(got, want) << nodes << " nodes, node " << n << ", element " << e;
        }
        for (uint64_t i = bytes / 4 * 4; i < bytes; ++i) EXPECT_EQ(b[i], 0) << "byte " << i;
      }
    }
  }
}

TEST(GradientData, AcceptsTheSumAndNamesTheFirstWrongElement) {
  for (DType t : {DType::kInt32, DType::kFp32}) {
    GradientData d(4, 64, t, 7);
    const auto bufs = filled(d, 4, 64);
    EXPECT_NE(bufs[0], bufs[1]);  // distinct data per node
    std::vector<uint8_t> sum(64);
    for (size_t e = 0; e < 16; ++e) {
      if (t == DType::kInt32) {
        uint32_t acc = 0, v;
        for (const auto& b : bufs) std::memcpy(&v, &b[4 * e], 4), acc += v;
        std::memcpy(&sum[4 * e], &acc, 4);
      } else {
        float acc = 0, v;
        for (const auto& b : bufs) std::memcpy(&v, &b[4 * e], 4), acc += v;
        std::memcpy(&sum[4 * e], &acc, 4);
      }
    }
    EXPECT_EQ(d.check(2, sum.data()), "");
    sum[4 * 5] ^= 1;
    EXPECT_THAT(d.check(2, sum.data()), HasSubstr("node 2, element 5 (byte 20)"));
    EXPECT_THAT(d.check(2, bufs[2].data()), HasSubstr("element 0"));  // not yet reduced
  }
}

// --data sampled: the sampled lines hold the same values as the whole buffer has there, and
// only they are summed and checked.
TEST(GradientData, ASampleHoldsTheBuffersValuesAtItsLines) {
  const uint64_t bytes = 1000;  // 250 elements: the last line (992) has 2 of them
  const std::vector<uint64_t> lines = {0, 496, 992};
  for (DType t : {DType::kInt32, DType::kFp32}) {
    GradientData full(3, bytes, t, 9), sampled(3, bytes, t, 9,
                                               std::make_shared<const SampledLines>(lines));
    EXPECT_EQ(full.checked_elements(), 250u);
    EXPECT_EQ(sampled.checked_elements(), 10u);
    EXPECT_EQ(sampled.sum_bytes(), 12 * sizeof(int64_t));  // 4 per line, not 250
    const auto bufs = filled(full, 3, bytes);
    const auto stored = filled(sampled, 3, 48);
    for (size_t i = 0; i < lines.size(); ++i) {
      const uint64_t n = std::min<uint64_t>(16, bytes - lines[i]);
      for (uint32_t node = 0; node < 3; ++node) {
        EXPECT_TRUE(std::equal(bufs[node].begin() + static_cast<long>(lines[i]),
                               bufs[node].begin() + static_cast<long>(lines[i] + n),
                               stored[node].begin() + static_cast<long>(16 * i)));
      }
    }
    // Node 1's data is not the sum; a fault at element 125 (line 496) is named as such.
    EXPECT_THAT(sampled.check(1, stored[1].data()), HasSubstr("node 1, element 0 (byte 0)"));
    std::vector<uint8_t> one = stored[1];
    EXPECT_TRUE(sampled.add_one(one.data(), 125));
    EXPECT_NE(one, stored[1]);
    EXPECT_FALSE(sampled.add_one(one.data(), 120));  // line 480: not in the sample
    EXPECT_FALSE(sampled.add_one(one.data(), 250));  // past the buffer
  }
}

TEST(GradientData, CheckNeedsEveryNodeFilled) {
  GradientData d(3, 16, DType::kFp32, 1);
  std::vector<uint8_t> b(16);
  d.fill(0, b.data());
  EXPECT_THROW(d.check(0, b.data()), std::logic_error);
}

}  // namespace
}  // namespace mt::noc
