// Traffic patterns, Bernoulli injection, offered-load parsing, packet flits and the zero-load
// model: plain C++, no simulation.
#include <cmath>
#include <map>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <systemc>

#include "common/error.hpp"
#include "topology/topology.hpp"
#include "traffic/bernoulli.hpp"
#include "traffic/offered_load.hpp"
#include "traffic/pattern.hpp"
#include "traffic/random.hpp"
#include "traffic/packet.hpp"
#include "traffic/zero_load.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

uint32_t id(uint32_t x, uint32_t y, uint32_t w) { return y * w + x; }

uint32_t dest_of(PatternKind k, uint32_t src, uint32_t w, uint32_t h) {
  Pattern p;
  p.kind = k;
  check_pattern(p, w, h);
  std::mt19937_64 rng(1);
  return destination(p, src, w, h, rng);
}

TEST(Pattern, TransposeSwapsCoordinates) {
  EXPECT_EQ(dest_of(PatternKind::kTranspose, id(1, 2, 4), 4, 4), id(2, 1, 4));
  EXPECT_EQ(dest_of(PatternKind::kTranspose, id(3, 0, 4), 4, 4), id(0, 3, 4));
  EXPECT_EQ(dest_of(PatternKind::kTranspose, id(7, 5, 8), 8, 8), id(5, 7, 8));
  // The diagonal maps to itself (those packets loop back through the local router).
  EXPECT_EQ(dest_of(PatternKind::kTranspose, id(2, 2, 4), 4, 4), id(2, 2, 4));
}

TEST(Pattern, TransposeNeedsASquareNetwork) {
  Pattern p;
  p.kind = PatternKind::kTranspose;
  try {
    check_pattern(p, 4, 2);
    FAIL() << "transpose accepted on 4x2";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("square"));
    EXPECT_THAT(e.what(), HasSubstr("4x2"));
  }
  EXPECT_THROW(check_pattern(p, 8, 1), InputError);  // a ring
  EXPECT_NO_THROW(check_pattern(p, 3, 3));
}

TEST(Pattern, BitComplement) {
  EXPECT_EQ(dest_of(PatternKind::kBitComplement, 0, 4, 4), 15u);
  EXPECT_EQ(dest_of(PatternKind::kBitComplement, 15, 4, 4), 0u);
  EXPECT_EQ(dest_of(PatternKind::kBitComplement, 5, 4, 4), 10u);
  EXPECT_EQ(dest_of(PatternKind::kBitComplement, 0, 8, 8), 63u);
  EXPECT_EQ(dest_of(PatternKind::kBitComplement, 0, 8, 1), 7u);
  Pattern p;
  p.kind = PatternKind::kBitComplement;
  try {
    check_pattern(p, 3, 3);
    FAIL() << "bit-complement accepted on 9 nodes";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("power-of-two"));
  }
  EXPECT_THROW(check_pattern(p, 6, 2), InputError);
}

TEST(Pattern, NeighborIsNextXWrapping) {
  EXPECT_EQ(dest_of(PatternKind::kNeighbor, id(0, 1, 4), 4, 4), id(1, 1, 4));
  EXPECT_EQ(dest_of(PatternKind::kNeighbor, id(3, 1, 4), 4, 4), id(0, 1, 4));
  EXPECT_EQ(dest_of(PatternKind::kNeighbor, id(4, 0, 5), 5, 1), id(0, 0, 5));
  Pattern p;
  p.kind = PatternKind::kNeighbor;
  EXPECT_THROW(check_pattern(p, 1, 4), InputError);
}

TEST(Pattern, UniformNeverPicksSelfAndCoversEveryOtherNode) {
  Pattern p;
  const uint32_t w = 4, h = 4, n = 16;
  std::mt19937_64 rng(42);
  for (uint32_t src = 0; src < n; ++src) {
    std::vector<uint32_t> count(n, 0);
    const int draws = 15000;
    for (int i = 0; i < draws; ++i) ++count[destination(p, src, w, h, rng)];
    EXPECT_EQ(count[src], 0u) << "src " << src;
    for (uint32_t d = 0; d < n; ++d) {
      if (d == src) continue;
      // 1000 expected per node, standard deviation ~31: 850..1150 is almost 5 sigma.
      EXPECT_GT(count[d], 850u) << src << " -> " << d;
      EXPECT_LT(count[d], 1150u) << src << " -> " << d;
    }
  }
}

