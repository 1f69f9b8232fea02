// multitree-opt: MultiTree at the step lower bound on tori (host_sw/algorithms/multitree_opt.cpp)
// and on one-link switch networks (multitree_opt_switch.cpp). Its plans reach
// max(diameter, ceil((N - 1) / links per node)) on tori and N - 1 on BiGraphs and two-level
// fat-trees, verify, keep to Algorithm 1's shape (a tree per root, reduce-scatter the
// all-gather reversed), compile into images, and other networks are refused with a clear
// error.
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/multitree_opt_shallow.hpp"
#include "algorithms/switch_groups.hpp"
#include "common/error.hpp"
#include "image/image.hpp"
#include "table/schedule_table.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

Plan opt_plan(const Topology& topo, uint64_t bytes = 1 << 20, bool messages = true) {
  PlanOptions opt;
  opt.bytes = bytes;
  opt.message_flow_control = messages;
  return build_plan(topo, "multitree-opt", opt);
}

// The bound of DESIGN.md, from the torus's shape (not from the verifier, which states it too).
uint32_t torus_bound(uint32_t w, uint32_t h) {
  auto links = [](uint32_t k) { return k == 1 ? 0u : k == 2 ? 1u : 2u; };
  const uint32_t n = w * h, degree = links(w) + links(h);
  return std::max(w / 2 + h / 2, (n - 1 + degree - 1) / degree);
}

// Steps per phase equal the bound and the plan verifies, link-contention-free.
void expect_at_bound(uint32_t w, uint32_t h) {
  const std::string spec = "torus:" + std::to_string(w) + "x" + std::to_string(h);
  const Topology topo = parse_topology(spec);
  const Plan plan = opt_plan(topo);
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_TRUE(r.ok()) << spec << ": " << r.errors.front();
  EXPECT_EQ(r.step_bound, torus_bound(w, h)) << spec;
  EXPECT_EQ(plan.steps_per_phase, torus_bound(w, h))
      << spec << ": " << plan.steps_per_phase << " steps per phase against the bound "
      << torus_bound(w, h);
  EXPECT_EQ(r.max_step_link_load, 1u) << spec;
}

TEST(MultiTreeOpt, ReachesTheBoundOnTheNamedTori) {
  // The named tori: 4x4 in 4 (Algorithm 1: 5), 8x8 in 16 (Algorithm 1: 17), and the rest.
  EXPECT_EQ(torus_bound(4, 4), 4u);
  EXPECT_EQ(torus_bound(8, 8), 16u);
  for (const auto& [w, h] : std::vector<std::pair<uint32_t, uint32_t>>{
           {4, 4}, {6, 6}, {8, 8}, {4, 8}, {8, 4}, {8, 16}, {16, 16}}) {
    expect_at_bound(w, h);
  }
}

TEST(MultiTreeOpt, BeatsAlgorithm1WhereAlgorithm1MissesTheBound) {
  for (const char* spec : {"torus:4x4", "torus:8x8"}) {
    const Topology topo = parse_topology(spec);
    const Plan alg1 = build_plan(topo, "multitree", PlanOptions{});
    EXPECT_LT(opt_plan(topo).steps_per_phase, alg1.steps_per_phase) << spec;
  }
}

TEST(MultiTreeOpt, ReachesTheBoundOnEveryTorusUpTo12x12) {
  // Sides 1 and 2 included: a ring, and dimensions of one link per direction (degree 2, 3).
  for (uint32_t w = 1; w <= 12; ++w) {
    for (uint32_t h = 1; h <= 12; ++h) {
      if (w * h >= 2) expect_at_bound(w, h);
    }
  }
}

TEST(MultiTreeOpt, RingsReachTheBound) {
  for (const char* spec : {"ring:2", "ring:3", "ring:8", "ring:9"}) {
    const Topology topo = parse_topology(spec);
    const Plan plan = opt_plan(topo);
    const VerifyReport r = verify_plan(plan, topo);
    ASSERT_TRUE(r.ok()) << spec << ": " << r.errors.front();
    EXPECT_EQ(plan.steps_per_phase, r.step_bound) << spec;
  }
}

