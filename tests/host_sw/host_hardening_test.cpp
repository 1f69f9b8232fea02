// Issue 11's bad-input sweep against mtc and the host library, one reproducer per defect: JSON
// numbers out of range, switch networks where not every node reaches every node, write errors,
// unreadable inputs and option values that used to wrap or be guessed.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "common/input_file.hpp"
#include "support/run_command.hpp"
#include "support/scratch_dir.hpp"
#include "support/swapped_steps_set.hpp"
#include "table/schedule_table.hpp"
#include "topology/routing.hpp"
#include "topology/topology.hpp"
#include "verifier/verifier.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using mt::test::hidden_names;
using mt::test::run_command;

const std::string kMtc = MTC_EXE;

std::string temp_dir(const std::string& name) {
  return mt::test::fresh_dir("mtc_hardening_", name);
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Defect 4: a number beyond a double is bad input naming the file, in a topology file and in
// an image set's manifest.
TEST(Hardening, NumberOverflowInJsonIsBadInput) {
  EXPECT_THROW(mt::parse_topology_json(R"({"nodes":[0,1],"links":[{"a":"n0","b":"n1","width":1e400}]})",
                                       "file:t.json"),
               mt::InputError);
  const std::string dir = temp_dir("overflow");
  write(dir + "/t.json", R"({"nodes":[0,1e400],"links":[]})");
  const auto t = run_command(kMtc + " plan -a ring -t file:" + dir + "/t.json");
  EXPECT_EQ(t.code, 1) << t.out;
  EXPECT_THAT(t.out, HasSubstr(dir + "/t.json"));
  ASSERT_EQ(run_command(kMtc + " plan -t ring:4 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  std::ifstream in(dir + "/s/manifest.json");
  std::string m((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  m.replace(m.find("\"bytes\": 4096"), 13, "\"bytes\": 1e400");
  write(dir + "/s/manifest.json", m);
  const auto s = run_command(kMtc + " show " + dir + "/s");
  EXPECT_EQ(s.code, 1) << s.out;
  EXPECT_THAT(s.out, HasSubstr("manifest.json"));
}

// Defect 5: with switches, nodes do not forward: n1 cannot reach n2 through n0.
TEST(Hardening, EveryNodeMustReachEveryNodeWithSwitches) {
  try {
    mt::parse_topology_json(R"({"nodes":[0,1,2],"switches":[0],"links":[{"a":"n0","b":"n1"},)"
                            R"({"a":"n0","b":"n2"},{"a":"n2","b":"s0"}]})",
                            "file:t.json");
    ADD_FAILURE() << "accepted";
  } catch (const mt::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot be reached from node"));
  }
  // A switch linked to nothing reaches no node.
  EXPECT_THROW(mt::parse_topology_json(R"({"nodes":[0,1],"switches":[0,1],"links":[)"
                                       R"({"a":"n0","b":"s0"},{"a":"n1","b":"s0"}]})",
                                       "file:t.json"),
               mt::InputError);
  // Real switch networks still pass.
  EXPECT_NO_THROW(mt::parse_topology("fattree:4x3"));
  EXPECT_NO_THROW(mt::parse_topology("bigraph:4x4"));
}

// Defect 6: building a large torus is linear in its links.
TEST(Hardening, LargeTorusBuildsInLinearTime) {
  const auto t0 = std::chrono::steady_clock::now();
  const mt::Topology t = mt::parse_topology("torus:512x512");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(t.nodes(), 512u * 512u);
  EXPECT_LT(s, 5.0);
}

// Plans, verifies, compiles and verifies the tables of `algorithm` on `spec` (4 KiB); seconds.
// Processor time of this process, so that other work on the machine (a parallel ctest, a
// build) does not stretch one measurement of a pair against the other.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double plan_pipeline_seconds(const std::string& spec, const std::string& algorithm) {
  const double t0 = cpu_seconds();
  const mt::Topology topo = mt::parse_topology(spec);
  mt::PlanOptions po;
  po.bytes = 4096;
  const mt::Plan plan = mt::build_plan(topo, algorithm, po);
  EXPECT_TRUE(mt::verify_plan(plan, topo).ok()) << algorithm << " on " << spec;
  EXPECT_TRUE(mt::verify_tables(mt::compile_tables(plan, mt::TableOptions{}), topo).ok())
      << algorithm << " on " << spec;
  return cpu_seconds() - t0;
}

// Defect 6, the plans: dbtree on fattree:16x4 took 176 s (a search from every node for the
// diameter, a breadth-first route that cleared all vertices per transfer); now well under a
// second.
TEST(Hardening, LargeFatTreePlansQuickly) {
  EXPECT_LT(plan_pipeline_seconds("fattree:16x4", "dbtree"), 30.0);
}

// Defect 6, the plans: the verifier's sums cost N/64 words per Reduce, so ring2d time grew
// with N^2 per byte (18x from torus:64x64 to 128x128; now about 4x, the transfers' growth).
TEST(Hardening, Ring2dPlanTimeGrowsWithThePlan) {
  const double small = plan_pipeline_seconds("torus:64x64", "ring2d");
  const double large = plan_pipeline_seconds("torus:128x128", "ring2d");
  EXPECT_LT(large, 9 * small) << small << " s, then " << large << " s";
}

// Defect 6: plans this machine cannot hold are refused up front, with the estimate.
TEST(Hardening, PlansTooLargeForMemoryAreRefusedUpFront) {
  // Terabytes: a ring2d table has an entry per step (2 * 16383 per phase here), a dbtree plan
  // a transfer per chunk and tree edge.
  for (const std::string& args : {std::string("-t torus:16384x16 -a ring2d -b 4KiB"),
                                  std::string("-t torus:100x100 -a dbtree -b 1GiB --dbtree-chunks 1000000")}) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_command(kMtc + " plan " + args);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("GiB of memory; this machine has")) << args;
    EXPECT_LT(s, 10.0) << args;
  }
}

// Defect 6: plans that would take far more than the issue's 10 s (ring2d on torus:256x256
// prints 4.3 GB of tables) are refused up front, with the estimate; plans that take seconds
// are not. Since the tables are streamed (issue 15) a transfer costs about 0.5 us, not 0.8:
// ring on torus:64x64 at 4 KiB (8.4e6 transfers, 2.5e7 NOPs, 4.8 CPU seconds) is accepted
// now; MultiTree on torus:64x64 at 1 MiB (3.4e7 transfers) still takes 26 to 31 CPU seconds
// to write its images and stays refused.
TEST(Hardening, PlansTooSlowToFinishAreRefusedUpFront) {
  for (const std::string& args :
       {std::string("plan -t torus:256x256 -a ring2d -b 4KiB"),
        std::string("plan -t torus:1000x1000 -a dbtree -b 4KiB"),
        std::string("plan -t fattree:32x4 -a dbtree -b 4KiB"),
        std::string("plan -t torus:64x64 -a multitree -b 1MiB"),
        std::string("plan -t fattree:32x2 -a multitree -b 64"),
        std::string("plan -t bigraph:64x128 -a hdrm -b 1MiB"),
        std::string("plan -t torus:48x48 -a multitree -b 4KiB --prioritize-height"),
        std::string("dot -t torus:64x64 -a multitree -b 1MiB")}) {
    const auto r = run_command(kMtc + " " + args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("table entries")) << args;
    EXPECT_THAT(r.out, HasSubstr("more than the 10 s limit")) << args;
  }
  struct Case {
    const char* spec;
    const char* algorithm;
    uint64_t bytes;
  };
  // Each runs in 1 to 8 s with mtc on a loaded 2-core machine.
  for (const Case& c :
       {Case{"torus:128x128", "ring2d", 4096}, Case{"torus:180x180", "ring2d", 4096},
        Case{"torus:700x700", "dbtree", 4096}, Case{"torus:48x48", "ring", 4096},
        Case{"torus:64x64", "ring", 4096},
        Case{"torus:64x64", "multitree", 4096}, Case{"torus:48x48", "multitree", 1 << 20},
        Case{"fattree:16x4", "dbtree", 4096}, Case{"bigraph:16x64", "hdrm", 1 << 20},
        Case{"torus:64x64", "multitree", 64}, Case{"fattree:8x3", "multitree", 4096},
        Case{"bigraph:16x16", "multitree", 1 << 20}}) {
    mt::PlanOptions po;
    po.bytes = c.bytes;
    const auto size = mt::topology_size(c.spec);
    ASSERT_TRUE(size.has_value()) << c.spec;
    EXPECT_NO_THROW(mt::check_plan_size(c.spec, *size, c.algorithm, po))
        << c.algorithm << " " << c.spec;
  }
  // dbtree on a file searches a route from every node to its tree neighbours: a 50,000-node
  // network (87 s) is refused, a 2,000-node one is not.
  mt::PlanOptions po;
  po.bytes = 4096;
  mt::TopologySize file{50000, 0, 280000, 0, 0, 1, mt::TopologyKind::kFile};
  EXPECT_THROW(mt::check_plan_size("file:big.json", file, "dbtree", po), mt::InputError);
  file.nodes = 2000;
  file.links = 11200;
  EXPECT_NO_THROW(mt::check_plan_size("file:small.json", file, "dbtree", po));
}

// The limit is an option: mtc --time-limit lowers it, raises it, or lifts it (0); a value that
// is not a number of seconds is refused.
TEST(Hardening, PlanTimeLimitIsAnOption) {
  const std::string plan = kMtc + " plan -t torus:64x64 -a ring2d -b 4KiB";
  EXPECT_EQ(run_command(plan + " > /dev/null").code, 0);
  const auto low = run_command(plan + " --time-limit 0.05");
  EXPECT_EQ(low.code, 1) << low.out;
  EXPECT_THAT(low.out, HasSubstr("more than the 0.05 s limit (mtc and mtsim --time-limit set it)"));
  mt::PlanOptions po;
  po.bytes = 4096;
  const mt::TopologySize size = *mt::topology_size("torus:256x256");
  EXPECT_THROW(mt::check_plan_size("torus:256x256", size, "ring2d", po), mt::InputError);
  po.max_plan_seconds = 30;
  EXPECT_NO_THROW(mt::check_plan_size("torus:256x256", size, "ring2d", po));
  po.max_plan_seconds = 0;
  EXPECT_NO_THROW(mt::check_plan_size("torus:256x256", size, "ring2d", po));
  for (const char* bad : {"-1", "nan", "inf", "1e999", "''", "ten", "2x"}) {
    const auto r = run_command(plan + " --time-limit " + bad);
    EXPECT_EQ(r.code, 1) << bad;
    EXPECT_THAT(r.out, HasSubstr("is not a number of seconds")) << bad;
  }
}

// The estimate cannot know every network's tree building (a 1,000-node random network given as
// a file takes 2.3 s, far above its estimate): MultiTree stops building once the limit's
// processor time has passed, and says so.
TEST(Hardening, MultiTreeStopsBuildingAtTheTimeLimit) {
  mt::PlanOptions po;
  po.bytes = 64;
  po.max_plan_seconds = 0.05;  // torus:48x48's trees take about 0.5 s
  try {
    mt::build_multitree(mt::parse_topology("torus:48x48"), po);
    ADD_FAILURE() << "built within 0.05 s";
  } catch (const mt::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("topology torus:48x48: building the 2304 MultiTree trees took "
                                    "more than the 0.05 s limit"));
    EXPECT_THAT(e.what(), HasSubstr("mtc and mtsim --time-limit set it"));
  }
  po.max_plan_seconds = 0;
  EXPECT_EQ(mt::build_multitree(mt::parse_topology("torus:8x8"), po).steps_per_phase, 17u);
}

// Defect 6: fattree:64x4 took 6 s and 2.4 GB to build before the size check refused it. The
// check now reads the size from the spec: with 1 GB of address space, the refusal, not
// std::bad_alloc.
TEST(Hardening, NetworksTooLargeToPlanAreRefusedBeforeTheyAreBuilt) {
  for (const std::string& args : {std::string("plan -t fattree:64x4 -a dbtree -b 4KiB"),
                                  std::string("plan -t fattree:64x4 -a multitree"),
                                  std::string("dot -t torus:4096x4096 -a dbtree")}) {
    const auto r = run_command("ulimit -v 1000000; " + kMtc + " " + args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("topology ")) << args;
    EXPECT_THAT(r.out, Not(HasSubstr("bad_alloc"))) << args;
  }
}

// The size a spec names, read without building, is the size of what is built.
TEST(Hardening, SpecSizeIsTheBuiltSize) {
  for (const char* spec :
       {"torus:4x4", "torus:2x5", "torus:1x9", "torus:2x2", "torus:3x1", "mesh:1x7", "mesh:2x2",
        "mesh:5x3", "ring:2", "ring:3", "ring:10", "fattree:2x1", "fattree:3x3", "fattree:4x2",
        "fattree:2x5", "bigraph:1x1", "bigraph:3x2"}) {
    const auto size = mt::topology_size(spec);
    ASSERT_TRUE(size.has_value()) << spec;
    const mt::TopologySize built = mt::parse_topology(spec).size();
    EXPECT_EQ(size->nodes, built.nodes) << spec;
    EXPECT_EQ(size->switches, built.switches) << spec;
    EXPECT_EQ(size->links, built.links) << spec;
    EXPECT_EQ(size->width, built.width) << spec;
    EXPECT_EQ(size->height, built.height) << spec;
    EXPECT_EQ(size->min_node_degree, built.min_node_degree) << spec;
    EXPECT_EQ(size->kind, built.kind) << spec;
  }
  for (const char* spec :
       {"torus:4097x4097", "fattree:1x3", "fattree:2x25", "bigraph:0x3", "ring:x", "cube:3"}) {
    EXPECT_THROW(mt::topology_size(spec), mt::InputError) << spec;
    EXPECT_THROW(mt::parse_topology(spec), mt::InputError) << spec;
  }
  EXPECT_FALSE(mt::topology_size("file:t.json").has_value());
}

// A network from links: n nodes, s switches in `islands` separate trees, nodes on `homes` or
// up to three more switches, node-to-node links; each pair once, both ways, widths 1 and 2.
mt::Topology random_network(std::mt19937& rng, uint32_t n, uint32_t s, uint32_t islands,
                            uint32_t homes = 0) {
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  auto pick = [&rng](uint32_t k) { return std::uniform_int_distribution<uint32_t>(0, k - 1)(rng); };
  for (uint32_t v = 1; v < s; ++v) {  // each switch island a random tree
    if (v >= islands) pairs.insert({n + v - islands * (1 + pick(v / islands)), n + v});
  }
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t k = homes + pick(4); s > 0 && k > 0; --k) pairs.insert({v, n + pick(s)});
  }
  for (uint32_t k = pick(2 * n); k > 0; --k) {  // node-to-node links
    const uint32_t a = pick(n), b = pick(n);
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  }
  for (uint32_t v = 1; v < n && s == 0; ++v) pairs.insert({pick(v), v});  // direct: connected
  std::vector<mt::Link> links;
  for (const auto& [a, b] : pairs) {
    for (uint32_t k = 1 + pick(2); k > 0; --k) {
      links.push_back({a, b});
      links.push_back({b, a});
    }
  }
  return mt::Topology(mt::TopologyKind::kFile, "file:random.json", n, s, std::move(links));
}

