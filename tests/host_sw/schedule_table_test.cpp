// Table compiler: entry shapes, NOPs for lockstep, K splitting, terminal Reduces.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "table/schedule_table.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

TEST(ScheduleTable, AddressesAndSizesComeFromTheChunks) {
  PlanOptions opt;
  opt.bytes = 1000;  // 63 grains of 16 bytes (the last of 8) over 4 flows: 16, 16, 16, 15
  TableOptions topt;
  topt.base_addr = 0x1000;
  const TableSet set = compile_tables(build_multitree(make_mesh(2, 2), opt), topt);
  for (const ScheduleTable& t : set.tables) {
    for (const TableEntry& e : t.entries) {
      const uint64_t want_size = e.flow < 3 ? 256 : 1000 - 3 * 256;
      const uint64_t want_addr = 0x1000 + e.flow * 256;
      EXPECT_EQ(e.size, want_size) << "node " << t.node << " flow " << e.flow;
      EXPECT_EQ(e.start_addr, want_addr) << "node " << t.node << " flow " << e.flow;
    }
  }
}

TEST(ScheduleTable, AboutTwoEntriesPerTreeAndEveryStepCovered) {
  const Topology topo = make_torus(8, 8);
  const Plan plan = build_multitree(topo, PlanOptions{});
  const TableSet set = compile_tables(plan, TableOptions{});
  for (const ScheduleTable& t : set.tables) {
    // Every step up to the node's last entry has an entry (NOP where nothing is sent).
    uint32_t step = 0;
    size_t reduces = 0;
    for (const TableEntry& e : t.entries) {
      EXPECT_TRUE(e.step == step || e.step == step + 1) << "gap before step " << e.step;
      step = e.step;
      reduces += e.op == Op::kReduce && e.parent != kNil;
      EXPECT_LE(e.children.size(), 4u);
    }
    EXPECT_EQ(reduces, 63u);  // one per tree it is not the root of
    EXPECT_LE(t.entries.size(), 2u * 64 + 2 * plan.steps_per_phase);
  }
}

TEST(ScheduleTable, NopsHoldTheStepChunk) {
  // A 1x3 mesh (a line): the middle node has entries in every step, the ends do not.
  const Plan plan = build_multitree(make_mesh(3, 1), PlanOptions{});
  const TableSet set = compile_tables(plan, TableOptions{});
  size_t nops = 0;
  for (const ScheduleTable& t : set.tables) {
    for (const TableEntry& e : t.entries) {
      if (e.op != Op::kNop) continue;
      ++nops;
      EXPECT_EQ(e.parent, kNil);
      EXPECT_TRUE(e.children.empty());
      EXPECT_GT(e.size, 0u);
    }
  }
  EXPECT_GT(nops, 0u);
  EXPECT_TRUE(verify_tables(set, make_mesh(3, 1)).ok());
}

TEST(ScheduleTable, MoreChildrenThanSlotsSplitIntoTerminalReduces) {
  const Topology topo = make_torus(4, 4);
  const Plan plan = build_multitree(topo, PlanOptions{});
  TableOptions topt;
  topt.children_slots = 1;
  const TableSet set = compile_tables(plan, topt);
  size_t terminal = 0;
  for (const ScheduleTable& t : set.tables) {
    for (const TableEntry& e : t.entries) {
      EXPECT_LE(e.children.size(), 1u);
      terminal += e.op == Op::kReduce && e.parent == kNil;
    }
  }
  EXPECT_GT(terminal, 0u);
  const VerifyReport r = verify_tables(set, topo);
  EXPECT_TRUE(r.ok()) << r.errors.front();
}

TEST(ScheduleTable, PlanFromTablesGivesBackTheTransfers) {
  const Plan plan = build_multitree(make_torus(4, 4), PlanOptions{});
  const Plan back = plan_from_tables(compile_tables(plan, TableOptions{}));
  ASSERT_EQ(back.transfers.size(), plan.transfers.size());
  auto key = [&](const Plan& p, const Transfer& t) {
    return std::make_tuple(t.flow, t.src, t.dst, t.step, t.op, p.ranges[t.range].offset,
                           p.ranges[t.range].size);
  };
  std::multiset<decltype(key(plan, plan.transfers[0]))> a, b;
  for (const Transfer& t : plan.transfers) a.insert(key(plan, t));
  for (const Transfer& t : back.transfers) b.insert(key(back, t));
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace mt