// Tree r is tree 0 moved by r's offset, and the reduce-scatter is the all-gather reversed
// in time: the structure the contention argument of multitree_opt.cpp rests on.
TEST(MultiTreeOpt, EveryTreeIsTreeZeroMovedAndReduceIsGatherReversed) {
  const uint32_t w = 6, h = 4, n = w * h;
  const Plan plan = opt_plan(make_torus(w, h));
  const uint32_t T = plan.steps_per_phase;
  auto minus = [&](uint32_t v, uint32_t r) {  // v moved back by r's offset
    return ((v / w + h - r / w) % h) * w + (v % w + w - r % w) % w;
  };
  using Edges = std::set<std::tuple<uint32_t, uint32_t, uint32_t>>;  // (parent, child, step)
  std::vector<Edges> gather(n), moved_back(n), reduce(n);
  for (const Transfer& t : plan.transfers) {
    if (t.op == Op::kGather) {
      gather[t.flow].insert({t.src, t.dst, t.step - T});
      moved_back[t.flow].insert({minus(t.src, t.flow), minus(t.dst, t.flow), t.step - T});
    } else {
      reduce[t.flow].insert({t.dst, t.src, T - t.step + 1});
    }
  }
  ASSERT_EQ(gather[0].size(), n - 1);
  for (uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(moved_back[r], gather[0]) << "tree " << r;
    EXPECT_EQ(reduce[r], gather[r]) << "tree " << r;
  }
}

// All-gather steps (from 2) in which some node of tree 0 sends what it received in the step
// before: in the NI such a step waits a link latency and a memory write more (multitree_opt.cpp).
constexpr uint32_t kNoGap = 0xffffffffu;

std::vector<uint32_t> tight_steps(const Plan& plan) {
  const uint32_t T = plan.steps_per_phase;
  std::vector<uint32_t> joined(plan.nodes, 0);
  for (const Transfer& t : plan.transfers) {
    if (t.flow == 0 && t.op == Op::kGather) joined[t.dst] = t.step - T;
  }
  std::set<uint32_t> tight;
  for (const Transfer& t : plan.transfers) {
    const uint32_t step = t.step - T;
    if (t.flow == 0 && t.op == Op::kGather && step >= 2 && joined[t.src] + 1 == step) {
      tight.insert(step);
    }
  }
  return {tight.begin(), tight.end()};
}

TEST(MultiTreeOpt, LargeChunksForwardAtOnceOnlyInStepTwo) {
  // Step 2 must forward what step 1 brought (the root has no neighbour left). With chunks of
  // 4096 flits and more a gap of 2 hides the forward's latency (StepCost), so the search
  // keeps every later step from forwarding at once.
  for (const char* spec : {"torus:8x8", "torus:8x16", "torus:16x16", "torus:32x32"}) {
    EXPECT_EQ(tight_steps(opt_plan(parse_topology(spec), uint64_t{64} << 20)),
              std::vector<uint32_t>{2})
        << spec;
  }
  // Where the bound is the diameter, the farthest node's path sends in every step.
  EXPECT_EQ(tight_steps(opt_plan(make_torus(4, 4))), (std::vector<uint32_t>{2, 3, 4}));
}

TEST(MultiTreeOpt, SmallChunksGetMoreSlack) {
  // 8 flits a step on torus:16x16 at 32 KiB: a forward needs about four steps of slack, and
  // the search leaves no step of the tree but the first few with less than three.
  const Plan plan = opt_plan(make_torus(16, 16), 32 << 10);
  const uint32_t T = plan.steps_per_phase;
  std::vector<uint32_t> joined(plan.nodes, 0), gap(T + 1, kNoGap);
  for (const Transfer& t : plan.transfers) {
    if (t.flow == 0 && t.op == Op::kGather) joined[t.dst] = t.step - T;
  }
  for (const Transfer& t : plan.transfers) {
    if (t.flow != 0 || t.op != Op::kGather) continue;
    const uint32_t step = t.step - T;
    gap[step] = std::min(gap[step], step - joined[t.src]);
  }
  uint32_t short_gaps = 0;
  for (uint32_t step = 1; step <= T; ++step) short_gaps += gap[step] < 3 ? 1 : 0;
  EXPECT_LE(short_gaps, 8u) << "of " << T << " steps";
  // The same torus at 64 MiB keeps the gap at 2 where it can: steps forward sooner.
  const Plan large = opt_plan(make_torus(16, 16), uint64_t{64} << 20);
  EXPECT_NE(tight_steps(large), tight_steps(plan));
}

// The plan's tables at 64 KiB verify with `steps` per phase, and every node's image decodes back
// to its table.
void tables_verify_and_round_trip(const Topology& topo, const Plan& plan, uint32_t steps) {
  const TableSet tables = compile_tables(plan, TableOptions{});
  const VerifyReport r = verify_tables(tables, topo);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.steps_per_phase, steps);
  for (uint32_t v = 0; v < topo.nodes(); ++v) {
    const DecodedImage d = decode_image(encode_image(tables, v), ImageExpect{v, topo.nodes()});
    EXPECT_EQ(d.table.node, v);
    EXPECT_EQ(d.table.entries, tables.tables[v].entries) << "node " << v;
  }
}

