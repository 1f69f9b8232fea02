// mtsim as a user runs it: results, JSON, waves, and clear errors with the documented exit
// codes (0 verified, 1 bad input, 2 internal error, 3 the all-reduce failed).
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mtsim_test_util.hpp"
#include "ni/ni_config.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using mt::test::kMtc;
using mt::test::kMtsim;
using mt::test::run_command;

std::string temp_dir(const std::string& name) {
  return mt::test::fresh_dir("mtsim_test_", name);
}

TEST(Mtsim, HelpNamesTheFlagsAndExitCodes) {
  const auto r = run_command(kMtsim + " --help");
  EXPECT_EQ(r.code, 0);
  for (const char* flag : {"--topology", "--algorithm", "--bytes", "--dtype", "--flow-control",
                           "--images", "--trace", "--trace-nodes", "--json", "--compare",
                           "--config", "--dbtree-chunks", "--data", "--lockstep"}) {
    EXPECT_THAT(r.out, HasSubstr(flag));
  }
  EXPECT_THAT(r.out, HasSubstr("Exit codes"));
}

TEST(Mtsim, RunsComparesAndWritesJson) {
  const std::string dir = temp_dir("json");
  const auto r = run_command(kMtsim + " -t torus:4x4 -b 64KiB --compare ring:packet --json " + dir +
                             "/out.json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("verified        yes"));
  EXPECT_THAT(r.out, HasSubstr("ring"));
  std::ifstream f(dir + "/out.json");
  const nlohmann::json j = nlohmann::json::parse(f);
  for (const char* key : {"cycles", "bytes", "bandwidth_gbps", "bound_cycles", "verified",
                          "bound_ratio", "head_overhead", "steps", "links"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.at("bytes"), 65536);
  EXPECT_EQ(j.at("verified"), true);
  EXPECT_GT(j.at("cycles").get<uint64_t>(), j.at("bound_cycles").get<uint64_t>());
  ASSERT_EQ(j.at("compare").size(), 1u);
  EXPECT_EQ(j.at("compare")[0].at("algorithm"), "ring");
  EXPECT_EQ(j.at("compare")[0].at("flow_control"), "packet");
  EXPECT_GT(j.at("compare")[0].at("cycles").get<uint64_t>(), j.at("cycles").get<uint64_t>());
  // What each NiConfig queue bound held at most in one NI: used, and within the bound.
  const mt::noc::NiConfig ni;
  for (const nlohmann::json& run : {j, j.at("compare")[0]}) {
    const nlohmann::json& p = run.at("ni_peaks");
    for (const auto& [key, bound] : {std::pair{"block_slots", ni.block_slots},
                                     {"reducing_blocks", ni.reducing_blocks},
                                     {"memory_requests", ni.memory_requests},
                                     {"flows", ni.flows},
                                     {"table_entries", ni.table_entries},
                                     {"packet_messages", ni.packet_messages}}) {
      EXPECT_LE(p.at(key).get<uint64_t>(), bound) << key;
    }
    EXPECT_GT(p.at("block_slots").get<uint64_t>(), 0u);
    // Waiting Reduce blocks are no bound of their own: they wait in their block slots (the
    // torus NI's 4 ports').
    EXPECT_LE(p.at("waiting_blocks").get<uint64_t>(), 4 * p.at("block_slots").get<uint64_t>());
    EXPECT_GT(p.at("reducing_blocks").get<uint64_t>(), 0u);
    EXPECT_GT(p.at("memory_requests").get<uint64_t>(), 0u);
    EXPECT_GT(p.at("flows").get<uint64_t>(), 0u);
    EXPECT_GT(p.at("table_entries").get<uint64_t>(), 0u);
  }
  // Packet mode opens messages on the ejection ports' packet tables; message mode does not.
  EXPECT_EQ(j.at("ni_peaks").at("packet_messages").get<uint64_t>(), 0u);
  EXPECT_GT(j.at("compare")[0].at("ni_peaks").at("packet_messages").get<uint64_t>(), 0u);
}

// --config paper drops the memory and adder latencies (the paper's assumptions); explicit
// options still win; the JSON says which configuration ran.
TEST(Mtsim, PaperConfigDropsMemoryLatency) {
  const std::string dir = temp_dir("config");
  auto run = [&](const std::string& args) {
    const auto r = run_command(kMtsim + " -q -t torus:4x4 -b 16KiB --json " + dir + "/out.json " + args);
    EXPECT_EQ(r.code, 0) << r.out;
    std::ifstream f(dir + "/out.json");
    return nlohmann::json::parse(f);
  };
  const nlohmann::json def = run(""), paper = run("--config paper"),
                       mixed = run("--config paper --mem-latency 100");
  EXPECT_EQ(def.at("config"), "default");
  EXPECT_EQ(def.at("memory_latency"), 100);
  EXPECT_EQ(paper.at("config"), "paper");
  EXPECT_EQ(paper.at("memory_latency"), 0);
  EXPECT_EQ(paper.at("reduce_latency"), 0);
  EXPECT_EQ(mixed.at("memory_latency"), 100);
  EXPECT_EQ(mixed.at("reduce_latency"), 0);
  EXPECT_LT(paper.at("cycles").get<uint64_t>(), mixed.at("cycles").get<uint64_t>());
  EXPECT_LT(mixed.at("cycles").get<uint64_t>(), def.at("cycles").get<uint64_t>());
}

TEST(Mtsim, PrintsTheTimelineAndLinksOnRequest) {
  const auto r = run_command(kMtsim + " -q -t mesh:2x2 -b 4KiB --timeline --links");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("first NI entered"));
  EXPECT_THAT(r.out, HasSubstr("     4  "));  // step 4 of 2 x 2 steps
  EXPECT_THAT(r.out, HasSubstr("utilisation"));
  EXPECT_THAT(r.out, HasSubstr("x+       1"));  // node 0's link to node 1
}

TEST(Mtsim, RunsAnImageSetAndWritesWaves) {
  const std::string dir = temp_dir("images");
  ASSERT_EQ(run_command(kMtc + " plan -t mesh:2x2 -a multitree -b 4KiB --out " + dir + "/set").code, 0);
  const auto r = run_command(kMtsim + " --images " + dir + "/set --trace " + dir +
                             "/run.vcd --trace-nodes 0,3");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("4 nodes, 4 KiB fp32, multitree"));  // from the image set
  std::ifstream f(dir + "/run.vcd");
  const std::string vcd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_THAT(vcd, HasSubstr("timestep"));
  EXPECT_THAT(vcd, HasSubstr("lockstep"));
  EXPECT_THAT(vcd, HasSubstr("ni_3"));
  EXPECT_THAT(vcd, ::testing::Not(HasSubstr("ni_1")));
}

