// A torus with failed links in the router network: a router per node with a port per
// remaining link, up*/down* tables that never cross a failed link (one VC class: free of
// deadlock), all-reduces around the failures that sum exactly, and saturation that drains.
#include <tuple>

#include <gtest/gtest.h>

#include "allreduce/allreduce_sim.hpp"
#include "network/switch_routing.hpp"
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

// Every table route reaches its node without a failed link and never turns from a down link
// to an up one (up: toward a smaller (level from node 0, id)).
TEST(FailedLinkRouting, TablesNeverCrossAFailedLink) {
  for (const char* spec : {kOne4x4, kFour8x8}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    const PortLayout layout(t, 4);
    const SwitchRoutes routes = build_switch_routes(t, layout, 4);
    EXPECT_EQ(routes.classes(), 1u);
    const std::vector<uint32_t> level = t.distances_from(0);
    auto key = [&](uint32_t v) { return std::make_pair(level[v], v); };
    for (uint32_t s = 0; s < t.nodes(); ++s) {
      for (uint32_t d = 0; d < t.nodes(); ++d) {
        uint32_t v = s, hops = 0;
        bool went_down = false;
        while (v != d && hops <= 2 * t.nodes()) {
          const uint32_t w = layout.neighbours(v).at(routes.port(v, d));
          EXPECT_FALSE(failed(t, v, w)) << s << " -> " << d << " crosses " << v << "-" << w;
          EXPECT_TRUE(t.adjacent(v, w)) << s << " -> " << d << " at " << v;
          const bool up = key(w) < key(v);
          EXPECT_FALSE(went_down && up) << s << " -> " << d << " turns up at " << v;
          went_down = went_down || !up;
          v = w;
          ++hops;
        }
        EXPECT_EQ(v, d) << s << " -> " << d;
      }
    }
  }
}

// Every planner that plans around failed links sums exactly on a 4x4 torus with one, in both
// flow-control modes; the network has no port for the failed link.
class FailedLinkAllReduce
    : public test::SimTest,
      public ::testing::WithParamInterface<std::tuple<const char*, FlowControl>> {};

TEST_P(FailedLinkAllReduce, SumsExactly) {
  const auto [algorithm, fc] = GetParam();
  AllReduceOptions o;
  o.topology = kOne4x4;
  o.algorithm = algorithm;
  o.bytes = 16 * 1024;
  o.ni.flow_control = fc;
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
  EXPECT_GT(r.cycles, r.bound_cycles);
  for (const LinkUse& l : r.links) {
    EXPECT_FALSE(failed(parse_topology(kOne4x4), l.from, l.to)) << l.from << " -> " << l.to;
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