TEST(MultiTreeOpt, TablesVerifyAndImagesRoundTrip) {
  for (const char* spec : {"torus:4x4", "torus:8x8", "torus:3x5"}) {
    SCOPED_TRACE(spec);
    const Topology topo = parse_topology(spec);
    const Plan plan = opt_plan(topo, 64 << 10);
    tables_verify_and_round_trip(topo, plan, plan.steps_per_phase);
  }
}

TEST(MultiTreeOpt, SmallBuffersLeaveEmptyChunksOutAndVerify) {
  // 64 bytes on 16 nodes: 4 chunks of 16 bytes, 12 empty flows with no transfers.
  const Topology topo = make_torus(4, 4);
  const Plan plan = opt_plan(topo, 64);
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(plan.transfers.size(), 4u * 2 * 15);
}

TEST(MultiTreeOpt, IsDeterministic) {
  const Plan a = opt_plan(make_torus(8, 8)), b = opt_plan(make_torus(8, 8));
  ASSERT_EQ(a.transfers.size(), b.transfers.size());
  for (size_t i = 0; i < a.transfers.size(); ++i) {
    EXPECT_EQ(std::tie(a.transfers[i].flow, a.transfers[i].src, a.transfers[i].dst,
                       a.transfers[i].step),
              std::tie(b.transfers[i].flow, b.transfers[i].src, b.transfers[i].dst,
                       b.transfers[i].step));
  }
}

TEST(MultiTreeOpt, RefusesNetworksItDoesNotFit) {
  for (const char* spec : {"mesh:4x4", "fattree:2x3", "fattree:4x3"}) {
    try {
      opt_plan(parse_topology(spec));
      ADD_FAILURE() << spec << " was planned";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(spec));
      EXPECT_THAT(e.what(), HasSubstr("not a torus, ring, BiGraph or two-level fat-tree"));
      EXPECT_THAT(e.what(), HasSubstr("use multitree"));
    }
  }
  try {
    opt_plan(parse_topology("bigraph:4x1"));
    ADD_FAILURE() << "bigraph:4x1 was planned";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bigraph:4x1 has one node per switch"));
    EXPECT_THAT(e.what(), HasSubstr("use multitree"));
  }
}

// One-link switch networks (multitree_opt_switch.cpp): N - 1 steps per phase, verified, one
// message per directed link and step.
void expect_one_link_bound(const std::string& spec, uint64_t bytes = 1 << 20) {
  const Topology topo = parse_topology(spec);
  const Plan plan = opt_plan(topo, bytes);
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_TRUE(r.ok()) << spec << ": " << r.errors.front();
  EXPECT_EQ(plan.steps_per_phase, topo.nodes() - 1)
      << spec << ": " << plan.steps_per_phase << " steps per phase against the bound "
      << topo.nodes() - 1;
  EXPECT_EQ(r.max_step_link_load, 1u) << spec;
}

TEST(MultiTreeOpt, ReachesNMinusOneOnTheWideBiGraphs) {
  // Eight and sixteen nodes on a switch, four links across (Algorithm 1: 105 and 260).
  expect_one_link_bound("bigraph:4x8");
  expect_one_link_bound("bigraph:4x16");
  const Plan alg1 = build_plan(parse_topology("bigraph:4x8"), "multitree", PlanOptions{});
  EXPECT_GT(alg1.steps_per_phase, 63u);
}

TEST(MultiTreeOpt, ReachesNMinusOneOnOtherSwitchNetworks) {
  for (const char* spec : {"bigraph:1x2", "bigraph:1x4", "bigraph:2x2", "bigraph:4x4",
                           "bigraph:8x4", "bigraph:2x4", "bigraph:2x8", "bigraph:3x6", "bigraph:5x3",
                           "fattree:2x2", "fattree:3x2", "fattree:4x2", "fattree:8x2"}) {
    expect_one_link_bound(spec);
  }
  expect_one_link_bound("bigraph:4x8", 64);  // 4 chunks of 16 bytes, 60 empty flows
}