uint32_t diameter_from_every_node(const mt::Topology& t) {
  uint32_t d = 0;
  for (uint32_t a = 0; a < t.nodes(); ++a) {
    const std::vector<uint32_t> dist = t.distances_from(a);
    for (uint32_t b = 0; b < t.nodes(); ++b) d = std::max(d, dist[b]);
  }
  return d;
}

// Topology files used to find their diameter by a search from every node (a 50,000-node file
// took 83 s). The bounded search gives the same diameter: direct networks, and switch networks
// whose nodes sit on several switches, link to each other and join separate switch islands.
TEST(Hardening, FileDiameterIsTheDiameterOfTheSearchFromEveryNode) {
  std::mt19937 rng(11);
  uint32_t tried = 0;
  for (uint32_t i = 0; i < 3000 && tried < 400; ++i) {
    const uint32_t n = 2 + i % 30, s = i % 3 == 0 ? 0 : 1 + i % 9,
                   islands = 1 + i % std::max(1u, std::min(s, 3u));
    std::optional<mt::Topology> t;
    try {
      t.emplace(random_network(rng, n, s, islands));
    } catch (const mt::InputError&) {
      continue;  // not every node reaches every node
    }
    ++tried;
    EXPECT_EQ(t->diameter(), diameter_from_every_node(*t)) << "network " << i;
  }
  EXPECT_EQ(tried, 400u);
}

