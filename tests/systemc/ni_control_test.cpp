// The NI's control blocks: lockstep estimate and counter, timestep counter, decoder.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "ni/decoder.hpp"
#include "ni/lockstep_counter.hpp"
#include "ni/timestep_counter.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

class NiControl : public test::SimTest {};

TEST_F(NiControl, LockstepEstimateIsFootnote4) {
  NiConfig c;  // message-based, 318-flit NI buffer
  // 1 KiB: 1 head + 64 payload flits fit the buffer: the step time is the flits.
  EXPECT_EQ(lockstep_estimate(1024, c), 65u);
  // 64 KiB: 4097 flits do not fit: the step time is the flits minus the buffer.
  EXPECT_EQ(lockstep_estimate(64 * 1024, c), 4097u - 318u);
  EXPECT_EQ(lockstep_estimate(318 * 16 - 16, c), 318u);  // exactly the buffer still fits
  // A zero-byte chunk is a head and an empty tail.
  EXPECT_EQ(lockstep_estimate(0, c), 2u);
  c.flow_control = FlowControl::kPacket;  // 256-byte packets: one head per 16 payload flits
  EXPECT_EQ(lockstep_estimate(64 * 1024, c), 256u + 4096u - 318u);
  EXPECT_EQ(lockstep_estimate(1000, c), 4u + 63u);
}

TEST_F(NiControl, LockstepCounterCountsDownToZero) {
  LockstepCounter l("lockstep");
  EXPECT_TRUE(l.zero(0));
  l.load(10, 5);
  EXPECT_EQ(l.value(10), 5u);
  EXPECT_EQ(l.value(14), 1u);
  EXPECT_FALSE(l.zero(14));
  EXPECT_TRUE(l.zero(15));
  EXPECT_EQ(l.zero_at(), 15u);
  l.reset();
  EXPECT_TRUE(l.zero(10));
}

TEST_F(NiControl, TimestepAdvancesOnlyWhenFig6ConditionsHold) {
  TimestepCounter t("timestep");
  t.reset();
  EXPECT_EQ(t.value(), 1u);
  EXPECT_FALSE(t.try_advance(false, true, true, 2));  // lockstep still counting
  EXPECT_FALSE(t.try_advance(true, false, true, 2));  // DMA busy
  EXPECT_FALSE(t.try_advance(true, true, false, 2));  // table empty
  EXPECT_FALSE(t.try_advance(true, true, true, 1));   // head entry is for this step
  EXPECT_EQ(t.value(), 1u);
  EXPECT_TRUE(t.try_advance(true, true, true, 2));
  EXPECT_EQ(t.value(), 2u);
  EXPECT_TRUE(t.try_advance(true, true, true, 4));  // one step per call
  EXPECT_EQ(t.value(), 3u);
}

TEST_F(NiControl, DecoderDrivesDmaOrLockstep) {
  NiConfig c;
  Decoder d("decoder", c);
  Decoded out;
  TableEntry e;
  e.op = Op::kReduce;
  e.flow = 3;
  e.parent = 1;
  e.children = {2, 5};
  e.step = 2;
  e.start_addr = 4096;
  e.size = 1024;
  d.decode(e, out);
  ASSERT_EQ(out.sends.size(), 1u);
  EXPECT_EQ(out.sends[0].dest, 1u);
  EXPECT_EQ(out.sends[0].op, Op::kReduce);
  EXPECT_EQ(out.sends[0].flow, 3u);
  EXPECT_EQ(out.sends[0].addr, 4096u);
  EXPECT_EQ(out.sends[0].bytes, 1024u);
  EXPECT_EQ(out.lockstep_cycles, 0u);

  e.parent = kNil;  // a terminal Reduce waits and sends nothing
  d.decode(e, out);
  EXPECT_TRUE(out.sends.empty());

  e.op = Op::kGather;
  e.children = {0, 4, 9};
  d.decode(e, out);
  ASSERT_EQ(out.sends.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out.sends[i].dest, e.children[i]);
    EXPECT_EQ(out.sends[i].op, Op::kGather);
    EXPECT_EQ(out.sends[i].addr, 4096u);
  }

  e.op = Op::kNop;
  e.size = 64 * 1024;
  d.decode(e, out);
  EXPECT_TRUE(out.sends.empty());
  EXPECT_EQ(out.lockstep_cycles, lockstep_estimate(64 * 1024, c));
}

TEST_F(NiControl, ConfigRejectsBadParameters) {
  NiConfig c;
  c.packet_payload_bytes = 100;
  EXPECT_THROW(c.validate(), InputError);
  c = NiConfig{};
  c.buffer_flits = 8;  // cannot hold one 256-byte burst
  EXPECT_THROW(c.validate(), InputError);
  c = NiConfig{};
  c.dma_burst_bytes = 0;
  EXPECT_THROW(c.validate(), InputError);
  EXPECT_EQ(parse_flow_control("packet"), FlowControl::kPacket);
  EXPECT_THROW(parse_flow_control("circuit"), InputError);
}

}  // namespace
}  // namespace mt::noc
