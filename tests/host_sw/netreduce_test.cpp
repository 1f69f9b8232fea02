// Hierarchical NetReduce (algorithms/netreduce.cpp): the plan on small machines-of-n networks
// checked by hand, its tables' waits across ring and tree flows, the verifier's proof of
// mixed plans (aggregation_check.hpp, aggregation_sums.hpp) refusing broken ones, and
// networks it does not fit refused.
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "cost_model/cost_model.hpp"
#include "cost_model/netreduce.hpp"
#include "plan/plan_index.hpp"
#include "support/run_command.hpp"
#include "support/verify_errors.hpp"
#include "table/schedule_table.hpp"
#include "verifier/table_check.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

using test::errors_of;

Plan netreduce(const std::string& spec, uint64_t bytes = 4096) {
  PlanOptions opt;
  opt.bytes = bytes;
  return build_plan(parse_topology(spec), "netreduce", opt);
}

std::string first_error(const Plan& plan, const std::string& spec) {
  const VerifyReport r = verify_plan(plan, parse_topology(spec));
  return r.ok() ? "" : r.errors.front();
}

TEST(NetReduce, PlanAndTablesVerifyOnMachinesOfN) {
  for (const char* spec : {"hier:1+1", "hier:2+2", "hier:3+3", "hier:4+4", "hier:2+2+2",
                           "hier:4+4,ratio=1", "hier:3+3+3+3"}) {
    for (uint64_t bytes : {uint64_t{4}, uint64_t{1000}, uint64_t{65536}}) {
      SCOPED_TRACE(fmt::format("{} {} bytes", spec, bytes));
      const Topology topo = parse_topology(spec);
      const Plan plan = netreduce(spec, bytes);
      const VerifyReport r = verify_plan(plan, topo);
      EXPECT_TRUE(r.ok()) << errors_of(r);
      const PlanIndex index(plan);
      TableChecker check(plan, index, 0, 5);
      const TableSet set = compile_tables(plan, TableOptions{1, 0});
      for (const ScheduleTable& t : set.tables) check.check(t);
      EXPECT_TRUE(check.ok()) << (check.ok() ? "" : check.errors().front());
    }
  }
}

// hier:3+3: machine 0 is nodes 0-2 on switch vertex 6, machine 1 nodes 3-5 on vertex 7, the
// root vertex 8. Three chunks; chunk c is reduced at position c of each machine by step 2,
// aggregated at step 3 (flow 3 + c), back at step 4, and all-gathered in steps 5 and 6.
TEST(NetReduce, HandCheckedPlanOnTwoMachinesOfThree) {
  const Topology topo = parse_topology("hier:3+3");
  const Plan plan = netreduce("hier:3+3", 3 * 256);
  EXPECT_EQ(plan.steps_per_phase, 3u);
  ASSERT_EQ(plan.flows.size(), 6u);
  ASSERT_EQ(plan.aggregations.size(), 9u) << "per chunk: two machine switches and the root";
  for (const SwitchAggregation& a : plan.aggregations) {
    ASSERT_GE(a.flow, 3u);
    const uint32_t c = a.flow - 3;
    if (a.vertex == 8) {
      EXPECT_EQ(a.parent, SwitchAggregation::kTop);
      EXPECT_EQ(a.children, (std::vector<uint32_t>{6, 7}));
    } else {
      EXPECT_EQ(a.parent, 8u);
      EXPECT_EQ(a.children, (std::vector<uint32_t>{(a.vertex - 6) * 3 + c}));
    }
  }
  // Step 1: position i sends chunk i - 1 to i + 1; step 2: chunk i - 2.
  std::vector<std::string> got;
  for (const Transfer& t : plan.transfers) {
    got.push_back(fmt::format("{}:{}{}>{}f{}", t.step, op_name(t.op)[0], t.src, t.dst, t.flow));
  }
  const std::vector<std::string> want{
      "1:r0>1f2", "1:r1>2f0", "1:r2>0f1", "1:r3>4f2", "1:r4>5f0", "1:r5>3f1",
      "2:r0>1f1", "2:r1>2f2", "2:r2>0f0", "2:r3>4f1", "2:r4>5f2", "2:r5>3f0",
      "3:r0>3f3", "4:g3>0f3", "3:r3>0f3", "4:g0>3f3",
      "3:r1>4f4", "4:g4>1f4", "3:r4>1f4", "4:g1>4f4",
      "3:r2>5f5", "4:g5>2f5", "3:r5>2f5", "4:g2>5f5",
      "5:g0>1f0", "5:g1>2f1", "5:g2>0f2", "5:g3>4f0", "5:g4>5f1", "5:g5>3f2",
      "6:g0>1f2", "6:g1>2f0", "6:g2>0f1", "6:g3>4f2", "6:g4>5f0", "6:g5>3f1"};
  EXPECT_EQ(got, want);
  // Node 1's table: its ring Reduces, the wait for chunk 1's last ring step (flow 1 from node
  // 0) before chunk 1 goes into the tree, the sum back, and its all-gather sends.
  const TableSet set = compile_tables(plan, TableOptions{1, 0});
  std::vector<std::string> table;
  for (const TableEntry& e : set.tables[1].entries) {
    std::string children;
    for (uint32_t c : e.children) children += fmt::format(",{}", c);
    table.push_back(fmt::format("{}:{}f{}p{}{}", e.step, op_name(e.op)[0], e.flow,
                                e.parent == kNil ? std::string("-") : std::to_string(e.parent),
                                children));
  }
  const std::vector<std::string> want_table{"1:rf0p2", "2:rf2p2,0", "3:rf1p-,0", "3:rf4p4",
                                            "4:gf4p4", "5:gf1p-,2", "6:gf0p0,2"};
  EXPECT_EQ(table, want_table);
}

