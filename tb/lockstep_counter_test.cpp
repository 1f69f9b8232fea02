// rtl/lockstep_counter.sv against the SystemC LockstepCounter (systemc/ni/lockstep_counter.hpp):
// a load of c cycles in cycle t reads c in cycle t and zero from t + c on; idle_o says the count
// was zero at the start of the cycle, whatever the cycle loads.
#include <gtest/gtest.h>

#include <random>

#include "Vlockstep_counter.h"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

TEST(LockstepCounter, ReadsTheLoadThenCountsDownToZeroAtTPlusC) {
  Clocked<Vlockstep_counter> dut;
  dut.reset();
  dut.settle();
  EXPECT_TRUE(dut->idle_o);
  for (uint32_t c : {0u, 1u, 2u, 17u}) {
    const uint64_t t = dut.cycle();
    dut->load_i = 1;
    dut->cycles_i = c;
    dut.settle();
    EXPECT_EQ(dut->value_o, c);
    EXPECT_TRUE(dut->idle_o);  // the previous load has run out
    dut.tick();
    dut->load_i = 0;
    for (uint64_t now = t + 1; now <= t + c + 1; ++now) {
      dut.settle();
      const uint64_t want = t + c > now ? t + c - now : 0;
      EXPECT_EQ(dut->value_o, want) << "load " << c << " at " << t << ", cycle " << now;
      EXPECT_EQ(dut->idle_o, want == 0);
      dut.tick();
    }
  }
}

TEST(LockstepCounter, MatchesTheZeroAtRuleOnRandomLoads) {
  Clocked<Vlockstep_counter> dut;
  dut.reset();
  std::mt19937 rng(11);
  uint64_t zero_at = 0;  // the SystemC model's state
  for (int i = 0; i < 20000; ++i) {
    const uint64_t now = dut.cycle();
    const bool load = rng() % 16 == 0;
    const auto c = static_cast<uint32_t>(rng() % 40);
    const bool idle = zero_at <= now;  // the count at the start of the cycle
    dut->load_i = load;
    dut->cycles_i = c;
    dut->start_i = rng() % 500 == 0;
    if (dut->start_i) {
      zero_at = 0;
      dut->load_i = 0;
    } else if (load) {
      zero_at = now + c;
    }
    dut.settle();
    const uint64_t want = zero_at > now ? zero_at - now : 0;
    if (!dut->start_i) {
      ASSERT_EQ(dut->value_o, want) << "cycle " << now;
      ASSERT_EQ(dut->idle_o, idle) << "cycle " << now;
    }
    dut.tick();
  }
}

}  // namespace
}  // namespace mt::tb
