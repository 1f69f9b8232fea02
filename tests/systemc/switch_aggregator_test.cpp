// The switch aggregation unit (aggregation/switch_aggregator.hpp) alone: sums of children's
// messages out of order, the result's messages (multicast down at the top, up below it, the
// parent's sum copied down), the window and the outputs back-pressuring, the adder's width
// and latency, and bad tables refused.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aggregation/switch_aggregator.hpp"
#include "common/error.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

struct Sent {
  unsigned vport, vc;
  Flit flit;
};

Flit head(uint32_t flow, Op op, uint64_t bytes) {
  Flit h;
  h.type = FlitType::kSubHead;
  h.tree = static_cast<uint16_t>(flow);
  h.op = static_cast<uint8_t>(op);
  h.addr = 0x100;
  h.message_bytes = bytes;
  return h;
}

Flit data(uint32_t v, bool last) {
  Flit f;
  f.type = last ? FlitType::kSubMessageTail : FlitType::kSubBody;
  f.data = {v, v + 1, v + 2, v + 3};
  return f;
}

// A switch whose links leave by ports 1..4.
class SwitchAggregatorTest : public ::testing::Test {
 protected:
  RouteHopCode hops_{std::vector<uint8_t>{1, 2, 3, 4}};
  AggregationConfig cfg_;

  SwitchAggregator unit(std::vector<AggregationEntry> entries, uint32_t vc_depth = 64,
                        OutputSharing sharing = OutputSharing::kVcPerFlow) {
    cfg_.dtype = DType::kInt32;
    return SwitchAggregator(20, std::move(entries), cfg_, sharing, 4, 4, vc_depth, 16, hops_);
  }
  static std::vector<Sent> emit(SwitchAggregator& u, uint64_t now) {
    std::vector<Sent> out;
    u.emit(now, [&](unsigned p, unsigned vc, const Flit& f) { out.push_back({p, vc, f}); });
    return out;
  }
};

TEST_F(SwitchAggregatorTest, TopSumsOutOfOrderAndSendsTheSumDownToEveryChild) {
  cfg_.latency = 3;
  SwitchAggregator u = unit({{7, {1, 2}, {5, 6}, kNoAggregationParent}});
  ASSERT_EQ(u.out_ports(), (std::vector<uint8_t>{1, 2}));
  EXPECT_TRUE(u.claims(head(7, Op::kReduce, 32)));
  EXPECT_FALSE(u.claims(head(8, Op::kReduce, 32))) << "a flow not in the table";
  ASSERT_TRUE(u.take(1, 0, head(7, Op::kReduce, 32), 10));
  ASSERT_TRUE(u.take(1, 0, data(100, false), 10));
  ASSERT_TRUE(u.take(1, 0, data(200, true), 11));  // child 0 runs ahead
  ASSERT_TRUE(u.take(2, 3, head(7, Op::kReduce, 32), 11));
  ASSERT_TRUE(u.take(2, 3, data(1000, false), 12));
  EXPECT_TRUE(emit(u, 14).empty()) << "the sum is due 3 cycles after its last flit";
  EXPECT_EQ(u.next_due(14), 15u);
  const std::vector<Sent> first = emit(u, 15);
  ASSERT_EQ(first.size(), 4u) << "a head and the first sum to each child";
  for (unsigned k = 0; k < 2; ++k) {
    const Flit& h = first[2 * k].flit;
    EXPECT_EQ(first[2 * k].vport, k);
    EXPECT_EQ(first[2 * k].vc, 0u) << "the table's first flow sends on VC 0";
    EXPECT_EQ(h.type, FlitType::kSubHead);
    EXPECT_EQ(h.op, static_cast<uint8_t>(Op::kGather));
    EXPECT_EQ(h.src, k == 0 ? 5u : 6u) << "in the name of the node each child's NI waits for";
    EXPECT_EQ(h.addr, 0x100u);
    EXPECT_EQ(h.message_bytes, 32u);
    EXPECT_EQ(hops_.port(h.route), k == 0 ? 1u : 2u) << "one hop down the child's link";
    EXPECT_EQ(first[2 * k + 1].flit.data, (FlitData{1100, 1102, 1104, 1106}));
    EXPECT_EQ(first[2 * k + 1].flit.type, FlitType::kSubBody);
  }
  ASSERT_TRUE(u.take(2, 3, data(2000, true), 13));
  const std::vector<Sent> second = emit(u, 16);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].flit.data, (FlitData{2200, 2202, 2204, 2206}));
  EXPECT_EQ(second[0].flit.type, FlitType::kSubMessageTail);
  EXPECT_EQ(u.pending(), 0u);
}

