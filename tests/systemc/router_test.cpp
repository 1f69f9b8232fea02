// Router internals: dimension-order routing with dateline classes, the round-robin/priority
// arbiter, the ring buffer and credit queue, and allocation timing under contention
// (priority, round robin, virtual cut-through versus wormhole), pinned to the cycle.
#include <array>
#include <deque>
#include <random>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "router/arbiter.hpp"
#include "router/credit_queue.hpp"
#include "router/dor_route.hpp"
#include "router/ring_buffer.hpp"
#include "sim_test_util.hpp"
#include "topology/routing.hpp"
#include "topology/topology.hpp"

namespace mt::noc {
namespace {

using test::Harness;
using RouterSim = test::SimTest;

GridPlace place(uint32_t x, uint32_t y, uint32_t w, uint32_t h, bool wraps) {
  GridPlace p;
  p.x = x;
  p.y = y;
  p.width = w;
  p.height = h;
  p.wraps = wraps;
  return p;
}

TEST(DimensionOrderHop, XFirstThenYShorterWayRoundTiesByDestinationParity) {
  const GridPlace at00 = place(0, 0, 4, 4, true);
  EXPECT_EQ(dimension_order_hop(at00, 1, Dim::kNone, 0).step, Step::kXPlus);
  EXPECT_EQ(dimension_order_hop(at00, 3, Dim::kNone, 0).step, Step::kXMinus);  // wrap
  EXPECT_EQ(dimension_order_hop(at00, 2, Dim::kNone, 0).step, Step::kXPlus);   // tie, x 2 even
  EXPECT_EQ(dimension_order_hop(at00, 10, Dim::kNone, 0).step, Step::kXPlus);  // X first
  EXPECT_EQ(dimension_order_hop(at00, 8, Dim::kNone, 0).step, Step::kYPlus);   // tie, y 2 even
  EXPECT_EQ(dimension_order_hop(at00, 12, Dim::kNone, 0).step, Step::kYMinus);
  EXPECT_EQ(dimension_order_hop(at00, 0, Dim::kNone, 0).step, Step::kLocal);
  // Ties to an odd coordinate go -; the next hop is then the shorter way, still -.
  EXPECT_EQ(dimension_order_hop(place(1, 0, 4, 4, true), 3, Dim::kNone, 0).step, Step::kXMinus);
  EXPECT_EQ(dimension_order_hop(place(0, 0, 4, 4, true), 3, Dim::kX, 1).step, Step::kXMinus);
  EXPECT_EQ(dimension_order_hop(place(1, 1, 4, 4, true), 13, Dim::kNone, 0).step, Step::kYMinus);
  // A mesh never wraps: 0 -> 3 goes + three hops.
  const GridPlace mesh00 = place(0, 0, 4, 4, false);
  EXPECT_EQ(dimension_order_hop(mesh00, 3, Dim::kNone, 0).step, Step::kXPlus);
  EXPECT_EQ(dimension_order_hop(place(3, 3, 4, 4, false), 0, Dim::kNone, 0).step,
            Step::kXMinus);
  // Ring of 8: 4 hops either way is a tie (+ to 0, - to 5); 5 hops + is 3 hops -.
  EXPECT_EQ(dimension_order_hop(place(4, 0, 8, 1, true), 0, Dim::kNone, 0).step, Step::kXPlus);
  EXPECT_EQ(dimension_order_hop(place(1, 0, 8, 1, true), 5, Dim::kNone, 0).step, Step::kXMinus);
  EXPECT_EQ(dimension_order_hop(place(1, 0, 8, 1, true), 6, Dim::kNone, 0).step,
            Step::kXMinus);
  // A dimension of size 2 has one link per direction: its ties go +, whatever the parity.
  EXPECT_EQ(dimension_order_hop(place(0, 0, 2, 2, true), 1, Dim::kNone, 0).step, Step::kXPlus);
  EXPECT_EQ(dimension_order_hop(place(1, 0, 2, 2, true), 0, Dim::kNone, 0).step, Step::kXPlus);
}

// Uniform pairs half a ring apart split evenly between the directions: on every 8-ring link
// direction the same number of tie routes start.
TEST(DimensionOrderHop, TiesSplitEvenlyBetweenDirections) {
  int plus = 0, minus = 0;
  for (uint32_t from = 0; from < 8; ++from) {
    const Step s = dimension_order_hop(place(from, 0, 8, 1, true), (from + 4) % 8, Dim::kNone, 0).step;
    (s == Step::kXPlus ? plus : minus) += 1;
  }
  EXPECT_EQ(plus, 4);
  EXPECT_EQ(minus, 4);
}

// The routers' hop-by-hop route (the NI picks its first hop with the same function) is the
// host's route() for every pair, so the verifier's link loads are the links packets take.
TEST(DimensionOrderHop, AgreesWithTheHostRouteForEveryPair) {
  for (const Topology& topo : {make_torus(4, 4), make_torus(8, 8), make_torus(5, 4),
                               make_torus(2, 6), make_mesh(4, 3), make_ring(8)}) {
    for (uint32_t src = 0; src < topo.nodes(); ++src) {
      for (uint32_t dest = 0; dest < topo.nodes(); ++dest) {
        std::vector<uint32_t> walked;
        uint32_t at = src;
        Dim in_dim = Dim::kNone;
        int in_class = 0;
        for (size_t hops = 0; hops <= topo.nodes(); ++hops) {
          GridPlace here = place(topo.x_of(at), topo.y_of(at), topo.width(), topo.height(),
                                 topo.wraps());
          const Hop hop = dimension_order_hop(here, dest, in_dim, in_class);
          if (hop.step == Step::kLocal) break;
          const uint32_t w = topo.width(), h = topo.height(), x = here.x, y = here.y;
          uint32_t next = at;
          if (hop.step == Step::kXPlus) next = y * w + (x + 1) % w;
          if (hop.step == Step::kXMinus) next = y * w + (x + w - 1) % w;
          if (hop.step == Step::kYPlus) next = ((y + 1) % h) * w + x;
          if (hop.step == Step::kYMinus) next = ((y + h - 1) % h) * w + x;
          walked.push_back(topo.first_link(at, next));
          in_dim = hop.step == Step::kXPlus || hop.step == Step::kXMinus ? Dim::kX : Dim::kY;
          in_class = hop.vc_class;
          at = next;
        }
        EXPECT_EQ(at, dest) << topo.spec() << " " << src << " -> " << dest;
        EXPECT_EQ(walked, route(topo, src, dest)) << topo.spec() << " " << src << " -> " << dest;
      }
    }
  }
}

TEST(DimensionOrderHop, DatelineClassChosenAtDimensionEntry) {
  // Injected, no wrap ahead in this dimension: class 0.
  EXPECT_EQ(dimension_order_hop(place(0, 0, 4, 4, true), 1, Dim::kNone, 0).vc_class, 0);
  // Routes over the wrap-around link are class 1 from their first hop in the dimension on
  // (3 -> 0 going +, 0 -> 3 going -), even when that hop is not the wrap-around link.
  EXPECT_EQ(dimension_order_hop(place(3, 0, 4, 4, true), 0, Dim::kNone, 0).vc_class, 1);
  EXPECT_EQ(dimension_order_hop(place(0, 0, 4, 4, true), 3, Dim::kNone, 0).vc_class, 1);
  EXPECT_EQ(dimension_order_hop(place(3, 0, 4, 4, true), 1, Dim::kNone, 0).vc_class, 0);  // tie, -
  EXPECT_EQ(dimension_order_hop(place(6, 0, 8, 1, true), 1, Dim::kNone, 0).vc_class, 1);
  EXPECT_EQ(dimension_order_hop(place(1, 0, 8, 1, true), 6, Dim::kNone, 0).vc_class, 1);
  EXPECT_EQ(dimension_order_hop(place(5, 0, 8, 1, true), 7, Dim::kNone, 0).vc_class, 0);
  // Within the dimension the packet keeps its class...
  EXPECT_EQ(dimension_order_hop(place(0, 0, 4, 4, true), 1, Dim::kX, 1).vc_class, 1);
  EXPECT_EQ(dimension_order_hop(place(1, 0, 4, 4, true), 2, Dim::kX, 0).vc_class, 0);
  // ...and chooses again when it turns into Y.
  EXPECT_EQ(dimension_order_hop(place(1, 0, 4, 4, true), 9, Dim::kX, 1).vc_class, 0);
  EXPECT_EQ(dimension_order_hop(place(1, 0, 4, 4, true), 13, Dim::kX, 1).vc_class, 1);
  EXPECT_EQ(dimension_order_hop(place(1, 1, 4, 4, true), 9, Dim::kY, 1).vc_class, 1);
  // Meshes and ejection use any VC.
  EXPECT_EQ(dimension_order_hop(place(0, 0, 4, 4, false), 1, Dim::kNone, 0).vc_class, -1);
  EXPECT_EQ(dimension_order_hop(place(2, 1, 4, 4, true), 6, Dim::kX, 1).vc_class, -1);
}

TEST(Arbiter, RoundRobinFromPointerWithPriorityFirst) {
  EXPECT_EQ(round_robin_pick(0b1010, 0), 1u);
  EXPECT_EQ(round_robin_pick(0b1010, 2), 3u);
  EXPECT_EQ(round_robin_pick(0b1010, 4), 1u);  // wraps
  EXPECT_EQ(round_robin_pick(0b1, 31), 0u);
  const uint32_t prio[4] = {5, 9, 9, 1};
  auto p = [&](unsigned i) { return prio[i]; };
  EXPECT_EQ(arbitrate(0b1111, 0, true, p), 1u);
  EXPECT_EQ(arbitrate(0b1111, 2, true, p), 2u);  // round robin among the two 9s
  EXPECT_EQ(arbitrate(0b1001, 1, true, p), 0u);
  EXPECT_EQ(arbitrate(0b1111, 3, false, p), 3u);  // priority off: round robin only
}

TEST(RingBuffer, KeepsOrderWhileGrowing) {
  RingBuffer<int> q(2);
  int next_out = 0;
  for (int i = 0; i < 100; ++i) {
    q.push_back(i);
    if (i % 3 == 0) {
      EXPECT_EQ(q.front(), next_out++);
      q.pop_front();
    }
  }
  EXPECT_EQ(q.size(), 100u - static_cast<size_t>(next_out));
  for (size_t i = 0; i < q.size(); ++i) EXPECT_EQ(q.at(i), next_out + static_cast<int>(i));
}

// The runs give what a FIFO of single credits gives: streams of one VC (one run), VC changes,
// gaps, two credits in one cycle, and takes that split a run; usable() counts them per VC.
TEST(CreditQueue, TakesWhatAFifoOfSingleCreditsGives) {
  CreditQueue q;
  std::deque<std::pair<uint8_t, uint64_t>> fifo;  // (vc, usable)
  std::array<uint32_t, 4> got{}, want{};
  std::mt19937 rng(7);
  uint64_t usable = 150;
  for (uint64_t now = 0; now < 3000; ++now) {
    const unsigned r = rng() % 16;
    if (r < 12) {  // mostly a stream (the next cycle, the VC kept), or a gap, or a repeat
      const uint8_t vc = static_cast<uint8_t>(r < 10 ? now / 200 % 4 : r % 4);
      usable += r == 11 ? 0 : (r == 10 ? 5 : 1);
      q.push(vc, usable);
      fifo.emplace_back(vc, usable);
    }
    if (rng() % 7 == 0) {
      // What usable() counts before the take is what the take then gives.
      std::array<uint32_t, 4> counted{};
      for (uint8_t vc = 0; vc < 4; ++vc) counted[vc] = got[vc] + q.usable(vc, now);
      q.take(now, [&got](uint8_t vc, uint32_t n) { got[vc] += n; });
      while (!fifo.empty() && fifo.front().second <= now) {
        ++want[fifo.front().first];
        fifo.pop_front();
      }
      ASSERT_EQ(got, want) << "at cycle " << now;
      ASSERT_EQ(counted, want) << "at cycle " << now;
      ASSERT_EQ(q.empty(), fifo.empty());
      if (!q.empty()) {
        ASSERT_EQ(q.next_usable(), fifo.front().second);
      }
    }
  }
  q.take(~0ull, [&got](uint8_t vc, uint32_t n) { got[vc] += n; });
  for (const auto& [vc, at] : fifo) ++want[vc];
  EXPECT_EQ(got, want);
  EXPECT_TRUE(q.empty());
}

// cycle_reaching(vc, n) is the first cycle by which n of vc's credits not yet taken count:
// across runs of other VCs, within a run, after a take that split a run, and ~0 when fewer
// than n are on their way.
TEST(CreditQueue, CycleReachingCountsOneVcsCredits) {
  CreditQueue q;
  for (uint64_t c = 10; c < 15; ++c) q.push(0, c);  // vc 0: 10..14
  for (uint64_t c = 15; c < 18; ++c) q.push(1, c);  // vc 1: 15..17
  for (uint64_t c = 20; c < 30; ++c) q.push(0, c);  // vc 0: 20..29
  EXPECT_EQ(q.cycle_reaching(0, 1), 10u);
  EXPECT_EQ(q.cycle_reaching(0, 5), 14u);
  EXPECT_EQ(q.cycle_reaching(0, 6), 20u);
  EXPECT_EQ(q.cycle_reaching(0, 15), 29u);
  EXPECT_EQ(q.cycle_reaching(0, 16), ~uint64_t{0});
  EXPECT_EQ(q.cycle_reaching(1, 3), 17u);
  EXPECT_EQ(q.cycle_reaching(2, 1), ~uint64_t{0});
  uint32_t taken = 0;
  q.take(12, [&taken](uint8_t, uint32_t n) { taken += n; });  // 10, 11, 12
  EXPECT_EQ(taken, 3u);
  EXPECT_EQ(q.cycle_reaching(0, 1), 13u);
  EXPECT_EQ(q.cycle_reaching(0, 3), 20u);
  // Against a FIFO of single credits: the n-th credit of the VC, counted in order.
  for (uint8_t vc = 0; vc < 2; ++vc) {
    for (uint32_t n = 1; n <= 14; ++n) {
      uint32_t seen = 0;
      uint64_t want = ~uint64_t{0};
      for (uint64_t c = 13; c < 30 && want == ~uint64_t{0}; ++c) {
        const uint8_t at = c < 15 || c >= 20 ? 0 : (c < 18 ? 1 : 2);
        if (at == vc && ++seen == n) want = c;
      }
      EXPECT_EQ(q.cycle_reaching(vc, n), want) << "vc " << int{vc} << " n " << n;
    }
  }
}

// Nodes 4 and 6 of torus:4x4 each send 5 flits to node 5 (their common neighbour) in the same
// cycle; the heads reach router 5 together, 4's on port x-, 6's on port x+, and compete for
// the ejection port.
struct Contention {
  std::vector<test::Seen> at5;
  uint64_t head_sent = 0;
};

Contention contend(std::function<uint32_t(const Flit&)> priority) {
  Harness h("torus:4x4", NocConfig{});
  if (priority) h.net.set_priority(std::move(priority));
  h.eps[4]->send(make_packet(4, 4, 5, 5));
  h.eps[6]->send(make_packet(6, 6, 5, 5));
  h.run(1000);
  EXPECT_EQ(h.sent[4].front().cycle, h.sent[6].front().cycle);
  return {h.received[5], h.sent[4].front().cycle};
}

TEST_F(RouterSim, RoundRobinInterleavesContendingPackets) {
  const Contention c = contend(nullptr);
  ASSERT_EQ(c.at5.size(), 10u);
  // Lower port index (x-, node 4) wins the first VC allocation; the switch allocator then
  // alternates between the two input ports every cycle.
  const uint64_t first = c.head_sent + test::zero_load_latency(NocConfig{}, 1, 1);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(c.at5[i].flit.packet, i % 2 == 0 ? 4u : 6u) << i;
    EXPECT_EQ(c.at5[i].flit.index, i / 2);
    EXPECT_EQ(c.at5[i].cycle, first + i) << i;
  }
}

TEST_F(RouterSim, PriorityWinsBeforeRoundRobin) {
  for (uint64_t favoured : {4u, 6u}) {
    SCOPED_TRACE(favoured);
    test::fresh_simcontext();
    const Contention c = contend(
        [favoured](const Flit& f) { return f.packet == favoured ? 10u : 1u; });
    ASSERT_EQ(c.at5.size(), 10u);
    // The favoured packet sees no contention at all (zero-load), the other follows right
    // behind: it lost VA once (retrying next cycle) and then SA every cycle until the
    // favoured tail left.
    const uint64_t zero_load_tail = c.head_sent + test::zero_load_latency(NocConfig{}, 1, 5);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(c.at5[i].flit.packet, i < 5 ? favoured : 10 - favoured) << i;
      EXPECT_EQ(c.at5[i].cycle, zero_load_tail - 4 + i) << i;
    }
  }
}

