// mtc as a user runs it: output contracts, exit codes, images on disk, Graphviz.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

using Result = mt::test::CommandResult;

Result run(const std::string& args) { return mt::test::run_command(std::string(MTC_EXE) + " " + args); }

fs::path temp_dir(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / ("mtc_test_" + name);
  fs::remove_all(p);
  return p;
}

TEST(Mtc, JsonPlanMatchesThePaperFig5Golden) {
  const Result r = run("plan --topology mesh:2x2 --algorithm multitree --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json got = nlohmann::json::parse(r.out);
  std::ifstream in(std::string(MT_SOURCE_DIR) + "/tests/golden/fig5_mesh2x2.json");
  const nlohmann::json golden = nlohmann::json::parse(in);
  EXPECT_EQ(got["topology"], "mesh:2x2");
  EXPECT_EQ(got["algorithm"], "multitree");
  EXPECT_EQ(got["nodes"], 4);
  EXPECT_EQ(got["steps_per_phase"], golden["steps_per_phase"]);
  ASSERT_EQ(got["tables"].size(), golden["tables"].size());
  for (size_t n = 0; n < golden["tables"].size(); ++n) {
    const auto& g = golden["tables"][n];
    const auto& t = got["tables"][n];
    EXPECT_EQ(t["node"], g["node"]);
    ASSERT_EQ(t["entries"].size(), g["entries"].size());
    for (size_t i = 0; i < g["entries"].size(); ++i) {
      auto ge = g["entries"][i], te = t["entries"][i];
      for (const char* key : {"op", "flow", "parent", "step"}) {
        EXPECT_EQ(te[key], ge[key]) << "node " << n << " entry " << i << " " << key;
      }
      auto a = te["children"].get<std::vector<int>>(), b = ge["children"].get<std::vector<int>>();
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      EXPECT_EQ(a, b) << "node " << n << " entry " << i;
      // The contract's other keys are there too.
      EXPECT_TRUE(te.contains("start_addr") && te.contains("size"));
    }
  }
  EXPECT_EQ(got["verification"]["verified"], true);
}

TEST(Mtc, TextPlanPrintsFig5LayoutAndVerification) {
  const Result r = run("plan --topology torus:4x4 --algorithm multitree");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Accelerator 15"));
  EXPECT_THAT(r.out, HasSubstr("Op      FlowID  Parent  Children"));
  EXPECT_THAT(r.out, HasSubstr("verified: every node ends with every byte summed"));
}

TEST(Mtc, ExitCodesAndErrors) {
  EXPECT_EQ(run("--help").code, 0);
  for (const char* sub : {"plan", "show", "verify", "dot"}) {
    const Result h = run(std::string(sub) + " --help");
    EXPECT_EQ(h.code, 0) << sub;
    EXPECT_THAT(h.out, HasSubstr("Usage")) << sub;
  }
  Result r = run("");
  EXPECT_EQ(r.code, 1);
  r = run("frobnicate");
  EXPECT_EQ(r.code, 1);
  r = run("plan --topology torus:0x4 --algorithm multitree");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("mtc: error: topology \"torus:0x4\": sizes must be >= 1"));
  r = run("plan --topology torus:4x4 --algorithm best");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("algorithm \"best\": unknown"));
  r = run("plan --topology torus:4x4 --algorithm multitree --bytes 0");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("must be greater than zero"));
  r = run("plan --topology torus:4x4 --algorithm multitree --bytes 6");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("multiple of the 4-byte element"));
  r = run("plan --topology torus:4x4 --algorithm multitree --dtype fp64");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("must be int32 or fp32"));
  r = run("plan --topology torus:4x4 --algorithm multitree --format yaml");
  EXPECT_EQ(r.code, 1);
  r = run("plan --topology torus:4x4 --algorithm hdrm");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("torus:4x4"));
  r = run("plan --topology ring:8 --algorithm ring2d-paper");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("ring2d-paper: topology ring:8 is not a 2D torus"));
  r = run("plan --topology mesh:4x4 --algorithm ring2d-paper");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("ring2d-paper: topology mesh:4x4 is not a 2D torus"));
  r = run("plan --topology torus:4x4 --algorithm multitree --addr-bits 8");
  EXPECT_EQ(r.code, 1) << "a 1 MiB buffer's addresses do not fit 8 bits";
}

