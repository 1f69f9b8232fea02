// The data mtsim starts with and the exact-sum check it ends with.
#include <cstring>
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

TEST(GradientData, CheckNeedsEveryNodeFilled) {
  GradientData d(3, 16, DType::kFp32, 1);
  std::vector<uint8_t> b(16);
  d.fill(0, b.data());
  EXPECT_THROW(d.check(0, b.data()), std::logic_error);
}

}  // namespace
}  // namespace mt::noc
