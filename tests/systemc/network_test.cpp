// Network and endpoint: exact zero-load latency (systemc/README.md timing contract) on tori,
// meshes and rings, port wiring, dateline VC classes, all-reduce messages, idle skipping,
// direct calls, determinism and input errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "common/error.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using test::Harness;
using test::make_message;
using NetworkSim = test::SimTest;

struct Pair {
  uint32_t src, dest;
};

// The output port the first hop leaves by, from coordinates (the shorter way round; a tie
// goes + to an even destination coordinate, - to an odd one; in a dimension of size 2 the
// single link is + toward the larger coordinate).
uint8_t first_port(const Topology& t, uint32_t src, uint32_t dest) {
  auto along = [&](uint32_t a, uint32_t b, uint32_t size, uint8_t minus, uint8_t plus) {
    if (size == 2) return b > a ? plus : minus;
    if (!t.wraps()) return b > a ? plus : minus;
    const uint32_t fwd = (b + size - a) % size;
    if (2 * fwd == size) return b % 2 == 0 ? plus : minus;
    return fwd <= size - fwd ? plus : minus;
  };
  if (t.x_of(src) != t.x_of(dest)) {
    return along(t.x_of(src), t.x_of(dest), t.width(), kPortXMinus, kPortXPlus);
  }
  if (t.y_of(src) != t.y_of(dest)) {
    return along(t.y_of(src), t.y_of(dest), t.height(), kPortYMinus, kPortYPlus);
  }
  return kPortLocal;
}

// Sends each packet alone (the network idle, all credits home) and checks every flit's arrival
// cycle against the closed form, and the first hop's direction.
void check_zero_load(const std::string& spec, const NocConfig& cfg, const std::vector<Pair>& pairs,
                     const std::vector<uint32_t>& lengths) {
  Harness h(spec, cfg);
  const Topology& t = h.topology();
  uint64_t id = 1;
  for (const Pair& p : pairs) {
    for (uint32_t n : lengths) {
      SCOPED_TRACE(fmt::format("{} {} -> {}, {} flits", spec, p.src, p.dest, n));
      const size_t sent0 = h.sent[p.src].size(), recv0 = h.received[p.dest].size();
      const uint8_t port = first_port(t, p.src, p.dest);
      const uint64_t out0 = h.net.flits_out(p.src, port);
      const uint64_t call = h.now();
      h.eps[p.src]->send(make_packet(id, p.src, p.dest, n));
      const uint32_t hops =
          test::grid_hops(t.width(), t.height(), t.wraps(), p.src, p.dest);
      const uint64_t latency = test::zero_load_latency(cfg, hops, n);
      h.run(latency + 2 * cfg.credit_latency + 20);
      ASSERT_EQ(h.received[p.dest].size(), recv0 + n);
      const uint64_t head_sent = h.sent[p.src][sent0].cycle;
      EXPECT_EQ(head_sent, call + 1) << "the endpoint sends from the cycle after send()";
      for (uint32_t i = 0; i < n; ++i) {
        const test::Seen& s = h.received[p.dest][recv0 + i];
        EXPECT_EQ(s.flit.packet, id);
        EXPECT_EQ(s.flit.index, i);
        EXPECT_EQ(h.sent[p.src][sent0 + i].cycle, head_sent + i);
        EXPECT_EQ(s.cycle, head_sent + latency - (n - 1) + i) << "flit " << i;
      }
      EXPECT_EQ(h.received[p.dest][recv0 + n - 1].cycle - head_sent, latency);
      EXPECT_EQ(h.net.flits_out(p.src, port), out0 + n) << "first hop by " << port_name(port);
      ++id;
    }
  }
}

const std::vector<uint32_t> kLengths = {1, 2, 5, 17};

TEST_F(NetworkSim, ZeroLoadTorus4x4) {
  // Wrap-around in X (0->3) and Y (0->12), ties (0->2, 2->0, 0->10 go + to even x; 5->15 goes
  // - to odd x), self, diagonal.
  check_zero_load("torus:4x4", NocConfig{},
                  {{0, 1}, {0, 3}, {0, 12}, {0, 2}, {2, 0}, {0, 10}, {5, 15}, {15, 0}, {6, 6}},
                  kLengths);
}