// ... and needs far fewer searches than one from every node where eccentricities differ: a
// tenth of that budget is enough on a 2,000-node switch network; where every node is equally
// far from the others (a ring), nothing spares a search and a small budget is refused.
TEST(Hardening, FileDiameterSearchIsBounded) {
  std::mt19937 rng(7);
  const mt::Topology sw = random_network(rng, 2000, 200, 1, 1);
  const double every_node = double(sw.nodes()) * double(sw.vertices() + sw.links().size());
  EXPECT_EQ(mt::search_diameter(sw, every_node / 10), diameter_from_every_node(sw));
  std::vector<mt::Link> ring;
  for (uint32_t v = 0; v < 100; ++v) {
    ring.push_back({v, (v + 1) % 100});
    ring.push_back({(v + 1) % 100, v});
  }
  const mt::Topology t(mt::TopologyKind::kFile, "file:ring.json", 100, 0, std::move(ring));
  EXPECT_EQ(mt::search_diameter(t, 1e9), 50u);
  try {
    mt::search_diameter(t, 100 * 300 / 2);
    ADD_FAILURE() << "found within half of a search from every node";
  } catch (const mt::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("file:ring.json: its diameter"));
    EXPECT_THAT(e.what(), HasSubstr("a search from each of its 100 nodes would take"));
  }
}

