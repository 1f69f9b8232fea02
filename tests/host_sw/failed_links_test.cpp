// Failed links: the spec option (torus:WxH,failed=A-B+...) and the file field ("failed":
// true) take links out of the network, bad input is refused by name, routes never cross a
// failed link, and every planner either plans around them (its plan and tables verify) or
// refuses saying why.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/hamiltonian_cycle.hpp"
#include "common/error.hpp"
#include "support/input_error_of.hpp"
#include "support/run_command.hpp"
#include "support/verify_errors.hpp"
#include "table/schedule_table.hpp"
#include "topology/routing.hpp"
#include "topology/topology.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using Pair = Topology::VertexPair;
using test::error_of;

// One X link, one Y link, an X wrap and a Y wrap link of an 8x8 torus.
const char* const kFour = "torus:8x8,failed=6-62+9-17+27-28+32-39";

bool crosses(const Topology& t, uint32_t link) {
  const Link& l = t.links()[link];
  const Pair p{std::min(l.src, l.dst), std::max(l.src, l.dst)};
  for (const Pair& f : t.failed_links()) {
    if (f == p) return true;
  }
  return false;
}

// Hops of a cycle that are not one link.
uint32_t missing_hops(const Topology& t, const std::vector<uint32_t>& order) {
  uint32_t missing = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    missing += t.adjacent(order[i], order[(i + 1) % order.size()]) ? 0 : 1;
  }
  return missing;
}

TEST(FailedLinks, SpecOptionTakesTheLinksOut) {
  const Topology whole = parse_topology("torus:4x4");
  const Topology t = parse_topology("torus:4x4,failed=9-5+1-0");
  // Pairs in order, smaller id first: the spec names them so.
  EXPECT_EQ(t.spec(), "torus:4x4,failed=0-1+5-9");
  EXPECT_THAT(t.failed_links(), ElementsAre(Pair{0, 1}, Pair{5, 9}));
  EXPECT_EQ(t.links().size(), whole.links().size() - 4);
  EXPECT_FALSE(t.adjacent(0, 1));
  EXPECT_FALSE(t.adjacent(1, 0));
  EXPECT_FALSE(t.adjacent(9, 5));
  EXPECT_TRUE(t.adjacent(0, 4));
  // The grid's shape stays; its closed forms do not: node 0 reaches 1 the long way round.
  EXPECT_EQ(t.kind(), TopologyKind::kTorus);
  EXPECT_EQ(t.width(), 4u);
  EXPECT_FALSE(t.whole_grid());
  EXPECT_TRUE(whole.whole_grid());
  EXPECT_EQ(t.distances_from(0)[1], 3u);
  EXPECT_EQ(t.min_node_degree(), 3u);
  // Neighbour order of the others is the builder's: node 0 keeps y-1, y+1, x-1.
  std::vector<uint32_t> next;
  for (uint32_t l : t.out_links(0)) next.push_back(t.links()[l].dst);
  EXPECT_THAT(next, ElementsAre(12, 4, 3));
  // The spec it names builds the same network.
  EXPECT_EQ(parse_topology(t.spec()).links().size(), t.links().size());
  EXPECT_EQ(parse_topology("mesh:3x3,failed=4-5").links().size(), 22u);
  EXPECT_EQ(parse_topology("ring:5,failed=4-0").diameter(), 4u);
}

TEST(FailedLinks, SpecSizeIsTheBuiltSize) {
  for (const char* spec : {"torus:4x4,failed=0-1", "torus:2x4,failed=0-1+0-2", kFour,
                           "mesh:3x3,failed=0-1", "mesh:4x2,failed=1-2+4-5", "ring:6,failed=5-0"}) {
    const auto size = topology_size(spec);
    ASSERT_TRUE(size.has_value()) << spec;
    const TopologySize built = parse_topology(spec).size();
    EXPECT_EQ(size->links, built.links) << spec;
    EXPECT_EQ(size->min_node_degree, built.min_node_degree) << spec;
    EXPECT_EQ(size->nodes, built.nodes) << spec;
    EXPECT_EQ(size->width, built.width) << spec;
    EXPECT_EQ(size->kind, built.kind) << spec;
  }
}