TEST_F(NetworkSim, ZeroLoadTorus8x8) {
  check_zero_load("torus:8x8", NocConfig{},
                  {{0, 63}, {0, 4}, {4, 0}, {0, 36}, {9, 54}, {7, 56}, {27, 28}}, kLengths);
}

TEST_F(NetworkSim, ZeroLoadMesh4x4) {
  check_zero_load("mesh:4x4", NocConfig{}, {{0, 15}, {15, 0}, {3, 12}, {12, 3}, {5, 6}, {9, 9}},
                  kLengths);
}

TEST_F(NetworkSim, ZeroLoadMesh8x8) {
  check_zero_load("mesh:8x8", NocConfig{}, {{0, 63}, {63, 0}, {7, 56}, {27, 36}}, kLengths);
}

TEST_F(NetworkSim, ZeroLoadRing8) {
  // 0->4 and 4->0 are ties (4 hops either way): both go + (even destinations). 1->6 goes -
  // through the wrap.
  check_zero_load("ring:8", NocConfig{}, {{0, 4}, {4, 0}, {0, 7}, {7, 0}, {2, 5}, {1, 6}},
                  kLengths);
}

TEST_F(NetworkSim, ZeroLoadDimensionsOfSizeTwo) {
  // One link per direction between the two nodes of a dimension of size 2.
  check_zero_load("torus:2x4", NocConfig{}, {{0, 1}, {1, 0}, {0, 7}, {7, 0}, {3, 4}}, {1, 5});
  // (a second network in the same test needs a fresh kernel)
  test::fresh_simcontext();
  check_zero_load("mesh:2x2", NocConfig{}, {{0, 3}, {3, 0}, {1, 2}}, {1, 5});
}

TEST_F(NetworkSim, ZeroLoadNonDefaultPipeline) {
  NocConfig cfg;
  cfg.link_latency = 3;
  cfg.credit_latency = 5;
  cfg.local_latency = 2;
  cfg.rc_delay = 2;
  cfg.va_delay = 1;
  cfg.sa_delay = 2;
  cfg.st_delay = 2;
  cfg.vcs = 2;
  cfg.vc_depth = 32;
  check_zero_load("torus:4x4", cfg, {{0, 1}, {0, 3}, {0, 10}, {5, 15}, {15, 0}, {6, 6}},
                  kLengths);
}

TEST_F(NetworkSim, ZeroLoadWormholeWithPacketsLongerThanABuffer) {
  // Wormhole needs one credit per flit; 8-flit buffers cover the credit loop of 1-cycle links.
  NocConfig cfg;
  cfg.wormhole = true;
  cfg.link_latency = 1;
  cfg.credit_latency = 1;
  cfg.vc_depth = 8;
  cfg.subpacket_flits = 8;
  check_zero_load("torus:4x4", cfg, {{0, 10}, {15, 0}, {5, 6}}, {1, 5, 17, 40});
}

