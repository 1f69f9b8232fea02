// The parameter server (algorithms/ps.cpp): every worker sends its whole buffer to node 0 in
// step 1, node 0 sends the sum back to four workers a step; the plan and its tables verify on
// every kind of network.
#include <map>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "table/schedule_table.hpp"
#include "verifier/verifier.hpp"
#include "support/verify_errors.hpp"

namespace mt {
namespace {

using test::errors_of;

TEST(Ps, VerifiesOnEveryKindOfNetwork) {
  for (const char* spec : {"fattree:4x2", "fattree:8x2", "fattree:2x3", "bigraph:2x4",
                           "hier:2+3"}) {
    for (uint64_t bytes : {uint64_t{4}, uint64_t{1000}, uint64_t{65536}}) {
      for (DType dtype : {DType::kInt32, DType::kFp32}) {
        SCOPED_TRACE(fmt::format("{} {} bytes {}", spec, bytes, dtype_name(dtype)));
        const Topology topo = parse_topology(spec);
        PlanOptions opt;
        opt.bytes = bytes;
        opt.dtype = dtype;
        const Plan plan = build_plan(topo, "ps", opt);
        const VerifyReport r = verify_plan(plan, topo);
        EXPECT_TRUE(r.ok()) << errors_of(r);
        const VerifyReport tr = verify_tables(compile_tables(plan, TableOptions{}), topo);
        EXPECT_TRUE(tr.ok()) << errors_of(tr);
      }
    }
  }
}

TEST(Ps, EveryWorkerSendsTheWholeBufferToTheServerAtOnce) {
  const Topology topo = parse_topology("fattree:4x2");
  PlanOptions opt;
  opt.bytes = 1 << 20;
  const Plan plan = build_plan(topo, "ps", opt);
  const uint32_t n = topo.nodes();
  ASSERT_EQ(plan.flows.size(), 1u);
  EXPECT_EQ(plan.flows[0].root, 0u);
  EXPECT_EQ(plan.flows[0].chunk.size, opt.bytes);
  EXPECT_EQ(plan.steps_per_phase, (n - 1 + 3) / 4);
  std::map<uint32_t, uint32_t> gathers_per_step;
  uint32_t reduces = 0;
  for (const Transfer& t : plan.transfers) {
    if (t.op == Op::kReduce) {
      ++reduces;
      EXPECT_EQ(t.dst, 0u);
      EXPECT_EQ(t.step, 1u) << "incast: every worker at once";
    } else {
      EXPECT_EQ(t.src, 0u);
      EXPECT_GT(t.step, plan.steps_per_phase);
      ++gathers_per_step[t.step];
    }
  }
  EXPECT_EQ(reduces, n - 1);
  for (const auto& [step, count] : gathers_per_step) EXPECT_LE(count, 4u) << "step " << step;
  EXPECT_EQ(plan.routes.size(), plan.transfers.size()) << "switch networks carry routes";
}

TEST(Ps, DirectNetworksAreRefused) {
  for (const char* spec : {"torus:4x4", "ring:5"}) {
    try {
      build_plan(parse_topology(spec), "ps", PlanOptions{});
      FAIL() << spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("direct network"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace mt
