// Direct networks given as a file (no switches), and grids with failed links, built alike: a
// router per node with a port per link, the up*/down* tables (network/switch_routing.hpp),
// all-reduces that sum exactly, a torus given as a file against the torus spec, and
// saturation that drains.
#include <algorithm>
#include <fstream>
#include <tuple>

#include <gtest/gtest.h>

#include "allreduce/allreduce_sim.hpp"
#include "common/error.hpp"
#include "network/switch_routing.hpp"
#include "stress_util.hpp"
#include "topology/topology.hpp"

namespace mt::noc {
namespace {

using DirectFileSim = test::SimTest;

std::string write_file(const std::string& name, const std::string& text) {
  return "file:" + test::write_temp_file(name, text);
}

// Seven nodes, irregular: degrees 2 to 4, a cycle of four, a link of multiplicity 2.
std::string irregular_file() {
  return write_file("irregular7.json", R"({"nodes": [0, 1, 2, 3, 4, 5, 6], "links": [
    {"a": "n0", "b": "n1"}, {"a": "n1", "b": "n2"}, {"a": "n2", "b": "n3"}, {"a": "n3", "b": "n0"},
    {"a": "n1", "b": "n4"}, {"a": "n4", "b": "n5"}, {"a": "n5", "b": "n6"}, {"a": "n6", "b": "n2"},
    {"a": "n0", "b": "n5"}, {"a": "n3", "b": "n6", "width": 2}]})");
}

// torus:4x4 as a file: the same links (a node's neighbour order is that of the file).
std::string torus_file() {
  std::string links;
  for (uint32_t n = 0; n < 16; ++n) {
    const uint32_t x = n % 4, y = n / 4;
    for (uint32_t m : {y * 4 + (x + 1) % 4, ((y + 1) % 4) * 4 + x}) {
      links += (links.empty() ? "" : ", ") + fmt::format(R"({{"a": "n{}", "b": "n{}"}})", n, m);
    }
  }
  return write_file("torus4x4.json", fmt::format(
      R"({{"nodes": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "links": [{}]}})",
      links));
}

bool failed(const Topology& t, uint32_t a, uint32_t b) {
  const Topology::VertexPair p{std::min(a, b), std::max(a, b)};
  return std::find(t.failed_links().begin(), t.failed_links().end(), p) != t.failed_links().end();
}

// Every table route reaches its node, never turns from a down link to an up one (up: toward a
// smaller (level from node 0, id)), takes a neighbour's link to a neighbour, and never crosses
// a failed link (a torus with four: its X and Y wrap links among them).
TEST(DirectFileRouting, TablesAreUpDownRoutesAndNeighboursOneHop) {
  for (const std::string& spec : {irregular_file(), torus_file(),
                                  std::string("torus:8x8,failed=6-62+9-17+27-28+32-39")}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    const PortLayout layout(t, 4);
    const SwitchRoutes routes = build_switch_routes(t, layout, 4);
    EXPECT_TRUE(routes.nodes_forward());
    EXPECT_EQ(routes.classes(), 1u);
    const std::vector<uint32_t> level = t.distances_from(0);
    auto key = [&](uint32_t v) { return std::make_pair(level[v], v); };
    for (uint32_t s = 0; s < t.nodes(); ++s) {
      const std::vector<uint32_t> dist = t.distances_from(s);
      for (uint32_t d = 0; d < t.nodes(); ++d) {
        if (s == d) continue;
        uint32_t v = s, hops = 0;
        bool went_down = false;
        while (v != d && hops <= t.nodes() * 2) {
          const uint32_t w = layout.neighbours(v).at(routes.port(v, d));
          EXPECT_FALSE(failed(t, v, w)) << s << " -> " << d << " crosses " << v << "-" << w;
          const bool up = key(w) < key(v);
          EXPECT_FALSE(went_down && up) << s << " -> " << d << " turns up at " << v;
          went_down = went_down || !up;
          v = w;
          ++hops;
        }
        EXPECT_EQ(v, d) << s << " -> " << d;
        if (dist[d] == 1) {
          EXPECT_EQ(hops, 1u) << s << " -> " << d;
        }
      }
    }
  }
}

TEST(DirectFileRouting, NodeWithMoreThanFourLinksIsRefused) {
  const Topology t = parse_topology(write_file("star.json", R"({"nodes": [0, 1, 2, 3, 4, 5],
    "links": [{"a": "n0", "b": "n1"}, {"a": "n0", "b": "n2"}, {"a": "n0", "b": "n3"},
              {"a": "n0", "b": "n4"}, {"a": "n0", "b": "n5"}]})"));
  try {
    PortLayout layout(t, 4);
    FAIL() << "a node with 5 links was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("node 0 has 5 links"), std::string::npos) << e.what();
  }
}

// Every algorithm the host plans on a direct file network sums exactly, in both element types
// and both flow-control modes.
class DirectFileAllReduce
    : public test::SimTest,
      public ::testing::WithParamInterface<std::tuple<bool, const char*, DType, FlowControl>> {};

TEST_P(DirectFileAllReduce, SumsExactly) {
  const auto [torus, algorithm, dtype, fc] = GetParam();
  AllReduceOptions o;
  o.topology = torus ? torus_file() : irregular_file();
  o.algorithm = algorithm;
  o.bytes = 16 * 1024;
  o.dtype = dtype;
  o.ni.flow_control = fc;
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
  EXPECT_EQ(r.children_slots, 4u);  // K = 4, as on a grid
  EXPECT_GT(r.cycles, r.bound_cycles);
}

INSTANTIATE_TEST_SUITE_P(
    Files, DirectFileAllReduce,
    ::testing::Combine(::testing::Bool(),
                       ::testing::Values("multitree", "ring", "ring-bi", "dbtree"),
                       ::testing::Values(DType::kInt32, DType::kFp32),
                       ::testing::Values(FlowControl::kMessage, FlowControl::kPacket)),
                         test::TupleParamName());

uint64_t cycles(const std::string& topology, const std::string& algorithm, FlowControl fc) {
  test::fresh_simcontext();
  AllReduceOptions o;
  o.topology = topology;
  o.algorithm = algorithm;
  o.bytes = 64 * 1024;
  o.ni.flow_control = fc;
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
  return r.cycles;
}

// Ring and ring-bi send to grid neighbours only, in the same order on both: the file's
// one-hop routes are the torus's, and the cycles are the torus spec's. (MultiTree's trees
// follow each node's neighbour order, which a file cannot give as the torus builder does;
// dbtree's routes are up*/down* on the file, dimension order on the torus.)
TEST_F(DirectFileSim, TorusAsAFileRingCyclesAreTheTorusSpecs) {
  for (const char* algorithm : {"ring", "ring-bi"}) {
    for (FlowControl fc : {FlowControl::kMessage, FlowControl::kPacket}) {
      EXPECT_EQ(cycles(torus_file(), algorithm, fc), cycles("torus:4x4", algorithm, fc))
          << algorithm << " " << (fc == FlowControl::kMessage ? "message" : "packet");
    }
  }
}

// Saturation with packets and source-routed messages: everything drains, nothing is lost.
class DirectFileSaturation : public test::SimTest,
                             public ::testing::WithParamInterface<std::tuple<bool, bool>> {};

TEST_P(DirectFileSaturation, DrainsWithNoFlitLost) {
  const auto [torus, wormhole] = GetParam();
  test::run_and_drain(test::table_routed_saturation(torus ? torus_file() : irregular_file(), wormhole));
}

INSTANTIATE_TEST_SUITE_P(Files, DirectFileSaturation,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         test::TupleParamName());

}  // namespace
}  // namespace mt::noc
