// Hierarchical NetReduce (netreduce) on mtsim: exact sums in both data types on machines of n
// learners (hier: and a file), Eq. (3)'s prediction in the JSON, the sign of Eq. (5) on both
// sides of B_intra / B_inter = 2P / (P - 2), and bad input refused with exit 1.
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cost_model/netreduce.hpp"
#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

using ::testing::HasSubstr;
using mt::test::kMtc;
using mt::test::kMtsim;
using mt::test::run_command;

nlohmann::json run_json(const std::string& dir, const std::string& args) {
  const auto r = run_command(kMtsim + " -q " + args + " --json " + dir + "/out.json");
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  std::ifstream f(dir + "/out.json");
  return nlohmann::json::parse(f);
}

// `machines` machines of `per_machine` learners, uplinks of `latency` cycles to a root switch.
std::string machines_file(const std::string& dir, int machines, int per_machine, int latency) {
  const std::string path = fmt::format("{}/m{}x{}_up{}.json", dir, machines, per_machine, latency);
  std::string nodes, links;
  for (int i = 0; i < machines * per_machine; ++i) {
    nodes += fmt::format("{}{}", i ? ", " : "", i);
    links += fmt::format("{{\"a\": \"n{}\", \"b\": \"s{}\"}}, ", i, i / per_machine);
  }
  std::string switches;
  for (int k = 0; k <= machines; ++k) switches += fmt::format("{}{}", k ? ", " : "", k);
  for (int k = 0; k < machines; ++k) {
    links += fmt::format("{}{{\"a\": \"s{}\", \"b\": \"s{}\", \"latency\": {}}}", k ? ", " : "",
                         k, machines, latency);
  }
  std::ofstream(path) << "{\"nodes\": [" << nodes << "], \"switches\": [" << switches
                      << "], \"links\": [" << links << "]}";
  return path;
}

// The last three have machines of more learners than VCs: a switch has a flow per learner of a
// machine, more than its VCs, so the units send in flow order (docs/ina.md, "Flows and VCs").
// hier:8+8 at ratio 2: at ratio 4 its machine switches have more ports than a router holds.
TEST(MtsimNetReduce, ExactSumsInBothTypes) {
  const std::string dir = mt::test::fresh_dir("mtsim_netreduce_", "sums");
  const std::string file = "file:" + machines_file(dir, 3, 2, 400);
  for (const std::string& spec :
       std::vector<std::string>{"hier:2+2", "hier:4+4", "hier:3+3+3", "hier:1+1", file,
                                "hier:8+8,ratio=2", "hier:6+6", "hier:5+5 --vcs 2"}) {
    for (const char* dtype : {"int32", "fp32"}) {
      const std::string args = " -t " + spec + " -a netreduce -b 20KiB --dtype " + dtype;
      SCOPED_TRACE(args);
      const auto r = run_command(kMtsim + args);
      EXPECT_EQ(r.code, 0) << r.out;
      EXPECT_THAT(r.out, HasSubstr("verified        yes: all"));
      EXPECT_THAT(r.out, HasSubstr("predicted"));
    }
  }
}

// In flow order the lanes keep the uplink busy as separate VCs do: Eq. (3) within 2% on
// hier:8+8 (8 flows on 4 lanes) as on hier:4+4.
TEST(MtsimNetReduce, FlowOrderKeepsEquationThree) {
  const std::string dir = mt::test::fresh_dir("mtsim_netreduce_", "lanes");
  const nlohmann::json j = run_json(dir, "-t hier:8+8,ratio=2 -a netreduce -b 1MiB");
  EXPECT_TRUE(j.at("verified").get<bool>());
  const double ratio = j.at("predicted_cycles").get<double>() / j.at("cycles").get<double>();
  EXPECT_NEAR(ratio, 1.0, 0.02);
}

// A window of one flit, a 30-cycle one-flit adder and VC buffers of 16 flits, with 8 flows
// on 4 lanes: the units hold their children back nearly all the time and flows wait for
// their turn on every lane, and every node still ends with the exact sum.
TEST(MtsimNetReduce, SaturatedFlowOrderDrainsWithNothingLost) {
  const std::string args =
      " -t hier:8+8,ratio=2 -a netreduce -b 64KiB --dtype int32 --ina-window 1 --ina-latency 30"
      " --ina-width 4 --vc-depth 16";
  const auto r = run_command(kMtsim + args);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("verified        yes: all 16 nodes hold the exact sum"));
}