TEST_F(NetworkSim, DatelineClassesOnARing) {
  // ring:8, 4 VCs: class 0 = VCs 0-1, class 1 = VCs 2-3.
  Harness h("ring:8", NocConfig{});
  // 6 -> 1 goes + through the wrap-around link 7 -> 0: class 1 from its first hop (into 7),
  // chosen at injection from the whole route, and into 0 and 1.
  h.eps[6]->send(make_packet(1, 6, 1, 3));
  // 1 -> 6 goes - through the wrap-around link 0 -> 7: class 1 into 0, 7 and 6.
  h.eps[1]->send(make_packet(2, 1, 6, 3));
  // 2 -> 4 goes + without a wrap: class 0 into 3 and 4.
  h.eps[2]->send(make_packet(3, 2, 4, 3));
  h.run(2000);
  auto in_class = [&](uint32_t r, uint8_t port, int cls) {
    const Router& router = h.net.router(r);
    return router.flits_in(port, static_cast<uint8_t>(2 * cls)) +
           router.flits_in(port, static_cast<uint8_t>(2 * cls + 1));
  };
  EXPECT_EQ(in_class(7, kPortXMinus, 1), 3u);
  EXPECT_EQ(in_class(0, kPortXMinus, 1), 3u);
  EXPECT_EQ(in_class(1, kPortXMinus, 1), 3u);
  EXPECT_EQ(in_class(0, kPortXPlus, 1), 3u);
  EXPECT_EQ(in_class(7, kPortXPlus, 1), 3u);
  EXPECT_EQ(in_class(6, kPortXPlus, 1), 3u);
  EXPECT_EQ(in_class(3, kPortXMinus, 0), 3u);
  EXPECT_EQ(in_class(4, kPortXMinus, 0), 3u);
  EXPECT_EQ(h.received[1].size(), 3u);
  EXPECT_EQ(h.received[6].size(), 3u);
  EXPECT_EQ(h.received[4].size(), 3u);
}

TEST_F(NetworkSim, DatelineClassChosenAgainInY) {
  // torus:4x4, 3 (3,0) -> 4 (0,1): X + over the wrap 3 -> 0 (class 1 into 0), then Y + from
  // y 0 to 1 without a wrap: class 0 into 4. 3 -> 5 (1,1) is an X tie to an odd coordinate:
  // - through 2 and 1 without a wrap, class 0.
  Harness h("torus:4x4", NocConfig{});
  h.eps[3]->send(make_packet(1, 3, 4, 2));
  h.eps[3]->send(make_packet(2, 3, 5, 2));
  h.run(2000);
  auto in_class = [&](uint32_t r, uint8_t port, int cls) {
    const Router& router = h.net.router(r);
    return router.flits_in(port, static_cast<uint8_t>(2 * cls)) +
           router.flits_in(port, static_cast<uint8_t>(2 * cls + 1));
  };
  EXPECT_EQ(in_class(0, kPortXMinus, 1), 2u);
  EXPECT_EQ(in_class(4, kPortYMinus, 0), 2u);
  EXPECT_EQ(in_class(2, kPortXPlus, 0), 2u);
  EXPECT_EQ(in_class(1, kPortXPlus, 0), 2u);
  EXPECT_EQ(in_class(5, kPortYMinus, 0), 2u);
  EXPECT_EQ(h.received[4].size(), 2u);
  EXPECT_EQ(h.received[5].size(), 2u);
}

// Node 5 of torus:4x4 at (1,1) sends one message out of each port; the neighbour in that
// direction receives it with next and eject swapped by the source router.
TEST_F(NetworkSim, MessagesBetweenNeighboursZeroLoad) {
  NocConfig cfg;
  cfg.subpacket_flits = 4;
  Harness h("torus:4x4", cfg);
  const struct {
    uint8_t port;
    uint32_t receiver;
  } dirs[] = {{kPortYMinus, 1}, {kPortYPlus, 9}, {kPortXMinus, 4}, {kPortXPlus, 6}};
  uint64_t id = 100;
  for (const auto& d : dirs) {
    SCOPED_TRACE(port_name(d.port));
    const size_t recv0 = h.received[d.receiver].size(), sent0 = h.sent[5].size();
    const std::vector<Flit> msg = make_message(id, d.port, 3, 4, /*tree=*/42);
    h.eps[5]->send(msg);
    h.run(1000);
    ASSERT_EQ(h.received[d.receiver].size(), recv0 + msg.size());
    const uint64_t head_sent = h.sent[5][sent0].cycle;
    const uint64_t latency = test::zero_load_latency(cfg, 1, 12);
    int heads = 0;
    for (size_t i = 0; i < msg.size(); ++i) {
      const Flit& f = h.received[d.receiver][recv0 + i].flit;
      EXPECT_EQ(f.type, msg[i].type) << i;
      EXPECT_EQ(f.index, i);
      EXPECT_EQ(f.data, msg[i].data);
      heads += is_head(f.type) ? 1 : 0;
      EXPECT_EQ(h.received[d.receiver][recv0 + i].cycle, head_sent + latency - 11 + i);
    }
    EXPECT_EQ(heads, 1);
    // The receiving NI sees the swapped route: next = its local port (where the neighbour
    // router ejected it), eject = the port the message left the sender's router by.
    const Flit& head = h.received[d.receiver][recv0].flit;
    EXPECT_EQ(head.next, kPortLocal);
    EXPECT_EQ(head.eject, d.port);
    EXPECT_EQ(head.tree, 42u);
    EXPECT_EQ(h.net.flits_out(5, d.port), 12u);
    EXPECT_EQ(h.net.flits_out(d.receiver, kPortLocal), 12u);
    ++id;
  }
}

