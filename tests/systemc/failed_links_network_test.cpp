// A torus with failed links in the router network (its tables are checked with the other
// direct networks', direct_file_network_test.cpp): all-reduces around the failures that sum
// exactly, no flit on a failed link, and saturation that drains.
#include <algorithm>
#include <tuple>

#include <gtest/gtest.h>

#include "allreduce/allreduce_sim.hpp"
#include "stress_util.hpp"
#include "topology/topology.hpp"

namespace mt::noc {
namespace {

// One X link, one Y link, an X wrap and a Y wrap link of an 8x8 torus.
const char* const kFour8x8 = "torus:8x8,failed=6-62+9-17+27-28+32-39";
const char* const kOne4x4 = "torus:4x4,failed=5-6";

bool failed(const Topology& t, uint32_t a, uint32_t b) {
  const Topology::VertexPair p{std::min(a, b), std::max(a, b)};
  return std::find(t.failed_links().begin(), t.failed_links().end(), p) != t.failed_links().end();
}

// One verified all-reduce of 16 KiB in a fresh simulation.
AllReduceResult run(const char* topology, const char* algorithm, FlowControl fc) {
  test::fresh_simcontext();
  AllReduceOptions o;
  o.topology = topology;
  o.algorithm = algorithm;
  o.bytes = 16 * 1024;
  o.ni.flow_control = fc;
  AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << topology << " " << algorithm << ": " << r.error;
  return r;
}

// Every planner that plans around failed links sums exactly on a 4x4 torus with one, in both
// flow-control modes, and no link the run reports is a failed one.
class FailedLinkAllReduce
    : public test::SimTest,
      public ::testing::WithParamInterface<std::tuple<const char*, FlowControl>> {};

TEST_P(FailedLinkAllReduce, SumsExactly) {
  const auto [algorithm, fc] = GetParam();
  const AllReduceResult r = run(kOne4x4, algorithm, fc);
  EXPECT_GT(r.cycles, r.bound_cycles);
  const Topology t = parse_topology(kOne4x4);
  EXPECT_EQ(r.links.size(), t.links().size());
  for (const LinkUse& l : r.links) {
    EXPECT_FALSE(failed(t, l.from, l.to)) << l.from << " -> " << l.to;
  }
}

// The ring's cycle moves off the failed link by a symmetry of the torus: every hop is still
// one link, in the same order of ports, so the cycles are the whole torus's.
TEST(FailedLinkRing, KeepsTheWholeTorussCycles) {
  for (FlowControl fc : {FlowControl::kMessage, FlowControl::kPacket}) {
    EXPECT_EQ(run(kOne4x4, "ring", fc).cycles, run("torus:4x4", "ring", fc).cycles);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Planners, FailedLinkAllReduce,
    ::testing::Combine(::testing::Values("multitree", "ring", "ring-bi", "ring2d", "dbtree"),
                       ::testing::Values(FlowControl::kMessage, FlowControl::kPacket)),
    test::TupleParamName());

// Saturation with packets and source-routed messages: everything drains, nothing is lost.
class FailedLinkSaturation : public test::SimTest, public ::testing::WithParamInterface<bool> {};

TEST_P(FailedLinkSaturation, DrainsWithNoFlitLost) {
  test::run_and_drain(test::table_routed_saturation(kFour8x8, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Wormhole, FailedLinkSaturation, ::testing::Bool());

}  // namespace
}  // namespace mt::noc