// FNV-1a of a plan: steps, and every transfer and route in plan order.
uint64_t plan_fingerprint(const mt::Plan& p) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(p.steps_per_phase);
  for (size_t i = 0; i < p.transfers.size(); ++i) {
    const mt::Transfer& t = p.transfers[i];
    for (uint64_t v : {uint64_t{t.flow}, uint64_t{t.src}, uint64_t{t.dst}, uint64_t{t.range},
                       uint64_t{t.step}, static_cast<uint64_t>(t.op)}) {
      mix(v);
    }
    if (p.routes.empty()) continue;
    mix(p.routes[i].size());
    for (uint32_t l : p.routes[i]) mix(l);
  }
  return h;
}

// MultiTree on a switch network searched through every switch again for every member of a
// tree in every step (30 s on a 300-node file network); a search now passes by the switches
// an earlier search of the tree found exhausted in the step. The plans are the same: these
// fingerprints are of the plans of the full search (the same on 300 random switch networks,
// checked when the skip was made). Since a search ends at a switch with nodes
// that it enters from another switch (multitree.cpp), the BiGraph, fattree:3x3 and random
// network plans are new, recorded with and without the exhausted-switch skip alike. The
// random networks' fingerprints are of plans whose 4096 bytes are 256 grains of 16 bytes for
// 300 flows (plan.hpp, kChunkGrainBytes), so 44 chunks are empty; their trees do not depend on
// it (every tree is built, its chunk empty or not).
TEST(Hardening, SwitchNetworkMultiTreePlansAreThoseOfTheFullSearch) {
  struct Case {
    const char* spec;
    bool prioritize_height;
    uint64_t fingerprint;
  };
  for (const Case& c : {Case{"fattree:4x3", false, 0x401c252fa3e87c3cull},
                        Case{"fattree:3x3", false, 0xc11c8ca0361b5c4dull},
                        Case{"fattree:3x3", true, 0xd2fb9fb1894aa5ffull},
                        Case{"fattree:2x4", false, 0x6592ebc7b48a210cull},
                        Case{"bigraph:4x4", false, 0x33a308776bdafb1cull},
                        Case{"bigraph:4x4", true, 0x33a308776bdafb1cull},
                        Case{"bigraph:2x8", true, 0x5b6044d4e49d0b16ull},
                        Case{"bigraph:3x5", false, 0x1b8466b5dc65e1e2ull},
                        Case{"fattree:8x2", false, 0x60ae5d35bf1a833cull}}) {
    mt::PlanOptions po;
    po.bytes = 4096;
    po.prioritize_height = c.prioritize_height;
    EXPECT_EQ(plan_fingerprint(mt::build_multitree(mt::parse_topology(c.spec), po)), c.fingerprint)
        << c.spec << (c.prioritize_height ? " --prioritize-height" : "");
  }
  const uint64_t random[] = {0x79f298caee25279cull, 0x5192d8964ec22b2aull, 0x753d5e4e30aadde7ull};
  for (uint32_t seed = 1; seed <= 3; ++seed) {  // 300 nodes on 40 switches, node-to-node links
    std::mt19937 rng(seed);
    mt::PlanOptions po;
    po.bytes = 4096;
    EXPECT_EQ(plan_fingerprint(mt::build_multitree(random_network(rng, 300, 40, 1, 1), po)),
              random[seed - 1])
        << "seed " << seed;
  }
}

