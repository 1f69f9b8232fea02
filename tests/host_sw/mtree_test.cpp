// MTREE (algorithms/mtree.hpp): GRTH, GBST and ITH on small graphs worked by hand, the MILP
// on a case with a known optimum, lambda* of the corrected Eq. (8), the plans the verifier
// proves, and bad input.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/mtree.hpp"
#include "common/error.hpp"
#include "support/run_command.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kGscale = std::string(MT_SOURCE_DIR) + "/examples/topologies/gscale12.json";

// The triangle 0-1 (capacity 2, latency 1), 1-2 (1, 1), 0-2 (1, 5).
MtreeGraph triangle() { return {3, {{0, 1, 2, 1}, {1, 2, 1, 1}, {0, 2, 1, 5}}}; }

// A tree 0 -(3)- 1 (D_* = [3, 3]) grown by the edge 1 -(5)- 2: rooted at 0 the height is
// 3 + 5, at 1 it is 5, at the new vertex 2 it is 8.
TEST(MtreeGrth, HeightsFromEveryRootOfTheGrownTree) {
  std::vector<std::vector<MtreeNeighbour>> adjacent(3);
  adjacent[0].push_back({1, 3});
  adjacent[1].push_back({0, 3});
  EXPECT_THAT(mtree_grth(1, 2, 5, adjacent, {3, 3, 0}), ElementsAre(8, 5, 8));
}

// The first edge of a tree: the listing of Algorithm 2 never raises D_j[u], which would leave
// the start vertex at height 0 with a child 4 away (docs/mtc.md, errata).
TEST(MtreeGrth, TheTreeVertexOfTheNewEdgeGrowsToo) {
  const std::vector<std::vector<MtreeNeighbour>> adjacent(2);
  EXPECT_THAT(mtree_grth(0, 1, 4, adjacent, {0, 0}), ElementsAre(4, 4));
}

// Tree 1 from vertex 0 takes the widest edge 0-1, then of the two 1-wide edges the one that
// keeps the diameter least (1-2: heights 2, 1, 2 against 0-2: 5, 6, 6): rooted at 1, height 1.
// r_* = 1 (the globally smallest capacity) leaves 0-1 at 1 and 1-2 at 0. Tree 2 from vertex 1
// has 0-1 and 0-2 left: rooted at 0, height 5. Then no capacity is left.
TEST(MtreeGbst, TheTriangleByHand) {
  const MtreeTrees t = mtree_gbst(triangle(), 100, 1);
  ASSERT_EQ(t.trees.size(), 2u);
  EXPECT_THAT(t.rates, ElementsAre(1, 1));
  EXPECT_EQ(t.trees[0].root, 1u);
  EXPECT_EQ(t.trees[0].height, 1u);
  EXPECT_THAT(t.trees[0].edges, ElementsAre(0, 1));
  EXPECT_EQ(t.trees[1].root, 0u);
  EXPECT_EQ(t.trees[1].height, 5u);
  EXPECT_THAT(t.trees[1].parent, ElementsAre(0, 0, 0));
}

// Under H = 4 the second tree would be rooted within 2H = 8 of every vertex, but no vertex
// roots it within 4: it is refused, and so is every tree under H = 0.
TEST(MtreeGbst, EveryTreeIsWithinTheHeightBound) {
  EXPECT_EQ(mtree_gbst(triangle(), 4, 1).trees.size(), 1u);
  EXPECT_EQ(mtree_gbst(triangle(), 0, 1).trees.size(), 0u);
  // A minimum rate above every edge but 0-1 leaves no spanning tree.
  EXPECT_EQ(mtree_gbst(triangle(), 100, 1.5).trees.size(), 0u);
}

// ITH from H = 10: GBST reaches a total of 2 at H = 10 and 5, 1 at 3 and 4: the search ends
// at the least H that keeps the total, 5.
TEST(MtreeIth, FindsTheLeastBoundThatKeepsTheRate) {
  const MtreeTrees t = mtree_ith(triangle(), 10, 1, 1.0);
  EXPECT_EQ(t.height_bound, 5u);
  EXPECT_EQ(t.total(), 2);
  EXPECT_EQ(mtree_ith(triangle(), 10, 1, 0.5).height_bound, 1u);
}

// Two trees on capacities 0-1: 3, 1-2: 2, 0-2: 1; A = {0-1, 1-2}, B = {0-1, 0-2}. The MILP's
// optimum is r_A + r_B = 3 with r_B at most 1 (0-2) and r_A at most 2 (1-2): (2, 1). With
// K = 1 only A: 2. With r_bar = 1.5 B cannot be used (r_B <= 1): A alone at 2.
TEST(MtreeMilp, KnownOptima) {
  const MtreeGraph g{3, {{0, 1, 3, 1}, {1, 2, 2, 1}, {0, 2, 1, 1}}};
  MtreeTrees t;
  t.trees.resize(2);
  t.trees[0].edges = {0, 1};
  t.trees[1].edges = {0, 2};
  t.rates = {1, 1};
  EXPECT_THAT(mtree_milp(g, t, 10, 1), ElementsAre(2, 1));
  EXPECT_THAT(mtree_milp(g, t, 1, 1), ElementsAre(2, 0));
  EXPECT_THAT(mtree_milp(g, t, 10, 1.5), ElementsAre(2, 0));
}