// A stream of messages to one neighbour: after the pipeline fills the link carries one flit
// per cycle (consecutive messages alternate VCs, so one message's VC allocation overlaps the
// previous message's flits), and 318-flit buffers cover the sub-packet reservations.
TEST_F(NetworkSim, MessageStreamKeepsTheLinkBusy) {
  const NocConfig cfg;  // 16-flit sub-packets, 318-flit buffers, 150-cycle links
  Harness h("torus:4x4", cfg);
  const uint32_t messages = 12, subpackets = 5;
  for (uint32_t m = 0; m < messages; ++m) {
    h.eps[5]->send(make_message(m, kPortXPlus, subpackets, cfg.subpacket_flits));
  }
  h.run(2500);
  const auto& got = h.received[6];
  const size_t total = size_t{messages} * subpackets * cfg.subpacket_flits;
  ASSERT_EQ(got.size(), total);
  EXPECT_EQ(got.front().cycle - h.sent[5].front().cycle, test::zero_load_latency(cfg, 1, 1));
  for (size_t i = 1; i < total; ++i) {
    ASSERT_EQ(got[i].cycle, got[i - 1].cycle + 1) << "flit " << i;
  }
  uint64_t expect_packet = 0;
  uint32_t expect_index = 0;
  for (const test::Seen& s : got) {
    ASSERT_EQ(s.flit.packet, expect_packet);
    ASSERT_EQ(s.flit.index, expect_index);
    EXPECT_EQ(is_head(s.flit.type), expect_index == 0);
    EXPECT_EQ(s.flit.eject, s.flit.index == 0 ? kPortXPlus : kPortLocal) << "only heads swap";
    if (++expect_index == subpackets * cfg.subpacket_flits) {
      expect_index = 0;
      ++expect_packet;
    }
  }
}

// With a buffer of exactly one sub-packet, every sub-packet waits at the source router until
// the previous one's last credit is back: its first flit wins SA only then.
TEST_F(NetworkSim, SubPacketReservationWaitsForAWholeSubPacketOfCredits) {
  NocConfig cfg;
  cfg.vcs = 2;
  cfg.vc_depth = 4;
  cfg.subpacket_flits = 4;
  cfg.link_latency = 10;
  cfg.credit_latency = 10;
  Harness h("torus:4x4", cfg);
  const uint32_t subpackets = 6;
  h.eps[5]->send(make_message(1, kPortXPlus, subpackets, 4));
  h.run(1000);
  const auto& got = h.received[6];
  ASSERT_EQ(got.size(), subpackets * 4u);
  // Within a sub-packet flits come one per cycle. Between sub-packets: the last flit of a
  // sub-packet wins SA at the source router in cycle g+3 (g: its first flit); it crosses ST
  // (st), the link (L), waits sa-1 and wins SA at the neighbour in cycle g+3+st+1+L+sa-1,
  // which sends its credit back (Lc): the next first flit wins SA at g+4+st+L+sa-1+Lc.
  const uint64_t period = 4 + cfg.st_delay + cfg.link_latency + cfg.sa_delay - 1 +
                          cfg.credit_latency;
  for (uint32_t i = 1; i < got.size(); ++i) {
    const uint64_t gap = got[i].cycle - got[i - 1].cycle;
    if (i % 4 != 0) {
      EXPECT_EQ(gap, 1u) << i;
    } else {
      EXPECT_EQ(gap, period - 3) << i;
    }
    EXPECT_EQ(got[i].flit.index, i);
  }
  EXPECT_LE(h.net.max_vc_occupancy(), cfg.vc_depth);
}

