// Topologies: shapes, neighbour order, spec strings, JSON files and their errors.
#include <algorithm>
#include <fstream>
#include <optional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "support/input_error_of.hpp"
#include "topology/routing.hpp"
#include "topology/topology.hpp"

namespace mt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<uint32_t> neighbours(const Topology& t, uint32_t v) {
  std::vector<uint32_t> out;
  for (uint32_t l : t.out_links(v)) out.push_back(t.links()[l].dst);
  return out;
}

using test::error_of;

TEST(Topology, TorusNeighbourOrderIsYThenX) {
  const Topology t = make_torus(4, 4);
  EXPECT_EQ(t.nodes(), 16u);
  // Node 5 = (1,1): y-1 -> 1, y+1 -> 9, x-1 -> 4, x+1 -> 6.
  EXPECT_THAT(neighbours(t, 5), ElementsAre(1, 9, 4, 6));
  // Node 0 wraps: y-1 -> 12, y+1 -> 4, x-1 -> 3, x+1 -> 1.
  EXPECT_THAT(neighbours(t, 0), ElementsAre(12, 4, 3, 1));
  EXPECT_EQ(t.diameter(), 4u);
  EXPECT_EQ(t.links().size(), 64u);
}

TEST(Topology, MeshCornersHaveTwoLinks) {
  const Topology t = make_mesh(2, 2);
  EXPECT_THAT(neighbours(t, 0), ElementsAre(2, 1));
  EXPECT_THAT(neighbours(t, 3), ElementsAre(1, 2));
  EXPECT_EQ(make_mesh(4, 4).min_node_degree(), 2u);
  EXPECT_EQ(make_mesh(4, 4).max_node_degree(), 4u);
  EXPECT_EQ(make_mesh(8, 8).diameter(), 14u);
}

TEST(Topology, SizeTwoDimensionHasOneLinkPerDirection) {
  const Topology t = make_torus(2, 4);
  // x-1 and x+1 are the same node: one link, not two.
  EXPECT_EQ(t.multiplicity(0, 1), 1u);
  EXPECT_EQ(t.degree(0), 3u);
  EXPECT_EQ(make_ring(2).degree(0), 1u);
}

TEST(Topology, FatTreeIsAnMaryNTree) {
  const Topology t = make_fattree(4, 2);
  EXPECT_EQ(t.nodes(), 16u);
  EXPECT_EQ(t.switches(), 8u);
  // Each leaf switch: 4 nodes down, 4 switches up; each top switch: 4 leaves.
  EXPECT_EQ(t.out_links(16).size(), 8u);
  EXPECT_EQ(t.out_links(20).size(), 4u);
  EXPECT_EQ(t.degree(0), 1u);
  EXPECT_EQ(t.diameter(), 4u);  // node, leaf, top, leaf, node
  EXPECT_EQ(make_fattree(2, 3).nodes(), 8u);
  EXPECT_EQ(make_fattree(2, 3).switches(), 12u);
  EXPECT_EQ(make_fattree(2, 3).diameter(), 6u);
}

TEST(Topology, BiGraphConnectsTheTwoHalvesCompletely) {
  const Topology t = make_bigraph(4, 8);
  EXPECT_EQ(t.nodes(), 64u);
  EXPECT_EQ(t.switches(), 8u);
  const uint32_t upper = 64, lower = 64 + 4;
  EXPECT_EQ(t.multiplicity(upper, lower + 3), 1u);
  EXPECT_EQ(t.multiplicity(upper, upper + 1), 0u);  // no link within a half
  EXPECT_EQ(t.diameter(), 4u);  // node, upper, lower, upper, node
}