// Virtual cut-through grants an output VC only with room for the whole packet; wormhole with
// one credit. Node 5 sends three 4-flit packets to node 6 of mesh:4x4 (a mesh, so both VCs
// are usable; on a torus the dateline leaves one VC per class) over 10-cycle links, 2 VCs of 4
// flits. P1 takes VC 0, P2 VC 1; P3 must reuse VC 0. With the endpoint sending P1 from cycle
// s (usable at router 5 in a = s+1):
//  - P1 wins SA at router 5 in a+2..a+5 and is sent a+4..a+7; at router 6 it is usable from
//    a+4+L, its head wins SA at a+6+L and its body a+7+L..a+9+L, each freeing a slot whose
//    credit reaches router 5 Lc later: the first at a+6+L+Lc, all four at a+9+L+Lc.
//  - P3's head is usable at router 5 at a+8 (the endpoint sends P1, P2, P3 back to back).
//    VCT: VA waits for 4 credits (a+9+L+Lc), SA the next cycle, the flit leaves 2 cycles later.
//    Wormhole: VA at a+9 (VC 0 is free: P1's tail has left), SA as soon as one credit is
//    back (a+6+L+Lc). Either way the head then needs L + R + local to reach the endpoint.
uint64_t third_packet_head_arrival(bool wormhole, uint64_t* s_out) {
  NocConfig cfg;
  cfg.vcs = 2;
  cfg.vc_depth = 4;
  cfg.subpacket_flits = 4;
  cfg.link_latency = 10;
  cfg.credit_latency = 10;
  cfg.wormhole = wormhole;
  Harness h("mesh:4x4", cfg);
  for (uint64_t p = 1; p <= 3; ++p) h.eps[5]->send(make_packet(p, 5, 6, 4));
  h.run(500);
  EXPECT_EQ(h.received[6].size(), 12u);
  EXPECT_EQ(h.sent[5][8].cycle, h.sent[5][0].cycle + 8) << "the endpoint never stalls";
  *s_out = h.sent[5][0].cycle;
  for (const auto& s : h.received[6]) {
    if (s.flit.packet == 3 && s.flit.index == 0) return s.cycle;
  }
  return 0;
}

TEST_F(RouterSim, VirtualCutThroughWaitsForRoomForTheWholePacket) {
  const uint64_t L = 10, Lc = 10, R = 4, local = 1;
  uint64_t s = 0;
  const uint64_t vct = third_packet_head_arrival(false, &s);
  const uint64_t a = s + 1;
  EXPECT_EQ(vct, (a + 9 + L + Lc) + 1 + 2 + L + R + local);
  test::fresh_simcontext();
  const uint64_t wormhole = third_packet_head_arrival(true, &s);
  EXPECT_EQ(wormhole, (a + 6 + L + Lc) + 2 + L + R + local);
}

}  // namespace
}  // namespace mt::noc