// multitree-opt (host_sw/algorithms/multitree_opt.cpp) at the step bound, run by the NI
// unchanged: built by mtsim, and loaded from mtc's images; faster than Algorithm 1's trees on
// torus:8x8 (17 steps per phase) and torus:16x16 (the same 64) at 32 KiB.
TEST(Mtsim, RunsMultiTreeOptAtTheStepBoundOnTori) {
  const std::string dir = temp_dir("multitree_opt");
  auto run = [&](const std::string& args) {
    const auto r = run_command(kMtsim + " -q " + args + " --json " + dir + "/out.json");
    EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("verified        yes")) << args;
    std::ifstream f(dir + "/out.json");
    return nlohmann::json::parse(f);
  };
  for (const auto& [spec, bound] : {std::pair{"torus:4x4", 4u}, {"torus:8x8", 16u}}) {
    const nlohmann::json built = run(std::string("-t ") + spec + " -a multitree-opt -b 32KiB");
    EXPECT_EQ(built.at("algorithm"), "multitree-opt");
    EXPECT_EQ(built.at("steps_per_phase").get<uint32_t>(), bound) << spec;
    const std::string set = dir + "/" + spec + "_set";
    ASSERT_EQ(run_command(kMtc + " plan -q -t " + spec + " -a multitree-opt -b 32KiB --out " + set)
                  .code, 0);
    const nlohmann::json loaded = run("--images " + set);
    EXPECT_EQ(loaded.at("steps_per_phase").get<uint32_t>(), bound) << spec;
    EXPECT_EQ(loaded.at("cycles"), built.at("cycles")) << spec;
  }
  // Fewer steps on 8x8; on 16x16 both take 64 steps, and the slack left for small chunks
  // decides.
  for (const char* spec : {"torus:8x8", "torus:16x16"}) {
    const nlohmann::json opt = run(std::string("-t ") + spec + " -a multitree-opt -b 32KiB"),
                         alg1 = run(std::string("-t ") + spec + " -a multitree -b 32KiB");
    EXPECT_LT(opt.at("cycles").get<uint64_t>(), alg1.at("cycles").get<uint64_t>()) << spec;
  }
}