// The closed forms of fattree and bigraph agree with a search from every node.
TEST(Topology, SwitchNetworkDiametersMatchTheSearch) {
  for (const char* spec : {"fattree:2x1", "fattree:2x2", "fattree:3x3", "fattree:4x2", "fattree:2x5",
                           "bigraph:1x1", "bigraph:1x3", "bigraph:2x1", "bigraph:3x2", "bigraph:4x4"}) {
    const Topology t = parse_topology(spec);
    uint32_t searched = 0;
    for (uint32_t a = 0; a < t.nodes(); ++a) {
      const std::vector<uint32_t> d = t.distances_from(a);
      for (uint32_t b = 0; b < t.nodes(); ++b) searched = std::max(searched, d[b]);
    }
    EXPECT_EQ(t.diameter(), searched) << spec;
  }
}

// Fat-tree routes are walked greedily (routing.hpp); they are the routes the breadth-first
// search finds on the same links.
TEST(Topology, FatTreeRoutesAreTheSearchedRoutes) {
  for (const char* spec : {"fattree:2x1", "fattree:2x2", "fattree:2x3", "fattree:3x2", "fattree:3x3",
                           "fattree:4x2", "fattree:2x4", "fattree:4x3"}) {
    const Topology t = parse_topology(spec);
    const Topology searched(TopologyKind::kFile, "file:copy.json", t.nodes(), t.switches(), t.links());
    Router walker(t), search(searched);
    for (uint32_t a = 0; a < t.nodes(); ++a) {
      for (uint32_t b = 0; b < t.nodes(); ++b) {
        const std::vector<uint32_t> expected = search.route(a, b);
        ASSERT_EQ(walker.route(a, b), expected) << spec << " " << a << " -> " << b;
        ASSERT_EQ(route(t, a, b), expected) << spec << " " << a << " -> " << b;
      }
    }
  }
}

TEST(Topology, SpecStrings) {
  EXPECT_EQ(parse_topology("torus:4x4").nodes(), 16u);
  EXPECT_EQ(parse_topology("mesh:8x8").nodes(), 64u);
  EXPECT_EQ(parse_topology("ring:16").nodes(), 16u);
  EXPECT_EQ(parse_topology("fattree:8x2").nodes(), 64u);
  EXPECT_EQ(parse_topology("bigraph:4x8").nodes(), 64u);
  EXPECT_EQ(parse_topology("torus:4x4").spec(), "torus:4x4");
}

TEST(Topology, MalformedSpecsNameTheProblem) {
  EXPECT_THAT(error_of([] { parse_topology("torus:0x4"); }), HasSubstr("sizes must be >= 1"));
  EXPECT_THAT(error_of([] { parse_topology("torus:-1x4"); }), HasSubstr("not a positive integer"));
  EXPECT_THAT(error_of([] { parse_topology("torus:4"); }), HasSubstr("expected AxB"));
  EXPECT_THAT(error_of([] { parse_topology("hypercube:4"); }), HasSubstr("unknown kind \"hypercube\""));
  EXPECT_THAT(error_of([] { parse_topology("torus4x4"); }), HasSubstr("expected KIND:SIZE"));
  EXPECT_THAT(error_of([] { parse_topology("ring:1"); }), HasSubstr("at least 2 nodes"));
  EXPECT_THAT(error_of([] { parse_topology("fattree:1x2"); }), HasSubstr("arity must be >= 2"));
  EXPECT_THAT(error_of([] { parse_topology("file:/nonexistent.json"); }), HasSubstr("cannot open"));
}

TEST(Topology, JsonFileWithWideLinksIsParallelEdges) {
  const Topology t = parse_topology_json(
      R"({"name": "square", "nodes": [0, 1, 2, 3],
          "links": [{"a": "n0", "b": "n1", "width": 2}, {"a": "n1", "b": "n2"},
                    {"a": "n2", "b": "n3"}, {"a": "n3", "b": "n0"}]})",
      "file:square.json");
  EXPECT_EQ(t.multiplicity(0, 1), 2u);
  EXPECT_EQ(t.multiplicity(1, 0), 2u);
  EXPECT_EQ(t.degree(0), 3u);
  EXPECT_TRUE(t.direct());
}

