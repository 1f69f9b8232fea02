// noc-sim as a user runs it: latency near the zero-load formula at low load, saturation,
// identical JSON for identical seeds, the output contract, the plot, and clear errors for bad
// input (exit 1, nothing written).

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <systemc>

#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kNocSim = std::string(MT_BIN_DIR) + "/noc-sim";

using Result = mt::test::CommandResult;

Result run(const std::string& args, const std::string& env = "") {
  return mt::test::run_command(env + " " + kNocSim + " " + args);
}

fs::path temp_path(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / ("noc_sim_test_" + name);
  fs::remove_all(p);
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

class NocSim : public ::testing::Test {
 protected:
  void SetUp() override {
    // The sim tests depend on noc-sim in tests/CMakeLists.txt, so it is always there.
    ASSERT_TRUE(fs::exists(kNocSim)) << kNocSim << " is not built";
  }
};

// The README's zero-load latency, 2 * local + (H + 1) * R + H * link + (n - 1), plus the one
// cycle from offer to the endpoint's first send, averaged over uniform traffic on a 4x4 torus:
// a 4-ring's distances are 0, 1, 2, 1, so the 15 other nodes are 32 / 15 hops away on average.
TEST_F(NocSim, LowLoadMeanLatencyIsTheZeroLoadLatency) {
  const fs::path json = temp_path("zero_load.json");
  const Result r = run("--topology torus:4x4 --pattern uniform --rate 0.02 --packet-flits 2 "
                       "--warmup 1000 --measure 100000 --seed 3 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  const double hops = 32.0 / 15;
  const double zero_load = 2 * 1 + (hops + 1) * 4 + hops * 150 + (2 - 1) + 1;  // 338.47
  EXPECT_NEAR(j["config"]["zero_load_latency"].get<double>(), zero_load, 1e-6);
  ASSERT_EQ(j["points"].size(), 1u);
  const nlohmann::json& p = j["points"][0];
  EXPECT_FALSE(p["saturated"].get<bool>());
  EXPECT_EQ(p["errors"], 0);
  // Tolerance 2% (6.8 cycles). The window holds ~16000 packets; a uniform destination's hop
  // count has a standard deviation of ~1 hop, so the sample's mean hop count is off the
  // pattern's by 1 / sqrt(16000) = 0.008 hops = 1.2 cycles (0.35%) per standard deviation,
  // and at 2% load contention adds ~0.05 cycles per packet. 2% is over five standard
  // deviations, yet a router a cycle slow per hop would miss by 2 * 2.13 = 4 cycles on top of
  // sampling; the per-packet test in traffic_run_test.cpp and the min/max bounds below pin
  // the cycle counts exactly.
  EXPECT_NEAR(p["latency_mean"].get<double>(), zero_load, 0.02 * zero_load);
  // The fastest packet goes 1 hop (or loops back over 0 hops: not in uniform traffic), the
  // slowest 4, both meeting nobody at this load: exactly the formula.
  EXPECT_EQ(p["latency_min"], 2 + 2 * 4 + 150 + 1 + 1);
  EXPECT_GE(p["latency_max"].get<int>(), 2 + 5 * 4 + 4 * 150 + 1 + 1);
  EXPECT_LT(p["latency_max"].get<int>(), 2 + 5 * 4 + 4 * 150 + 1 + 1 + 20);
  EXPECT_NEAR(p["accepted"].get<double>(), 0.02, 0.002);
  EXPECT_NEAR(p["network_latency_mean"].get<double>(), p["latency_mean"].get<double>() - 1, 1.0);
}

TEST_F(NocSim, SameSeedSameJsonOtherSeedOtherJson) {
  const std::string args =
      "--topology torus:4x4 --pattern uniform --rates 0.1,0.4 --warmup 500 --measure 2000 ";
  const fs::path a = temp_path("det_a.json"), b = temp_path("det_b.json"),
                 c = temp_path("det_c.json");
  ASSERT_EQ(run(args + "--seed 7 --jobs 2 --json " + a.string()).code, 0);
  ASSERT_EQ(run(args + "--seed 7 --jobs 1 --json " + b.string()).code, 0);
  ASSERT_EQ(run(args + "--seed 8 --json " + c.string()).code, 0);
  EXPECT_EQ(slurp(a), slurp(b));
  EXPECT_NE(slurp(a), slurp(c));
}

TEST_F(NocSim, JsonContract) {
  const fs::path json = temp_path("contract.json");
  const Result r = run("--topology mesh:4x4 --pattern neighbor --sweep 0.1:0.3:0.1 --warmup 500 "
                       "--measure 1000 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("offered"));
  EXPECT_THAT(r.out, HasSubstr("saturated"));
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["topology"], "mesh:4x4");
  EXPECT_EQ(j["pattern"], "neighbor");
  EXPECT_EQ(j["config"]["packet_flits"], 4);
  EXPECT_EQ(j["config"]["vcs"], 4);
  ASSERT_EQ(j["points"].size(), 3u);
  const double offered[] = {0.1, 0.2, 0.3};
  for (size_t i = 0; i < 3; ++i) {
    const nlohmann::json& p = j["points"][i];
    EXPECT_DOUBLE_EQ(p["offered"].get<double>(), offered[i]);
    for (const char* key : {"accepted", "latency_mean", "latency_p99", "latency_min", "latency_max",
                            "packets", "max_link_utilisation"}) {
      EXPECT_TRUE(p[key].is_number()) << key;
    }
    EXPECT_TRUE(p["saturated"].is_boolean());
    EXPECT_TRUE(p["saturation_reason"].is_null());
    EXPECT_LE(p["latency_min"].get<double>(), p["latency_mean"].get<double>());
    EXPECT_LE(p["latency_mean"].get<double>(), p["latency_p99"].get<double>());
    EXPECT_LE(p["latency_p99"].get<double>(), p["latency_max"].get<double>());
    // A 4x4 mesh has 2 * 2 * 4 * 3 = 48 directed links; neighbor traffic loads each x+ link
    // of the first three columns with the offered rate, and the last column sends its packets
    // all the way back over the x- links.
    EXPECT_EQ(p["links"].size(), 48u);
    EXPECT_GE(p["max_link_utilisation"].get<double>(), offered[i] * 0.8);
    // Per-node accepted throughput: 16 entries each way whose mean is `accepted`, the least
    // and most of accepted_from beside them.
    ASSERT_EQ(p["accepted_at"].size(), 16u);
    ASSERT_EQ(p["accepted_from"].size(), 16u);
    double at = 0, from = 0;
    for (size_t v = 0; v < 16; ++v) {
      at += p["accepted_at"][v].get<double>();
      from += p["accepted_from"][v].get<double>();
    }
    EXPECT_NEAR(at / 16, p["accepted"].get<double>(), 1e-9);
    EXPECT_NEAR(from / 16, p["accepted"].get<double>(), 1e-9);
    EXPECT_LE(p["accepted_min"].get<double>(), from / 16);
    EXPECT_GE(p["accepted_max"].get<double>(), from / 16);
    EXPECT_GT(p["accepted_min"].get<double>(), 0.0);
  }
}

TEST_F(NocSim, HotspotSaturatesWhereUniformDoesNot) {
  const fs::path json = temp_path("hotspot.json");
  // Every packet to node 0: the 15 others share its one ejection port, so at 0.2
  // flits/node/cycle it gets 3 flits per cycle and saturates.
  const Result r = run("--topology torus:4x4 --pattern hotspot --hotspot-fraction 1 "
                       "--rates 0.02,0.2 --warmup 500 --measure 2000 --drain-timeout 3000 --json " +
                       json.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  EXPECT_FALSE(j["points"][0]["saturated"].get<bool>());
  EXPECT_TRUE(j["points"][1]["saturated"].get<bool>());
  EXPECT_TRUE(j["points"][1]["saturation_reason"].is_string());
  // Node 0 ejects at most a flit per cycle; its own 0.2 flits/cycle go elsewhere.
  EXPECT_LE(j["points"][1]["accepted"].get<double>(), (1.0 + 0.25) / 16);
  EXPECT_EQ(j["config"]["hotspot_fraction"], 1.0);
}

TEST_F(NocSim, PlotWritesAPng) {
  // scripts/setup.sh installs gnuplot-nox.
  ASSERT_EQ(std::system("command -v gnuplot > /dev/null 2>&1"), 0) << "gnuplot is not installed";
  const fs::path png = temp_path("plot.png");
  const Result r = run("--topology torus:4x4 --rates 0.1,0.3 --warmup 300 --measure 1000 --plot " +
                       png.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string data = slurp(png);
  ASSERT_GT(data.size(), 1000u);
  EXPECT_EQ(data.substr(1, 3), "PNG");
  EXPECT_FALSE(fs::exists(png.string() + ".tmp.png"));
}

TEST_F(NocSim, HelpShowsTheDefaults) {
  const Result r = run("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("torus:8x8"));
  EXPECT_THAT(r.out, HasSubstr("--sweep"));
  EXPECT_THAT(r.out, HasSubstr("0.05:1:0.05"));
  EXPECT_THAT(r.out, HasSubstr("318"));
}

struct BadInput {
  const char* args;
  const char* message;
};

TEST_F(NocSim, BadInputExitsOneWithAMessageAndWritesNothing) {
  const BadInput cases[] = {
      {"--pattern tornado --rate 0.1", "unknown traffic pattern \"tornado\""},
      {"--rate 0", "must be in (0, 1]"},
      {"--rate 1.5", "must be in (0, 1]"},
      {"--rate=-0.1", "must be in (0, 1]"},
      {"--rates 0.1,abc", "\"abc\" is not a number"},
      {"--rates 0.1,,0.2", "is not a number"},
      {"--sweep 0.1:0.5", "START:STOP:STEP"},
      {"--sweep 0.5:0.1:0.1", "below START"},
      {"--sweep 0.1:0.5:0", "STEP 0 must be positive"},
      {"--rate 0.1 --rates 0.2", "excludes"},
      {"--topology torus:4x2 --pattern transpose --rate 0.1", "square"},
      {"--topology torus:3x3 --pattern bitcomp --rate 0.1", "power-of-two"},
      {"--topology ring:1 --rate 0.1", "at least 2 nodes"},
      {"--topology cube:4 --rate 0.1", "cube:4"},
      {"--topology fattree:4x2 --pattern transpose --rate 0.1", "square"},
      {"--pattern hotspot --hotspot-node 64 --rate 0.1", "hotspot node 64"},
      {"--pattern hotspot --hotspot-fraction 2 --rate 0.1", "fraction 2"},
      {"--packet-flits 400 --rate 0.1", "do not fit a 318-flit VC"},
      {"--packet-flits 0 --rate 0.1", "at least 1 flit"},
      {"--vcs 3 --rate 0.1", "vcs = 3"},
      {"--measure 0 --rate 0.1", "at least 1 cycle"},
      {"--rate 0.1 --json /nonexistent/dir/out.json", "does not exist"},
  };
  for (const BadInput& c : cases) {
    const fs::path json = temp_path("bad.json");
    std::string args = c.args;
    if (args.find("--json") == std::string::npos) args += " --json " + json.string();
    const Result r = run(args);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args;
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr("offered  accepted"))) << c.args;
    EXPECT_FALSE(fs::exists(json)) << c.args;
  }
}

TEST_F(NocSim, PlotWithoutGnuplotIsAnInputError) {
  const fs::path json = temp_path("nognuplot.json");
  const Result r = run("--rate 0.1 --json " + json.string() + " --plot " +
                           temp_path("nognuplot.png").string(),
                       "PATH=/nonexistent");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("gnuplot"));
  EXPECT_FALSE(fs::exists(json));  // checked before simulating anything
}

}  // namespace
