// The switch aggregation window (aggregation/aggregation_window.hpp): the arrival bitmap, the
// window's bounds, out-of-order arrival, back-pressure, the NI reduction unit's arithmetic,
// and bad input refused.
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aggregation/aggregation_window.hpp"
#include "common/error.hpp"
#include "ni/reduction_unit.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

FlitData words(uint32_t a, uint32_t b = 0, uint32_t c = 0, uint32_t d = 0) { return {a, b, c, d}; }

uint32_t bits(float f) {
  uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(AggregationWindow, BitmapRecordsWhoHasArrived) {
  AggregationWindow w(3, 4, DType::kInt32);
  EXPECT_EQ(w.arrivals(0), 0u);
  w.accept(1, 0, words(5));
  EXPECT_EQ(w.arrivals(0), 0b010u);
  EXPECT_FALSE(w.can_accept(1, 0)) << "a child delivers a sequence number once";
  EXPECT_FALSE(w.front_complete());
  w.accept(2, 0, words(7));
  w.accept(0, 0, words(11));
  EXPECT_EQ(w.arrivals(0), 0b111u);
  EXPECT_TRUE(w.complete(0));
  EXPECT_FALSE(w.complete(1));
  ASSERT_TRUE(w.front_complete());
  EXPECT_EQ(w.pop_front(), words(23));
  EXPECT_EQ(w.base(), 1u);
  EXPECT_EQ(w.arrivals(0), 0u) << "outside the window once popped";
  EXPECT_EQ(w.occupied(), 0u);
}

TEST(AggregationWindow, OutOfOrderArrivalWithinTheWindow) {
  AggregationWindow w(2, 4, DType::kInt32);
  // Child 0 runs three flits ahead of child 1; every one is held, summed when child 1 comes.
  for (uint64_t s = 0; s < 4; ++s) w.accept(0, s, words(static_cast<uint32_t>(10 * s + 1)));
  EXPECT_EQ(w.occupied(), 4u);
  w.accept(1, 2, words(100));  // child 1's third flit before its first
  EXPECT_FALSE(w.front_complete());
  w.accept(1, 0, words(200));
  w.accept(1, 1, words(300));
  EXPECT_EQ(w.pop_front(), words(201));
  EXPECT_EQ(w.pop_front(), words(311));
  EXPECT_EQ(w.pop_front(), words(121));
  EXPECT_FALSE(w.front_complete()) << "child 1 has not delivered flit 3";
}

TEST(AggregationWindow, FullWindowRefusesTheNextSequenceNumber) {
  AggregationWindow w(2, 2, DType::kInt32);
  w.accept(0, 0, words(1));
  w.accept(0, 1, words(2));
  // Child 0's flit 2 is outside the window: the switch leaves it in its buffer (back-pressure).
  EXPECT_FALSE(w.can_accept(0, 2));
  EXPECT_THROW(w.accept(0, 2, words(3)), std::logic_error) << "never taken, never dropped";
  EXPECT_THROW(w.pop_front(), std::logic_error) << "flit 0 is not complete";
  w.accept(1, 0, words(4));
  EXPECT_EQ(w.pop_front(), words(5));
  EXPECT_TRUE(w.can_accept(0, 2)) << "the window moved on by one";
  EXPECT_FALSE(w.can_accept(0, 3));
  EXPECT_FALSE(w.can_accept(0, 0)) << "behind the window";
}

TEST(AggregationWindow, SumsAsTheReductionUnitDoes) {
  // int32 wraps around.
  AggregationWindow i(2, 1, DType::kInt32);
  i.accept(0, 0, words(0xFFFFFFFFu, 0x7FFFFFFFu, 3, 0));
  i.accept(1, 0, words(2, 1, 0xFFFFFFFDu, 0));
  EXPECT_EQ(i.pop_front(), words(1, 0x80000000u, 0, 0));
  // fp32: one IEEE addition per element, in arrival order; every NaN sum canonical.
  AggregationWindow f(3, 1, DType::kFp32);
  const float inf = __builtin_inff();
  f.accept(2, 0, words(bits(1.0f), bits(inf), bits(1e8f), bits(0.5f)));
  f.accept(0, 0, words(bits(2.5f), bits(-inf), bits(1.0f), bits(0.25f)));
  f.accept(1, 0, words(bits(-0.5f), bits(1.0f), bits(-1e8f), 0xFFC00001u));
  // 1e8 + 1 rounds back to 1e8 (its ulp is 8) before -1e8 comes: 0, not 1.
  EXPECT_EQ(f.pop_front(), words(bits(3.0f), kCanonicalNan, bits(0.0f), kCanonicalNan));
}

TEST(AggregationWindow, BadInputIsRefused) {
  try {
    AggregationWindow w(2, 0, DType::kFp32);
    FAIL() << "a window of 0 slots was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("window of 0 slots"));
  }
  try {
    AggregationWindow w(0, 4, DType::kFp32);
    FAIL() << "a flow with no children was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("0 children"));
  }
  EXPECT_THROW(AggregationWindow(65, 4, DType::kInt32), InputError);
  AggregationWindow w(64, 1, DType::kInt32);
  for (uint32_t c = 0; c < 64; ++c) w.accept(c, 0, words(1));
  EXPECT_EQ(w.pop_front(), words(64)) << "a full 64-bit bitmap completes";
}

}  // namespace
}  // namespace mt::noc