// dbtree routed each transfer by a search of its own (25 s on a 20,000-node switch network
// given as a file); the routes of many transfers are now found a source at a time, and are
// the routes of a search per transfer.
TEST(Hardening, RoutesOfManyTransfersAreTheRoutesOfEach) {
  std::mt19937 rng(3);
  uint32_t tried = 0;
  for (uint32_t i = 0; i < 600 && tried < 100; ++i) {
    const uint32_t n = 2 + i % 40, s = i % 2 == 0 ? 0 : 1 + i % 7;
    std::optional<mt::Topology> t;
    try {
      t.emplace(random_network(rng, n, s, 1, 1));
    } catch (const mt::InputError&) {
      continue;
    }
    ++tried;
    std::vector<mt::Transfer> transfers;  // every pair once, some twice, in a shuffled order
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = 0; b < n; ++b) {
        if (a != b) transfers.push_back({0, a, b, 0, 1, mt::Op::kReduce});
      }
    }
    transfers.insert(transfers.end(), transfers.begin(), transfers.begin() + n / 2);
    std::shuffle(transfers.begin(), transfers.end(), rng);
    mt::Router many(*t), each(*t);
    const std::vector<std::vector<uint32_t>> routes = many.routes(transfers);
    ASSERT_EQ(routes.size(), transfers.size());
    for (size_t k = 0; k < transfers.size(); ++k) {
      ASSERT_EQ(routes[k], each.route(transfers[k].src, transfers[k].dst))
          << "network " << i << ", " << transfers[k].src << " -> " << transfers[k].dst;
    }
  }
  EXPECT_EQ(tried, 100u);
}

// Loading a file checked "every node has a link" by scanning every link for every node.
TEST(Hardening, FileNodeWithoutALinkIsStillFound) {
  try {
    mt::parse_topology_json(R"({"nodes":[0,1,2],"links":[{"a":"n0","b":"n1"}]})", "file:t.json");
    ADD_FAILURE() << "accepted";
  } catch (const mt::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("node 2 has no link"));
  }
}

// Defect 7: a report that cannot be written is a failure.
TEST(Hardening, StandardOutputWriteErrorsExitOne) {
  const std::string dir = temp_dir("full");
  ASSERT_EQ(run_command(kMtc + " plan -t ring:4 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  for (const std::string& args : {std::string("plan -t ring:4 -a ring -b 4KiB"), "show " + dir + "/s",
                                  std::string("dot -t ring:4 -a ring -b 4KiB")}) {
    const auto r = run_command("{ " + kMtc + " " + args + " > /dev/full; }");
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("cannot write the standard output"));
  }
}

// Defect 8: an image file that is a directory is bad input naming the file.
TEST(Hardening, ImageThatIsADirectoryIsBadInput) {
  const std::string dir = temp_dir("dirimage");
  ASSERT_EQ(run_command(kMtc + " plan -t ring:4 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  fs::remove(dir + "/s/node_00.bin");
  fs::create_directory(dir + "/s/node_00.bin");
  const auto r = run_command(kMtc + " show " + dir + "/s");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("node_00.bin: is a directory"));
}

// Defect 9 (and 1 for mtc dot -o): each message names the problem.
TEST(Hardening, OptionValuesAreNotWrappedOrGuessed) {
  const std::string dir = temp_dir("options");
  const std::string fifo = dir + "/fifo.dot";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"plan -t ring:4 -a ring -b 99999999999999999999", "too large"},
      {"plan -t file:" + dir + " -a ring", "is a directory"},
      {"plan -t ring:4 -a ring -b 4KiB --base-addr 18446744073709551616", "--base-addr 18446744073709551616: too large"},
      {"plan -t ring:4 -a ring -b 4KiB -o ''", "--out: the value is empty"},
      {"dot -t ring:4 -a ring -b 4KiB -o ''", "--out: the value is empty"},
      {"dot -t ring:4 -a ring -b 4KiB --flow -1", "--flow -1: must not be negative"},
      {"dot -t ring:4 -a ring -b 4KiB -o " + fifo, "is a FIFO"},
  };
  for (const Case& c : cases) {
    const auto r = run_command(kMtc + " " + c.args);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args;
    EXPECT_THAT(r.out, Not(HasSubstr("4294967295"))) << c.args;
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
}

// Fuzz finding (fuzz/crashes/plan/issue11_dbtree_ring3_one_hop_contention): on ring:3 every
// dbtree edge is one hop, so the table verifier took the tables for a one-hop plan and held
// them to contention freedom, which dbtree never promises (two of its chunks share a link in
// a step). Tables are checked for a correct all-reduce; the link load is reported, not
// enforced.
TEST(Hardening, TablesAreNotHeldToAPromiseTheirPlanDidNotMake) {
  const mt::Topology topo = mt::parse_topology("ring:3");
  mt::PlanOptions po;
  po.bytes = 4096;
  po.chunks = 2;
  const mt::Plan plan = mt::build_plan(topo, "dbtree", po);
  ASSERT_FALSE(plan.contention_free);
  const mt::VerifyReport pr = mt::require_valid(plan, topo);
  EXPECT_EQ(pr.max_step_link_load, 2u);  // the contention the tables must be allowed
  const mt::VerifyReport tr = mt::verify_tables(mt::compile_tables(plan, mt::TableOptions{}), topo);
  EXPECT_TRUE(tr.ok()) << tr.errors.front();
  EXPECT_EQ(tr.max_step_link_load, pr.max_step_link_load);

  const std::string dir = temp_dir("dbtree_ring3");
  const auto r = run_command(kMtc + " plan -t ring:3 -a dbtree -b 4KiB --dbtree-chunks 2 -o " + dir + "/s");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto v = run_command(kMtc + " verify " + dir + "/s");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_THAT(v.out, HasSubstr("at most 2 transfer(s) per link per step"));
}

