// Statistics: percentiles, the packet log's bookkeeping and checks, link loads, the saturation
// rule, the JSON contract of a point, and running jobs in child processes.
#include <csignal>
#include <cstdlib>
#include <numeric>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <systemc>

#include "common/error.hpp"
#include "network/network.hpp"
#include "sim_test_util.hpp"
#include "stats/latency_summary.hpp"
#include "stats/link_load.hpp"
#include "stats/packet_log.hpp"
#include "stats/run_stats.hpp"
#include "traffic/child_process.hpp"
#include "traffic/packet.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;
using LinkLoadSim = test::SimTest;

std::vector<uint64_t> iota(uint64_t from, uint64_t to) {
  std::vector<uint64_t> v(to - from + 1);
  std::iota(v.begin(), v.end(), from);
  return v;
}

TEST(Percentile, NearestRankOnKnownSamples) {
  const std::vector<uint64_t> hundred = iota(1, 100);
  EXPECT_EQ(percentile(hundred, 0.99), 99u);
  EXPECT_EQ(percentile(hundred, 0.5), 50u);
  EXPECT_EQ(percentile(hundred, 1.0), 100u);
  EXPECT_EQ(percentile(hundred, 0.001), 1u);
  EXPECT_EQ(percentile(iota(1, 1000), 0.99), 990u);
  EXPECT_EQ(percentile(iota(1, 101), 0.99), 100u);  // rank ceil(99.99) = 100
  EXPECT_EQ(percentile({42}, 0.99), 42u);
  EXPECT_EQ(percentile({}, 0.99), 0u);
}

TEST(Percentile, SummaryOfUnsortedSamples) {
  std::vector<uint64_t> v = iota(1, 200);
  std::reverse(v.begin(), v.end());
  v.push_back(10000);  // one outlier: the max, not the p99
  const LatencySummary s = summarize(v);
  EXPECT_EQ(s.count, 201u);
  EXPECT_EQ(s.min, 1u);
  EXPECT_EQ(s.max, 10000u);
  EXPECT_EQ(s.p99, 199u);  // rank ceil(198.99) = 199
  EXPECT_NEAR(s.mean, (200.0 * 201 / 2 + 10000) / 201, 1e-9);
  const LatencySummary none = summarize({});
  EXPECT_EQ(none.count, 0u);
  EXPECT_TRUE(to_json(none)["mean"].is_null());
}

// Delivers a packet's flits to `node` in `cycle`, cycle + 1, ...
void deliver(PacketLog& log, uint64_t id, uint32_t src, uint32_t dest, uint32_t len,
             uint32_t node, uint64_t cycle) {
  for (const Flit& f : make_packet(id, src, dest, len)) log.arrive(f, node, cycle++);
}

TEST(PacketLog, WindowCountersAndDrain) {
  PacketLog log(4, 10, 20);
  const uint64_t a = log.create(1, 2, 3, 5);   // warm-up: not measured
  const uint64_t b = log.create(1, 3, 3, 10);  // measured
  const uint64_t c = log.create(2, 0, 3, 19);  // measured
  log.create(0, 1, 3, 20);                     // after the window
  EXPECT_EQ(a % 4, 1u);
  EXPECT_EQ(b % 4, 1u);
  EXPECT_NE(a, b);
  EXPECT_EQ(log.measured_created(), 2u);
  EXPECT_EQ(log.flits_created_in_window(), 6u);
  EXPECT_EQ(log.waiting_at_sources(), 4u);
  EXPECT_EQ(log.flits_in_system(), 12u);
  log.head_sent(a, 6);
  log.head_sent(b, 11);
  log.head_sent(c, 20);
  EXPECT_EQ(log.waiting_at_sources(), 1u);
  deliver(log, a, 1, 2, 3, 2, 9);  // ejected cycles 9, 10, 11: two in the window
  EXPECT_EQ(log.flits_ejected_in_window(), 2u);
  EXPECT_EQ(log.flits_in_system(), 9u);
  EXPECT_EQ(log.record(a).arrived, 11u);
  int drained = 0;
  log.close_window([&] { ++drained; });
  deliver(log, b, 1, 3, 3, 3, 30);
  EXPECT_EQ(drained, 0);
  EXPECT_FALSE(log.drained());
  deliver(log, c, 2, 0, 3, 0, 40);
  EXPECT_EQ(drained, 1);
  EXPECT_TRUE(log.drained());
  EXPECT_EQ(log.measured_arrived(), 2u);
  EXPECT_EQ(log.record(c).arrived, 42u);
  EXPECT_EQ(log.record(c).head_sent, 20u);
  EXPECT_EQ(log.error_count(), 0u) << log.errors().front();
}