TEST(Topology, JsonFileWithSwitches) {
  const Topology t = parse_topology_json(
      R"({"nodes": [1, 0, 2], "switches": [0],
          "links": [{"a": "n0", "b": "s0"}, {"a": "n1", "b": "s0"}, {"a": "n2", "b": "s0"}]})",
      "file:star.json");
  EXPECT_EQ(t.switches(), 1u);
  EXPECT_EQ(t.diameter(), 2u);
  EXPECT_THAT(route(t, 0, 2), ::testing::SizeIs(2));
}

TEST(Topology, MalformedJsonFilesNameTheProblem) {
  auto parse = [](const std::string& text) {
    return error_of([&] { parse_topology_json(text, "file:bad.json"); });
  };
  EXPECT_THAT(parse("{"), HasSubstr("not valid JSON"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [], "colour": 1})"), HasSubstr("unknown key \"colour\""));
  EXPECT_THAT(parse(R"({"nodes": [0, 0], "links": []})"), HasSubstr("duplicate nodes id 0"));
  EXPECT_THAT(parse(R"({"nodes": [0, 5], "links": []})"), HasSubstr("out of range"));
  EXPECT_THAT(parse(R"({"nodes": [0, -1], "links": []})"), HasSubstr("not a non-negative integer"));
  EXPECT_THAT(parse(R"({"links": []})"), HasSubstr("missing key \"nodes\""));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n7"}]})"),
              HasSubstr("names node 7, which does not exist"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "s0"}]})"),
              HasSubstr("names switch 0, which does not exist"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n0"}]})"), HasSubstr("to itself"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1", "width": 0}]})"),
              HasSubstr("width must be an integer 1..64"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1"}, {"a": "n1", "b": "n0"}]})"),
              HasSubstr("repeats"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1, 2], "links": [{"a": "n0", "b": "n1"}]})"),
              HasSubstr("node 2 has no link"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1, 2, 3], "links": [{"a": "n0", "b": "n1"}, {"a": "n2", "b": "n3"}]})"),
              HasSubstr("disconnected"));
  EXPECT_THAT(parse(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1", "speed": 2}]})"),
              HasSubstr("unknown key \"speed\" in link 0"));
}

TEST(Topology, FileSpecLoadsFromDisk) {
  const std::string path = ::testing::TempDir() + "/pair.json";
  std::ofstream(path) << R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1"}]})";
  EXPECT_EQ(parse_topology("file:" + path).nodes(), 2u);
}

// hier:2+3 by hand: nodes 0-1 on switch vertex 5, nodes 2-4 on switch vertex 6, root vertex 7;
// node links 4 wide (the default ratio), one uplink per machine: 2 * (5 * 4 + 2) = 44 links.
TEST(Topology, HierarchyHasMachineSwitchesAndOneUplinkEach) {
  const Topology t = parse_topology("hier:2+3");
  EXPECT_EQ(t.spec(), "hier:2+3");
  EXPECT_EQ(t.nodes(), 5u);
  EXPECT_EQ(t.switches(), 3u);
  EXPECT_EQ(t.links().size(), 44u);
  EXPECT_EQ(t.multiplicity(0, 5), 4u);
  EXPECT_EQ(t.multiplicity(6, 4), 4u);
  EXPECT_EQ(t.multiplicity(0, 6), 0u);
  EXPECT_EQ(t.multiplicity(5, 7), 1u);
  EXPECT_EQ(t.multiplicity(7, 6), 1u);
  EXPECT_EQ(t.multiplicity(5, 6), 0u);
  EXPECT_EQ(t.degree(2), 4u);
  EXPECT_THAT(neighbours(t, 5), ElementsAre(0, 0, 0, 0, 1, 1, 1, 1, 7));
  EXPECT_THAT(neighbours(t, 7), ElementsAre(5, 6));
  EXPECT_EQ(t.diameter(), 4u);
  EXPECT_EQ(search_diameter(t, 1e9), 4u);
  EXPECT_FALSE(t.has_link_latencies());
  const Topology r = parse_topology("hier:2+3,ratio=2");
  EXPECT_EQ(r.spec(), "hier:2+3,ratio=2");
  EXPECT_EQ(r.multiplicity(0, 5), 2u);
  EXPECT_EQ(r.links().size(), 2u * (5 * 2 + 2));
  const std::optional<TopologySize> size = topology_size("hier:3+4+1,ratio=3");
  ASSERT_TRUE(size.has_value());
  EXPECT_EQ(size->nodes, 8u);
  EXPECT_EQ(size->switches, 4u);
  EXPECT_EQ(size->links, parse_topology("hier:3+4+1,ratio=3").links().size());
  EXPECT_EQ(parse_topology("hier:1+1").diameter(), 4u);
  EXPECT_EQ(parse_topology("hier:3").diameter(), 2u);
}