TEST_F(NetworkSim, IdleRoutersAreNotEvaluated) {
  Harness h("torus:8x8", NocConfig{});
  h.eps[0]->send(make_packet(1, 0, 36, 5));  // 8 hops
  const uint64_t cycles = 5000;
  h.run(cycles);
  ASSERT_EQ(h.received[36].size(), 5u);
  const uint64_t evals = h.net.router_cycles();
  // Each of the 9 routers on the path evaluates a few cycles per flit and per credit; the
  // other 55 never. 64 routers * 5000 cycles would be 320000.
  EXPECT_GT(evals, 9u * 4u);
  EXPECT_LT(evals, 9u * 40u);
  // The route is 0,1,2,3,4 along X then 12,20,28,36 along Y; routers off it never run.
  EXPECT_EQ(h.net.router(63).evaluations(), 0u);
  EXPECT_EQ(h.net.router(8).evaluations(), 0u);
  EXPECT_GT(h.net.router(28).evaluations(), 0u);
}

using test::Trace;
using test::trace_of;

// Random traffic, all offered up front from a seeded generator: packet k of node n is queued
// at cycle `start`; `reverse` builds the same traffic in the opposite order of calls.
// `direct`: Network::set_direct_calls; *direct_ends gets the link ends that used them.
Trace random_run(const std::string& spec, const NocConfig& cfg, bool skipping, bool reverse,
                 uint64_t* router_cycles = nullptr, bool direct = true,
                 uint32_t* direct_ends = nullptr) {
  test::fresh_simcontext();
  Harness h(spec, cfg);
  h.net.set_idle_skipping(skipping);
  h.net.set_direct_calls(direct);
  std::mt19937_64 rng(12345);
  const uint32_t nodes = h.nodes(), per_node = 30;
  std::vector<std::vector<std::vector<Flit>>> packets(nodes);
  for (uint32_t n = 0; n < nodes; ++n) {
    for (uint32_t k = 0; k < per_node; ++k) {
      uint32_t dest = static_cast<uint32_t>(rng() % (nodes - 1));
      if (dest >= n) ++dest;
      const uint32_t len = 1 + static_cast<uint32_t>(rng() % 6);
      packets[n].push_back(make_packet(uint64_t{n} * 1000 + k, n, dest, len));
    }
  }
  // Feed the packets over time so they collide in the network.
  for (uint32_t round = 0; round < per_node; ++round) {
    for (uint32_t i = 0; i < nodes; ++i) {
      const uint32_t n = reverse ? nodes - 1 - i : i;
      h.eps[n]->send(packets[n][round]);
    }
    h.run(3);
  }
  h.run(3000);
  EXPECT_EQ(h.total_received(), h.total_sent());
  EXPECT_EQ(h.total_queued(), 0u);
  if (router_cycles != nullptr) *router_cycles = h.net.router_cycles();
  if (direct_ends != nullptr) {
    *direct_ends = 0;
    for (uint32_t r = 0; r < h.net.routers(); ++r) *direct_ends += h.net.router(r).direct_calls();
  }
  return trace_of(h);
}

NocConfig busy_config() {
  NocConfig cfg;
  cfg.vcs = 2;
  cfg.vc_depth = 6;
  cfg.subpacket_flits = 4;
  cfg.link_latency = 2;
  cfg.credit_latency = 3;
  return cfg;
}