// What the plan promised still holds in its tables: compiling keeps every transfer's nodes and
// step, so the tables of contention-free one-hop plans report one transfer per link and step.
TEST(Hardening, TablesKeepTheLinkLoadOfTheirPlan) {
  for (const auto& [spec, algorithm] : {std::pair{"ring:3", "multitree"}, {"torus:4x4", "multitree"},
                                         {"torus:3x3", "ring2d"}, {"ring:5", "ring-bi"}}) {
    const mt::Topology topo = mt::parse_topology(spec);
    const mt::Plan plan = mt::build_plan(topo, algorithm, mt::PlanOptions{});
    ASSERT_TRUE(plan.contention_free && plan.neighbour_only) << algorithm << " " << spec;
    const mt::VerifyReport tr = mt::verify_tables(mt::compile_tables(plan, mt::TableOptions{}), topo);
    EXPECT_TRUE(tr.ok()) << algorithm << " " << spec;
    EXPECT_EQ(tr.max_step_link_load, 1u) << algorithm << " " << spec;
  }
}

// Issue 36, wrong result 1: node 5's first two entries swapped (steps 2, then 1), every file
// consistent with its CRC: mtc verify said verified, and mtsim --images then failed inside the
// NI. The set is refused by name before any NI runs it.
TEST(Hardening, TablesWhoseStepsGoBackwardsAreRefused) {
  const std::string dir = temp_dir("swapped_steps") + "/s";
  mt::test::write_swapped_steps_set(dir);
  for (const std::string& args : {"verify " + dir, "verify -f json " + dir, "show " + dir}) {
    const auto r = run_command(kMtc + " " + args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("node_05.bin: node 5, table entry 1: step 1 after step 2 in "
                                 "entry 0"))
        << args;
    EXPECT_THAT(r.out, HasSubstr("steps must not decrease")) << args;
    EXPECT_THAT(r.out, Not(HasSubstr("verified"))) << args;
  }
}

// Issue 36, hang 4: a FIFO as an input (a manifest, a node image, a topology file) blocked
// forever waiting for a writer, and a character device was read until memory ran out (exit 2
// after std::bad_alloc under a 2 GB address-space limit, the whole machine's memory without
// one). Both are refused by name without reading them, and no input is read beyond 256 MiB.
TEST(Hardening, InputsThatAreNotRegularFilesAreRefused) {
  const std::string dir = temp_dir("fifo_inputs");
  ASSERT_EQ(run_command(kMtc + " plan -t ring:4 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  ASSERT_EQ(::mkfifo((dir + "/t.json").c_str(), 0600), 0);
  fs::copy(dir + "/s", dir + "/fifo_bin", fs::copy_options::recursive);
  fs::remove(dir + "/fifo_bin/node_01.bin");
  ASSERT_EQ(::mkfifo((dir + "/fifo_bin/node_01.bin").c_str(), 0600), 0);
  fs::copy(dir + "/s", dir + "/fifo_manifest", fs::copy_options::recursive);
  fs::remove(dir + "/fifo_manifest/manifest.json");
  ASSERT_EQ(::mkfifo((dir + "/fifo_manifest/manifest.json").c_str(), 0600), 0);
  fs::copy(dir + "/s", dir + "/zero_bin", fs::copy_options::recursive);
  fs::remove(dir + "/zero_bin/node_02.bin");
  fs::create_symlink("/dev/zero", dir + "/zero_bin/node_02.bin");
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"plan -a ring -t file:" + dir + "/t.json", "t.json: is a FIFO, not a regular file"},
      {"plan -a ring -t file:/dev/zero", "/dev/zero: is a character device, not a regular file"},
      {"verify " + dir + "/fifo_bin", "node_01.bin: is a FIFO, not a regular file"},
      {"show " + dir + "/fifo_bin", "node_01.bin: is a FIFO, not a regular file"},
      {"verify " + dir + "/fifo_manifest", "manifest.json: is a FIFO, not a regular file"},
      {"show " + dir + "/fifo_manifest", "manifest.json: is a FIFO, not a regular file"},
      {"verify " + dir + "/zero_bin", "node_02.bin: is a character device, not a regular file"},
  };
  for (const Case& c : cases) {
    // timeout: a FIFO blocked on ends as exit 124; ulimit: /dev/zero read whole ends as exit 2.
    const auto r = run_command("(ulimit -v 2000000; timeout 10 " + kMtc + " " + c.args + ")");
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args;
  }
}