TEST(Topology, MalformedHierarchiesNameTheProblem) {
  auto err = [](const std::string& spec) { return error_of([&] { parse_topology(spec); }); };
  EXPECT_THAT(err("hier:"), HasSubstr("no machines"));
  EXPECT_THAT(err("hier:3+"), HasSubstr("machine 1 has no learner count"));
  EXPECT_THAT(err("hier:+3"), HasSubstr("machine 0 has no learner count"));
  EXPECT_THAT(err("hier:0+2"), HasSubstr("machine 0 has 0 learners"));
  EXPECT_THAT(err("hier:2+00"), HasSubstr("machine 1 has 0 learners"));
  EXPECT_THAT(err("hier:1"), HasSubstr("1 learner in all"));
  EXPECT_THAT(err("hier:2x3"), HasSubstr("not a positive integer"));
  EXPECT_THAT(err("hier:2+3,ratio=5"), HasSubstr("ratio 5 is out of range"));
  EXPECT_THAT(err("hier:2+3,ratio=0"), HasSubstr("sizes must be >= 1"));
  EXPECT_THAT(err("hier:2+3,speed=2"), HasSubstr("unknown option \"speed=2\""));
  EXPECT_THAT(error_of([] { topology_size("hier:0+2"); }), HasSubstr("0 learners"));
}

// A link's latency covers both directions and every parallel link of a wide link.
TEST(Topology, JsonLinkLatencies) {
  const Topology t = parse_topology_json(
      R"({"nodes": [0, 1, 2], "switches": [0],
          "links": [{"a": "n0", "b": "s0", "latency": 7, "width": 2}, {"a": "n1", "b": "s0"},
                    {"a": "n2", "b": "s0", "latency": 300}]})",
      "file:lat.json");
  ASSERT_TRUE(t.has_link_latencies());
  std::vector<uint32_t> got;
  for (uint32_t l = 0; l < t.links().size(); ++l) got.push_back(t.link_latency(l));
  EXPECT_THAT(got, ElementsAre(7, 7, 7, 7, 0, 0, 300, 300));
  const Topology none = parse_topology_json(
      R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1"}]})", "file:none.json");
  EXPECT_FALSE(none.has_link_latencies());
  EXPECT_EQ(none.link_latency(0), 0u);
  auto parse = [](const std::string& latency) {
    return error_of([&] {
      parse_topology_json(R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1", "latency": )" +
                              latency + "}]}",
                          "file:bad.json");
    });
  };
  for (const char* bad : {"-3", "0", "\"fast\"", "1.5", "4294967296", "null"}) {
    EXPECT_THAT(parse(bad), HasSubstr("link 0 latency must be an integer number of cycles")) << bad;
  }
  EXPECT_EQ(parse("4294967295"), "no error");
}

TEST(Routing, DimensionOrderTakesTheShorterWayRound) {
  const Topology t = make_torus(8, 8);
  // (0,0) -> (7,2): X one hop backwards over the wrap, then Y two hops.
  const std::vector<uint32_t> r = route(t, 0, 2 * 8 + 7);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(t.links()[r[0]].dst, 7u);
  EXPECT_EQ(t.links()[r[2]].dst, 23u);
  EXPECT_EQ(route(make_mesh(8, 8), 0, 63).size(), 14u);
}

}  // namespace
}  // namespace mt