TEST(PacketLog, CatchesMisroutedReorderedAndCorruptedFlits) {
  PacketLog log(4, 0, 100);
  const uint64_t a = log.create(0, 1, 2, 0);
  log.head_sent(a, 1);
  std::vector<Flit> f = make_packet(a, 0, 1, 2);
  log.arrive(f[1], 1, 5);  // tail before head
  EXPECT_GE(log.error_count(), 1u);
  EXPECT_THAT(log.errors().front(), HasSubstr("flit 1"));

  PacketLog log2(4, 0, 100);
  const uint64_t b = log2.create(0, 1, 1, 0);
  log2.head_sent(b, 1);
  log2.arrive(make_packet(b, 0, 1, 1)[0], 2, 5);  // wrong node
  EXPECT_THAT(log2.errors().front(), HasSubstr("arrived here"));

  PacketLog log3(4, 0, 100);
  const uint64_t c = log3.create(0, 1, 1, 0);
  log3.head_sent(c, 1);
  Flit bad = make_packet(c, 0, 1, 1)[0];
  bad.data[2] ^= 1;
  log3.arrive(bad, 1, 5);
  EXPECT_THAT(log3.errors().front(), HasSubstr("corrupted"));

  PacketLog log4(4, 0, 100);
  Flit stray = make_packet(99, 0, 1, 1)[0];
  log4.arrive(stray, 1, 5);
  EXPECT_THAT(log4.errors().front(), HasSubstr("unknown packet"));
}

// Grid ports from coordinates: the port each link leaves by leads to the neighbour that
// direction names (a ring has no y ports; a mesh edge has no link out).
TEST(LinkLoad, GridPortsFollowTheGeometry) {
  for (const Topology& t : {make_torus(4, 4), make_mesh(2, 2), make_ring(4), make_torus(2, 3)}) {
    const PortLayout layout(t, 1);
    for (uint32_t l = 0; l < t.links().size(); ++l) {
      const uint32_t a = t.links()[l].src, b = t.links()[l].dst;
      const uint8_t p = layout.out_port(l);
      const uint32_t w = t.width(), h = t.height(), x = t.x_of(a), y = t.y_of(a);
      const uint32_t expect = p == kPortXPlus    ? y * w + (x + 1) % w
                              : p == kPortXMinus ? y * w + (x + w - 1) % w
                              : p == kPortYPlus  ? ((y + 1) % h) * w + x
                                                 : ((y + h - 1) % h) * w + x;
      EXPECT_EQ(b, expect) << t.spec() << " link " << l << " port " << port_name(p);
      EXPECT_EQ(layout.neighbours(a)[p], b);
      EXPECT_EQ(layout.neighbours(b)[layout.in_port(l)], a) << "enters b by its port to a";
    }
  }
  EXPECT_EQ(PortLayout(make_mesh(2, 2), 1).neighbours(0)[kPortXMinus], kNoNeighbour);
  EXPECT_EQ(PortLayout(make_ring(4), 1).neighbours(0)[kPortYPlus], kNoNeighbour);
}

TEST_F(LinkLoadSim, LoadsPerDirectedLink) {
  const Topology mesh = make_mesh(2, 2);
  Network net("network", mesh, NocConfig{});
  std::vector<uint64_t> before(mesh.links().size(), 0), after(before);
  after[mesh.first_link(0, 1)] = 50;
  after[mesh.first_link(3, 1)] = 100;
  const std::vector<LinkLoad> loads = link_loads(net, before, after, 100);
  ASSERT_EQ(loads.size(), 8u);  // a 2x2 mesh has 4 physical links, 8 directed
  for (const LinkLoad& l : loads) {
    if (l.router == 0 && l.to == 1) {
      EXPECT_EQ(l.port, "x+");
      EXPECT_DOUBLE_EQ(l.utilisation, 0.5);
    } else if (l.router == 3 && l.to == 1) {
      EXPECT_EQ(l.port, "y-");
      EXPECT_DOUBLE_EQ(l.utilisation, 1.0);
    } else {
      EXPECT_EQ(l.flits, 0u);
    }
  }
  EXPECT_EQ(link_flits(net), before);  // nothing ran
  EXPECT_THROW(link_loads(net, before, std::vector<uint64_t>(3), 10), std::invalid_argument);
}

