// ring2d-paper, the paper's 2D-Ring (a whole ring all-reduce per dimension): it verifies on
// tori at every size, uses every torus link once a step, spreads the first
// dimension's line sums with Puts, and moves the data the paper says it does.
#include <map>
#include <set>
#include <string>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

Plan paper(const Topology& topo, uint64_t bytes) {
  PlanOptions opt;
  opt.bytes = bytes;
  return build_plan(topo, "ring2d-paper", opt);
}

uint64_t bytes_sent(const Plan& plan) {
  uint64_t sum = 0;
  for (const Transfer& t : plan.transfers) sum += plan.ranges[t.range].size;
  return sum;
}

// Sizes from fewer 16-byte grains than pieces (empty pieces move nothing) to whole lines.
TEST(Ring2dPaper, VerifiesOnToriAndMeshesAtEverySize) {
  for (const char* spec : {"torus:2x2", "torus:3x3", "torus:4x4", "torus:4x2", "torus:5x3",
                           "torus:8x8", "torus:6x1", "torus:3x2"}) {
    const Topology topo = parse_topology(spec);
    for (uint64_t bytes : {uint64_t{64}, uint64_t{4100}, uint64_t{1} << 20}) {
      const VerifyReport r = verify_plan(paper(topo, bytes), topo);
      EXPECT_TRUE(r.ok()) << spec << " " << bytes << ": " << r.errors.front();
    }
  }
}

// With every side above 2, each directed link carries one transfer in every step that moves
// data: steps 1..2L (first all-reduce), 2L+1..3L (second reduce-scatter), 3L+1..4L (second
// all-gather), L = side - 1; the all-gather phase's last 2L steps are empty.
TEST(Ring2dPaper, EveryTorusLinkCarriesOneTransferInEveryMovingStep) {
  for (const char* spec : {"torus:3x3", "torus:4x4", "torus:8x8"}) {
    const Topology topo = parse_topology(spec);
    const Plan plan = paper(topo, 1 << 20);
    const uint32_t L = topo.width() - 1;
    ASSERT_EQ(plan.steps_per_phase, 3 * L) << spec;
    EXPECT_TRUE(plan.contention_free && plan.neighbour_only) << spec;
    std::map<uint32_t, std::set<std::pair<uint32_t, uint32_t>>> links_in_step;
    for (const Transfer& t : plan.transfers) {
      ASSERT_TRUE(topo.adjacent(t.src, t.dst)) << spec;
      EXPECT_TRUE(links_in_step[t.step].insert({t.src, t.dst}).second) << spec << " step " << t.step;
    }
    ASSERT_EQ(links_in_step.size(), 4 * L) << spec;
    EXPECT_EQ(links_in_step.rbegin()->first, 4 * L) << spec;
    for (const auto& [step, links] : links_in_step) {
      EXPECT_EQ(links.size(), topo.links().size()) << spec << " step " << step;
    }
  }
}

// The first dimension's all-gather spreads line sums, not the final sum: Puts, in steps
// L+1..2L only; Reduces in 1..L and 2L+1..3L; Gathers in 3L+1..4L.
TEST(Ring2dPaper, LineSumsSpreadByPutsInTheFirstAllGather) {
  const Plan plan = paper(make_torus(4, 4), 1 << 20);
  const uint32_t L = 3;
  std::map<Op, std::set<uint32_t>> steps;
  for (const Transfer& t : plan.transfers) steps[t.op].insert(t.step);
  EXPECT_EQ(steps[Op::kPut], (std::set<uint32_t>{L + 1, L + 2, 2 * L}));
  EXPECT_EQ(steps[Op::kReduce], (std::set<uint32_t>{1, 2, L, 2 * L + 1, 2 * L + 2, 3 * L}));
  EXPECT_EQ(steps[Op::kGather], (std::set<uint32_t>{3 * L + 1, 3 * L + 2, 4 * L}));
}

// On an N x N torus each stage of ring2d-paper moves 2(N-1)/N of a share per node, where
// ring2d's second stage moves 2(N-1)/N^2: on 8x8, (14/8 + 14/8) / (14/8 + 14/64) = 16/9 of
// ring2d's data (1 MiB: shares of 256 KiB, pieces of 32 KiB and 4 KiB, all whole lines).
TEST(Ring2dPaper, MovesSixteenNinthsOfRing2dsDataOn8x8) {
  const Topology topo = make_torus(8, 8);
  PlanOptions opt;
  opt.bytes = 1 << 20;
  const uint64_t ours = bytes_sent(paper(topo, opt.bytes));
  const uint64_t optimal = bytes_sent(build_ring2d(topo, opt));
  EXPECT_EQ(ours * 9, optimal * 16);
  EXPECT_EQ(ours, 64u * 4 * (7 + 7 + 7 + 7) * (32u << 10));  // nodes x shares x steps x piece
}

// The last Puts of a line share bytes with the other dimension's first Reduces into the same
// node: the verifier counts them (the NI orders them only by the lines keeping step). On an
// N x N torus every node's last Put of each of its 4 shares does: 4 per node.
TEST(Ring2dPaper, ReportsItsPutsThatOnlyLockstepOrders) {
  const Topology topo = make_torus(4, 4);
  const VerifyReport r = verify_plan(paper(topo, 1 << 20), topo);
  ASSERT_TRUE(r.ok());
  EXPECT_GE(r.unordered_puts, 4u * 16);
  EXPECT_EQ(verify_plan(build_ring2d(topo, PlanOptions{}), topo).unordered_puts, 0u);
}

TEST(Ring2dPaper, RefusesMeshesAndNetworksWithoutRowsAndColumns) {
  for (const char* spec : {"mesh:4x4", "ring:8", "fattree:4x2", "bigraph:4x4"}) {
    try {
      paper(parse_topology(spec), 4096);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("ring2d-paper: topology " + std::string(spec) +
                                      " is not a 2D torus"));
    }
  }
}

}  // namespace
}  // namespace mt
