// rtl/timestep_counter.sv against the SystemC TimestepCounter (systemc/ni/timestep_counter.hpp):
// the same inputs every cycle, the same step.
#include <gtest/gtest.h>

#include <random>

#include "Vtimestep_counter.h"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

// The SystemC block's rule, kept here as plain C++ so this test needs no SystemC kernel.
struct Golden {
  uint32_t step = 1;
  bool try_advance(bool zero, bool idle, bool has_next, uint32_t next) {
    if (!zero || !idle || !has_next || next <= step) return false;
    ++step;
    return true;
  }
};

TEST(TimestepCounter, StartsAtOneAndAdvancesOnlyWhenEveryConditionHolds) {
  Clocked<Vtimestep_counter> dut;
  dut.reset();
  dut.settle();
  EXPECT_EQ(dut->step_o, 1u);
  // Each condition missing in turn holds the step.
  const struct { bool zero, idle, has_next; uint32_t next; } held[] = {
      {false, true, true, 2}, {true, false, true, 2}, {true, true, false, 2}, {true, true, true, 1}};
  for (const auto& h : held) {
    dut->lockstep_zero_i = h.zero;
    dut->dma_idle_i = h.idle;
    dut->has_next_i = h.has_next;
    dut->next_step_i = static_cast<uint8_t>(h.next);
    dut.settle();
    EXPECT_FALSE(dut->advance_o);
    dut.tick();
    EXPECT_EQ(dut->step_o, 1u);
  }
  dut->lockstep_zero_i = dut->dma_idle_i = dut->has_next_i = 1;
  dut->next_step_i = 5;  // a later step: one advance per cycle
  for (uint32_t s = 2; s <= 5; ++s) {
    dut.settle();
    EXPECT_TRUE(dut->advance_o);
    dut.tick();
    EXPECT_EQ(dut->step_o, s);
  }
  dut.settle();
  EXPECT_FALSE(dut->advance_o);
  dut->start_i = 1;  // the host's start resets it
  dut.tick();
  dut->start_i = 0;
  dut.settle();
  EXPECT_EQ(dut->step_o, 1u);
}

TEST(TimestepCounter, FollowsTheSystemCRuleOnRandomInputs) {
  Clocked<Vtimestep_counter> dut;
  dut.reset();
  Golden golden;
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const bool zero = rng() % 4 != 0, idle = rng() % 4 != 0, has_next = rng() % 8 != 0;
    const uint32_t next = golden.step + static_cast<uint32_t>(rng() % 3) - 1;
    dut->lockstep_zero_i = zero;
    dut->dma_idle_i = idle;
    dut->has_next_i = has_next;
    dut->next_step_i = static_cast<uint8_t>(next);
    dut.settle();
    const bool advanced = golden.try_advance(zero, idle, has_next, next);
    ASSERT_EQ(dut->advance_o, advanced) << "cycle " << dut.cycle();
    dut.tick();
    ASSERT_EQ(dut->step_o, golden.step & 0xff) << "cycle " << dut.cycle();
    if (golden.step >= 250) {  // stay inside STEP_W = 8 bits
      dut->start_i = 1;
      dut.tick();
      dut->start_i = 0;
      golden.step = 1;
    }
  }
}

}  // namespace
}  // namespace mt::tb