// The corrected Eq. (8): v = 2^20 bytes, l = 4 links, max alpha = 150 cycles, one link (16
// bytes a cycle, beta = 1/16): mu* = sqrt(2^20 x 150 / (3 / 16)) = 28,963, lambda* = 36.2.
// The printed Eq. (8), sqrt((l - 1) beta / max alpha) = 0.035, would not pipeline at all.
TEST(MtreeChunks, CorrectedLambdaStar) {
  EXPECT_EQ(mtree_lambda_star(1 << 20, 4, 150, 1), 36u);
  EXPECT_EQ(mtree_lambda_star(1 << 20, 4, 150, 4), 18u);  // 4 times the rate: half the chunks
  EXPECT_EQ(mtree_lambda_star(1 << 20, 1, 150, 1), 1u);   // one link: (5) < 0 for all mu
  EXPECT_EQ(mtree_lambda_star(64, 8, 1, 1), 4u);          // at most the 16-byte grains of v
}

TEST(MtreePlans, VerifyOnToriMeshesAndTheTwelveNodeNetwork) {
  const std::vector<std::string> specs = {"torus:4x4", "torus:3x5", "mesh:3x3", "mesh:4x2",
                                         "ring:6", "file:" + kGscale};
  for (const std::string& spec : specs) {
    const Topology topo = parse_topology(spec);
    for (uint64_t bytes : {uint64_t{64}, uint64_t{4096}, uint64_t{1} << 20}) {
      for (uint32_t chunks : {0u, 1u, 7u}) {
        PlanOptions opt;
        opt.bytes = bytes;
        opt.mtree.chunks = chunks;
        const Plan plan = build_plan(topo, "mtree", opt);
        const VerifyReport report = verify_plan(plan, topo);
        EXPECT_TRUE(report.ok()) << spec << " " << bytes << " " << chunks << ": "
                                 << (report.ok() ? "" : report.errors.front());
        for (const Transfer& t : plan.transfers) EXPECT_EQ(t.range, t.flow) << spec;  // whole flows
      }
    }
  }
}

// On the 12-node network: every selected tree spans it within the bound, the rates respect
// every link's capacity, and the shares follow the rates.
TEST(MtreePlans, TheTwelveNodeNetworksTreesAndRates) {
  const Topology topo = parse_topology("file:" + kGscale);
  PlanOptions opt;
  const MtreeResult r = mtree_solve(topo, opt);
  ASSERT_EQ(r.graph.edges.size(), 19u);
  EXPECT_DOUBLE_EQ(r.capacity_bound, 24.0 / 11);
  ASSERT_FALSE(r.selected.empty());
  EXPECT_LE(r.selected.size(), opt.mtree.trees);
  std::vector<double> load(r.graph.edges.size(), 0);
  uint64_t bytes = 0;
  for (const MtreePipeline& p : r.selected) {
    EXPECT_EQ(p.tree.edges.size(), 11u);
    EXPECT_LE(p.tree.height, r.built.height_bound);
    EXPECT_GE(p.rate, opt.mtree.min_rate);
    for (uint32_t j : p.tree.edges) load[j] += p.rate;
    bytes += p.bytes;
  }
  for (size_t j = 0; j < load.size(); ++j) EXPECT_LE(load[j], r.graph.edges[j].capacity + 1e-9);
  EXPECT_EQ(bytes, opt.bytes);
}

TEST(MtreePlans, BadInputExitsOneWithTheReason) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-t torus:4x4 -a mtree --mtree-height 100",
       "height bound 100 cycles (--mtree-height) admits no spanning tree"},
      {"-t torus:4x4 -a mtree --mtree-trees 0", "tree count 0 (--mtree-trees)"},
      {"-t torus:4x4 -a mtree --mtree-min-rate 2", "minimum rate 2 (--mtree-min-rate): no link"},
      {"-t torus:4x4 -a mtree --mtree-min-rate 0", "must be a positive number of links"},
      {"-t fattree:4x2 -a mtree", "mtree: topology fattree:4x2 has switches"},
      {"-t hier:2+2 -a mtree", "mtree: topology hier:2+2 has switches"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = test::run_command(std::string(MTC_EXE) + " plan -q -b 4KiB " + args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(message)) << args;
  }
}

}  // namespace
}  // namespace mt