// ... and a regular file larger than any input the tools write is refused naming the limit.
TEST(Hardening, InputsAreReadUpToALimit) {
  const std::string dir = temp_dir("huge_input");
  {
    std::ofstream f(dir + "/t.json");
    f << "{\"nodes\":[0,1],\"links\":[]}";
  }
  fs::resize_file(dir + "/t.json", mt::kMaxInputBytes + 1);  // sparse: no disk, no memory
  const auto r = run_command("(ulimit -v 2000000; " + kMtc + " plan -a ring -t file:" + dir +
                             "/t.json)");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("t.json: holds more than 268435456 bytes (256 MiB), the most an "
                               "input file may hold"));
  EXPECT_THROW(mt::read_input_file(dir + "/t.json"), mt::InputError);
  fs::resize_file(dir + "/t.json", 26);
  EXPECT_EQ(mt::read_input_file(dir + "/t.json"), "{\"nodes\":[0,1],\"links\":[]}");
}

// Issue 36, memory 6: a plan the host refuses memory for (ulimit -v 8000 and 12000) was exit 2
// "internal error: std::bad_alloc"; it is exit 1 naming the refusal and the limit.
TEST(Hardening, MemoryRefusedIsNamedWithItsLimit) {
  for (const rlim_t kb : {8000, 12000}) {
    const auto r = mt::test::run_with_address_space(
        {kMtc, "plan", "-q", "-t", "torus:16x16", "-a", "multitree", "-b", "1MiB"}, kb << 10);
    EXPECT_EQ(r.code, 1) << kb << " KiB\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("mtc: error: the host refused memory (std::bad_alloc), with an "
                                 "address-space limit of " +
                                 std::to_string(kb << 10) + " bytes (ulimit -v " +
                                 std::to_string(kb) + ")"))
        << kb << " KiB";
  }
}

}  // namespace

namespace {

std::string file_text(const std::string& path) {
  std::ifstream f(path);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Issue 36, output 7: an output on the run's own input replaced it (mtc dot -o T with -t
// file:T), and an image set written over the directory holding its topology file deleted
// it. Both are refused before the run, naming both options and the path.
TEST(Hardening, OutputsOnTheRunsInputsAreRefused) {
  const std::string dir = temp_dir("output_on_input");
  const std::string topo =
      R"({"nodes":[0,1,2],"links":[{"a":"n0","b":"n1"},{"a":"n1","b":"n2"},{"a":"n2","b":"n0"}]})";
  write(dir + "/t.json", topo);
  fs::create_symlink(dir + "/t.json", dir + "/link.json");
  for (const std::string& out : {dir + "/t.json", dir + "/./t.json", dir + "/link.json"}) {
    const auto r = run_command(kMtc + " dot -a ring -t file:" + dir + "/t.json -o " + out);
    EXPECT_EQ(r.code, 1) << out << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("-o " + out + " is an input of this run (-t file:" + dir +
                                 "/t.json)"));
  }
  EXPECT_EQ(file_text(dir + "/t.json"), topo);
  ASSERT_EQ(run_command(kMtc + " plan -q -t ring:3 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  fs::copy_file(dir + "/t.json", dir + "/s/t.json");
  const auto r = run_command(kMtc + " plan -q -a ring -t file:" + dir + "/s/t.json -o " + dir + "/s");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("-o " + dir + "/s holds an input of this run (-t file:" + dir +
                               "/s/t.json)"));
  EXPECT_EQ(file_text(dir + "/s/t.json"), topo);
}

// Issue 36, output 8: mtc plan -o LINK, LINK a symbolic link to an image set, replaced the
// link with a directory and left the old set in place. The link is followed: its target gets
// the new set, the link stays.
TEST(Hardening, ImageSetThroughASymlinkWritesItsTarget) {
  const std::string dir = temp_dir("set_symlink");
  ASSERT_EQ(run_command(kMtc + " plan -q -t ring:3 -a ring -b 4KiB -o " + dir + "/real").code, 0);
  fs::create_directory_symlink(dir + "/real", dir + "/link");
  const auto r = run_command(kMtc + " plan -q -t ring:4 -a ring -b 4KiB -o " + dir + "/link");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_symlink(dir + "/link"));
  EXPECT_TRUE(fs::exists(dir + "/real/node_03.bin"));
  EXPECT_THAT(run_command(kMtc + " show " + dir + "/real").out, HasSubstr("ring:4"));
  EXPECT_THAT(hidden_names(dir), ::testing::IsEmpty());
  fs::create_directory_symlink(dir + "/nowhere", dir + "/dangling");
  const auto d = run_command(kMtc + " plan -q -t ring:4 -a ring -b 4KiB -o " + dir + "/dangling");
  EXPECT_EQ(d.code, 1) << d.out;
  EXPECT_THAT(d.out, HasSubstr("a symbolic link to nowhere"));
}

// An output named "-" is not standard output (which carries the report): refused, and no
// file named "-" is written.
TEST(Hardening, AnOutputNamedDashIsRefused) {
  const std::string dir = temp_dir("dash");
  const auto r = run_command("cd " + dir + " && " + kMtc +
                             " dot -t torus:4x4 -a multitree -b 4KiB -o -");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("-o -: the output goes to a file, not to standard output"));
  EXPECT_FALSE(fs::exists(dir + "/-"));
  const auto ok = run_command("cd " + dir + " && " + kMtc +
                              " dot -t torus:4x4 -a multitree -b 4KiB -o ./-");
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_TRUE(fs::exists(dir + "/-"));
}