TEST(RunStats, SaturationRule) {
  // 32000 flits offered, ~5000 in the system at each end (a loaded 8x8 torus): the allowance
  // is 4 * sqrt(4 * 10000) + 320 = 1120 flits.
  EXPECT_FALSE(backlog_grows({32000, 31000, 5000, 5000}, 4));
  EXPECT_TRUE(backlog_grows({32000, 30800, 5000, 5000}, 4));
  // A light load: 640 flits offered, 54 in the system; boundary noise of 60 flits is no
  // saturation (allowance 4 * sqrt(4 * 108) + 6.4 = 89.5).
  EXPECT_FALSE(backlog_grows({640, 580, 54, 54}, 4));
  EXPECT_TRUE(backlog_grows({640, 540, 54, 54}, 4));
  EXPECT_FALSE(backlog_grows({640, 700, 54, 0}, 4));  // accepted more: draining

  const FlowBalance fine{32000, 31900, 5000, 5100};
  std::vector<FlowBalance> dests(64, {500, 498, 80, 82});
  EXPECT_EQ(saturation_reason(true, fine, dests, 4), "");
  EXPECT_THAT(saturation_reason(false, fine, dests, 4), HasSubstr("drain timeout"));
  EXPECT_THAT(saturation_reason(true, {32000, 30000, 5000, 7000}, dests, 4),
              HasSubstr("undelivered flits grew by 2000"));
  // A hotspot: node 9 takes 600 flits more than it can eject, lost in the total's noise.
  dests[9] = {4600, 4000, 700, 1300};
  EXPECT_THAT(saturation_reason(true, fine, dests, 4), HasSubstr("node 9 grew by 600"));
}

TEST(RunStats, JsonContractAndRoundTrip) {
  RunStats s;
  s.offered = 0.1;
  s.accepted = 0.0987;
  s.injected = 0.0991;
  s.packets = 3;
  s.latency = summarize({300, 310, 320});
  s.network_latency = summarize({299, 309, 319});
  s.drained = true;
  s.cycles = 7000;
  s.routers = 16;
  s.links.push_back({0, "x+", 1, 40, 0.01});
  s.max_link_utilisation = 0.01;
  s.simulation_seconds = 1.5;
  const nlohmann::json j = to_json(s);
  for (const char* key : {"offered", "accepted", "latency_mean", "latency_p99", "latency_min",
                          "latency_max", "packets", "max_link_utilisation", "saturated"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["latency_min"], 300);
  EXPECT_EQ(j["latency_max"], 320);
  EXPECT_FALSE(j.contains("simulation_seconds"));  // wall time would break determinism
  EXPECT_EQ(j["links"][0]["port"], "x+");
  const RunStats back = run_stats_from_json(to_json(s, true));
  EXPECT_EQ(to_json(back, true), to_json(s, true));
  EXPECT_DOUBLE_EQ(back.simulation_seconds, 1.5);
  EXPECT_THAT(points_table({s}), HasSubstr("310.0"));
  EXPECT_THAT(links_table(s), HasSubstr("x+"));

  RunStats empty;
  const nlohmann::json e = to_json(empty);
  EXPECT_TRUE(e["latency_mean"].is_null());
  EXPECT_EQ(run_stats_from_json(e).latency.count, 0u);
}

TEST(ChildProcess, ResultsInJobOrderWithStatuses) {
  std::vector<std::function<std::string()>> jobs;
  for (int i = 0; i < 5; ++i) jobs.push_back([i] { return std::string(100000 + i, static_cast<char>('a' + i)); });
  jobs.push_back([]() -> std::string { throw InputError("bad rate"); });
  jobs.push_back([]() -> std::string { throw std::logic_error("bug"); });
  jobs.push_back([]() -> std::string { std::abort(); });
  const std::vector<ChildResult> r = run_in_children(jobs, 3);
  ASSERT_EQ(r.size(), 8u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(r[i].ok());
    EXPECT_EQ(r[i].text, std::string(100000 + i, static_cast<char>('a' + i)));  // beyond a pipe's buffer
  }
  EXPECT_EQ(r[5].status, ChildResult::Status::kInputError);
  EXPECT_EQ(r[5].text, "bad rate");
  EXPECT_EQ(r[6].status, ChildResult::Status::kInternalError);
  EXPECT_EQ(r[6].text, "bug");
  EXPECT_EQ(r[7].status, ChildResult::Status::kInternalError);
  EXPECT_THAT(r[7].text, HasSubstr("signal"));
}

}  // namespace
}  // namespace mt::noc