TEST_F(SwitchAggregatorTest, BelowTheTopSendsUpAndCopiesTheParentsSumDown) {
  SwitchAggregator u = unit({{3, {1, 2}, {0, 9}, 4}});
  ASSERT_EQ(u.out_ports(), (std::vector<uint8_t>{1, 2, 4}));
  ASSERT_TRUE(u.take(1, 0, head(3, Op::kReduce, 16), 0));
  ASSERT_TRUE(u.take(2, 0, head(3, Op::kReduce, 16), 0));
  ASSERT_TRUE(u.take(1, 0, data(1, true), 1));
  ASSERT_TRUE(u.take(2, 0, data(2, true), 1));
  const std::vector<Sent> up = emit(u, 5);
  ASSERT_EQ(up.size(), 2u);
  EXPECT_EQ(up[0].vport, 2u) << "port 4, the parent's";
  EXPECT_EQ(up[0].flit.op, static_cast<uint8_t>(Op::kReduce));
  EXPECT_EQ(up[0].flit.src, 20u);
  EXPECT_EQ(up[1].flit.data, (FlitData{3, 5, 7, 9}));
  // The full sum comes back from the parent and goes to both children as it arrives.
  ASSERT_TRUE(u.take(4, 1, head(3, Op::kGather, 16), 9));
  ASSERT_TRUE(u.take(4, 1, data(77, true), 10));
  const std::vector<Sent> down = emit(u, 10);
  ASSERT_EQ(down.size(), 4u);
  EXPECT_EQ(down[0].vport, 0u);
  EXPECT_EQ(down[0].flit.src, 0u);
  EXPECT_EQ(down[2].flit.src, 9u);
  EXPECT_EQ(down[3].flit.data, (FlitData{77, 78, 79, 80}));
  EXPECT_EQ(down[3].flit.type, FlitType::kSubMessageTail);
}

TEST_F(SwitchAggregatorTest, AFullWindowRefusesTheNextFlitUntilTheSumLeaves) {
  cfg_.window = 1;
  cfg_.latency = 0;
  SwitchAggregator u = unit({{0, {1, 2}, {5, 6}, kNoAggregationParent}});
  u.take(1, 0, head(0, Op::kReduce, 48), 0);
  u.take(2, 0, head(0, Op::kReduce, 48), 0);
  ASSERT_TRUE(u.take(1, 0, data(1, false), 1));
  EXPECT_FALSE(u.take(1, 0, data(2, false), 2)) << "flit 1 is outside a window of 1";
  ASSERT_TRUE(u.take(2, 0, data(10, false), 2));
  EXPECT_FALSE(u.take(1, 0, data(2, false), 2)) << "the sum of flit 0 has not left yet";
  EXPECT_EQ(emit(u, 2).size(), 4u);
  EXPECT_TRUE(u.take(1, 0, data(2, false), 3));
}

TEST_F(SwitchAggregatorTest, FullOutputsHoldTheWindowUntilCreditsReturn) {
  cfg_.latency = 0;
  // Room for the head and one payload flit per output VC.
  SwitchAggregator u = unit({{0, {1}, {5}, 2}}, 2);
  u.take(1, 0, head(0, Op::kReduce, 48), 0);
  for (uint32_t s = 0; s < 3; ++s) ASSERT_TRUE(u.take(1, 0, data(s, s == 2), 1 + s));
  EXPECT_EQ(emit(u, 4).size(), 2u) << "the head and sum 0 fill the parent's VC";
  EXPECT_TRUE(emit(u, 5).empty());
  EXPECT_EQ(u.pending(), 3u) << "sums 1 and 2 wait, and the message is open";
  u.accept_credit(1, 0, 5);  // the router granted one flit of virtual port 1 (port 2)
  const std::vector<Sent> next = emit(u, 6);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].flit.data[0], 1u);
}

TEST_F(SwitchAggregatorTest, TheAdderTakesItsWidthOfFlitsACycle) {
  cfg_.elements_per_cycle = 4;  // one flit's add a cycle
  SwitchAggregator u = unit({{0, {1, 2, 3}, {5, 6, 7}, kNoAggregationParent}});
  for (uint8_t p = 1; p <= 3; ++p) u.take(p, 0, head(0, Op::kReduce, 16), 0);
  EXPECT_TRUE(u.take(1, 0, data(1, true), 5)) << "the slot's first flit is copied, not added";
  EXPECT_TRUE(u.take(2, 0, data(2, true), 5));
  EXPECT_FALSE(u.take(3, 0, data(3, true), 5)) << "the adder is busy this cycle";
  EXPECT_TRUE(u.take(3, 0, data(3, true), 6));
  EXPECT_EQ(u.next_due(6), 6u + cfg_.latency);
}