// Issue 36, output 9: under a file-size limit (ulimit -f) every writer died from SIGXFSZ and
// left its hidden temporary file. The write error is exit 1 naming the file and the limit,
// and nothing is left behind.
TEST(Hardening, FileSizeLimitIsAWriteError) {
  const std::string dir = temp_dir("fsize");
  const std::vector<std::string> cases = {
      "plan -q -t torus:4x4 -a multitree -b 4KiB -o " + dir + "/s",
      "dot -t torus:4x4 -a multitree -b 4KiB -o " + dir + "/t.dot",
  };
  for (const std::string& args : cases) {
    const auto r = run_command("bash -c 'ulimit -f 2; " + kMtc + " " + args + "'");
    EXPECT_EQ(r.code, 1) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("File too large: the file-size limit of 2048 bytes (ulimit -f "
                                 "2) was reached"))
        << args;
    EXPECT_THAT(hidden_names(dir), ::testing::IsEmpty()) << args;
  }
  EXPECT_FALSE(fs::exists(dir + "/s"));
  EXPECT_FALSE(fs::exists(dir + "/t.dot"));
  const auto out = run_command("bash -c 'ulimit -f 2; " + kMtc + " plan -t torus:4x4 -a multitree "
                               "-b 4KiB > " + dir + "/tables.txt'");
  EXPECT_EQ(out.code, 1) << out.out;
  EXPECT_THAT(out.out, HasSubstr("cannot write the standard output: File too large: the "
                                 "file-size limit of 2048 bytes"));
}

// Issue 36, messages: each names the problem.
TEST(Hardening, MessagesNameTheProblem) {
  const std::string dir = temp_dir("messages");
  ASSERT_EQ(run_command(kMtc + " plan -q -t ring:4 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  const std::string long_name = dir + "/" + std::string(250, 'x');
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"plan -q -t ring:4 -a ring -b 4KiB -o " + long_name, "the name is too long (File name "
                                                            "too long"},
      {"dot -t ring:4 -a ring -b 4KiB -o " + long_name, "the name is too long"},
      {"plan -t torus:4294967297x1 -a ring", "size 4294967297 is out of range: a network has at "
                                             "most 2^24 = 16777216 nodes"},
      {"plan -t ring:00000000000000000005000000000 -a ring", "is out of range"},
      {"plan -q -t ring:4 -a ring --time-limit 1e-06", "more than the 1e-06 s limit"},
      {"nosuch", "unknown subcommand 'nosuch': the subcommands are plan, show, verify, dot"},
      {"", "mtc: error: give a subcommand: plan, show, verify, dot"},
      {"plan -t '' -a ring", "--topology: the value is empty"},
      {"plan -t ring:4 -a '' ", "--algorithm: the value is empty"},
      {"plan -t ring:4 -a ring -b ''", "--bytes: the value is empty"},
      {"plan -t ring:4 -a ring -k ''", "--children: the value is empty"},
      {"show ''", "dir: the value is empty"},
      {"verify " + dir + "/s -t ''", "--topology: the value is empty"},
      {"dot -t ring:4 -a ring --flow ''", "--flow: the value is empty"},
      {"verify " + dir + "/s -t torus:4096x4096", "the tables are for 4 nodes, topology "
                                                  "torus:4096x4096 has 16777216"},
      {"plan -t ring:4 -a dbtree -b 4KiB --dbtree-chunks 99999999",
       "--dbtree-chunks 99999999: each tree carries half of the 4096-byte buffer, at most 128 "
       "chunks of 16 bytes"},
      {"plan -t ring:4 -t ring:5 -a ring", "mtc: error: --topology: given 2 times; give it once"},
      {"plan -t ring:4 -a ring --dbtree-chunks -1", "mtc: error: "},
  };
  for (const Case& c : cases) {
    const auto r = run_command("(ulimit -v 2000000; timeout 20 " + kMtc + " " + c.args + ")");
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args;
    EXPECT_THAT(r.out, Not(HasSubstr("about 0 s"))) << c.args;
    EXPECT_THAT(r.out, Not(HasSubstr("A subcommand is required"))) << c.args;
  }
  EXPECT_THAT(hidden_names(dir), ::testing::IsEmpty());
}

// Issue 36, messages: an unknown algorithm in a manifest was accepted while every other key
// is checked.
TEST(Hardening, UnknownAlgorithmInAManifestIsRefused) {
  const std::string dir = temp_dir("manifest_algorithm");
  ASSERT_EQ(run_command(kMtc + " plan -q -t ring:4 -a ring -b 4KiB -o " + dir + "/s").code, 0);
  std::string m = file_text(dir + "/s/manifest.json");
  m.replace(m.find("\"algorithm\": \"ring\""), 19, "\"algorithm\": \"nosuch\"");
  write(dir + "/s/manifest.json", m);
  for (const char* cmd : {"show ", "verify "}) {
    const auto r = run_command(kMtc + " " + cmd + dir + "/s");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_THAT(r.out, HasSubstr("manifest.json: key 'algorithm': unknown algorithm \"nosuch\" (one "
                                 "of multitree, multitree-opt, ring, ring-bi, ring2d, "
                                 "ring2d-paper, dbtree, hdrm, flexreduce, blueconnect, mtree, "
                                 "ps, ina, netreduce, msccl)"));
  }
}

}  // namespace