TEST(NetReduce, VerifierRefusesBrokenMixedPlans) {
  const std::string spec = "hier:3+3";
  const Plan good = netreduce(spec);
  ASSERT_EQ(first_error(good, spec), "");
  auto broken = [&](auto edit) {
    Plan p = good;
    edit(p);
    return first_error(p, spec);
  };
  // A machine's last ring step dropped: node 0 would send chunk 0 into the tree short of
  // nodes 1 and 2, and its all-gather of chunk 0 waits for a Reduce nobody sends it.
  EXPECT_THAT(broken([](Plan& p) {
                for (size_t i = 0; i < p.transfers.size(); ++i) {
                  const Transfer& t = p.transfers[i];
                  if (t.step == 2 && t.src == 2 && t.dst == 0) {
                    p.transfers.erase(p.transfers.begin() + static_cast<long>(i));
                    p.routes.erase(p.routes.begin() + static_cast<long>(i));
                    return;
                  }
                }
              }),
              HasSubstr("node 0, flow 0, step 5: table entry 4 waits for a reduce from node 1 "
                        "that no node sends it"));
  // A machine switch left out of chunk 1's tree: the top lacks node 4.
  EXPECT_THAT(broken([](Plan& p) {
                for (SwitchAggregation& a : p.aggregations) {
                  if (a.flow == 4 && a.vertex == 8) a.children = {6};
                }
              }),
              HasSubstr("does not list it as a child once"));
  // A node's tree Gather taken out: it waits for nothing and ends without the other machine.
  EXPECT_THAT(broken([](Plan& p) {
                for (size_t i = 0; i < p.transfers.size(); ++i) {
                  const Transfer& t = p.transfers[i];
                  if (t.flow == 3 && t.op == Op::kGather && t.dst == 3) {
                    p.transfers.erase(p.transfers.begin() + static_cast<long>(i));
                    p.routes.erase(p.routes.begin() + static_cast<long>(i));
                    return;
                  }
                }
              }),
              HasSubstr("node 3 sends 1 Reduce(s) into the tree and waits for 0 Gather(s)"));
  // The ring's all-gather of chunk 0 sent one step early, before the sum came back.
  EXPECT_THAT(broken([](Plan& p) {
                for (Transfer& t : p.transfers) {
                  if (t.flow == 2 && t.op == Op::kGather && t.step == 5) t.step = 4;
                }
              }),
              HasSubstr("carries a partial sum"));
}

TEST(NetReduce, NetworksThatAreNotEqualMachinesAreRefused) {
  for (const auto& [spec, why] : std::vector<std::pair<std::string, std::string>>{
           {"torus:4x4", "it has no switches"},
           {"fattree:4x2", "is not a hierarchy of machines"},
           {"hier:2+3", "machines of equal size"},
           {"hier:4", "aggregates across at least 2"}}) {
    SCOPED_TRACE(spec);
    try {
      netreduce(spec);
      FAIL() << "accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(why));
    }
  }
  const auto r = mt::test::run_command(std::string(MTC_EXE) + " plan -t hier:2+3 -a netreduce");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("netreduce: topology hier:2+3"));
}

TEST(NetReduce, MtcPrintsTheTablesVerified) {
  const auto r = mt::test::run_command(std::string(MTC_EXE) +
                                       " plan -t hier:2+2 -a netreduce -b 4KiB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Switch 6 (aggregation)"));
  EXPECT_THAT(r.out, HasSubstr("verified: every node ends with every byte summed"));
}

// mtsim's prediction: Eq. (3) with B_intra a learner's one NI port, B_inter the uplink.
TEST(NetReduce, PredictionIsEquationThree) {
  const Topology topo = parse_topology("hier:4+4");
  PlanOptions opt;
  opt.bytes = 1 << 20;
  const auto p = predict_cycles(topo, "netreduce", opt, CostParams{});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->model, "NetReduce Eq. (3)");
  // By hand: n = 4, alpha = diameter 4 links x 150 cycles, 16 bytes a cycle both ways:
  // (2n - 1) alpha + (2 (n - 1) / n + 1) M / 16 = 7 * 600 + 2.5 * 65536.
  EXPECT_NEAR(p->cycles, 7 * 600 + 2.5 * 65536, 1e-6);
}

}  // namespace
}  // namespace mt