TEST(Mtsim, BadInputIsAClearErrorWithoutJson) {
  const std::string dir = temp_dir("bad");
  const std::string json = dir + "/out.json";
  struct Case {
    std::string args, message;
  };
  ASSERT_EQ(run_command(kMtc + " plan -t mesh:2x2 -a multitree -b 4KiB --out " + dir + "/set").code, 0);
  fs::copy(dir + "/set", dir + "/corrupt", fs::copy_options::recursive);
  {
    std::fstream bin(dir + "/corrupt/node_01.bin", std::ios::in | std::ios::out | std::ios::binary);
    bin.seekp(70);
    bin.put('\x5a');
  }
  const std::vector<Case> cases = {
      {"--bytes 0", "greater than zero"},
      {"--bytes 1023", "4-byte elements"},
      {"-t torus:0x4", "torus"},
      // A MultiTree path through 14 routers: more bits than the head's Route field holds.
      {"-t fattree:3x5", "source route holds 30"},
      {"-a nosuch", "nosuch"},
      {"--flow-control circuit", "circuit"},
      {"--dtype fp64", "fp64"},
      {"--config booksim", "unknown configuration"},
      {"--time-limit 1e-9", "more than the 1e-09 s limit"},
      // Switches of 34 ports: 4 VCs give a router at most 32.
      {"-t bigraph:1x33", "switch 0 has 34 ports"},
      {"--images " + dir + "/missing", "missing"},
      {"-t torus:4x4 --images " + dir + "/set", "4 nodes"},
      {"-t mesh:2x2 --images " + dir + "/corrupt", "node_01.bin"},
      {"--images " + dir + "/set --bytes 8KiB", "fixes it"},
      {"--images " + dir + "/set --dbtree-chunks 4", "fixes it"},
      {"--trace " + dir + "/run.txt", ".vcd or .fst"},
      {"--trace-nodes 99", "node 99"},
      {"--trace-nodes 4294967296", "--trace-nodes 4294967296: too large"},  // once wrapped to 0
      {"--trace-nodes -1", "--trace-nodes -1: must not be negative"},
  };
  for (const Case& c : cases) {
    const auto r = run_command(kMtsim + " -q " + c.args + " --json " + json);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("mtsim: error:")) << c.args;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args << "\n" << r.out;
    EXPECT_FALSE(fs::exists(json)) << c.args;
  }
  const auto r = run_command(kMtsim + " -q --json " + dir + "/no/such/dir/out.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("does not exist"));
}

// A link's own latency (a file's "latency") is simulated on that link: the ring's 6 steps on
// a 4-node star each cross node 3's link, so 5,000 cycles on it add at least 6 x 5,000; the
// lockstep run (lookahead 1) gives the same cycles as the default (lookahead of the
// shortest link).
TEST(Mtsim, PerLinkLatencyShowsInTheCycles) {
  const std::string dir = temp_dir("latency");
  const std::string star = R"({"nodes": [0, 1, 2, 3], "switches": [0], "links": [)"
                           R"({"a": "n0", "b": "s0"}, {"a": "n1", "b": "s0"}, {"a": "n2", "b": "s0"}, )";
  std::ofstream(dir + "/plain.json") << star << R"({"a": "n3", "b": "s0"}]})";
  std::ofstream(dir + "/slow.json") << star << R"({"a": "n3", "b": "s0", "latency": 5000}]})";
  auto cycles = [&](const std::string& file, const std::string& extra) {
    const std::string out = dir + "/" + file + extra.substr(0, 3) + ".out.json";
    const auto r = run_command(kMtsim + " -q -a ring -b 64KiB -t file:" + dir + "/" + file +
                               ".json --json " + out + " " + extra);
    EXPECT_EQ(r.code, 0) << r.out;
    std::ifstream f(out);
    const nlohmann::json j = nlohmann::json::parse(f);
    EXPECT_EQ(j.at("verified"), true);
    return j.at("cycles").get<uint64_t>();
  };
  const uint64_t plain = cycles("plain", ""), slow = cycles("slow", "");
  EXPECT_GT(slow, plain + 6 * 5000);
  EXPECT_EQ(cycles("slow", "--lockstep"), slow);
  // A link's latency below the default (150) is simulated too: faster than without it.
  std::ofstream(dir + "/fast.json") << star << R"({"a": "n3", "b": "s0", "latency": 1}]})";
  EXPECT_LT(cycles("fast", ""), plain);
}

// ring and MultiTree plan, run and verify on hierarchies of machines.
TEST(Mtsim, RingAndMultiTreeRunOnHierarchies) {
  for (const char* topo : {"hier:2+2", "hier:2+3", "hier:3+4"}) {
    for (const char* algo : {"ring", "multitree"}) {
      const auto r = run_command(kMtsim + " -a " + algo + " -b 64KiB -t " + topo);
      EXPECT_EQ(r.code, 0) << topo << " " << algo << "\n" << r.out;
      EXPECT_THAT(r.out, HasSubstr("verified        yes")) << topo << " " << algo;
    }
  }
}