TEST(Pattern, HotspotFractionWithinTolerance) {
  Pattern p;
  p.kind = PatternKind::kHotspot;
  p.hotspot_node = 5;
  p.hotspot_fraction = 0.3;
  const uint32_t w = 4, h = 4, n = 16;
  check_pattern(p, w, h);
  std::mt19937_64 rng(7);
  const int draws = 100000;
  int hot = 0;
  for (int i = 0; i < draws; ++i) {
    const uint32_t src = static_cast<uint32_t>(i % n == 5 ? 6 : i % n);
    const uint32_t d = destination(p, src, w, h, rng);
    ASSERT_NE(d, src);
    hot += d == 5;
  }
  // The hotspot gets its fraction plus its uniform share of the rest: 0.3 + 0.7 / 15.
  const double expected = 0.3 + 0.7 / 15;
  EXPECT_NEAR(static_cast<double>(hot) / draws, expected, 0.01);  // sd 0.0015
  // The hot node itself sends uniform traffic, never to itself.
  for (int i = 0; i < 1000; ++i) EXPECT_NE(destination(p, 5, w, h, rng), 5u);
}

TEST(Pattern, HotspotChecks) {
  Pattern p;
  p.kind = PatternKind::kHotspot;
  p.hotspot_node = 16;
  EXPECT_THROW(check_pattern(p, 4, 4), InputError);
  p.hotspot_node = 0;
  p.hotspot_fraction = 1.5;
  EXPECT_THROW(check_pattern(p, 4, 4), InputError);
  p.hotspot_fraction = 1.0;  // pure incast
  EXPECT_NO_THROW(check_pattern(p, 4, 4));
}

TEST(Pattern, DistributionSumsToOneAndMatchesDraws) {
  for (PatternKind k : {PatternKind::kUniform, PatternKind::kTranspose, PatternKind::kBitComplement,
                        PatternKind::kNeighbor, PatternKind::kHotspot}) {
    Pattern p;
    p.kind = k;
    p.hotspot_node = 3;
    for (uint32_t src = 0; src < 16; ++src) {
      double sum = 0;
      std::set<uint32_t> support;
      for (const auto& [d, w] : destination_distribution(p, src, 4, 4)) {
        sum += w;
        support.insert(d);
      }
      EXPECT_NEAR(sum, 1.0, 1e-12) << pattern_name(k) << " src " << src;
      std::mt19937_64 rng(src);
      for (int i = 0; i < 200; ++i) {
        EXPECT_EQ(support.count(destination(p, src, 4, 4, rng)), 1u) << pattern_name(k);
      }
    }
  }
}

TEST(Pattern, ParseNames) {
  EXPECT_EQ(parse_pattern("uniform"), PatternKind::kUniform);
  EXPECT_EQ(parse_pattern("transpose"), PatternKind::kTranspose);
  EXPECT_EQ(parse_pattern("bitcomp"), PatternKind::kBitComplement);
  EXPECT_EQ(parse_pattern("neighbour"), PatternKind::kNeighbor);
  EXPECT_EQ(parse_pattern("hotspot"), PatternKind::kHotspot);
  try {
    parse_pattern("tornado");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("tornado"));
    EXPECT_THAT(e.what(), HasSubstr("uniform"));
  }
}

TEST(Random, SeedsAndDrawsAreDeterministicAndInRange) {
  EXPECT_EQ(node_seed(1, 0), node_seed(1, 0));
  EXPECT_NE(node_seed(1, 0), node_seed(1, 1));
  EXPECT_NE(node_seed(1, 0), node_seed(2, 0));
  std::mt19937_64 a(3), b(3);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = uniform_below(a, 7);
    EXPECT_EQ(x, uniform_below(b, 7));
    EXPECT_LT(x, 7u);
    const double u = uniform01(a);
    EXPECT_EQ(u, uniform01(b));
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
  EXPECT_EQ(uniform_below(a, 1), 0u);
}

TEST(Bernoulli, PerCycleRateWithinTolerance) {
  const BernoulliInjection inj(0.3, 4);
  EXPECT_DOUBLE_EQ(inj.probability(), 0.075);
  std::mt19937_64 rng(11);
  const int cycles = 1000000;
  int starts = 0;
  for (int c = 0; c < cycles; ++c) starts += inj.fires(rng);
  // Flits per cycle: starts * 4 / cycles; sd 0.001.
  EXPECT_NEAR(4.0 * starts / cycles, 0.3, 0.005);
}

TEST(Bernoulli, GeometricGapsGiveTheSameRate) {
  for (const auto& [rate, flits] : std::vector<std::pair<double, uint32_t>>{
           {0.3, 4}, {0.02, 1}, {0.9, 8}, {0.5, 1}}) {
    const BernoulliInjection inj(rate, flits);
    std::mt19937_64 rng(5);
    uint64_t cycles = 0, starts = 0, gap_one = 0;
    while (cycles < 2000000) {
      const uint64_t g = inj.gap(rng);
      ASSERT_GE(g, 1u);
      gap_one += g == 1;
      cycles += g;
      ++starts;
    }
    const double measured = static_cast<double>(starts * flits) / static_cast<double>(cycles);
    EXPECT_NEAR(measured, rate, 0.02 * rate) << rate << " x " << flits;
    // P(gap = 1) = p, as for a coin flip in the next cycle.
    EXPECT_NEAR(static_cast<double>(gap_one) / static_cast<double>(starts), inj.probability(),
                0.01)
        << rate;
  }
}

