// Endpoint against a scripted router port: one flit per cycle from the cycle after send(),
// round-robin injection VCs, credits (virtual cut-through: a whole packet or sub-packet of
// room before the first flit; wormhole: one credit per flit), and the ejection sink.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using test::make_message;
using EndpointSim = test::SimTest;

// Stands in for a router's local port: records every injected flit with the cycle it becomes
// usable, returns credits and ejects flits when the test says so.
class FakeRouterPort : public sc_core::sc_module {
 public:
  FakeRouterPort(sc_core::sc_module_name name, const NocConfig& cfg)
      : sc_module(name), in("in"), out("out"), cfg_(cfg) {
    in.register_nb_transport_fw(this, &FakeRouterPort::take);
    out.register_nb_transport_bw(this, &FakeRouterPort::credit);
  }
  FlitTargetSocket<FakeRouterPort> in;      // the endpoint's `out` binds here
  FlitInitiatorSocket<FakeRouterPort> out;  // binds to the endpoint's `in`

  std::vector<test::Seen> got;              // injected flits, cycle usable here
  std::vector<std::pair<uint8_t, uint64_t>> credits;  // (vc, cycle usable here)

  // Frees one slot of VC vc now (the credit reaches the endpoint local_latency later).
  void return_credit(uint8_t vc) {
    Flit c;
    c.vc = vc;
    tlm::tlm_phase phase = CREDIT;
    sc_core::sc_time delay = cycles(cfg_.local_latency);
    in->nb_transport_bw(c, phase, delay);
  }
  void eject(Flit f) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = cycles(cfg_.local_latency);
    out->nb_transport_fw(f, phase, delay);
  }

 private:
  sc_core::sc_time cycles(uint64_t n) const {
    return sc_core::sc_time(static_cast<double>(n * cfg_.clock_ps), sc_core::SC_PS);
  }
  uint64_t now() const {
    return sc_core::sc_time_stamp().value() / cycles(1).value();
  }
  tlm::tlm_sync_enum take(Flit& f, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    EXPECT_EQ(phase, tlm::BEGIN_REQ);
    got.push_back({f, now() + delay.value() / cycles(1).value()});
    return tlm::TLM_ACCEPTED;
  }
  tlm::tlm_sync_enum credit(Flit& c, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    EXPECT_EQ(phase, CREDIT);
    credits.push_back({c.vc, now() + delay.value() / cycles(1).value()});
    return tlm::TLM_ACCEPTED;
  }
  NocConfig cfg_;
};

struct Rig {
  explicit Rig(const NocConfig& c) : cfg(c), ep("endpoint", 3, c), port("port", c) {
    ep.out.bind(port.in);
    port.out.bind(ep.in);
    ep.on_send = [this](const Flit& f, uint64_t cycle) { sent.push_back({f, cycle}); };
    ep.on_receive = [this](const Flit& f, uint8_t vc, uint64_t cycle) {
      received.push_back({f, cycle});
      received.back().flit.vc = vc;
    };
  }
  // Runs until the start of cycle `c`.
  void run_to(uint64_t c) {
    const uint64_t now = ep.cycle();
    if (c > now) {
      sc_core::sc_start(
          sc_core::sc_time(static_cast<double>((c - now) * cfg.clock_ps), sc_core::SC_PS));
    }
  }
  NocConfig cfg;
  Endpoint ep;
  FakeRouterPort port;
  std::vector<test::Seen> sent, received;
};

TEST_F(EndpointSim, SendsOneFlitPerCycleFromTheNextCycleRoundRobinOverVcs) {
  NocConfig cfg;
  cfg.local_latency = 2;
  Rig r(cfg);
  r.ep.send(make_packet(1, 3, 0, 3));
  r.ep.send(make_packet(2, 3, 0, 1));
  r.ep.send(make_packet(3, 3, 0, 2));
  r.run_to(10);
  r.ep.send(make_packet(4, 3, 0, 2));  // during cycle 10: leaves from cycle 11
  r.run_to(40);
  ASSERT_EQ(r.sent.size(), 8u);
  const uint64_t want_cycle[] = {1, 2, 3, 4, 5, 6, 11, 12};
  const uint8_t want_vc[] = {0, 0, 0, 1, 2, 2, 3, 3};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(r.sent[i].cycle, want_cycle[i]) << i;
    EXPECT_EQ(r.sent[i].flit.vc, want_vc[i]) << i;
    EXPECT_EQ(r.port.got[i].cycle, want_cycle[i] + 2) << "usable local_latency later";
    EXPECT_EQ(r.port.got[i].flit.vc, want_vc[i]);
  }
  EXPECT_EQ(r.ep.flits_sent(), 8u);
  EXPECT_EQ(r.ep.credits(0), cfg.vc_depth - 3);
  EXPECT_FALSE(sc_core::sc_pending_activity()) << "an idle endpoint schedules nothing";
}