TEST_F(NetworkSim, IdleSkippingChangesNoCycle) {
  NocConfig slow_stages = busy_config();
  slow_stages.rc_delay = 2;
  slow_stages.sa_delay = 2;
  slow_stages.st_delay = 3;
  slow_stages.local_latency = 2;
  slow_stages.wormhole = true;
  for (const NocConfig& cfg : {busy_config(), slow_stages}) {
    SCOPED_TRACE(cfg.str());
    uint64_t with = 0, without = 0;
    const Trace a = random_run("torus:4x4", cfg, true, false, &with);
    const Trace b = random_run("torus:4x4", cfg, false, false, &without);
    EXPECT_EQ(a, b);
    EXPECT_LT(with, without);
  }
}

// Routers and endpoints hand each other flits and credits by direct calls with the usable
// cycle (link/flit_peer.hpp): every flit is sent and arrives in the same cycle as through the
// TLM calls, under contention, with slow pipeline stages and latencies that differ per link
// kind. On torus:4x4 every router's four links and four local ports call directly both ways.
TEST_F(NetworkSim, DirectCallsChangeNoCycle) {
  NocConfig slow_stages = busy_config();
  slow_stages.ni_ports = 4;
  slow_stages.rc_delay = 2;
  slow_stages.st_delay = 3;
  slow_stages.local_latency = 2;
  for (const NocConfig& cfg : {busy_config(), slow_stages}) {
    SCOPED_TRACE(cfg.str());
    uint32_t direct = 0, tlm = 0;
    const Trace a = random_run("torus:4x4", cfg, true, false, nullptr, true, &direct);
    const Trace b = random_run("torus:4x4", cfg, true, false, nullptr, false, &tlm);
    EXPECT_EQ(a, b);
    EXPECT_EQ(direct, 16u * (4 + cfg.ni_ports) * 2);
    EXPECT_EQ(tlm, 0u);
  }
}

TEST_F(NetworkSim, SameRunTwiceGivesSameCycles) {
  const Trace a = random_run("torus:4x4", busy_config(), true, false);
  const Trace b = random_run("torus:4x4", busy_config(), true, false);
  EXPECT_EQ(a, b);
  // Queueing the same packets in the opposite order of calls within a cycle changes the
  // order SystemC runs the endpoints and routers, not the result.
  const Trace c = random_run("torus:4x4", busy_config(), true, true);
  EXPECT_EQ(a, c);
}

// A fat-tree whose routes cross more switch-to-switch links than there are VCs (one class
// each, for deadlock freedom) is refused, naming it.
TEST_F(NetworkSim, RejectsSwitchNetworksWithTooFewVcs) {
  const Topology t = parse_topology(test::zigzag_switch_file());
  try {
    Network net("network", t, NocConfig{});
    FAIL() << "built a network whose routes turn 4 times with 4 VCs";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("up to 4 times"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("4 VCs are too few"));
  }
}

// The scheduler's two colours (CycleScheduler::set_colours): every link joins two colours
// where the network has no odd cycle, and there are none where it has one.
TEST_F(NetworkSim, GroupColoursSplitEveryLinkWhereTheNetworkHasNoOddCycle) {
  int k = 0;
  for (const char* spec : {"torus:4x4", "torus:4x2", "mesh:3x3", "ring:6", "fattree:4x2"}) {
    const Topology t = parse_topology(spec);
    Network net(fmt::format("net{}", k++).c_str(), t, NocConfig{});
    const std::vector<uint8_t> colour = net.group_colours();
    ASSERT_EQ(colour.size(), t.vertices()) << spec;
    for (const Link& l : t.links()) {
      EXPECT_LE(colour[l.src], 1) << spec;
      EXPECT_NE(colour[l.src], colour[l.dst]) << spec << ": link " << l.src << "-" << l.dst;
    }
  }
  for (const char* spec : {"torus:3x3", "torus:4x3", "ring:5"}) {
    Network net(fmt::format("net{}", k++).c_str(), parse_topology(spec), NocConfig{});
    EXPECT_TRUE(net.group_colours().empty()) << spec;
  }
}

