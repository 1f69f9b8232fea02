// Switch networks (fat-tree, BiGraph): the network builder, the routing tables and their VC
// classes, zero-load latency through 1, 3 and 5 switches against the closed form, source
// routes, saturation that drains, and whole all-reduces that sum exactly.
#include <fstream>
#include <initializer_list>
#include <set>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allreduce/allreduce_sim.hpp"
#include "common/error.hpp"
#include "flit/source_route.hpp"
#include "network/switch_routing.hpp"
#include "stress_util.hpp"
#include "topology/topology.hpp"

namespace mt::noc {
namespace {

using test::Harness;
using SwitchSim = test::SimTest;

// Walks the routing tables from src to dst: the vertices passed.
std::vector<uint32_t> walk(const Topology& t, const SwitchRoutes& r, const PortLayout& l,
                           uint32_t src, uint32_t dst) {
  std::vector<uint32_t> at = {src};
  while (at.back() != dst && at.size() <= t.vertices()) {
    at.push_back(l.neighbours(at.back()).at(r.port(at.back(), dst)));
  }
  return at;
}

TEST(SwitchRouting, TablesTakeShortestPathsAndSpreadUpLinksByDestination) {
  // Classes: a fat-tree's shortest routes go up, then down (one class); a BiGraph's from a
  // lower switch through an upper one to another lower one turn once (two).
  for (const auto& [spec, classes] : {std::make_pair("fattree:4x2", 1u),
                                      std::make_pair("bigraph:4x8", 2u),
                                      std::make_pair("fattree:2x3", 1u),
                                      std::make_pair("fattree:2x4", 1u)}) {
    const Topology t = parse_topology(spec);
    const PortLayout layout(t, 1);
    const SwitchRoutes routes = build_switch_routes(t, layout, 4);
    for (uint32_t s = 0; s < t.nodes(); ++s) {
      const std::vector<uint32_t> dist = t.distances_from(s);
      for (uint32_t d = 0; d < t.nodes(); ++d) {
        if (d == s) continue;
        const std::vector<uint32_t> path = walk(t, routes, layout, s, d);
        ASSERT_EQ(path.back(), d) << spec << " " << s << " -> " << d;
        EXPECT_EQ(path.size() - 1, dist[d]) << spec << " " << s << " -> " << d;
        for (size_t i = 1; i + 1 < path.size(); ++i) EXPECT_TRUE(t.is_switch(path[i]));
      }
    }
    EXPECT_EQ(routes.classes(), classes) << spec;
  }
  // fattree:4x2: from leaf switch 16 the 12 nodes of the other leaves are reached through all
  // four top switches, three destinations each.
  const Topology ft = make_fattree(4, 2);
  const PortLayout layout(ft, 1);
  const SwitchRoutes routes = build_switch_routes(ft, layout, 4);
  std::map<uint8_t, int> up;
  for (uint32_t d = 4; d < 16; ++d) ++up[routes.port(16, d)];
  EXPECT_EQ(up.size(), 4u);
  for (const auto& [port, count] : up) EXPECT_EQ(count, 3) << "port " << int{port};
}

TEST(SwitchRouting, VcClassesSplitTheVcsAndRefuseTooFew) {
  SwitchRoutes r(4, 8, 4);
  ASSERT_TRUE(r.allow_classes(2));
  EXPECT_EQ(r.class_vcs(0), std::make_pair(uint8_t{0}, uint8_t{2}));
  EXPECT_EQ(r.class_vcs(1), std::make_pair(uint8_t{2}, uint8_t{4}));
  EXPECT_EQ(r.class_of_vc(3), 1u);
  ASSERT_TRUE(r.allow_classes(3));  // 4 VCs in 3 classes: the last keeps the remainder
  EXPECT_EQ(r.class_vcs(2), std::make_pair(uint8_t{2}, uint8_t{4}));
  EXPECT_EQ(r.class_of_vc(3), 2u);
  EXPECT_FALSE(r.allow_classes(5));
  // A BiGraph's two VCs give one class: its lower-upper-lower routes turn once, and need two.
  try {
    const Topology t = make_bigraph(2, 2);
    build_switch_routes(t, PortLayout(t, 1), 1);
    FAIL() << "bigraph:2x2 needs 2 classes";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("bigraph:2x2"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("up to 1 times"));
  }
}

// A router names one of its links in ceil(log2(links)) bits: none with one link.
TEST(SourceRoute, AHopIsAsWideAsItsRoutersLinksNeed) {
  // A node's router with links at ports 1 and 2.
  const RouteHopCode node({1, 2});
  EXPECT_EQ(node.links(), 2u);
  EXPECT_EQ(node.bits(), 1u);
  EXPECT_EQ(node.port(0), 1u);
  EXPECT_EQ(node.port(1), 2u);
  EXPECT_EQ(RouteHopCode({1}).bits(), 0u);
  const RouteHopCode six({0, 1, 2, 3, 4, 5});
  EXPECT_EQ(six.bits(), 3u);
  EXPECT_EQ(six.port(5), 5u);
  EXPECT_EQ(six.port(6), RouteHopCode::kNoLink);
  EXPECT_EQ(six.rest(0b101110), 0b101u);
  EXPECT_EQ(RouteHopCode(std::vector<uint8_t>(32, 0)).bits(), 5u);
}

TEST(SourceRoute, EncodesHopsFirstHopLowestAndRefusesWhatDoesNotFit) {
  const RouteHopCode node({1}), sw8({0, 1, 2, 3, 4, 5, 6, 7});
  const uint32_t r = encode_source_route({{1, &node}, {4, &sw8}, {7, &sw8}}, "test");
  EXPECT_EQ(node.port(r), 1u);
  EXPECT_EQ(sw8.port(node.rest(r)), 4u);
  EXPECT_EQ(sw8.port(sw8.rest(node.rest(r))), 7u);
  EXPECT_EQ(sw8.rest(sw8.rest(node.rest(r))), 0u) << "every hop consumed";
  EXPECT_NO_THROW(encode_source_route(std::vector<RouteHop>(10, {7, &sw8}), "x"));
  EXPECT_THROW(encode_source_route(std::vector<RouteHop>(11, {7, &sw8}), "x"), InputError);
  EXPECT_THROW(encode_source_route({{0, &node}}, "x"), std::logic_error) << "port 0 is no link";
  // On the wire: Route and Src of a routed sub-head survive pack/unpack, all 30 bits.
  Flit f;
  f.type = FlitType::kSubHead;
  f.route = encode_source_route(std::vector<RouteHop>(10, {7, &sw8}), "x");
  ASSERT_EQ(f.route, (1u << kRouteBits) - 1);
  f.src = 1234;
  f.tree = 7;
  const Flit g = unpack(pack(f, SubHeadLayout::kRouted), SubHeadLayout::kRouted);
  EXPECT_EQ(g.route, f.route);
  EXPECT_EQ(g.src, 1234u);
  EXPECT_EQ(g.tree, 7u);
}

// One packet (or message) from src to dst on an idle network: the closed form of
// systemc/README.md with H = links on the path (S switches: S + 1 links, S + 2 routers).
struct ZeroLoadCase {
  const char* spec;
  uint32_t src, dst, switches;
};

class SwitchZeroLoad : public test::SimTest,
                       public ::testing::WithParamInterface<std::tuple<ZeroLoadCase, bool>> {};

TEST_P(SwitchZeroLoad, MatchesTheClosedForm) {
  const auto [c, message] = GetParam();
  NocConfig cfg;
  Harness h(c.spec, cfg);
  ASSERT_EQ(h.topology().distances_from(c.src)[c.dst], c.switches + 1);
  constexpr uint32_t kFlits = 20;
  std::vector<Flit> flits;
  if (message) {
    flits = test::make_message(1, 0, 2, 10, 0);
    for (Flit& f : flits) {
      f.src = head_field<uint16_t>(c.src, format::flit::kHeadSrc);
      f.dest = head_field<uint16_t>(c.dst, format::flit::kHeadDest);
      f.route = h.net.table_route(c.src, c.dst);
    }
  } else {
    flits = make_packet(1, c.src, c.dst, kFlits);
  }
  h.eps[c.src]->send(flits);
  h.run(5000);
  ASSERT_EQ(h.received[c.dst].size(), kFlits);
  const uint64_t latency = h.received[c.dst].back().cycle - h.sent[c.src].front().cycle;
  EXPECT_EQ(latency, test::zero_load_latency(cfg, c.switches + 1, kFlits));
  EXPECT_EQ(h.received[c.dst].front().flit.route, 0u) << "every hop consumed";
}

INSTANTIATE_TEST_SUITE_P(
    Hops, SwitchZeroLoad,
    ::testing::Combine(::testing::Values(ZeroLoadCase{"fattree:4x1", 0, 3, 1},
                                         ZeroLoadCase{"fattree:4x2", 0, 15, 3},
                                         ZeroLoadCase{"bigraph:4x8", 0, 15, 3},
                                         ZeroLoadCase{"fattree:2x3", 0, 7, 5}),
                       ::testing::Bool()));

// A message whose source route names a port the switch lacks stops with an error naming it.
TEST_F(SwitchSim, BadSourceRouteIsAnError) {
  Harness h("fattree:3x2", NocConfig{});
  std::vector<Flit> msg = test::make_message(1, 0, 1, 4, 0);
  // Node 0's one link takes no bits; its leaf switch reads 3 bits, link 7 of its 6.
  for (Flit& f : msg) f.route = 7;
  h.eps[0]->send(msg);
  EXPECT_THROW(h.run(2000), std::exception);
}

// Saturation with packets and source-routed messages: everything drains, nothing is lost,
// credits come home, no deadlock (the watchdog is on).
class SwitchSaturation : public test::SimTest,
                         public ::testing::WithParamInterface<std::tuple<const char*, bool>> {};

TEST_P(SwitchSaturation, DrainsWithNoFlitLost) {
  const auto [spec, wormhole] = GetParam();
  test::run_and_drain(test::table_routed_saturation(spec, wormhole));
}

INSTANTIATE_TEST_SUITE_P(Networks, SwitchSaturation,
                         ::testing::Combine(::testing::Values("fattree:4x2", "bigraph:4x8"),
                                            ::testing::Bool()),
                         test::TupleParamName());

// Every algorithm the host plans on the network sums exactly, in both element types and both
// flow-control modes.
class SwitchAllReduce
    : public test::SimTest,
      public ::testing::WithParamInterface<
          std::tuple<const char*, const char*, DType, FlowControl>> {};

TEST_P(SwitchAllReduce, SumsExactly) {
  const auto [spec, algorithm, dtype, fc] = GetParam();
  AllReduceOptions o;
  o.topology = spec;
  o.algorithm = algorithm;
  o.bytes = 16 * 1024;
  o.dtype = dtype;
  o.ni.flow_control = fc;
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
  EXPECT_EQ(r.children_slots, 1u);  // the NI has its node's one link: K = 1, no port idle
  EXPECT_GT(r.cycles, r.bound_cycles);
  // Every node has one link (d = 1): the bound is 2 (N - 1) M / (N b).
  const uint64_t n = r.nodes;
  EXPECT_EQ(r.bound_cycles, (2 * (n - 1) * o.bytes + n * 16 - 1) / (n * 16));
}

INSTANTIATE_TEST_SUITE_P(
    FatTree, SwitchAllReduce,
    ::testing::Combine(::testing::Values("fattree:4x2"),
                       ::testing::Values("multitree", "ring", "ring-bi", "dbtree"),
                       ::testing::Values(DType::kInt32, DType::kFp32),
                       ::testing::Values(FlowControl::kMessage, FlowControl::kPacket)),
                         test::TupleParamName());
// hdrm is EFLOPS' algorithm for BiGraph; the host plans it there only.
INSTANTIATE_TEST_SUITE_P(
    BiGraph, SwitchAllReduce,
    ::testing::Combine(::testing::Values("bigraph:4x8"),
                       ::testing::Values("multitree", "ring", "ring-bi", "dbtree", "hdrm"),
                       ::testing::Values(DType::kInt32, DType::kFp32),
                       ::testing::Values(FlowControl::kMessage, FlowControl::kPacket)),
                         test::TupleParamName());

// A 4-level fat-tree: its shortest routes need one VC class (TablesTakeShortestPaths...), and
// its messages' switch paths take 8 hops of 2 bits (4-port switches), which the Route field
// holds: every algorithm sums exactly with both flow controls.
class FourLevelFatTree
    : public test::SimTest,
      public ::testing::WithParamInterface<std::tuple<const char*, FlowControl>> {};

TEST_P(FourLevelFatTree, SumsExactly) {
  const auto [algorithm, fc] = GetParam();
  AllReduceOptions o;
  o.topology = "fattree:2x4";
  o.algorithm = algorithm;
  o.bytes = 16 * 1024;
  o.ni.flow_control = fc;
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
}

INSTANTIATE_TEST_SUITE_P(
    Algorithms, FourLevelFatTree,
    ::testing::Combine(::testing::Values("multitree", "ring", "ring-bi", "dbtree"),
                       ::testing::Values(FlowControl::kMessage, FlowControl::kPacket)),
    test::TupleParamName());

TEST_F(SwitchSim, FourLevelFatTreeSaturationDrains) {
  test::run_and_drain(test::table_routed_saturation("fattree:2x4", false));
}

// A run of `o` is refused as bad input, with every one of `parts` in its message; `accepted`
// fails the test (fatally: wrap the call in ASSERT_NO_FATAL_FAILURE) otherwise. A refused run
// stops before elaboration, so the test may run another afterwards.
void expect_refused(const AllReduceOptions& o, const char* accepted,
                    std::initializer_list<const char*> parts) {
  try {
    run_allreduce(o);
    FAIL() << accepted;
  } catch (const InputError& e) {
    for (const char* part : parts) EXPECT_THAT(e.what(), ::testing::HasSubstr(part));
  }
}

// A 5-level fat-tree of 6-port switches: MultiTree's switch paths cross up to 13 switches of
// 3 bits each (2 at the top), more than the Route field's 30 bits, so its messages are
// refused, naming the transfer and the limit; packets follow the tables and run.
TEST_F(SwitchSim, RoutesLongerThanTheRouteFieldAreRefused) {
  AllReduceOptions o;
  o.topology = "fattree:3x5";
  o.bytes = 4 * 1024;
  ASSERT_NO_FATAL_FAILURE(
      expect_refused(o, "routes of more than 30 bits were accepted",
                     {"a route through", "a head flit's source route holds 30"}));
  o.ni.flow_control = FlowControl::kPacket;  // packets follow the tables: no Route field
  EXPECT_TRUE(run_allreduce(o).verified);
}

// A switch of more than 32 ports: the VC allocator's 128-bit masks hold 4 VCs of 32 ports or 2
// VCs of 64, so it runs with 2 VCs and is refused with 4, naming the switch.
TEST_F(SwitchSim, SwitchesOfMoreThan32PortsRunWithTwoVcs) {
  AllReduceOptions o;
  o.topology = "bigraph:1x33";  // two switches of 33 nodes and the link between them
  o.bytes = 4 * 1024;
  ASSERT_NO_FATAL_FAILURE(expect_refused(o, "34-port switches were accepted with 4 VCs",
                                         {"switch 0 has 34 ports", "with 2 VCs 64"}));
  o.noc.vcs = 2;  // (the refused run stopped before elaboration; this one may elaborate)
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
}

// A topology file with switches and links of multiplicity 2 (k parallel links, each a port of
// its own): node 0 hangs on s0 by two links, s0 and s1 are joined by two.
std::string write_two_switch_file() {
  return test::write_temp_file("two_switches.json", R"({"nodes": [0, 1, 2, 3, 4, 5, 6, 7],
    "switches": [0, 1], "links": [
    {"a": "n0", "b": "s0", "width": 2}, {"a": "n1", "b": "s0"}, {"a": "n2", "b": "s0"},
    {"a": "n3", "b": "s0"}, {"a": "n4", "b": "s1"}, {"a": "n5", "b": "s1"},
    {"a": "n6", "b": "s1"}, {"a": "n7", "b": "s1"}, {"a": "s0", "b": "s1", "width": 2}]})");
}

TEST_F(SwitchSim, FileWithParallelLinksGetsAPortPerLink) {
  const Topology t = parse_topology("file:" + write_two_switch_file());
  Network net("network", t, NocConfig{});
  EXPECT_EQ(net.routers(), 10u);
  EXPECT_EQ(net.router(8).ports(), 7u);  // s0: 2 + 3 node links, 2 to s1
  EXPECT_TRUE(net.router(0).has_port(1));
  EXPECT_TRUE(net.router(0).has_port(2));  // node 0's second link
  std::set<uint8_t> to_s1;
  for (uint8_t p = 0; p < net.router(8).ports(); ++p) {
    if (net.router(8).neighbour(p) == 9) to_s1.insert(p);
  }
  EXPECT_EQ(to_s1.size(), 2u);
}

class SwitchFileAllReduce : public test::SimTest,
                            public ::testing::WithParamInterface<std::tuple<const char*, FlowControl>> {};

TEST_P(SwitchFileAllReduce, SumsExactly) {
  const auto [algorithm, fc] = GetParam();
  AllReduceOptions o;
  o.topology = "file:" + write_two_switch_file();
  o.algorithm = algorithm;
  o.bytes = 16 * 1024;
  o.ni.flow_control = fc;
  const AllReduceResult r = run_allreduce(o);
  EXPECT_TRUE(r.verified) << r.error;
}

INSTANTIATE_TEST_SUITE_P(Algorithms, SwitchFileAllReduce,
                         ::testing::Combine(::testing::Values("multitree", "ring", "dbtree"),
                                            ::testing::Values(FlowControl::kMessage,
                                                              FlowControl::kPacket)),
                         test::TupleParamName());

}  // namespace
}  // namespace mt::noc