TEST(FailedLinks, BadSpecsNameTheProblem) {
  auto both = [](const std::string& spec) {
    const std::string built = error_of([&] { parse_topology(spec); });
    EXPECT_EQ(error_of([&] { topology_size(spec); }), built) << spec;
    return built;
  };
  EXPECT_THAT(both("torus:4x4,failed=0-5"), HasSubstr("failed link 0-5 does not exist"));
  EXPECT_THAT(both("torus:4x4,failed=0-16"), HasSubstr("names node 16, which does not exist"));
  EXPECT_THAT(both("torus:4x4,failed=3-3"), HasSubstr("joins node 3 to itself"));
  EXPECT_THAT(both("torus:4x4,failed=0-1+1-0"), HasSubstr("failed link 0-1 is named twice"));
  EXPECT_THAT(both("torus:4x4,failed=0"), HasSubstr("\"0\" is not two node ids"));
  EXPECT_THAT(both("torus:4x4,failed=0-x"), HasSubstr("\"0-x\" is not two node ids"));
  EXPECT_THAT(both("torus:4x4,failed=0-1+"), HasSubstr("\"\" is not two node ids"));
  EXPECT_THAT(both("torus:4x4,failed="), HasSubstr("names no link"));
  EXPECT_THAT(both("torus:4x4,broken=0-1"), HasSubstr("unknown option \"broken=0-1\""));
  EXPECT_THAT(both("torus:4x4,failed=0-1,failed=2-3"), HasSubstr("unknown option"));
  EXPECT_THAT(both("fattree:4x2,failed=0-1"), HasSubstr("takes no options"));
  // Failures that cut the network apart: found when it is built.
  EXPECT_THAT(error_of([] { parse_topology("ring:4,failed=0-1+2-3"); }),
              HasSubstr("disconnected"));
  EXPECT_THAT(error_of([] { parse_topology("mesh:2x2,failed=0-1+0-2"); }),
              HasSubstr("the failed links cut it apart"));
}

// A file's link with "failed": true is no link: both directions and every parallel link go,
// the other links keep their latencies.
TEST(FailedLinks, FileFieldTakesTheLinkOut) {
  const Topology t = parse_topology_json(
      R"({"nodes": [0, 1, 2, 3],
          "links": [{"a": "n0", "b": "n1", "width": 2, "failed": true},
                    {"a": "n1", "b": "n2", "latency": 9}, {"a": "n2", "b": "n3", "failed": false},
                    {"a": "n3", "b": "n0", "latency": 5}]})",
      "file:square.json");
  EXPECT_THAT(t.failed_links(), ElementsAre(Pair{0, 1}));
  EXPECT_EQ(t.links().size(), 6u);
  EXPECT_FALSE(t.adjacent(0, 1));
  EXPECT_TRUE(t.adjacent(2, 3));
  EXPECT_EQ(t.diameter(), 3u);
  for (uint32_t l = 0; l < t.links().size(); ++l) {
    const Link& k = t.links()[l];
    const bool nine = std::min(k.src, k.dst) == 1 && std::max(k.src, k.dst) == 2;
    const bool five = std::min(k.src, k.dst) == 0 && std::max(k.src, k.dst) == 3;
    EXPECT_EQ(t.link_latency(l), nine ? 9u : five ? 5u : 0u) << k.src << " -> " << k.dst;
  }
}

TEST(FailedLinks, BadFileFieldsNameTheProblem) {
  auto parse = [](const std::string& links) {
    return error_of([&] {
      parse_topology_json(R"({"nodes": [0, 1, 2], "links": [)" + links + "]}", "file:bad.json");
    });
  };
  for (const char* bad : {"1", "\"yes\"", "null"}) {
    EXPECT_THAT(parse(fmt::format(R"({{"a": "n0", "b": "n1", "failed": {}}})", bad)),
                HasSubstr("link 0 failed must be true or false"))
        << bad;
  }
  EXPECT_THAT(parse(R"({"a": "n0", "b": "n1"}, {"a": "n1", "b": "n2", "failed": true})"),
              HasSubstr("the failed links cut it apart"));
}

// Every route between nodes, on a grid with failed links and on a file, keeps off the failed
// links and is a shortest path of what remains.
TEST(FailedLinks, RoutesNeverCrossAFailedLink) {
  for (const char* spec : {kFour, "mesh:4x4,failed=5-6+9-10", "ring:8,failed=3-4"}) {
    const Topology t = parse_topology(spec);
    Router router(t);
    ASSERT_TRUE(router.searches()) << spec;
    for (uint32_t s = 0; s < t.nodes(); ++s) {
      const std::vector<uint32_t> dist = t.distances_from(s);
      for (uint32_t d = 0; d < t.nodes(); ++d) {
        const std::vector<uint32_t> r = router.route(s, d);
        EXPECT_EQ(r.size(), dist[d]) << spec << ": " << s << " -> " << d;
        for (uint32_t l : r) EXPECT_FALSE(crosses(t, l)) << spec << ": " << s << " -> " << d;
      }
    }
  }
}

