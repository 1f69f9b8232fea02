// Baseline all-reduce algorithms (ring, ring-bi, ring2d, dbtree, hdrm): every plan verifies on
// every topology it supports, at sizes that do and do not divide evenly; the Hamiltonian
// cycles, NCCL trees and EFLOPS rank mapping have the properties the algorithms rely on.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "algorithms/hamiltonian_cycle.hpp"
#include "common/error.hpp"
#include "table/schedule_table.hpp"
#include "topology/routing.hpp"
#include "verifier/verifier.hpp"
#include "support/verify_errors.hpp"

namespace mt {
namespace {

const std::vector<std::string> kGrids = {"torus:2x2", "torus:3x3", "torus:4x4", "torus:5x4",
                                         "torus:8x8", "mesh:2x2",  "mesh:3x3",  "mesh:4x4",
                                         "mesh:3x5"};
const std::vector<std::string> kOthers = {"ring:2",        "ring:5",        "ring:8",
                                          "fattree:4x2",   "fattree:2x3",   "bigraph:2x2",
                                          "bigraph:4x4",   "bigraph:2x8"};
const std::vector<uint64_t> kSizes = {4, 12, 1000, 65536, (1u << 20) + 12};

using test::errors_of;

uint32_t ceil_log2(uint32_t n) {
  uint32_t k = 0;
  while ((1u << k) < n) ++k;
  return k;
}

// Steps per phase each algorithm must take (dbtree: with `chunks` chunks per tree).
uint32_t expected_steps(const std::string& algo, const Topology& topo, uint32_t chunks) {
  const uint32_t n = topo.nodes();
  if (algo == "ring" || algo == "ring-bi") return n - 1;
  if (algo == "ring2d") {
    // Both orders run concurrently: each stage lasts as long as the longer side's ring.
    const uint32_t w = topo.width(), h = topo.height();
    return w > 1 && h > 1 ? 2 * (std::max(w, h) - 1) : (w - 1) + (h - 1);
  }
  if (algo == "hdrm") return ceil_log2(n);
  // dbtree: both NCCL trees are ceil(log2 N) edges high, then one step per further chunk.
  return ceil_log2(n) + chunks - 1;
}

bool supports(const std::string& algo, const Topology& topo) {
  if (algo == "ring2d") {
    return topo.kind() == TopologyKind::kTorus || topo.kind() == TopologyKind::kMesh;
  }
  if (algo == "hdrm") {
    const uint32_t n = topo.nodes();
    return topo.kind() == TopologyKind::kBiGraph && (n & (n - 1)) == 0;
  }
  return true;
}

using Case = std::tuple<std::string, std::string>;  // algorithm, topology

class EveryTopology : public ::testing::TestWithParam<Case> {};

// The plan verifies (structure, contention when promised, the NI's waits, the sums), takes the
// algorithm's number of steps, and the tables compiled from it verify too.
TEST_P(EveryTopology, VerifiesAtEverySize) {
  const auto& [algo, spec] = GetParam();
  const Topology topo = parse_topology(spec);
  ASSERT_TRUE(supports(algo, topo));
  for (uint64_t bytes : kSizes) {
    SCOPED_TRACE(fmt::format("{} on {}, {} bytes", algo, spec, bytes));
    PlanOptions opt;
    opt.bytes = bytes;
    const Plan plan = build_plan(topo, algo, opt);
    EXPECT_EQ(plan.algorithm, algo);
    const uint32_t chunks = static_cast<uint32_t>(plan.flows.size() / 2);
    EXPECT_EQ(plan.steps_per_phase, expected_steps(algo, topo, chunks));
    ASSERT_GE(plan.ranges.size(), plan.flows.size());
    for (size_t f = 0; f < plan.flows.size(); ++f) {
      EXPECT_EQ(plan.ranges[f].offset, plan.flows[f].chunk.offset);
      EXPECT_EQ(plan.ranges[f].size, plan.flows[f].chunk.size);
    }
    const VerifyReport r = verify_plan(plan, topo);
    EXPECT_TRUE(r.ok()) << errors_of(r);
    const VerifyReport tr = verify_tables(compile_tables(plan, TableOptions{}), topo);
    EXPECT_TRUE(tr.ok()) << errors_of(tr);
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const char* algo : {"ring", "ring-bi", "ring2d", "dbtree", "hdrm"}) {
    for (const auto* list : {&kGrids, &kOthers}) {
      for (const std::string& spec : *list) {
        if (supports(algo, parse_topology(spec))) cases.emplace_back(algo, spec);
      }
    }
  }
  // Degenerate 2D rings: one row or one column is a 1D ring.
  for (const char* spec : {"torus:5x1", "torus:1x4", "mesh:4x1", "mesh:1x3", "torus:2x5"}) {
    cases.emplace_back("ring2d", spec);
  }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  for (char& c : s) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Baselines, EveryTopology, ::testing::ValuesIn(all_cases()), case_name);

// Fewer elements than chunks leaves some chunks (and ring2d sub-chunks, hdrm blocks) empty;
// their transfers are dropped and the remaining waits must still name real messages.
TEST(Baselines, EveryElementCountUpToTwoPerChunkVerifies) {
  for (const char* spec : {"torus:4x3", "mesh:3x5", "torus:2x5", "bigraph:2x2", "bigraph:2x8",
                           "fattree:2x3"}) {
    const Topology topo = parse_topology(spec);
    for (const char* algo : {"ring", "ring-bi", "ring2d", "dbtree", "hdrm"}) {
      if (!supports(algo, topo)) continue;
      for (uint64_t elements = 1; elements <= 2 * topo.nodes() + 1; ++elements) {
        PlanOptions opt;
        opt.bytes = elements * kElementBytes;
        const Plan plan = build_plan(topo, algo, opt);
        const VerifyReport r = verify_plan(plan, topo);
        EXPECT_TRUE(r.ok()) << algo << " on " << spec << ", " << opt.bytes << " bytes"
                            << errors_of(r);
        const VerifyReport tr = verify_tables(compile_tables(plan, TableOptions{}), topo);
        EXPECT_TRUE(tr.ok()) << algo << " tables on " << spec << ", " << opt.bytes << " bytes"
                             << errors_of(tr);
      }
    }
  }
}

// ---- Hamiltonian cycles -------------------------------------------------------------------

void expect_cycle(const Topology& topo, const RingCycle& c) {
  ASSERT_EQ(c.order.size(), topo.nodes()) << topo.spec();
  std::vector<bool> seen(topo.nodes(), false);
  for (uint32_t v : c.order) {
    ASSERT_LT(v, topo.nodes()) << topo.spec();
    EXPECT_FALSE(seen[v]) << topo.spec() << ": node " << v << " twice";
    seen[v] = true;
  }
  bool all_links = true;
  for (size_t i = 0; i < c.order.size(); ++i) {
    all_links = all_links && topo.adjacent(c.order[i], c.order[(i + 1) % c.order.size()]);
  }
  EXPECT_EQ(c.one_hop, all_links) << topo.spec();
}

TEST(HamiltonianCycle, EveryTorusHasAOneHopCycle) {
  for (uint32_t w = 1; w <= 7; ++w) {
    for (uint32_t h = 1; h <= 7; ++h) {
      if (w * h < 2) continue;
      const Topology topo = make_torus(w, h);
      const RingCycle c = hamiltonian_cycle(topo);
      expect_cycle(topo, c);
      EXPECT_TRUE(c.one_hop) << topo.spec();
    }
  }
}

TEST(HamiltonianCycle, MeshIsOneHopExactlyWhenASideIsEven) {
  for (uint32_t w = 1; w <= 7; ++w) {
    for (uint32_t h = 1; h <= 7; ++h) {
      if (w * h < 2) continue;
      const Topology topo = make_mesh(w, h);
      const RingCycle c = hamiltonian_cycle(topo);
      expect_cycle(topo, c);
      // A grid is bipartite: an odd node count has no cycle; a line has none beyond 2 nodes.
      const bool possible = (w * h) == 2 || (w >= 2 && h >= 2 && (w * h) % 2 == 0);
      EXPECT_EQ(c.one_hop, possible) << topo.spec();
      if (w >= 3 && h >= 3 && (w * h) % 2 == 1) {
        // Odd x odd: the single non-link hop is two links long.
        size_t far = 0;
        for (size_t i = 0; i < c.order.size(); ++i) {
          const uint32_t a = c.order[i], b = c.order[(i + 1) % c.order.size()];
          if (topo.adjacent(a, b)) continue;
          ++far;
          EXPECT_EQ(route(topo, a, b).size(), 2u) << topo.spec();
        }
        EXPECT_EQ(far, 1u) << topo.spec();
      }
    }
  }
}

TEST(HamiltonianCycle, SwitchNetworksKeepIdOrder) {
  for (const char* spec : {"fattree:4x2", "bigraph:2x2"}) {
    const Topology topo = parse_topology(spec);
    const RingCycle c = hamiltonian_cycle(topo);
    expect_cycle(topo, c);
    EXPECT_FALSE(c.one_hop) << spec;
    for (uint32_t i = 0; i < topo.nodes(); ++i) EXPECT_EQ(c.order[i], i) << spec;
  }
}

// A file topology's JSON text with the given undirected node-to-node links.
std::string graph_json(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  std::string nodes, links;
  for (uint32_t i = 0; i < n; ++i) nodes += fmt::format("{}{}", i ? "," : "", i);
  for (size_t i = 0; i < edges.size(); ++i) {
    links += fmt::format("{}{{\"a\":\"n{}\",\"b\":\"n{}\"}}", i ? "," : "", edges[i].first,
                         edges[i].second);
  }
  return fmt::format("{{\"nodes\":[{}],\"links\":[{}]}}", nodes, links);
}

TEST(HamiltonianCycle, SmallFileTopologyIsSearched) {
  // The 3-cube: Hamiltonian, but not in id order (0-1-2 are not linked in a row).
  std::vector<std::pair<uint32_t, uint32_t>> cube;
  for (uint32_t v = 0; v < 8; ++v) {
    for (uint32_t bit = 1; bit < 8; bit <<= 1) {
      if ((v & bit) == 0) cube.emplace_back(v, v | bit);
    }
  }
  const Topology topo = parse_topology_json(graph_json(8, cube), "file:cube.json");
  const RingCycle c = hamiltonian_cycle(topo);
  expect_cycle(topo, c);
  EXPECT_TRUE(c.one_hop);
  const Plan plan = build_ring(topo, PlanOptions{});
  EXPECT_TRUE(plan.neighbour_only);
  EXPECT_TRUE(plan.contention_free);
  const VerifyReport r = verify_plan(plan, topo);
  EXPECT_TRUE(r.ok()) << errors_of(r);
}

TEST(HamiltonianCycle, NonHamiltonianFileTopologyFallsBackToIdOrder) {
  // The Petersen graph has no Hamiltonian cycle.
  const std::vector<std::pair<uint32_t, uint32_t>> petersen = {
      {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}, {1, 6}, {2, 7},
      {3, 8}, {4, 9}, {5, 7}, {7, 9}, {9, 6}, {6, 8}, {8, 5}};
  const Topology topo = parse_topology_json(graph_json(10, petersen), "file:petersen.json");
  const RingCycle c = hamiltonian_cycle(topo);
  expect_cycle(topo, c);
  EXPECT_FALSE(c.one_hop);
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(c.order[i], i);
  const Plan plan = build_ring(topo, PlanOptions{});
  EXPECT_FALSE(plan.neighbour_only);
  EXPECT_FALSE(plan.contention_free);
  const VerifyReport r = verify_plan(plan, topo);
  EXPECT_TRUE(r.ok()) << errors_of(r);
}

// ---- ring and ring-bi ---------------------------------------------------------------------

TEST(Ring, OneHopAndContentionFreeOnTorusAndEvenMesh) {
  for (const char* spec : {"torus:2x2", "torus:3x3", "torus:5x4", "torus:8x8", "mesh:2x2",
                                  "mesh:4x4", "mesh:3x4", "ring:5", "ring:2"}) {
    const Topology topo = parse_topology(spec);
    for (const char* algo : {"ring", "ring-bi"}) {
      const Plan plan = build_plan(topo, algo, PlanOptions{});
      EXPECT_TRUE(plan.neighbour_only) << algo << " " << spec;
      EXPECT_TRUE(plan.contention_free) << algo << " " << spec;
      const VerifyReport r = verify_plan(plan, topo);
      EXPECT_TRUE(r.ok()) << algo << " " << spec << errors_of(r);
      EXPECT_EQ(r.max_step_link_load, 1u) << algo << " " << spec;
    }
  }
}

TEST(Ring, MultiHopWhereNoOneHopCycleExists) {
  for (const char* spec : {"mesh:3x3", "mesh:3x5", "mesh:5x1", "fattree:4x2",
                                  "bigraph:2x2"}) {
    const Topology topo = parse_topology(spec);
    for (const char* algo : {"ring", "ring-bi"}) {
      const Plan plan = build_plan(topo, algo, PlanOptions{});
      EXPECT_FALSE(plan.neighbour_only) << algo << " " << spec;
      EXPECT_FALSE(plan.contention_free) << algo << " " << spec;
      EXPECT_EQ(plan.routes.empty(), topo.direct()) << algo << " " << spec;
    }
  }
}

TEST(Ring, EveryNodeSendsOneChunkPerStepToItsSuccessor) {
  const Topology topo = make_torus(4, 4);
  const Plan plan = build_ring(topo, PlanOptions{});
  const RingCycle c = hamiltonian_cycle(topo);
  std::vector<uint32_t> next(16);
  for (uint32_t i = 0; i < 16; ++i) next[c.order[i]] = c.order[(i + 1) % 16];
  std::map<std::pair<uint32_t, uint32_t>, int> per_node_step;
  for (const Transfer& t : plan.transfers) {
    EXPECT_EQ(t.dst, next[t.src]);
    EXPECT_EQ(t.range, t.flow);
    ++per_node_step[{t.src, t.step}];
  }
  EXPECT_EQ(per_node_step.size(), 16u * 30u);
  for (const auto& [key, count] : per_node_step) EXPECT_EQ(count, 1);
}

TEST(RingBi, HalfTheDataGoesEachWay) {
  const Topology topo = make_torus(4, 4);
  PlanOptions opt;
  opt.bytes = 4096;
  const Plan plan = build_ring_bi(topo, opt);
  ASSERT_EQ(plan.flows.size(), 32u);
  uint64_t cw = 0, ccw = 0;
  for (uint32_t f = 0; f < 32; ++f) (f < 16 ? cw : ccw) += plan.flows[f].chunk.size;
  EXPECT_EQ(cw, 2048u);
  EXPECT_EQ(ccw, 2048u);
  // Clockwise flows use the cycle's links, counter-clockwise flows the opposite ones.
  std::set<std::pair<uint32_t, uint32_t>> fwd, back;
  for (const Transfer& t : plan.transfers) (t.flow < 16 ? fwd : back).insert({t.src, t.dst});
  EXPECT_EQ(fwd.size(), 16u);
  for (const auto& [a, b] : fwd) EXPECT_EQ(back.count({b, a}), 1u);
}

// ---- ring2d -------------------------------------------------------------------------------

TEST(Ring2d, OneHopOnTorusMultiHopOnLargerMesh) {
  EXPECT_TRUE(build_ring2d(make_torus(5, 4), PlanOptions{}).contention_free);
  EXPECT_TRUE(build_ring2d(make_torus(5, 4), PlanOptions{}).neighbour_only);
  EXPECT_TRUE(build_ring2d(make_mesh(2, 2), PlanOptions{}).neighbour_only);
  EXPECT_FALSE(build_ring2d(make_mesh(4, 4), PlanOptions{}).neighbour_only);
  EXPECT_FALSE(build_ring2d(make_mesh(4, 4), PlanOptions{}).contention_free);
}

// On a torus with sides larger than 2, every directed link carries exactly one transfer in
// every step of both phases: the rows-first and columns-first halves, each both ways round.
TEST(Ring2d, EveryLinkCarriesOneTransferInEveryStep) {
  for (const char* spec : {"torus:3x3", "torus:4x4", "torus:8x8"}) {
    const Topology topo = parse_topology(spec);
    const Plan plan = build_ring2d(topo, PlanOptions{});
    std::map<uint32_t, std::set<std::pair<uint32_t, uint32_t>>> links_in_step;
    for (const Transfer& t : plan.transfers) {
      ASSERT_TRUE(topo.adjacent(t.src, t.dst)) << spec;
      EXPECT_TRUE(links_in_step[t.step].insert({t.src, t.dst}).second) << spec << " step " << t.step;
    }
    ASSERT_EQ(links_in_step.size(), plan.total_steps()) << spec;
    for (const auto& [step, links] : links_in_step) {
      EXPECT_EQ(links.size(), 4u * topo.nodes()) << spec << " step " << step;
    }
    const VerifyReport r = verify_plan(plan, topo);
    EXPECT_TRUE(r.ok()) << spec << errors_of(r);
    EXPECT_EQ(r.max_step_link_load, 1u) << spec;
  }
}

// Half of the data goes rows first, half columns first; within each half a quarter of the
// data each way round. On a 4x3 torus both first stages last 3 steps (the longer side).
TEST(Ring2d, HalfRowsFirstHalfColumnsFirstBothWays) {
  const Topology topo = make_torus(4, 3);
  PlanOptions opt;
  opt.bytes = 48 * 1024;
  const Plan plan = build_ring2d(topo, opt);
  const uint32_t T = plan.steps_per_phase;
  ASSERT_EQ(T, 6u);
  ASSERT_EQ(plan.flows.size(), 4u * 12u);
  // Which dimension each flow's first Reduce step uses tells its order.
  std::map<uint32_t, uint64_t> bytes_by_kind;  // 0 rows-first +, 1 rows-first -, 2 cols +, 3 cols -
  for (const Transfer& t : plan.transfers) {
    const bool row = topo.y_of(t.src) == topo.y_of(t.dst);
    const uint32_t share = t.flow / 12;  // shares: rows +, rows -, columns +, columns -
    const uint32_t s = t.step > T ? t.step - T : t.step;
    const bool first_stage = t.op == Op::kReduce ? s <= 3 : s > 3;
    EXPECT_EQ(row, (share < 2) == first_stage) << "flow " << t.flow << " step " << t.step;
    const uint32_t x = topo.x_of(t.src), y = topo.y_of(t.src);
    const bool plus = row ? t.dst == y * 4 + (x + 1) % 4 : t.dst == ((y + 1) % 3) * 4 + x;
    EXPECT_EQ(plus, share % 2 == 0) << "flow " << t.flow << " step " << t.step;
  }
  for (uint32_t f = 0; f < plan.flows.size(); ++f) bytes_by_kind[f / 12] += plan.flows[f].chunk.size;
  for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(bytes_by_kind[k], opt.bytes / 4) << "share " << k;
}

// A side of 2 has one link per direction, which both ring directions would share: both
// orders run one way only and stay contention-free.
TEST(Ring2d, TwoWideSideRunsOneWay) {
  const Topology topo = make_torus(2, 5);
  const Plan plan = build_ring2d(topo, PlanOptions{});
  EXPECT_EQ(plan.flows.size(), 2u * 10u);
  EXPECT_TRUE(plan.contention_free);
  const VerifyReport r = verify_plan(plan, topo);
  EXPECT_TRUE(r.ok()) << errors_of(r);
  EXPECT_EQ(r.max_step_link_load, 1u);
}

TEST(Ring2d, RejectsOtherTopologiesNamingThem) {
  for (const char* spec : {"ring:8", "fattree:4x2", "bigraph:2x2"}) {
    try {
      build_plan(parse_topology(spec), "ring2d", PlanOptions{});
      ADD_FAILURE() << spec << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
}

// ---- dbtree -------------------------------------------------------------------------------

// Parent of every node in flow f's reduce tree, from the plan's Reduce transfers.
std::vector<int> reduce_parents(const Plan& plan, uint32_t f) {
  std::vector<int> parent(plan.nodes, -1);
  for (const Transfer& t : plan.transfers) {
    if (t.flow != f || t.op != Op::kReduce) continue;
    EXPECT_EQ(parent[t.src], -1) << "node " << t.src << " reduces flow " << f << " twice";
    parent[t.src] = static_cast<int>(t.dst);
  }
  return parent;
}

PlanOptions one_chunk() {
  PlanOptions opt;
  opt.chunks = 1;
  return opt;
}

TEST(DBTree, FollowsNcclTrees) {
  // NCCL's trees.cc illustration for 14 ranks: tree A 0-8, 8-{4,12}, 12-{10,13}, ...; tree B
  // mirrored: 13-5, 5-{9,1}, ...
  const Plan plan = build_dbtree(make_ring(14), one_chunk());
  const std::vector<int> a = reduce_parents(plan, 0), b = reduce_parents(plan, 1);
  const std::vector<int> want_a = {-1, 2, 4, 2, 8, 6, 4, 6, 0, 10, 12, 10, 8, 12};
  EXPECT_EQ(a, want_a);
  for (int r = 0; r < 14; ++r) {
    const int pa = want_a[static_cast<size_t>(13 - r)];
    EXPECT_EQ(b[static_cast<size_t>(r)], pa < 0 ? -1 : 13 - pa) << "rank " << r;
  }
  EXPECT_EQ(plan.flows[0].root, 0u);
  EXPECT_EQ(plan.flows[1].root, 13u);
  // Odd N: tree B is tree A shifted by one rank, rooted at 1.
  const Plan odd = build_dbtree(make_ring(13), one_chunk());
  const std::vector<int> oa = reduce_parents(odd, 0), ob = reduce_parents(odd, 1);
  EXPECT_EQ(odd.flows[1].root, 1u);
  for (int r = 0; r < 13; ++r) {
    const int p = oa[static_cast<size_t>((r + 12) % 13)];
    EXPECT_EQ(ob[static_cast<size_t>(r)], p < 0 ? -1 : (p + 1) % 13) << "rank " << r;
  }
}

// Chunk k of a tree goes up one round after chunk k-1 and down one round after it: a node
// sends chunk k at (its chunk-0 step) + k in both phases; every chunk uses the same tree.
TEST(DBTree, ChunksArePipelinedThroughBothTrees) {
  for (uint32_t n : {2u, 5u, 14u, 16u, 64u}) {
    PlanOptions opt;
    opt.chunks = 5;
    opt.bytes = 4096;
    const Plan plan = build_dbtree(make_ring(n), opt);
    ASSERT_EQ(plan.flows.size(), 10u);
    EXPECT_EQ(plan.steps_per_phase, ceil_log2(n) + 4) << "N " << n;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, int>, uint32_t> step_of;  // tree, src, dst, op
    for (const Transfer& t : plan.transfers) {
      const uint32_t tree = t.flow / 5, k = t.flow % 5;
      const auto key = std::make_tuple(tree, t.src, t.dst, static_cast<int>(t.op));
      if (k == 0) step_of[key] = t.step;
    }
    for (const Transfer& t : plan.transfers) {
      const auto key = std::make_tuple(t.flow / 5, t.src, t.dst, static_cast<int>(t.op));
      ASSERT_EQ(step_of.count(key), 1u) << "N " << n << " flow " << t.flow;
      EXPECT_EQ(t.step, step_of[key] + t.flow % 5) << "N " << n << " flow " << t.flow;
    }
    // Both trees work in the same steps.
    std::set<uint32_t> steps_a, steps_b;
    for (const Transfer& t : plan.transfers) (t.flow < 5 ? steps_a : steps_b).insert(t.step);
    if (n > 2) {
      EXPECT_EQ(steps_a, steps_b) << "N " << n;
    }
    const VerifyReport r = verify_plan(plan, make_ring(n));
    EXPECT_TRUE(r.ok()) << errors_of(r);
  }
}

TEST(DBTree, LeavesOfOneTreeAreInnerNodesOfTheOther) {
  for (uint32_t n = 2; n <= 64; ++n) {
    const Plan plan = build_dbtree(make_ring(n), one_chunk());
    std::vector<std::set<uint32_t>> inner(2);
    for (const Transfer& t : plan.transfers) {
      if (t.op == Op::kReduce) inner[t.flow].insert(t.dst);
    }
    // Only tree A's root (rank 0, one child) may be inner in both trees.
    size_t both = 0;
    for (uint32_t v : inner[0]) both += inner[1].count(v);
    EXPECT_LE(both, n % 2 == 1 ? 1u : 0u) << "N " << n;
    for (uint32_t f = 0; f < 2; ++f) {
      const std::vector<int> parent = reduce_parents(plan, f);
      for (uint32_t v = 0; v < n; ++v) EXPECT_EQ(parent[v] < 0, v == plan.flows[f].root);
    }
  }
}

// The default chunk count grows with the square root of the size (dbtree.cpp) and is never
// more than one element per chunk.
TEST(DBTree, DefaultChunksFollowTheSize) {
  const Topology topo = make_torus(4, 4);  // 4 levels
  auto chunks = [&](uint64_t bytes) {
    PlanOptions opt;
    opt.bytes = bytes;
    return build_dbtree(topo, opt).flows.size() / 2;
  };
  EXPECT_EQ(chunks(64 * 1024), 2u);        // sqrt(3 * 32 KiB / 16 KiB) = 2.4
  EXPECT_EQ(chunks(1 << 20), 10u);         // sqrt(3 * 512 KiB / 16 KiB) = 9.8
  EXPECT_EQ(chunks(4 * 1024 * 1024), 20u); // sqrt(3 * 2 MiB / 16 KiB) = 19.6
  EXPECT_EQ(chunks(8), 1u);                // one element per tree
}

// ---- hdrm ---------------------------------------------------------------------------------

// Most transfers any directed link carries in one step, counted with route().
uint32_t max_link_load(const Plan& plan, const Topology& topo) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> load;  // (step, link)
  uint32_t most = 0;
  for (const Transfer& t : plan.transfers) {
    for (uint32_t l : route(topo, t.src, t.dst)) most = std::max(most, ++load[{t.step, l}]);
  }
  return most;
}

TEST(Hdrm, ContentionFreeWhenSwitchesHaveAsManyPeersAsNodes) {
  for (const char* spec : {"bigraph:2x2", "bigraph:4x4", "bigraph:4x2", "bigraph:8x8"}) {
    const Topology topo = parse_topology(spec);
    const Plan plan = build_hdrm(topo, PlanOptions{});
    EXPECT_TRUE(plan.contention_free) << spec;
    EXPECT_EQ(max_link_load(plan, topo), 1u) << spec;
    // Every pair is one upper and one lower node (EFLOPS; paper §II-C).
    const uint32_t half_nodes = topo.nodes() / 2;
    for (const Transfer& t : plan.transfers) {
      EXPECT_NE(t.src < half_nodes, t.dst < half_nodes) << spec << " " << t.src << "->" << t.dst;
    }
    const VerifyReport r = verify_plan(plan, topo);
    EXPECT_TRUE(r.ok()) << spec << errors_of(r);
  }
}

TEST(Hdrm, MoreNodesThanUplinksSharesLinksOnlyAcrossHalves) {
  // 8 nodes per switch, 2 links to the other half: crossing steps carry 4 per link; the first
  // two steps stay on each switch.
  const Topology topo = parse_topology("bigraph:2x8");
  const Plan plan = build_hdrm(topo, PlanOptions{});
  EXPECT_FALSE(plan.contention_free);
  EXPECT_EQ(max_link_load(plan, topo), 4u);
  for (const Transfer& t : plan.transfers) {
    const uint32_t s = t.step > 5 ? 11 - t.step : t.step;  // all-gather mirrors
    EXPECT_EQ(t.src / 8 == t.dst / 8, s <= 2) << "step " << t.step;
  }
}

TEST(Hdrm, DataHalvesEveryStep) {
  const Topology topo = parse_topology("bigraph:2x2");
  PlanOptions opt;
  opt.bytes = 8 * 1024;
  const Plan plan = build_hdrm(topo, opt);
  for (const Transfer& t : plan.transfers) {
    const uint32_t s = t.step > 3 ? 7 - t.step : t.step;
    EXPECT_EQ(plan.ranges[t.range].size, opt.bytes >> s) << "step " << t.step;
  }
  EXPECT_EQ(plan.transfers.size(), 2u * 3u * 8u);
}

TEST(Hdrm, RejectsOtherTopologiesAndNonPowersOfTwo) {
  for (const char* spec : {"torus:4x4", "fattree:2x3", "bigraph:3x2", "bigraph:2x3"}) {
    try {
      build_plan(parse_topology(spec), "hdrm", PlanOptions{});
      ADD_FAILURE() << spec << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace mt