TEST_F(NetworkSim, RejectsBadConfiguration) {
  NocConfig cfg;
  cfg.vcs = 3;
  EXPECT_THROW(Network("network", parse_topology("torus:4x4"), cfg), InputError);
}

// Head flits name nodes in 16 bits: a network of 65,537 nodes is refused before it is built.
TEST_F(NetworkSim, RejectsMoreNodesThanAHeadNames) {
  try {
    Network net("network", parse_topology("ring:65537"), NocConfig{});
    FAIL() << "built a network of 65,537 nodes";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("65537 nodes"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("at most 65536"));
  }
}

// flits_out() counts a flit from the cycle it goes onto the link, st_delay + 1 after its
// grant, which is when the next router takes it (flits_in). Checked every cycle while flits
// are in switch traversal: three at once (st_delay 3, a flit granted every cycle), and with
// fewer credits than that on the output (2 VCs of one flit: at most two unsent).
TEST_F(NetworkSim, FlitsOutCountsFromTheSendCycle) {
  NocConfig deep;
  deep.st_delay = 3;
  deep.link_latency = 2;
  deep.ni_ports = 2;
  NocConfig shallow = deep;
  shallow.vcs = 2;
  shallow.vc_depth = 1;
  shallow.subpacket_flits = 1;
  shallow.credit_latency = 1;
  for (const NocConfig& cfg : {deep, shallow}) {
    SCOPED_TRACE(cfg.str());
    test::fresh_simcontext();
    Harness h("mesh:4x4", cfg);
    h.ep(0, 0).send(make_packet(1, 0, 1, 24));  // both NI ports, to load both VCs at once
    h.ep(0, 1).send(make_packet(2, 0, 1, 24));
    const Router& next = h.net.router(1);
    std::vector<uint64_t> taken;  // by the next router (granted here) in cycles 0..t
    uint32_t most_unsent = 0;
    for (uint64_t t = 0; t < 1000; ++t) {
      h.run(1);  // cycle t; flits_out() now counts as of the start of cycle t + 1
      uint64_t in = 0;
      for (uint8_t vc = 0; vc < cfg.vcs; ++vc) in += next.flits_in(kPortXMinus, vc);
      taken.push_back(in);
      const uint64_t out = h.net.flits_out(0, kPortXPlus);
      // Sent by cycle t + 1: granted by cycle t + 1 - (st_delay + 1).
      const uint64_t sent = t >= cfg.st_delay ? taken[t - cfg.st_delay] : 0;
      ASSERT_EQ(out, sent) << "cycle " << t;
      most_unsent = std::max(most_unsent, static_cast<uint32_t>(in - out));
    }
    EXPECT_EQ(h.net.flits_out(0, kPortXPlus), 48u) << "both packets left";
    // Sampled at a cycle's start, the flits granted in the st_delay cycles before are unsent.
    EXPECT_EQ(most_unsent, std::min(cfg.st_delay, cfg.vcs * cfg.vc_depth));
  }
}

TEST_F(NetworkSim, EndpointRejectsMalformedPackets) {
  Endpoint e("endpoint", 0, NocConfig{});
  std::vector<Flit> body_first = make_packet(1, 0, 1, 3);
  body_first.erase(body_first.begin());
  EXPECT_THROW(e.send(body_first), InputError);
  std::vector<Flit> open = make_packet(2, 0, 1, 3);
  open.pop_back();
  e.send(open);  // a packet may continue in a later send()
  EXPECT_THROW(e.send(make_packet(3, 0, 1, 1)), InputError) << "a head inside a packet";
  std::vector<Flit> tail(1);
  tail[0].type = FlitType::kTail;
  e.send(tail);
  EXPECT_EQ(e.queued_flits(), 3u);
}

TEST_F(NetworkSim, MessageToAMissingPortIsReported) {
  Harness h("mesh:4x4", NocConfig{});
  h.eps[0]->send(make_message(1, kPortXMinus, 1, 16));  // node 0 has no x- neighbour
  EXPECT_THROW(h.run(100), sc_core::sc_report);
}

}  // namespace
}  // namespace mt::noc
