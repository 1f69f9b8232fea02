// Routers with K NI ports (NocConfig::ni_ports): node 5 of torus:4x4 injects and ejects four
// messages at once at full rate, normal packets eject on the port of the link they arrive by,
// a message naming a missing ejection port is reported, bad K is rejected, the zero-load
// latency holds from any local port, unbound local ports fail elaboration, and saturated
// networks with K ports deliver everything and drain.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "common/error.hpp"
#include "sim_test_util.hpp"
#include "stress_util.hpp"

namespace mt::noc {
namespace {

using test::Harness;
using test::make_message;
using ::testing::HasSubstr;
using LocalPortsSim = test::SimTest;

NocConfig with_ports(uint32_t k) {
  NocConfig cfg;
  cfg.ni_ports = k;
  return cfg;
}

// A message whose head names ejection port `eject` at the neighbour.
std::vector<Flit> message_to(uint64_t id, uint8_t next, uint8_t eject, uint32_t subpackets,
                             uint32_t sp) {
  std::vector<Flit> m = make_message(id, next, subpackets, sp);
  for (Flit& f : m) f.set_eject(eject);
  return m;
}

// Flits seen per cycle at node n (all its NI ports).
std::map<uint64_t, uint32_t> per_cycle(const std::vector<test::Seen>& seen) {
  std::map<uint64_t, uint32_t> count;
  for (const test::Seen& s : seen) ++count[s.cycle];
  return count;
}

// Node 5 at (1,1) and its neighbours: the port toward each and the port back.
struct Link {
  uint32_t node;
  uint8_t out;   // router 5's port toward it
  uint8_t back;  // its port toward router 5
};
constexpr Link kLinks[] = {{1, kPortYMinus, kPortYPlus},
                           {9, kPortYPlus, kPortYMinus},
                           {4, kPortXMinus, kPortXPlus},
                           {6, kPortXPlus, kPortXMinus}};

constexpr uint32_t kSubpackets = 10, kSp = 16, kFlits = kSubpackets * kSp;

TEST_F(LocalPortsSim, FourMessagesLeaveOneNodeAtFullRate) {
  const NocConfig cfg = with_ports(4);
  Harness h("torus:4x4", cfg);
  // Endpoint i of node 5 sends to neighbour kLinks[i], asking for ejection port 3 - i there.
  for (uint32_t i = 0; i < 4; ++i) {
    h.ep(5, i).send(message_to(10 + i, kLinks[i].out, local_port(3 - i), kSubpackets, kSp));
  }
  h.run(1500);
  ASSERT_EQ(h.sent[5].size(), 4 * kFlits);
  const uint64_t head_sent = h.sent[5].front().cycle;
  // Node 5 injects 4 flits per cycle, one per NI port, for kFlits cycles.
  const auto sends = per_cycle(h.sent[5]);
  ASSERT_EQ(sends.size(), kFlits);
  for (const auto& [cycle, n] : sends) {
    EXPECT_GE(cycle, head_sent);
    EXPECT_LT(cycle, head_sent + kFlits);
    EXPECT_EQ(n, 4u) << "cycle " << cycle;
  }
  const uint64_t tail_due = head_sent + test::zero_load_latency(cfg, 1, kFlits);
  for (uint32_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(port_name(kLinks[i].out));
    EXPECT_EQ(h.net.flits_out(5, kLinks[i].out), kFlits) << "one flit per cycle per link";
    const auto& got = h.received[kLinks[i].node];
    ASSERT_EQ(got.size(), kFlits);
    for (uint32_t f = 0; f < kFlits; ++f) {
      EXPECT_EQ(got[f].flit.packet, 10u + i);
      EXPECT_EQ(got[f].flit.index, f);
      // The endpoint on the ejection port the sender named got it, one flit per cycle.
      EXPECT_EQ(got[f].port, 3 - i) << f;
      EXPECT_EQ(got[f].cycle, tail_due - (kFlits - 1) + f) << f;
    }
    EXPECT_EQ(got.front().flit.next, local_port(3 - i)) << "swapped at the source";
    EXPECT_EQ(got.front().flit.eject, kLinks[i].out);
    EXPECT_EQ(h.net.flits_out(kLinks[i].node, local_port(3 - i)), kFlits);
  }
}

TEST_F(LocalPortsSim, OneNodeEjectsFourMessagesAtOnce) {
  const NocConfig cfg = with_ports(4);
  Harness h("torus:4x4", cfg);
  // Neighbour kLinks[i] sends to node 5 into its ejection port i.
  for (uint32_t i = 0; i < 4; ++i) {
    h.eps[kLinks[i].node]->send(
        message_to(20 + i, kLinks[i].back, local_port(i), kSubpackets, kSp));
  }
  h.run(1500);
  const auto& got = h.received[5];
  ASSERT_EQ(got.size(), 4 * kFlits);
  const uint64_t head_sent = h.sent[kLinks[0].node].front().cycle;
  const uint64_t tail_due = head_sent + test::zero_load_latency(cfg, 1, kFlits);
  const auto arrivals = per_cycle(got);
  ASSERT_EQ(arrivals.size(), kFlits);
  for (const auto& [cycle, n] : arrivals) {
    EXPECT_EQ(n, 4u) << "cycle " << cycle;
    EXPECT_GE(cycle, tail_due - (kFlits - 1));
    EXPECT_LE(cycle, tail_due);
  }
  std::vector<uint32_t> on_port(4, 0);
  for (const test::Seen& s : got) {
    const uint32_t i = static_cast<uint32_t>(s.flit.packet - 20);
    ASSERT_LT(i, 4u);
    EXPECT_EQ(s.port, i) << s.flit.str();
    EXPECT_EQ(s.cycle, tail_due - (kFlits - 1) + s.flit.index) << s.flit.str();
    if (s.flit.index == 0) {
      EXPECT_EQ(s.flit.next, local_port(i));
      EXPECT_EQ(s.flit.eject, kLinks[i].back) << "names the link it came by";
    }
    ++on_port[s.port];
  }
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(on_port[i], kFlits);
    EXPECT_EQ(h.net.flits_out(5, local_port(i)), kFlits);
  }
}

TEST_F(LocalPortsSim, PacketsEjectOnThePortOfTheLinkTheyArriveBy) {
  for (uint32_t k : {1u, 2u, 4u}) {
    SCOPED_TRACE(fmt::format("ni_ports = {}", k));
    test::fresh_simcontext();
    Harness h("torus:4x4", with_ports(k));
    // Last hop into router 5 over y- (from 1), y+ (9 and, a tie to the odd y 1 going -, 13),
    // x- (4) and x+ (6 and, a tie to the odd x 1 going -, 7).
    const std::pair<uint32_t, uint8_t> from[] = {{1, kPortYMinus}, {13, kPortYPlus},
                                                 {9, kPortYPlus},  {4, kPortXMinus},
                                                 {7, kPortXPlus},  {6, kPortXPlus}};
    std::map<uint64_t, uint32_t> expect_port;  // packet -> NI port index at node 5
    for (const auto& [src, in_port] : from) {
      h.eps[src]->send(make_packet(src, src, 5, 3));
      expect_port[src] = (in_port - 1u) % k;
    }
    // Injected at node 5 for node 5: leaves by the port it came in by.
    for (uint32_t i = 0; i < k; ++i) {
      h.ep(5, i).send(make_packet(100 + i, 5, 5, 3));
      expect_port[100 + i] = i;
    }
    h.run(1000);
    ASSERT_EQ(h.received[5].size(), 3 * expect_port.size());
    for (const test::Seen& s : h.received[5]) {
      EXPECT_EQ(s.port, expect_port.at(s.flit.packet)) << s.flit.str();
    }
  }
}

// The error names the router, the port and the flit.
void expect_missing_eject_port(uint32_t k, uint8_t eject) {
  Harness h("torus:4x4", with_ports(k));
  h.eps[5]->send(message_to(1, kPortXPlus, eject, 1, 16));
  try {
    h.run(1000);
    ADD_FAILURE() << "no error";
  } catch (const sc_core::sc_report& e) {
    EXPECT_THAT(e.what(), HasSubstr("router_6"));
    EXPECT_THAT(e.what(), HasSubstr(port_name(eject)));
    EXPECT_THAT(e.what(), HasSubstr("sub-head"));
  }
}

TEST_F(LocalPortsSim, MessageToAMissingEjectionPortIsReported) {
  expect_missing_eject_port(1, local_port(2));
}

TEST_F(LocalPortsSim, MessageToAnEjectionPortAboveKIsReported) {
  expect_missing_eject_port(2, local_port(2));
}

TEST_F(LocalPortsSim, MessageThatWouldLeaveTheNeighbourAgainIsReported) {
  expect_missing_eject_port(1, kPortXPlus);
}

TEST(LocalPortsConfig, NiPortsMustBeOneToFour) {
  for (uint32_t k : {0u, 5u}) {
    NocConfig cfg = with_ports(k);
    try {
      cfg.validate();
      ADD_FAILURE() << "ni_ports = " << k << " accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("ni_ports"));
    }
  }
  for (uint32_t k = 1; k <= 4; ++k) {
    NocConfig cfg = with_ports(k);
    cfg.vcs = 4;
    EXPECT_NO_THROW(cfg.validate());
    EXPECT_THAT(cfg.str(), HasSubstr(fmt::format("{} NI port pair(s)", k)));
  }
}

TEST(LocalPortsConfig, PortCodes) {
  EXPECT_EQ(local_port(0), kPortLocal);
  EXPECT_EQ(local_port(1), 5);
  EXPECT_EQ(local_port(3), 7);
  for (uint32_t i = 0; i < kMaxLocalPorts; ++i) {
    EXPECT_TRUE(is_local_port(local_port(i)));
    EXPECT_EQ(local_index(local_port(i)), i);
  }
  for (uint8_t p = kPortYMinus; p <= kPortXPlus; ++p) EXPECT_FALSE(is_local_port(p));
  EXPECT_FALSE(is_local_port(kMaxPorts));
  EXPECT_STREQ(port_name(local_port(2)), "local2");
  EXPECT_STREQ(port_name(kPortXPlus), "x+");
  EXPECT_STREQ(port_name(kMaxPorts), "?");
}

TEST_F(LocalPortsSim, PortIndexBeyondNiPortsIsAnInputError) {
  Harness h("torus:4x4", with_ports(4));
  EXPECT_THROW(h.net.inject(5, 4), InputError);
  EXPECT_THROW(h.net.eject(5, 4), InputError);
  EXPECT_TRUE(h.net.router(5).has_port(local_port(3)));
  EXPECT_THROW(h.net.flits_out(5, kMaxPorts), std::out_of_range);
  test::fresh_simcontext();
  Harness one("torus:4x4", NocConfig{});
  EXPECT_THROW(one.net.inject(0, 1), InputError);
  EXPECT_FALSE(one.net.router(0).has_port(local_port(1)));
}

TEST_F(LocalPortsSim, ZeroLoadLatencyFromLocalPortTwo) {
  const NocConfig cfg = with_ports(4);
  Harness h("torus:4x4", cfg);
  struct Case {
    uint32_t dest;
    uint32_t eject_index;  // the last hop comes in over y- (10) or x- (1)
  };
  uint64_t id = 1;
  for (const Case c : {Case{10, 0}, Case{1, 2}}) {
    SCOPED_TRACE(c.dest);
    const uint32_t n = 5;
    const size_t sent0 = h.sent[0].size(), recv0 = h.received[c.dest].size();
    h.ep(0, 2).send(make_packet(id++, 0, c.dest, n));
    h.run(1000);
    ASSERT_EQ(h.received[c.dest].size(), recv0 + n);
    EXPECT_EQ(h.sent[0][sent0].port, 2u);
    const uint32_t hops = test::grid_hops(4, 4, true, 0, c.dest);
    const uint64_t tail_due = h.sent[0][sent0].cycle + test::zero_load_latency(cfg, hops, n);
    for (uint32_t f = 0; f < n; ++f) {
      const test::Seen& s = h.received[c.dest][recv0 + f];
      EXPECT_EQ(s.cycle, tail_due - (n - 1) + f) << f;
      EXPECT_EQ(s.port, c.eject_index);
    }
  }
}

// Only NI port 0 of each node is bound.
struct PortZeroOnly {
  explicit PortZeroOnly(const NocConfig& cfg)
      : topo(parse_topology("torus:4x4")), net("network", topo, cfg) {
    for (uint32_t n = 0; n < topo.nodes(); ++n) {
      eps.push_back(std::make_unique<Endpoint>(fmt::format("endpoint_{}", n).c_str(), n, cfg));
      eps.back()->out.bind(net.inject(n));
      net.eject(n).bind(eps.back()->in);
      eps.back()->on_receive = [this, n](const Flit&, uint8_t, uint64_t) { ++received[n]; };
    }
  }
  void run(uint64_t cycles) {
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS));  // 1 GHz
  }
  Topology topo;
  Network net;
  std::vector<std::unique_ptr<Endpoint>> eps;
  std::map<uint32_t, uint64_t> received;
};

TEST_F(LocalPortsSim, UnboundLocalPortsFailElaboration) {
  PortZeroOnly r(with_ports(2));
  try {
    r.run(10);
    ADD_FAILURE() << "elaboration passed with unbound sockets";
  } catch (const sc_core::sc_report& e) {
    EXPECT_THAT(e.what(), HasSubstr("local1"));
  }
}

// Random packets and messages in and out of every NI port, beyond saturation (scoreboard,
// credits home, no deadlock; run_and_drain).
TEST_F(LocalPortsSim, SaturationWithFourNiPortsCutThrough) {
  NocConfig cfg = test::small_buffers(4, false);
  cfg.subpacket_flits = 4;
  cfg.ni_ports = 4;
  test::run_and_drain({"torus:4x4", cfg, 0.4, 1, 8, 3000, 40000, true, 0.3});
}
TEST_F(LocalPortsSim, SaturationWithTwoNiPortsWormholeMesh) {
  NocConfig cfg = test::small_buffers(2, true);
  cfg.subpacket_flits = 4;
  cfg.ni_ports = 2;
  test::run_and_drain({"mesh:4x4", cfg, 0.3, 1, 12, 3000, 40000, true, 0.3});
}

}  // namespace
}  // namespace mt::noc