// The ring's cycle moves off the failed links where a symmetry of the grid lets it: every
// hop one link, none of them failed.
TEST(FailedLinks, RingCycleGoesRoundTheFailures) {
  for (const char* spec : {"torus:4x4,failed=0-1", "torus:8x8,failed=27-28",
                           "torus:8x8,failed=27-28+9-17", "mesh:4x4,failed=5-6"}) {
    const Topology t = parse_topology(spec);
    const RingCycle c = hamiltonian_cycle(t);
    EXPECT_EQ(missing_hops(t, c.order), 0u) << spec;
    std::set<uint32_t> nodes(c.order.begin(), c.order.end());
    EXPECT_EQ(nodes.size(), t.nodes()) << spec;
  }
  // Failures in both dimensions and both wrap-arounds: no symmetry of the snake misses all
  // four; the one with the fewest hops that are not a link has a single such hop.
  const Topology four = parse_topology(kFour);
  EXPECT_EQ(missing_hops(four, hamiltonian_cycle(four).order), 1u);
  // A ring with a failed link has no other cycle: its hop goes the long way round.
  EXPECT_FALSE(hamiltonian_cycle(parse_topology("ring:6,failed=2-3")).one_hop);
  // Nor does a mesh whose corner lost a link (a corner's two links are both on any cycle).
  EXPECT_FALSE(hamiltonian_cycle(parse_topology("mesh:4x4,failed=0-1")).one_hop);
}

class FailedLinkPlans : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

// Every transfer of a neighbour-only plan is one remaining link; every plan and its tables
// verify.
TEST_P(FailedLinkPlans, PlanAroundTheFailuresAndVerify) {
  const auto [spec, algorithm] = GetParam();
  const Topology t = parse_topology(spec);
  for (uint64_t bytes : {uint64_t{1000}, uint64_t{65536}}) {
    PlanOptions opt;
    opt.bytes = bytes;
    const Plan plan = build_plan(t, algorithm, opt);
    const VerifyReport r = verify_plan(plan, t);
    EXPECT_TRUE(r.ok()) << test::errors_of(r);
    const VerifyReport tr = verify_tables(compile_tables(plan, TableOptions{}), t);
    EXPECT_TRUE(tr.ok()) << test::errors_of(tr);
    // A transfer between nodes the failures left without a link is a multi-hop packet, whose
    // route goes round them.
    for (const Transfer& x : plan.transfers) {
      if (t.adjacent(x.src, x.dst)) continue;
      EXPECT_FALSE(plan.neighbour_only) << algorithm << " " << x.src << " -> " << x.dst;
      for (uint32_t l : route(t, x.src, x.dst)) {
        EXPECT_FALSE(crosses(t, l)) << algorithm << " " << x.src << " -> " << x.dst;
      }
    }
    if (std::string(algorithm) == "multitree") {
      EXPECT_TRUE(plan.neighbour_only);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Planners, FailedLinkPlans,
    ::testing::Combine(::testing::Values("torus:4x4,failed=0-1", "torus:8x8,failed=27-28",
                                         kFour, "mesh:4x4,failed=5-6"),
                       ::testing::Values("multitree", "ring", "ring-bi", "ring2d", "dbtree",
                                         "mtree")),
    [](const auto& param_info) {
      std::string name = fmt::format("{}_{}", std::get<0>(param_info.param),
                                     std::get<1>(param_info.param));
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

// The planners that need every link say why, and mtc exits 1 with nothing on stdout.
TEST(FailedLinks, PlannersThatNeedEveryLinkRefuseSayingWhy) {
  const Topology t = parse_topology("torus:4x4,failed=0-1");
  PlanOptions opt;
  opt.bytes = 4096;
  EXPECT_THAT(error_of([&] { build_plan(t, "multitree-opt", opt); }),
              HasSubstr("has failed links (multitree-opt moves one tree to every root"));
  EXPECT_THAT(error_of([&] { build_plan(t, "ring2d-paper", opt); }),
              HasSubstr("has failed links (a line whose hop goes round a failed link"));
  // Standard error left out: stdout alone must be empty.
  const auto r = test::run_command("(" + std::string(MTC_EXE) +
                                   " plan -t torus:4x4,failed=0-1 -a multitree-opt 2>/dev/null)");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  const auto bad = test::run_command(std::string(MTC_EXE) + " plan -a multitree -t torus:4x4,failed=0-5");
  EXPECT_EQ(bad.code, 1);
  EXPECT_THAT(bad.out, HasSubstr("failed link 0-5 does not exist"));
}

// mtc dot draws a failed link dashed red, not as a link.
TEST(FailedLinks, DotDrawsAFailedLinkDashed) {
  const auto r = test::run_command(std::string(MTC_EXE) +
                                   " dot -t torus:4x4,failed=5-6 -a multitree -b 4KiB");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("f0_5 -> f0_6 [dir=none, color=red, style=dashed];"));
  EXPECT_THAT(r.out, Not(HasSubstr("f0_5 -> f0_6 [dir=none, color=gray80];")));
  EXPECT_THAT(r.out, HasSubstr("f0_4 -> f0_5 [dir=none, color=gray80];"));
}

}  // namespace
}  // namespace mt