// Five flows up port 4 on four VCs, the table not in flow order: under kFlowOrder flow k of
// the table sends on VC k mod 4, and a VC's messages go in ascending flow id, each whole.
TEST_F(SwitchAggregatorTest, FlowOrderSendsEachLanesMessagesInAscendingFlowId) {
  cfg_.latency = 0;
  const uint32_t flow[] = {14, 10, 11, 12, 13};
  std::vector<AggregationEntry> table;
  for (uint32_t k = 0; k < 5; ++k) {
    table.push_back({flow[k], {static_cast<uint8_t>(1 + k % 3)}, {5}, 4});
  }
  SwitchAggregator u = unit(table, 64, OutputSharing::kFlowOrder);
  // Each child's message of two flits; flow 10's second flit comes late.
  for (uint32_t k = 0; k < 5; ++k) {
    const uint8_t port = static_cast<uint8_t>(1 + k % 3);
    ASSERT_TRUE(u.take(port, k / 3, head(flow[k], Op::kReduce, 32), 0));
    ASSERT_TRUE(u.take(port, k / 3, data(flow[k], false), 1));
    if (flow[k] != 10) {
      ASSERT_TRUE(u.take(port, k / 3, data(flow[k], true), 2));
    }
  }
  auto flows_of = [](const std::vector<Sent>& sent) {
    std::vector<std::pair<uint32_t, unsigned>> r;  // (flow, vc) of each head
    for (const Sent& s : sent) {
      if (s.flit.type == FlitType::kSubHead) r.emplace_back(s.flit.tree, s.vc);
    }
    return r;
  };
  using Heads = std::vector<std::pair<uint32_t, unsigned>>;
  const std::vector<Sent> first = emit(u, 3);
  EXPECT_EQ(flows_of(first), (Heads{{10, 1}, {11, 2}, {12, 3}, {13, 0}}))
      << "flow 14 (VC 0) waits for flow 13's tail; the others have VCs of their own";
  EXPECT_EQ(first.size(), 2u + 3 * 3u) << "flow 10's message waits for its second sum";
  ASSERT_TRUE(u.take(2, 0, data(10, true), 4));  // flow 10: table entry 1, port 2
  const std::vector<Sent> second = emit(u, 4);
  EXPECT_EQ(flows_of(second), (Heads{{14, 0}}));
  EXPECT_EQ(second.size(), 1u + 3u) << "flow 10's tail, then flow 14's whole message";
  EXPECT_EQ(u.pending(), 0u);
  EXPECT_THROW(unit(table), InputError) << "five flows on four VCs of their own";
}

TEST_F(SwitchAggregatorTest, BadTablesAndArrivalsAreRefused) {
  cfg_.window = 0;
  try {
    unit({{0, {1, 2}, {5, 6}, kNoAggregationParent}});
    FAIL() << "a window of 0 was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("window of 0"));
  }
  cfg_.window = 4;
  try {
    unit({{3, {}, {}, 4}});
    FAIL() << "a flow with no children was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("switch 20: aggregation flow 3: has no children"));
  }
  EXPECT_THROW(unit({{0, {1, 9}, {5, 6}, kNoAggregationParent}}), InputError) << "no link 9";
  EXPECT_THROW(unit({{0, {1, 2}, {5, 6}, 2}}), InputError) << "a parent among the children";
  EXPECT_THROW(unit({{0, {1}, {5}, 2}, {1, {1}, {5}, 2}, {2, {1}, {5}, 2}, {3, {1}, {5}, 2},
                     {4, {1}, {5}, 2}}),
               InputError) << "five flows, four VCs";
  SwitchAggregator u = unit({{0, {1, 2}, {5, 6}, 4}});
  EXPECT_THROW(u.take(3, 0, head(0, Op::kReduce, 16), 0), std::runtime_error)
      << "a Reduce on a port that is no child's";
  EXPECT_THROW(u.take(1, 1, data(0, true), 0), std::runtime_error) << "data without a head";
}

}  // namespace
}  // namespace mt::noc