TEST(Mtc, ImagesRoundTripThroughShowAndVerify) {
  const fs::path dir = temp_dir("roundtrip");
  Result r = run("plan --topology torus:4x4 --algorithm multitree --format json --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json planned = nlohmann::json::parse(r.out);
  EXPECT_TRUE(fs::exists(dir / "manifest.json"));
  for (const char* ext : {".bin", ".hex", ".json"}) EXPECT_TRUE(fs::exists(dir / (std::string("node_15") + ext)));
  r = run("show --format json " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["tables"], planned["tables"]);
  r = run("verify " + dir.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("verified"));
  // Against a topology the tables were not made for: rejected.
  r = run("verify --topology torus:8x8 " + dir.string());
  EXPECT_EQ(r.code, 1);
}

std::string file_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// --quiet: no tables on the standard output, the same image set (checked in one pass).
TEST(Mtc, PlanPrintsBothBandwidthBoundsAndTheTighter) {
  // mesh:4x4 at 64 KiB: per node 2 * 15 * 65536 / (16 * 2 * 16) = 3840 cycles (a corner's 2
  // links for every node); the cut bound, every node apart over 48 links, 2560.
  Result r = run("plan -t mesh:4x4 -a multitree -b 64KiB -q");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("bandwidth lower bound: 3840 cycles, the per-node bound, the "
                               "tighter, for 65536 bytes per node over links of 16 bytes"));
  EXPECT_THAT(r.out, HasSubstr("  per-node  3840 cycles"));
  EXPECT_THAT(r.out, HasSubstr("  cut       2560 cycles (every node apart: "));
  // Two leaf switches of four nodes each on 4-wide links, each leaf on a 2-wide link to the
  // root (8:1): per node 2 * 7 * 65536 / (8 * 4 * 16) = 1792 cycles; the group with its leaf
  // sends through 2 links, 65536 / 32 = 2048, the tighter.
  const fs::path dir = temp_dir("oversubscribed");
  fs::create_directories(dir);
  std::string links;
  for (int n = 0; n < 8; ++n) {
    links += "{\"a\": \"n" + std::to_string(n) + "\", \"b\": \"s" + std::to_string(n / 4) +
             "\", \"width\": 4},";
  }
  std::ofstream((dir / "ft.json").string())
      << "{\"nodes\": [0,1,2,3,4,5,6,7], \"switches\": [0,1,2], \"links\": [" << links
      << "{\"a\": \"s0\", \"b\": \"s2\", \"width\": 2}, {\"a\": \"s1\", \"b\": \"s2\", "
         "\"width\": 2}]}";
  r = run("plan -t file:" + (dir / "ft.json").string() + " -a multitree -b 64KiB -q");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("bandwidth lower bound: 2048 cycles, the cut bound, the tighter"));
  EXPECT_THAT(r.out, HasSubstr("  per-node  1792 cycles"));
  EXPECT_THAT(r.out, HasSubstr("2 link(s) out of 4 node(s) and 1 switch(es), M/(2 b) each way"));
}

TEST(Mtc, QuietPrintsOnlyTheVerificationAndWritesTheSameImages) {
  const fs::path loud = temp_dir("loud"), quiet = temp_dir("quiet");
  const std::string plan = "plan --topology torus:4x4 --algorithm multitree --bytes 64KiB ";
  Result r = run(plan + "--out " + loud.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string summary = r.out.substr(r.out.find("verified: "));
  r = run(plan + "--quiet --out " + quiet.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, summary.substr(0, summary.find("wrote ")) + "wrote the image set (16 node images) to " +
                       quiet.string() + "\n");
  size_t files = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(loud)) {
    EXPECT_EQ(file_bytes(e.path()), file_bytes(quiet / e.path().filename())) << e.path();
    ++files;
  }
  EXPECT_EQ(files, 3u * 16 + 1);
  // Without --out: the plan and its tables are checked, and only that is said.
  r = run(plan + "-q");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, summary.substr(0, summary.find("wrote ")));
  r = run(plan + "-q --format json");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("--quiet prints no tables, and --format json"));
}

