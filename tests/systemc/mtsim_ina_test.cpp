// In-network aggregation (ina) on mtsim: exact sums in both data types on every kind of
// switch network, M/b reached on a fat-tree, a run with a window of one flit and a slow adder
// (every switch back-pressuring all the time) that still drains with every sum exact, and bad
// input refused with exit 1.
#include <fstream>
#include <regex>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

using ::testing::HasSubstr;
using mt::test::kMtc;
using mt::test::kMtsim;
using mt::test::run_command;

// The "reaches X% of it" of mtsim's physical bound line.
double reached(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("this run reaches ([0-9.]+)% of it"))) return -1;
  return std::stod(m[1]);
}

TEST(MtsimIna, ExactSumsInBothTypesOnSwitchNetworks) {
  for (const char* spec : {"fattree:2x2", "fattree:4x2", "fattree:2x3", "bigraph:2x4", "hier:2+3"}) {
    for (const char* dtype : {"int32", "fp32"}) {
      const std::string args = std::string(" -t ") + spec + " -a ina -b 20KiB --dtype " + dtype;
      SCOPED_TRACE(args);
      const auto r = run_command(kMtsim + args);
      EXPECT_EQ(r.code, 0) << r.out;
      EXPECT_THAT(r.out, HasSubstr("verified        yes"));
    }
  }
}

TEST(MtsimIna, ExactSumsOnAFileWithSwitches) {
  // Two machines of three nodes, their switches on a root switch by a double link and by a
  // link of its own latency.
  const std::string dir = mt::test::fresh_dir("mtsim_ina_", "file");
  const std::string path = dir + "/two_machines.json";
  std::ofstream(path) << R"({"nodes": [0, 1, 2, 3, 4, 5], "switches": [0, 1, 2],
    "links": [{"a": "n0", "b": "s0"}, {"a": "n1", "b": "s0"}, {"a": "n2", "b": "s0"},
              {"a": "n3", "b": "s1"}, {"a": "n4", "b": "s1"}, {"a": "n5", "b": "s1"},
              {"a": "s0", "b": "s2", "width": 2}, {"a": "s1", "b": "s2", "latency": 300}]})";
  for (const char* dtype : {"int32", "fp32"}) {
    const auto r = run_command(kMtsim + " -t file:" + path + " -a ina -b 20KiB --dtype " + dtype);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_THAT(r.out, HasSubstr("verified        yes: all 6 nodes hold the exact sum"));
  }
}

TEST(MtsimIna, ReachesMOverBOnAFatTree) {
  // 16 nodes of one link each: every node's buffer crosses its link once each way, M/b.
  const auto r = run_command(kMtsim + " -t fattree:4x2 -a ina -b 1MiB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("physical bound  65536 cycles, the cut bound"));
  EXPECT_GE(reached(r.out), 90.0) << r.out;
  // fattree:8x2's first switches have 8 children: 7 adds a flit, more than a 16-element
  // adder's 4 a cycle, and a 32-element adder keeps up.
  const auto narrow = run_command(kMtsim + " -t fattree:8x2 -a ina -b 256KiB");
  const auto wide = run_command(kMtsim + " -t fattree:8x2 -a ina -b 256KiB --ina-width 32");
  ASSERT_EQ(narrow.code, 0) << narrow.out;
  ASSERT_EQ(wide.code, 0) << wide.out;
  EXPECT_LT(reached(narrow.out), 60.0) << narrow.out;
  EXPECT_GE(reached(wide.out), 90.0) << wide.out;
}

TEST(MtsimIna, SaturatedAggregationDrainsWithNothingLost) {
  // A window of one flit and a 30-cycle, one-flit adder: every switch holds its children back
  // nearly all the time. Every node still ends with the exact sum (nothing dropped), and the
  // back-pressure shows in the time: about the adder's latency per flit.
  const std::string args =
      " -t fattree:4x2 -a ina -b 64KiB --dtype int32 --ina-window 1 --ina-latency 30 --ina-width 4";
  const auto r = run_command(kMtsim + args);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("verified        yes: all 16 nodes hold the exact sum"));
  EXPECT_LT(reached(r.out), 100.0 / 30) << r.out;
  EXPECT_GT(reached(r.out), 0.0) << r.out;
  const auto wide = run_command(kMtsim + " -t fattree:4x2 -a ina -b 64KiB --dtype int32");
  EXPECT_GT(reached(wide.out), 10 * reached(r.out)) << wide.out;
}

TEST(MtsimIna, BadInputIsRefused) {
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {" -t fattree:2x2 -a ina -b 4KiB --ina-window 0", "aggregation window of 0"},
      {" -t fattree:2x2 -a ina -b 4KiB --ina-width 2", "multiple of a flit's 4 elements"},
      {" -t fattree:2x2 -a ina -b 4KiB --flow-control packet", "takes messages"},
      {" -t torus:4x4 -a ina -b 4KiB", "has no switches"},
  };
  for (const Case& c : cases) {
    const auto r = run_command(kMtsim + c.args);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args;
  }
  const std::string dir = mt::test::fresh_dir("mtsim_ina_", "images");
  ASSERT_EQ(run_command(kMtc + " plan -q -t fattree:2x2 -a ina -b 4KiB --out " + dir + "/set").code, 0);
  const auto r = run_command(kMtsim + " --images " + dir + "/set");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("not the switches' aggregation tables"));
}

}  // namespace
