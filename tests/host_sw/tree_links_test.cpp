// The links an in-network aggregation plan's trees put bytes on (verifier/tree_links.hpp), as
// the verifier reports them (VerifyReport::link_bytes, max_step_link_load) and mtc prints
// them: a tree's flow on the node's link and the switch-to-switch hops, not along the route
// between the nodes its transfers name.
#include <cstdint>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "support/run_command.hpp"
#include "support/verify_errors.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

VerifyReport verified(const std::string& spec, const std::string& algorithm, uint64_t bytes) {
  PlanOptions opt;
  opt.bytes = bytes;
  const Topology topo = parse_topology(spec);
  const VerifyReport r = verify_plan(build_plan(topo, algorithm, opt), topo);
  EXPECT_TRUE(r.ok()) << test::errors_of(r);
  return r;
}

// fattree:4x2: 16 nodes under 4 leaf switches, the tree's top one of the 4 spines. Every
// node's link carries the buffer once each way, and so does each leaf's link to and from the
// top; no other link carries anything.
TEST(TreeLinks, InaPutsTheBufferOnEveryTreeLinkOnceEachWay) {
  const uint64_t m = 1 << 20;
  const Topology topo = parse_topology("fattree:4x2");
  const VerifyReport r = verified("fattree:4x2", "ina", m);
  ASSERT_EQ(r.link_bytes.size(), topo.links().size());
  uint32_t node_links = 0, switch_links = 0;
  for (size_t l = 0; l < topo.links().size(); ++l) {
    const Link& link = topo.links()[l];
    const bool node_link = !topo.is_switch(link.src) || !topo.is_switch(link.dst);
    if (node_link) {
      EXPECT_EQ(r.link_bytes[l], m) << link.src << " -> " << link.dst;
      ++node_links;
    } else if (r.link_bytes[l] != 0) {
      EXPECT_EQ(r.link_bytes[l], m) << link.src << " -> " << link.dst;
      ++switch_links;
    }
  }
  EXPECT_EQ(node_links, 32u);
  EXPECT_EQ(switch_links, 8u) << "4 leaves up to the top and back";
  EXPECT_EQ(r.max_link_bytes, m);
  EXPECT_EQ(r.max_step_link_load, 1u);
}

// hier:2+2 (ratio 4: a learner's link is 4 parallel links, counted on the first): a learner
// sends one ring chunk, its chunk into its tree and one all-gather chunk, M/2 each, and
// receives as many; each machine's uplink carries both trees' chunks, M, each way, both in
// step 2 (the trees' step).
TEST(TreeLinks, NetReduceCountsTheRingAndTheTreesOnTheUplinks) {
  const uint64_t m = 64 << 10;
  const Topology topo = parse_topology("hier:2+2");
  const VerifyReport r = verified("hier:2+2", "netreduce", m);
  ASSERT_EQ(r.link_bytes.size(), topo.links().size());
  uint64_t uplinks = 0;
  for (size_t l = 0; l < topo.links().size(); ++l) {
    const Link& link = topo.links()[l];
    if (topo.is_switch(link.src) && topo.is_switch(link.dst)) {
      EXPECT_EQ(r.link_bytes[l], m) << link.src << " -> " << link.dst;
      ++uplinks;
    } else if (topo.first_link(link.src, link.dst) == l) {
      EXPECT_EQ(r.link_bytes[l], 3 * m / 2) << link.src << " -> " << link.dst;
    } else {
      EXPECT_EQ(r.link_bytes[l], 0u) << "a bundle's load is on its first link";
    }
  }
  EXPECT_EQ(uplinks, 4u);
  EXPECT_EQ(r.max_link_bytes, 3 * m / 2);
  EXPECT_EQ(r.max_step_link_load, 2u);
}

TEST(TreeLinks, MtcPrintsTheBusiestLinkOfAnAggregationPlan) {
  const auto r = test::run_command(std::string(MTC_EXE) +
                                   " plan -t hier:2+2 -a netreduce -b 64KiB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("at most 2 transfer(s) per link per step, busiest link carries "
                               "98304 bytes"));
}

}  // namespace
}  // namespace mt
