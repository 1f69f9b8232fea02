// The all-reduce cycles of the network's clock as cycles of the accelerator's.
#include <limits>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "training/allreduce_times.hpp"

namespace {

using mt::training::accelerator_cycles;

TEST(AcceleratorCycles, SameClockSameCount) {
  EXPECT_EQ(accelerator_cycles(0, 1000, 1e9), 0u);
  EXPECT_EQ(accelerator_cycles(43500, 1000, 1e9), 43500u);
  const uint64_t most = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(accelerator_cycles(most, 1000, 1e9), most);
}

TEST(AcceleratorCycles, OtherClocksScaleAndRoundUp) {
  EXPECT_EQ(accelerator_cycles(1000, 1000, 5e8), 500u);   // a 500 MHz accelerator
  EXPECT_EQ(accelerator_cycles(3, 1000, 5e8), 2u);        // 1.5 cycles: waited out
  EXPECT_EQ(accelerator_cycles(1000, 1000, 1.5e9), 1500u);
  EXPECT_EQ(accelerator_cycles(1000, 500, 1e9), 500u);    // a 2 GHz network
  EXPECT_EQ(accelerator_cycles(1000, 1000, 2.5), 1u);     // fractional hertz
}

TEST(AcceleratorCycles, TooManyIsRefused) {
  EXPECT_THROW(accelerator_cycles(std::numeric_limits<uint64_t>::max(), 1000, 2e9),
               mt::InputError);
}

}  // namespace