// Every node sends once and receives once in every step, and a non-root sender forwards
// what it received `gap` steps before; the reduce-scatter is the all-gather reversed in time,
// and no route crosses more than one switch-to-switch link.
void expect_one_send_per_step_and_forward_gap(const std::string& spec, uint32_t gap) {
  SCOPED_TRACE(spec);
  const Topology topo = parse_topology(spec);
  const Plan plan = opt_plan(topo, 64 << 10, false);  // packet-based: never shallow trees
  const uint32_t n = topo.nodes(), T = plan.steps_per_phase;
  std::vector<std::vector<uint32_t>> sends(2 * T + 1, std::vector<uint32_t>(n, 0)),
      receives = sends;
  std::vector<std::vector<uint32_t>> joined(n, std::vector<uint32_t>(n, 0));
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> gather, reduce;
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer& t = plan.transfers[i];
    ++sends[t.step][t.src];
    ++receives[t.step][t.dst];
    if (t.op == Op::kGather) {
      joined[t.flow][t.dst] = t.step - T;
      gather.insert({t.flow, t.src, t.dst, t.step - T});
    } else {
      reduce.insert({t.flow, t.dst, t.src, T - t.step + 1});
    }
    uint32_t across = 0;
    for (uint32_t l : plan.routes[i]) {
      across += topo.is_switch(topo.links()[l].src) && topo.is_switch(topo.links()[l].dst);
    }
    EXPECT_LE(across, 1u) << "transfer " << i;
  }
  EXPECT_EQ(gather, reduce);
  for (uint32_t s = 1; s <= 2 * T; ++s) {
    EXPECT_EQ(sends[s], std::vector<uint32_t>(n, 1)) << "step " << s;
    EXPECT_EQ(receives[s], std::vector<uint32_t>(n, 1)) << "step " << s;
  }
  for (const auto& [flow, src, dst, step] : gather) {
    if (src == flow) continue;  // the root sends its own data
    EXPECT_EQ(step - joined[flow][src], gap) << "flow " << flow << " step " << step;
  }
}

// bigraph:4x16 walks its trees with D = 4 (the links across); bigraph:4x8 (as many nodes on
// a switch as switches) and bigraph:2x4 take the labelled trees, D = K - 1.
TEST(MultiTreeOpt, BiGraphStepsAreOneSendPerNodeAndForwardTheGapLater) {
  expect_one_send_per_step_and_forward_gap("bigraph:4x16", 4);
  expect_one_send_per_step_and_forward_gap("bigraph:4x8", 7);
  expect_one_send_per_step_and_forward_gap("bigraph:2x4", 3);
}

TEST(MultiTreeOpt, SwitchNetworkTablesVerifyAndImagesRoundTrip) {
  for (const char* spec : {"bigraph:4x8", "fattree:4x2"}) {
    SCOPED_TRACE(spec);
    const Topology topo = parse_topology(spec);
    tables_verify_and_round_trip(topo, opt_plan(topo, 64 << 10, false), topo.nodes() - 1);
  }
  // Shallow trees (fattree:4x2 at 32 KiB, message-based): two levels.
  const Topology topo = parse_topology("fattree:4x2");
  tables_verify_and_round_trip(topo, opt_plan(topo, 32 << 10), 2);
}

// Shallow trees (multitree_opt_shallow.cpp): taken for message-based runs whose chunks are
// whole lines and whose N - 1-step plan waits for its forwards, D (f + 100) < 650 + f on a
// BiGraph (800 + f on a fat-tree), and whose busiest links are estimated faster.
TEST(MultiTreeOpt, ShallowTreesForSmallMessageBasedRunsOnly) {
  const Topology wide = parse_topology("bigraph:4x16");  // D = 4: f < 75 flits
  EXPECT_EQ(opt_plan(wide, 64 << 10).steps_per_phase, 4u);   // 32 flits a chunk
  EXPECT_EQ(opt_plan(wide, 128 << 10).steps_per_phase, 4u);  // 64
  EXPECT_EQ(opt_plan(wide, 256 << 10).steps_per_phase, 127u);  // 128
  EXPECT_EQ(opt_plan(wide, 16 << 10).steps_per_phase, 127u);   // 128-byte chunks, below a line
  EXPECT_EQ(opt_plan(wide, 64 << 10, false).steps_per_phase, 127u);  // packet-based
  // bigraph:4x8's labelled trees forward 7 steps later: never.
  EXPECT_EQ(opt_plan(parse_topology("bigraph:4x8"), 32 << 10).steps_per_phase, 63u);
  PlanOptions opt;
  opt.bytes = 64 << 10;
  const SwitchGroups g(wide);
  EXPECT_TRUE(shallow_trees_pay(opt, g, 4));
  EXPECT_FALSE(shallow_trees_pay(opt, g, 6));  // 6 (32 + 100) >= 650 + 32: no wait
  opt.message_flow_control = false;
  EXPECT_FALSE(shallow_trees_pay(opt, g, 4));
  // Where the N - 1-step plan waits but the shallow trees' busiest links cost more: bigraph:1x2
  // at 1 MiB (slack 1; 3 messages a node but 4 on the link between the switches).
  opt.message_flow_control = true;
  opt.bytes = 1 << 20;
  EXPECT_FALSE(shallow_trees_pay(opt, SwitchGroups(parse_topology("bigraph:1x2")), 1));
  EXPECT_EQ(opt_plan(parse_topology("bigraph:1x2"), 1 << 20).steps_per_phase, 3u);
  // A fat-tree's forward crosses four links: fattree:8x2 at 128 KiB (f = 128, D = 4) waits.
  EXPECT_EQ(opt_plan(parse_topology("fattree:8x2"), 128 << 10).steps_per_phase, 3u);
}