NocConfig tiny(bool wormhole) {
  NocConfig cfg;
  cfg.vcs = 2;
  cfg.vc_depth = 4;
  cfg.subpacket_flits = 4;
  cfg.wormhole = wormhole;
  return cfg;
}

TEST_F(EndpointSim, CutThroughWaitsForRoomForTheWholePacket) {
  Rig r(tiny(false));
  for (uint64_t p = 1; p <= 3; ++p) r.ep.send(make_packet(p, 3, 0, 4));
  r.run_to(20);
  ASSERT_EQ(r.sent.size(), 8u) << "P1 on VC 0 and P2 on VC 1 spend every credit";
  r.port.return_credit(0);  // VC 0: 1 credit from cycle 21
  r.run_to(30);
  EXPECT_EQ(r.sent.size(), 8u) << "1 credit is not room for 4 flits";
  for (int i = 0; i < 3; ++i) r.port.return_credit(1);  // VC 1: 3 credits from cycle 31
  r.run_to(40);
  EXPECT_EQ(r.sent.size(), 8u);
  r.port.return_credit(1);  // VC 1: 4 credits from cycle 41
  r.run_to(60);
  ASSERT_EQ(r.sent.size(), 12u);
  for (size_t i = 8; i < 12; ++i) {
    EXPECT_EQ(r.sent[i].cycle, 41 + (i - 8));
    EXPECT_EQ(r.sent[i].flit.vc, 1) << "the VC with room, though round robin is at VC 0";
  }
}

TEST_F(EndpointSim, WormholeNeedsOneCreditPerFlit) {
  Rig r(tiny(true));
  for (uint64_t p = 1; p <= 3; ++p) r.ep.send(make_packet(p, 3, 0, 4));
  r.run_to(20);
  ASSERT_EQ(r.sent.size(), 8u);
  r.port.return_credit(0);
  r.run_to(30);
  ASSERT_EQ(r.sent.size(), 9u);
  EXPECT_EQ(r.sent[8].cycle, 21u);
  EXPECT_EQ(r.sent[8].flit.vc, 0);
  r.port.return_credit(1);  // the packet holds VC 0: a VC 1 credit does not help
  r.run_to(40);
  EXPECT_EQ(r.sent.size(), 9u);
  r.port.return_credit(0);
  r.run_to(50);
  ASSERT_EQ(r.sent.size(), 10u);
  EXPECT_EQ(r.sent[9].cycle, 41u);
}

TEST_F(EndpointSim, ReservesRoomPerSubPacket) {
  NocConfig cfg = tiny(false);
  cfg.vc_depth = 8;
  Rig r(cfg);
  r.ep.send(make_message(1, kPortXPlus, 3, 4));  // 12 flits, sub-packets of 4
  r.run_to(20);
  ASSERT_EQ(r.sent.size(), 8u) << "two sub-packets fit in 8 credits";
  for (int i = 0; i < 3; ++i) r.port.return_credit(0);
  r.run_to(30);
  EXPECT_EQ(r.sent.size(), 8u) << "the third sub-packet needs 4 credits before its first flit";
  r.port.return_credit(0);
  r.run_to(40);
  ASSERT_EQ(r.sent.size(), 12u);
  EXPECT_EQ(r.sent[8].cycle, 31u);
  EXPECT_EQ(r.sent[8].flit.type, FlitType::kSubBody);
  for (const auto& s : r.sent) EXPECT_EQ(s.flit.vc, 0) << "one VC for the whole message";
}

TEST_F(EndpointSim, SinksArrivalsAndReturnsCredits) {
  NocConfig cfg;
  cfg.local_latency = 3;
  Rig r(cfg);
  r.run_to(5);
  std::vector<Flit> p = make_packet(9, 0, 3, 2);
  p[0].vc = 2;
  p[1].vc = 2;
  r.port.eject(p[0]);
  r.run_to(6);
  r.port.eject(p[1]);
  r.run_to(30);
  ASSERT_EQ(r.received.size(), 2u);
  EXPECT_EQ(r.received[0].cycle, 8u);
  EXPECT_EQ(r.received[1].cycle, 9u);
  EXPECT_EQ(r.received[1].flit, p[1]);
  ASSERT_EQ(r.port.credits.size(), 2u);
  EXPECT_EQ(r.port.credits[0], std::make_pair(uint8_t{2}, uint64_t{11}));
  EXPECT_EQ(r.port.credits[1], std::make_pair(uint8_t{2}, uint64_t{12}));
  EXPECT_EQ(r.ep.flits_received(), 2u);
  EXPECT_FALSE(sc_core::sc_pending_activity());
}

}  // namespace
}  // namespace mt::noc
