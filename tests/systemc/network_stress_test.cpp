// Saturation: uniform random traffic at and beyond saturation with small buffers. A scoreboard
// proves every flit arrives exactly once, at its destination, in order within its packet and
// unchanged; buffers never exceed their depth; every credit comes home; the networks drain
// (no deadlock) and the watchdog names the stuck VC when a sink never returns credits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stress_util.hpp"

namespace mt::noc {
namespace {

using test::Harness;
using test::Load;
using test::RandomTraffic;
using test::run_and_drain;
using test::small_buffers;
using NetworkStress = test::SimTest;

// Uniform traffic offered at about 1.3 flits/node/cycle (packets of 1..8 flits, mean 4.5):
// more than the network accepts (run_and_drain checks that packets queue at the sources).
TEST_F(NetworkStress, SaturationTorus4x4TwoVcsCutThrough) {
  run_and_drain({"torus:4x4", small_buffers(2, false), 0.3, 1, 8, 4000, 40000});
}
TEST_F(NetworkStress, SaturationTorus4x4FourVcsCutThrough) {
  run_and_drain({"torus:4x4", small_buffers(4, false), 0.3, 1, 8, 4000, 40000});
}
TEST_F(NetworkStress, SaturationTorus4x4TwoVcsWormhole) {
  // Packets up to 12 flits, longer than a buffer: only wormhole can spread them over routers.
  run_and_drain({"torus:4x4", small_buffers(2, true), 0.2, 1, 12, 4000, 40000});
}
TEST_F(NetworkStress, SaturationTorus4x4FourVcsWormhole) {
  run_and_drain({"torus:4x4", small_buffers(4, true), 0.2, 1, 12, 4000, 40000});
}

// Deadlock freedom: long packets (a full buffer under VCT, longer under wormhole) and the
// fewest VCs (one per dateline class) well beyond saturation, then a bounded drain.
TEST_F(NetworkStress, DrainsTorus8x8BeyondSaturation) {
  run_and_drain({"torus:8x8", small_buffers(2, false), 0.25, 8, 8, 2000, 60000});
}
TEST_F(NetworkStress, DrainsTorus8x8WormholeBeyondSaturation) {
  run_and_drain({"torus:8x8", small_buffers(2, true), 0.1, 4, 20, 2000, 60000});
}
TEST_F(NetworkStress, DrainsRing8BeyondSaturation) {
  // A ring deadlocks at once without the dateline.
  run_and_drain({"ring:8", small_buffers(2, true), 0.3, 4, 20, 3000, 60000});
}
TEST_F(NetworkStress, DrainsMesh4x4BeyondSaturation) {
  run_and_drain({"mesh:4x4", small_buffers(2, false), 0.3, 1, 8, 3000, 40000});
}
TEST_F(NetworkStress, DrainsTorus4x4WithPaperLatencies) {
  // Table III: 150-cycle links and credits, 318-flit buffers, 4 VCs, 256-byte packets.
  run_and_drain({"torus:4x4", NocConfig{}, 0.1, 17, 17, 3000, 40000, false});
}

// All-reduce messages to random neighbours mixed with normal packets, sharing VCs.
TEST_F(NetworkStress, MessagesMixedWithPacketsTorus4x4) {
  NocConfig cfg = small_buffers(4, false);
  cfg.subpacket_flits = 4;
  run_and_drain({"torus:4x4", cfg, 0.25, 1, 8, 4000, 40000, true, 0.3});
}
TEST_F(NetworkStress, MessagesMixedWithPacketsMesh4x4Wormhole) {
  NocConfig cfg = small_buffers(2, true);
  cfg.subpacket_flits = 4;
  run_and_drain({"mesh:4x4", cfg, 0.2, 1, 12, 4000, 40000, true, 0.3});
}

// A node whose NI never returns credits: once router 5's ejection credits are spent, its
// input VCs stall and the watchdog reports them and stops the simulation instead of hanging.
class StuckSink : public sc_core::sc_module {
 public:
  explicit StuckSink(sc_core::sc_module_name name) : sc_module(name), in("in") {
    in.register_nb_transport_fw(this, &StuckSink::take);
  }
  FlitTargetSocket<StuckSink> in;
  uint64_t flits = 0;

 private:
  tlm::tlm_sync_enum take(Flit&, tlm::tlm_phase&, sc_core::sc_time&) {
    ++flits;
    return tlm::TLM_ACCEPTED;
  }
};

// Drives node 5's injection port to nothing (its NI only ever receives here).
class Silent : public sc_core::sc_module {
 public:
  explicit Silent(sc_core::sc_module_name name) : sc_module(name), out("out") {
    out.register_nb_transport_bw(this, &Silent::credit);
  }
  FlitInitiatorSocket<Silent> out;

 private:
  tlm::tlm_sync_enum credit(Flit&, tlm::tlm_phase&, sc_core::sc_time&) {
    return tlm::TLM_ACCEPTED;
  }
};

TEST_F(NetworkStress, WatchdogReportsAStuckSink) {
  NocConfig cfg = small_buffers(2, false);
  const Topology topo = parse_topology("torus:4x4");
  Network net("network", topo, cfg);
  std::vector<std::unique_ptr<Endpoint>> eps;
  StuckSink sink("sink");
  Silent silent("silent");
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    if (n == 5) {
      silent.out.bind(net.inject(5));
      net.eject(5).bind(sink.in);
      continue;
    }
    eps.push_back(std::make_unique<Endpoint>(fmt::format("endpoint_{}", n).c_str(), n, cfg));
    eps.back()->out.bind(net.inject(n));
    net.eject(n).bind(eps.back()->in);
  }
  net.set_watchdog(500);
  // Node 4 sends 6 packets of 8 flits to node 5: two fill the sink's two 8-flit "buffers".
  for (uint64_t p = 0; p < 6; ++p) eps[4]->send(make_packet(p, 4, 5, 8));
  sc_core::sc_start(sc_core::sc_time(100000, sc_core::SC_NS));
  ASSERT_TRUE(net.stalled());
  EXPECT_EQ(sink.flits, 16u);
  const std::string& report = net.stall_report();
  EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(3000, sc_core::SC_NS))
      << "stops soon after the stall";
  EXPECT_THAT(report, ::testing::HasSubstr("router 5 (1,1) in x- vc"));
  EXPECT_THAT(report, ::testing::HasSubstr("waiting for an output VC on local"));
  EXPECT_THAT(report, ::testing::HasSubstr("credits 0/8"));
}

TEST_F(NetworkStress, WatchdogStaysQuietWhileTrafficFlows) {
  Harness h("torus:4x4", small_buffers(2, false));
  h.net.set_watchdog(300);
  RandomTraffic traffic("traffic", h, 0.1, 1, 8, 3000, 3);
  h.run(6000);
  EXPECT_FALSE(h.net.stalled()) << h.net.stall_report();
  EXPECT_EQ(h.total_received(), h.total_sent());
  // Idle again: neither the watchdog nor any router keeps the kernel busy.
  EXPECT_FALSE(sc_core::sc_pending_activity());
}

}  // namespace
}  // namespace mt::noc