TEST(Bernoulli, Limits) {
  std::mt19937_64 rng(1);
  EXPECT_EQ(BernoulliInjection(0.0, 4).gap(rng), BernoulliInjection::kNever);
  const BernoulliInjection every(1.0, 1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(every.gap(rng), 1u);
  EXPECT_THROW(BernoulliInjection(1.5, 1), InputError);
  EXPECT_THROW(BernoulliInjection(-0.1, 1), InputError);
  EXPECT_THROW(BernoulliInjection(0.1, 0), InputError);
}

TEST(OfferedLoad, Sweep) {
  EXPECT_THAT(parse_sweep("0.1:0.3:0.1"), ::testing::ElementsAre(0.1, 0.2, 0.3));
  EXPECT_THAT(parse_sweep("0.05:0.5:0.05").size(), 10u);
  EXPECT_THAT(parse_sweep("0.5:0.5:0.1"), ::testing::ElementsAre(0.5));
  EXPECT_DOUBLE_EQ(parse_sweep("0.05:0.5:0.05")[5], 0.3);
  for (const char* bad : {"0.1:0.3", "0.1:0.3:0", "0.3:0.1:0.1", "0:0.5:0.1", "0.1:1.5:0.1",
                          "a:b:c", "0.1:0.3:0.1:0.1", "", "0.0001:1:0.0001"}) {
    EXPECT_THROW(parse_sweep(bad), InputError) << bad;
  }
}

TEST(OfferedLoad, Rates) {
  EXPECT_THAT(parse_rates("0.02,0.05,1"), ::testing::ElementsAre(0.02, 0.05, 1.0));
  for (const char* bad : {"", "0.1,", "0.1,,0.2", "0", "-0.1", "1.01", "0.1x", "nan", "inf"}) {
    EXPECT_THROW(parse_rates(bad), InputError) << bad;
  }
  EXPECT_NO_THROW(check_rate(1.0));
  EXPECT_THROW(check_rate(0.0), InputError);
}

TEST(Packet, FlitTypesAndFields) {
  const std::vector<Flit> one = make_packet(17, 2, 9, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].type, FlitType::kHeadTail);
  const std::vector<Flit> four = make_packet(18, 2, 9, 4);
  ASSERT_EQ(four.size(), 4u);
  const FlitType want[] = {FlitType::kHead, FlitType::kBody, FlitType::kBody, FlitType::kTail};
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(four[i].type, want[i]) << i;
    EXPECT_EQ(four[i].index, i);
    EXPECT_EQ(four[i].length, 4u);
    EXPECT_EQ(four[i].src, 2u);
    EXPECT_EQ(four[i].dest, 9u);
    EXPECT_EQ(four[i].packet, 18u);
  }
  const std::vector<Flit> two = make_packet(19, 0, 1, 2);
  EXPECT_EQ(two[0].type, FlitType::kHead);
  EXPECT_EQ(two[1].type, FlitType::kTail);
}

TEST(ZeroLoad, ReadmeFormula) {
  const NocConfig cfg;  // R = 4, link 150, local 1
  EXPECT_EQ(zero_load_network_latency(cfg, 0, 1), 2u + 4u);
  EXPECT_EQ(zero_load_network_latency(cfg, 2, 4), 2u + 3 * 4u + 2 * 150u + 3u);
}

TEST(ZeroLoad, MeanOverPatterns) {
  const Topology t = make_torus(4, 4);
  const NocConfig cfg;
  Pattern p;
  // A 4-ring has distances 0, 1, 2, 1; over the 15 other nodes of a 4x4 torus: 32 / 15 hops.
  ZeroLoad z = mean_zero_load(t, cfg, p, 4);
  EXPECT_NEAR(z.hops, 32.0 / 15, 1e-12);
  EXPECT_NEAR(z.network, 2 + (32.0 / 15 + 1) * 4 + 32.0 / 15 * 150 + 3, 1e-9);
  EXPECT_NEAR(z.total, z.network + 1, 1e-12);
  // Bit-complement on a 4x4 torus: x -> 3 - x, y -> 3 - y: per dimension 3, 1, 1, 3 ring hops
  // (1, 1, 1, 1 the short way) so every packet goes 2 hops.
  p.kind = PatternKind::kBitComplement;
  z = mean_zero_load(t, cfg, p, 1);
  EXPECT_NEAR(z.hops, 2.0, 1e-12);
  // Neighbor: always 1 hop.
  p.kind = PatternKind::kNeighbor;
  EXPECT_NEAR(mean_zero_load(t, cfg, p, 1).hops, 1.0, 1e-12);
}

}  // namespace
}  // namespace mt::noc