// A table that fails while --quiet writes leaves the set already at --out as it was, and no
// temporary directory beside it.
TEST(Mtc, QuietImagesThatFailLeaveTheOldSetAndNoTemporaries) {
  const fs::path parent = temp_dir("quiet_fail");
  const fs::path dir = parent / "set";
  const std::string plan = "plan --topology torus:4x4 --algorithm multitree --quiet --out " +
                           dir.string();
  ASSERT_EQ(run(plan).code, 0);
  const std::string manifest = file_bytes(dir / "manifest.json");
  const Result r = run(plan + " --bytes 2MiB --size-bits 16");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("does not fit size_bits = 16"));
  EXPECT_EQ(file_bytes(dir / "manifest.json"), manifest);
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(parent)) {
    names.push_back(e.path().filename().string());
  }
  EXPECT_EQ(names, std::vector<std::string>{"set"});
}

TEST(Mtc, CorruptImageIsRejectedNamingTheFile) {
  const fs::path dir = temp_dir("corrupt");
  ASSERT_EQ(run("plan --topology mesh:2x2 --algorithm multitree --out " + dir.string()).code, 0);
  {
    std::fstream f(dir / "node_02.bin", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(60);
    f.put('\x5a');
  }
  const Result r = run("verify " + dir.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("node_02.bin"));
  const Result s = run("show " + (dir / "missing").string());
  EXPECT_EQ(s.code, 1);
}

TEST(Mtc, EveryAlgorithmCompilesAndVerifiesThroughTheCli) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"torus:4x4", "multitree"}, {"torus:4x4", "ring"},    {"torus:4x4", "ring-bi"},
      {"torus:4x4", "ring2d"},    {"torus:4x4", "dbtree"},  {"mesh:3x3", "ring"},
      {"fattree:4x2", "multitree"}, {"bigraph:2x4", "hdrm"}, {"bigraph:2x4", "multitree"}};
  for (const auto& [topo, alg] : cases) {
    const fs::path dir = temp_dir(alg + topo.substr(0, topo.find(':')));
    Result r = run("plan --topology " + topo + " --algorithm " + alg + " --bytes 64KiB --out " + dir.string());
    ASSERT_EQ(r.code, 0) << topo << " " << alg << ": " << r.out;
    r = run("verify " + dir.string());
    EXPECT_EQ(r.code, 0) << topo << " " << alg << ": " << r.out;
  }
}

// --dbtree-chunks C: C chunks per tree (2C flows), ceil(log2 N) + C - 1 steps per phase.
TEST(Mtc, DbtreeChunksOption) {
  const Result r = run("plan --topology torus:4x4 --algorithm dbtree --bytes 64KiB --dbtree-chunks 3 "
                       "--format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["flows"], 6);
  EXPECT_EQ(j["steps_per_phase"], 4 + 3 - 1);
  EXPECT_EQ(j["verification"]["verified"], true);
  const Result bad = run("plan --topology torus:4x4 --algorithm dbtree --dbtree-chunks -2");
  EXPECT_EQ(bad.code, 1) << bad.out;
}

TEST(Mtc, DotIsValidGraphviz) {
  const fs::path dir = temp_dir("dot");
  fs::create_directories(dir);
  for (const char* flow : {"0", "all"}) {
    const fs::path file = dir / (std::string("trees_") + flow + ".dot");
    const Result r = run(std::string("dot --topology torus:4x4 --algorithm multitree --flow ") + flow +
                      " --out " + file.string());
    ASSERT_EQ(r.code, 0) << r.out;
    const std::string cmd = "neato -Tsvg " + file.string() + " -o " + file.string() + ".svg 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << "graphviz rejects " << file;
    EXPECT_GT(fs::file_size(file.string() + ".svg"), 1000u);
  }
  EXPECT_EQ(run("dot --topology fattree:4x2 --algorithm multitree --flow 3").code, 0);
  const Result bad = run("dot --topology torus:4x4 --algorithm multitree --flow 99");
  EXPECT_EQ(bad.code, 1);
  EXPECT_THAT(bad.out, HasSubstr("--flow 99: the plan has flows 0..15"));
}

}  // namespace
