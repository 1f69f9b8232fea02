// Large networks (label "slow", out of the default run): every algorithm still verifies, and
// MultiTree stays within a step of the physical bound on tori.
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "table/schedule_table.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

void expect_verifies(const std::string& spec, const std::string& algorithm) {
  SCOPED_TRACE(algorithm + " on " + spec);
  const Topology topo = parse_topology(spec);
  const Plan plan = build_plan(topo, algorithm, PlanOptions{});
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  const VerifyReport t = verify_tables(compile_tables(plan, TableOptions{}), topo);
  ASSERT_TRUE(t.ok()) << t.errors.front();
  if (algorithm == "multitree" && topo.kind() == TopologyKind::kTorus) {
    EXPECT_LE(r.steps_per_phase, r.step_bound + 1);
  }
}

TEST(LargePlans, MultiTreeOnLargeTorusAndMesh) {
  expect_verifies("torus:32x32", "multitree");
  expect_verifies("torus:48x48", "multitree");
  expect_verifies("mesh:24x24", "multitree");
  expect_verifies("torus:64x4", "multitree");
}

TEST(LargePlans, BaselinesOnLargeNetworks) {
  for (const char* alg : {"ring", "ring-bi", "ring2d", "dbtree"}) {
    expect_verifies("torus:24x24", alg);
    expect_verifies("mesh:15x15", alg);
  }
  expect_verifies("bigraph:16x16", "hdrm");
  expect_verifies("fattree:16x2", "multitree");
}

}  // namespace
}  // namespace mt
