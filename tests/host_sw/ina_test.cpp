// In-network aggregation (algorithms/ina.cpp): the plan and its tables verify on switch
// networks, its tree is the one the planner promises on a fat-tree, and the verifier's proof
// where a switch contributes a sum (verifier/aggregation_check.hpp) refuses broken trees.
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "plan/plan_index.hpp"
#include "support/run_command.hpp"
#include "support/verify_errors.hpp"
#include "table/schedule_table.hpp"
#include "topology/routing.hpp"
#include "verifier/table_check.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

using test::errors_of;

Plan ina(const std::string& spec, uint64_t bytes = 4096) {
  PlanOptions opt;
  opt.bytes = bytes;
  return build_plan(parse_topology(spec), "ina", opt);
}

TEST(Ina, PlanAndTablesVerifyOnSwitchNetworks) {
  for (const char* spec : {"fattree:2x2", "fattree:4x2", "fattree:8x2", "fattree:2x3",
                           "bigraph:2x4", "bigraph:4x4", "hier:2+3", "hier:4+4+4"}) {
    for (uint64_t bytes : {uint64_t{4}, uint64_t{1000}, uint64_t{65536}}) {
      SCOPED_TRACE(fmt::format("{} {} bytes", spec, bytes));
      const Topology topo = parse_topology(spec);
      const Plan plan = ina(spec, bytes);
      const VerifyReport r = verify_plan(plan, topo);
      EXPECT_TRUE(r.ok()) << errors_of(r);
      const PlanIndex index(plan);
      TableChecker check(plan, index, 0, 5);
      const TableSet set = compile_tables(plan, TableOptions{});
      for (const ScheduleTable& t : set.tables) check.check(t);
      EXPECT_TRUE(check.ok()) << (check.ok() ? "" : check.errors().front());
    }
  }
}

TEST(Ina, FatTreeTreeIsTheLeafSwitchesUnderOneSpine) {
  const Topology topo = parse_topology("fattree:4x2");
  const Plan plan = ina("fattree:4x2");
  ASSERT_EQ(plan.flows.size(), 1u);
  ASSERT_EQ(plan.aggregations.size(), 5u) << "4 leaf switches and a spine";
  uint32_t tops = 0;
  for (const SwitchAggregation& a : plan.aggregations) {
    EXPECT_TRUE(topo.is_switch(a.vertex));
    ASSERT_EQ(a.children.size(), 4u);
    if (a.parent == SwitchAggregation::kTop) {
      ++tops;
      for (uint32_t c : a.children) EXPECT_TRUE(topo.is_switch(c)) << "the spine's children";
    } else {
      for (uint32_t c : a.children) EXPECT_FALSE(topo.is_switch(c)) << "a leaf's children";
      EXPECT_TRUE(topo.adjacent(a.vertex, a.parent));
    }
  }
  EXPECT_EQ(tops, 1u);
  // Every NI sends its buffer into the tree once and waits for the sum once.
  const TableSet set = compile_tables(plan, TableOptions{});
  for (const ScheduleTable& t : set.tables) {
    ASSERT_EQ(t.entries.size(), 2u);
    EXPECT_EQ(t.entries[0].op, Op::kReduce);
    EXPECT_EQ(t.entries[1].op, Op::kGather);
    EXPECT_EQ(t.entries[0].parent, t.entries[1].parent);
    EXPECT_NE(t.entries[0].parent, t.node);
    EXPECT_TRUE(t.entries[0].children.empty() && t.entries[1].children.empty());
    EXPECT_EQ(t.entries[0].size, 4096u);
  }
}

// The verifier's errors for `plan` after `breaks` changes it.
template <typename Break>
std::string broken(const char* spec, Break breaks) {
  Plan plan = ina(spec);
  breaks(plan);
  return errors_of(verify_plan(plan, parse_topology(spec)));
}

TEST(Ina, VerifierRefusesBrokenTrees) {
  EXPECT_THAT(broken("fattree:4x2", [](Plan& p) { p.aggregations[0].children.clear(); }),
              HasSubstr("has no children"));
  // A node under two leaf switches: the spine adds its buffer twice.
  EXPECT_THAT(broken("fattree:4x2",
                     [](Plan& p) {
                       for (SwitchAggregation& a : p.aggregations) {
                         if (a.parent != SwitchAggregation::kTop && a.children[0] != 0) {
                           a.children.push_back(0);
                           break;
                         }
                       }
                     }),
              HasSubstr("is not one link away"));
  EXPECT_THAT(broken("fattree:4x2",
                     [](Plan& p) {
                       for (SwitchAggregation& a : p.aggregations) a.parent = SwitchAggregation::kTop;
                     }),
              HasSubstr("tops; a tree has one"));
  EXPECT_THAT(broken("fattree:4x2",
                     [](Plan& p) {
                       for (SwitchAggregation& a : p.aggregations) {
                         if (a.parent == SwitchAggregation::kTop) a.children.pop_back();
                       }
                     }),
              HasSubstr("does not list it as a child once"));
  EXPECT_THAT(broken("fattree:4x2",
                     [](Plan& p) {
                       p.transfers.pop_back();
                       p.routes.pop_back();
                     }),
              HasSubstr("waits for 0 Gather(s)"));
  EXPECT_THAT(broken("fattree:4x2",
                     [](Plan& p) {
                       Transfer& t = p.transfers[20];  // node 4's Gather, from node 0
                       ASSERT_EQ(t.op, Op::kGather);
                       t.src = 2;
                       p.routes[20] = route(parse_topology("fattree:4x2"), 2, t.dst);
                     }),
              HasSubstr("but its Reduce names another"));
}

TEST(Ina, MtcPrintsTheSwitchTablesAndRefusesMsccl) {
  const auto r = mt::test::run_command(std::string(MTC_EXE) + " plan -t fattree:2x2 -a ina -b 4KiB");
  ASSERT_EQ(r.code, 0) << r.out;
  // fattree:2x2: nodes 0-3, leaf switches 4 and 5 (two nodes each), spines 6 and 7.
  EXPECT_THAT(r.out, HasSubstr("Switch 4 (aggregation)\n  FlowID  Parent  Children\n"
                               "       0       6  0 1\n"));
  EXPECT_THAT(r.out, HasSubstr("Switch 6 (aggregation)\n  FlowID  Parent  Children\n"
                               "       0     top  4 5\n"));
  EXPECT_THAT(r.out, HasSubstr("verified: every node ends with every byte summed"));
  const auto x = mt::test::run_command(std::string(MTC_EXE) +
                                       " plan -t fattree:2x2 -a ina -b 4KiB --format msccl");
  EXPECT_EQ(x.code, 1) << x.out;
  EXPECT_THAT(x.out, HasSubstr("sums in the switches"));
}

TEST(Ina, TablesAloneAreNotProvedButRefused) {
  const Topology topo = parse_topology("fattree:2x2");
  const VerifyReport r = verify_tables(compile_tables(ina("fattree:2x2"), TableOptions{}), topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr("the switches' tables are not in a table set"));
}

TEST(Ina, DirectNetworksAreRefused) {
  try {
    ina("torus:4x4");
    FAIL() << "a torus was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("has no switches"));
  }
}

}  // namespace
}  // namespace mt