TEST(Mtsim, BadHierarchiesAndLatenciesExitOne) {
  const std::string dir = temp_dir("bad_networks");
  std::ofstream(dir + "/neg.json")
      << R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1", "latency": -3}]})";
  std::ofstream(dir + "/word.json")
      << R"({"nodes": [0, 1], "links": [{"a": "n0", "b": "n1", "latency": "slow"}]})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hier:", "no machines"},
      {"hier:3+", "machine 1 has no learner count"},
      {"hier:0+2", "machine 0 has 0 learners"},
      {"hier:0", "machine 0 has 0 learners"},
      {"file:" + dir + "/neg.json", "link 0 latency must be an integer number of cycles"},
      {"file:" + dir + "/word.json", "link 0 latency must be an integer number of cycles"},
  };
  for (const auto& [topo, message] : cases) {
    for (const std::string& tool : {kMtsim + " -q", kMtc + " plan -q"}) {
      const auto r = run_command(tool + " -t '" + topo + "' -a ring -b 4KiB");
      EXPECT_EQ(r.code, 1) << tool << " " << topo << "\n" << r.out;
      EXPECT_THAT(r.out, HasSubstr(message)) << tool << " " << topo;
    }
  }
}

// FlexReduce and BlueConnect plan, run and verify on hierarchies, with their cost models in
// the JSON (predicted_cycles) and the text beside the simulated cycles; a run without a model
// (the ring on a torus) has neither.
TEST(Mtsim, FlexReduceAndBlueConnectRunWithTheirModels) {
  const std::string dir = temp_dir("planners");
  for (const char* topo : {"hier:2+2", "hier:2+3", "hier:2+5", "hier:2+2+3"}) {
    for (const char* algo : {"flexreduce", "blueconnect"}) {
      const std::string out = dir + "/" + algo + ".json";
      const auto r = run_command(kMtsim + " -a " + algo + " -b 64KiB -t " + topo + " --json " + out);
      ASSERT_EQ(r.code, 0) << topo << " " << algo << "\n" << r.out;
      EXPECT_THAT(r.out, HasSubstr("verified        yes")) << topo << " " << algo;
      EXPECT_THAT(r.out, HasSubstr("  predicted       ")) << topo << " " << algo;
      std::ifstream f(out);
      const nlohmann::json j = nlohmann::json::parse(f);
      EXPECT_EQ(j.at("verified"), true);
      EXPECT_GT(j.at("predicted_cycles").get<uint64_t>(), 0u);
      EXPECT_THAT(j.at("predicted_model").get<std::string>(),
                  HasSubstr(std::string(algo) == "flexreduce" ? "Eq. (6)" : "Eq. ("));
    }
  }
  const std::string out = dir + "/ring.json";
  const auto r = run_command(kMtsim + " -q -a ring -b 4KiB -t torus:4x4 --json " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(out);
  const nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_FALSE(j.contains("predicted_cycles"));
  EXPECT_THAT(r.out, Not(HasSubstr("predicted")));
}

// MTREE end to end: the 12-node network of examples/topologies (its links' own latencies),
// a torus and a mesh, pipelined and not; every run verified, its Eq. (2) model printed.
TEST(Mtsim, MtreeRunsVerifiedWithItsModel) {
  const std::string dir = temp_dir("mtree");
  const std::string gscale = "file:" + std::string(MT_SOURCE_DIR) + "/examples/topologies/gscale12.json";
  for (const std::string& topo : {gscale, std::string("torus:4x4"), std::string("mesh:3x3")}) {
    for (const char* chunks : {"0", "1"}) {
      const std::string out = dir + "/mtree.json";
      const auto r = run_command(kMtsim + " -a mtree -b 64KiB --mtree-chunks " + chunks +
                                 " -t " + topo + " --json " + out);
      ASSERT_EQ(r.code, 0) << topo << "\n" << r.out;
      EXPECT_THAT(r.out, HasSubstr("verified        yes")) << topo;
      std::ifstream f(out);
      const nlohmann::json j = nlohmann::json::parse(f);
      EXPECT_EQ(j.at("verified"), true);
      EXPECT_GT(j.at("predicted_cycles").get<uint64_t>(), 0u);
      EXPECT_THAT(j.at("predicted_model").get<std::string>(), HasSubstr("MTREE Eq. (2)"));
    }
  }
  const auto r = run_command(kMtsim + " -q -a mtree -b 4KiB -t fattree:4x2");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("mtree: topology fattree:4x2 has switches"));
}

TEST(Mtsim, HierarchyPlannersRefuseOtherNetworks) {
  for (const char* algo : {"flexreduce", "blueconnect"}) {
    const auto r = run_command(kMtsim + " -q -a " + algo + " -b 4KiB -t fattree:4x2");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_THAT(r.out, HasSubstr("topology fattree:4x2 is not a hierarchy of machines"));
  }
}

}  // namespace