TEST(MtsimNetReduce, JsonCarriesEquationThree) {
  const std::string dir = mt::test::fresh_dir("mtsim_netreduce_", "json");
  const nlohmann::json j = run_json(dir, "-t hier:4+4 -a netreduce -b 1MiB");
  EXPECT_TRUE(j.at("verified").get<bool>());
  EXPECT_EQ(j.at("predicted_model"), "NetReduce Eq. (3)");
  mt::AlphaBetaParams p;
  p.learners = 8;
  p.per_machine = 4;
  p.bytes = 1 << 20;
  p.b_intra = 16;      // a learner's NI port, bytes a cycle
  p.b_inter = 16;      // one uplink
  p.alpha = 4 * 150;   // the diameter's links at 150 cycles
  EXPECT_EQ(j.at("predicted_cycles").get<uint64_t>(),
            static_cast<uint64_t>(mt::t_netreduce_hier(p) + 0.5));
  // Within 2% of the simulated time on this network.
  const double ratio = j.at("predicted_cycles").get<double>() / j.at("cycles").get<double>();
  EXPECT_NEAR(ratio, 1.0, 0.02);
}

// The sign of Eq. (5), T_fr - T_nh, on 2 machines of 4 (P = 8, 2P/(P-2) = 2.67). A learner's
// NI moves 16 bytes a cycle (B_intra); B_inter is the rate one message gets over an uplink,
// which its credit loop limits once the uplink's latency is long, fitted with alpha from ina
// on 2 machines of 1 learner. Uplinks of 150 cycles: B_inter = B_intra, Eq. (5) < 0, the flat
// ring must be the faster; of 600 cycles: B_intra / B_inter near 4, Eq. (5) > 0, netreduce.
TEST(MtsimNetReduce, SignOfEquationFiveOnBothSides) {
  const std::string dir = mt::test::fresh_dir("mtsim_netreduce_", "sign");
  const uint64_t m = 256 << 10;
  for (const int latency : {150, 600}) {
    SCOPED_TRACE(fmt::format("uplink latency {}", latency));
    const std::string pair = "-t file:" + machines_file(dir, 2, 1, latency) + " -a ina -b ";
    const double big = run_json(dir, pair + std::to_string(m)).at("cycles").get<double>();
    const double small = run_json(dir, pair + std::to_string(m / 4)).at("cycles").get<double>();
    mt::AlphaBetaParams p;
    p.learners = 8;
    p.per_machine = 4;
    p.bytes = static_cast<double>(m);
    p.b_intra = 16;
    p.b_inter = static_cast<double>(m - m / 4) / (big - small);
    p.alpha = big - static_cast<double>(m) / p.b_inter;
    const double ratio = p.b_intra / p.b_inter;
    const std::string net = "-t file:" + machines_file(dir, 2, 4, latency) + " -b " +
                            std::to_string(m) + " -a ";
    const auto ring = run_json(dir, net + "ring").at("cycles").get<int64_t>();
    const auto nr = run_json(dir, net + "netreduce").at("cycles").get<int64_t>();
    const double eq5 = mt::dt_ring_netreduce(p);
    if (latency == 150) {
      EXPECT_LT(ratio, mt::eq6_ratio(8));
      EXPECT_LT(eq5, 0) << "Eq. (5) favours the flat ring";
      EXPECT_LT(ring, nr) << "the flat ring is the faster on mtsim";
    } else {
      EXPECT_GT(ratio, mt::eq6_ratio(8));
      EXPECT_GT(eq5, 0) << "Eq. (5) favours netreduce";
      EXPECT_LT(nr, ring) << "netreduce is the faster on mtsim";
    }
  }
}

TEST(MtsimNetReduce, BadInputIsRefused) {
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {" -t hier:2+3 -a netreduce -b 4KiB", "machines of equal size"},
      {" -t hier:4 -a netreduce -b 4KiB", "aggregates across at least 2"},
      {" -t fattree:4x2 -a netreduce -b 4KiB", "is not a hierarchy of machines"},
      {" -t torus:4x4 -a netreduce -b 4KiB", "has no switches"},
      {" -t hier:2+2 -a netreduce -b 4KiB --flow-control packet", "takes messages"},
      {" -t hier:7+7 -a netreduce -b 4KiB", "29 ports and 8 aggregation outputs, more than the 32"},
  };
  for (const Case& c : cases) {
    const auto r = run_command(kMtsim + c.args);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args;
  }
  const std::string dir = mt::test::fresh_dir("mtsim_netreduce_", "images");
  ASSERT_EQ(run_command(kMtc + " plan -q -t hier:2+2 -a netreduce -b 4KiB --out " + dir + "/set").code, 0);
  const auto r = run_command(kMtsim + " --images " + dir + "/set");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("not the switches' aggregation tables a run of netreduce needs"));
}

}  // namespace