// Every node sends and receives alike in every step (the trees are one tree moved), and at
// each place of a step's order the receivers are a permutation of the nodes; a node has at
// most 4 children in a tree (the scoreboard's senders per row); the reduce-scatter is the
// all-gather reversed; bigraph:4x16's levels hold 1, 4, 16, 64 and 43 nodes, and 8 of the base
// tree's 127 edges cross between switches (3, 4 and 1 in the first three levels).
TEST(MultiTreeOpt, ShallowTreesAreOneTreeMovedAndEachPlaceIsAPermutation) {
  const Topology topo = parse_topology("bigraph:4x16");
  const Plan plan = opt_plan(topo, 64 << 10);
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  const uint32_t n = topo.nodes(), T = plan.steps_per_phase;
  ASSERT_EQ(T, 4u);
  // Per (step, place in the sender's step): the receivers.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> receivers;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> place;  // (src, step) -> next place
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> children;  // (flow, parent) -> children
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> gather, reduce;
  std::vector<uint32_t> per_level(T + 1, 0), crossing(T + 1, 0);
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer& t = plan.transfers[i];
    receivers[{t.step, place[{t.src, t.step}]++}].push_back(t.dst);
    if (t.op == Op::kGather) {
      gather.insert({t.flow, t.src, t.dst, t.step - T});
      ++children[{t.flow, t.src}];
      if (t.flow == 0) {
        ++per_level[t.step - T];
        crossing[t.step - T] += plan.routes[i].size() > 2;  // node, switch, switch, node
      }
    } else {
      reduce.insert({t.flow, t.dst, t.src, T - t.step + 1});
    }
  }
  EXPECT_EQ(gather, reduce);
  for (const auto& [key, dst] : receivers) {
    ASSERT_EQ(dst.size(), n) << "step " << key.first << " place " << key.second;
    EXPECT_EQ(std::set<uint32_t>(dst.begin(), dst.end()).size(), n)
        << "step " << key.first << " place " << key.second;
  }
  for (const auto& [key, count] : children) EXPECT_LE(count, 4u) << "flow " << key.first;
  EXPECT_EQ(per_level, (std::vector<uint32_t>{0, 4, 16, 64, 43}));
  EXPECT_EQ(crossing, (std::vector<uint32_t>{0, 3, 4, 1, 0}));
}

TEST(MultiTreeOpt, TheSearchStopsAtTheTimeLimit) {
  // Past the up-front estimate (build_plan), the search itself checks the limit between
  // attempts: an attempt on 32x32 takes about 2 ms of processor time.
  PlanOptions opt;
  opt.max_plan_seconds = 1e-9;
  try {
    build_multitree_opt(make_torus(32, 32), opt);
    ADD_FAILURE() << "planned within 1e-9 s";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("torus:32x32: searching the multitree-opt tree took more "
                                    "than the 1e-09 s limit"));
    EXPECT_THAT(e.what(), HasSubstr("the bound 256"));
  }
}

TEST(MultiTreeOpt, Torus32x32IsPlannedWithinTheTimeLimit) {
  // The default limit (10 s of processor time) both in the estimate and in the search.
  const TopologySize size = grid_size(TopologyKind::kTorus, 32, 32);
  EXPECT_NO_THROW(check_plan_size("torus:32x32", size, "multitree-opt", PlanOptions{}));
  const Plan plan = opt_plan(make_torus(32, 32), 1 << 20);
  EXPECT_EQ(plan.steps_per_phase, torus_bound(32, 32));
}

}  // namespace
}  // namespace mt
