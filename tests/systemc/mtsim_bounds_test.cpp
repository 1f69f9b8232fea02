// mtsim's two lower bounds: the per-node bound (`bound_cycles`) and the weakest cut's
// (`cut_bound_cycles`, host_sw/topology/cut_bound.hpp), in the JSON and the text, and "of
// bound" reckoned against the tighter of them.
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

using ::testing::HasSubstr;
using mt::test::kMtsim;
using mt::test::run_command;

nlohmann::json run_json(const std::string& dir, const std::string& args, std::string* text) {
  const auto r = run_command(kMtsim + " " + args + " --json " + dir + "/out.json");
  EXPECT_EQ(r.code, 0) << r.out;
  if (text) *text = r.out;
  std::ifstream f(dir + "/out.json");
  return nlohmann::json::parse(f);
}

TEST(MtsimBounds, TorusBoundsAreEqual) {
  // torus:4x4 at 64 KiB: per-node 2 * 15 * 65536 / (16 * 4 * 16) = 1920 cycles; the cut bound
  // is every node apart's, 2 * 15 * 65536 / (64 links * 16) = 1920, above the weakest cut's
  // (a node's 4 links) 65536 / 64 = 1024.
  const std::string dir = mt::test::fresh_dir("mtsim_bounds_", "torus");
  std::string text;
  const nlohmann::json j = run_json(dir, "-t torus:4x4 -b 64KiB --compare ring", &text);
  EXPECT_EQ(j.at("bound_cycles"), 1920);
  EXPECT_EQ(j.at("cut_bound_cycles"), 1920);
  EXPECT_EQ(j.at("compare")[0].at("cut_bound_cycles"), 1920);
  EXPECT_FALSE(j.contains("cut_bound_basis"));  // text only
  EXPECT_THAT(text, HasSubstr("physical bound  1920 cycles, the per-node and cut bounds, equal"));
  EXPECT_THAT(text, HasSubstr("cut           1920 cycles (every node apart: "));
  EXPECT_THAT(text, HasSubstr("the weakest cut gives 1024: 4 link(s) out of 1 node(s)"));
  EXPECT_THAT(text, HasSubstr("(of bound: of 1920 cycles, the per-node and cut bounds, equal)"));
}

TEST(MtsimBounds, ThinLinkCutIsTheTighterAndOfBoundUsesIt) {
  // Two halves of four nodes, each half fully linked (3 links a node), joined by one link
  // between node 3 and node 4. At 64 KiB: per-node 2 * 7 * 65536 / (8 * 3 * 16) = 2389.3, so
  // 2390 cycles; the weakest cut is the thin link, 65536 / 16 = 4096 cycles (every node apart:
  // 2 * 7 * 65536 / (26 links * 16) = 2205.5, 2206).
  const std::string dir = mt::test::fresh_dir("mtsim_bounds_", "halves");
  std::string links;
  for (int base : {0, 4}) {
    for (int a = base; a < base + 4; ++a) {
      for (int b = a + 1; b < base + 4; ++b) {
        links += "{\"a\": \"n" + std::to_string(a) + "\", \"b\": \"n" + std::to_string(b) + "\"},";
      }
    }
  }
  std::ofstream(dir + "/halves.json") << "{\"nodes\": [0,1,2,3,4,5,6,7], \"links\": [" << links
                                      << "{\"a\": \"n3\", \"b\": \"n4\"}]}";
  std::string text;
  const nlohmann::json j =
      run_json(dir, "-t file:" + dir + "/halves.json -b 64KiB -a ring", &text);
  EXPECT_EQ(j.at("bound_cycles"), 2390);
  EXPECT_EQ(j.at("cut_bound_cycles"), 4096);
  const uint64_t cycles = j.at("cycles").get<uint64_t>();
  EXPECT_GE(cycles, 4096u);  // a lower bound the run cannot beat
  // bound_ratio keeps its meaning (the per-node bound over cycles); the text's "of bound" is
  // of the tighter one.
  EXPECT_DOUBLE_EQ(j.at("bound_ratio").get<double>(), 2390.0 / static_cast<double>(cycles));
  EXPECT_THAT(text, HasSubstr("physical bound  4096 cycles, the cut bound, the tighter"));
  EXPECT_THAT(text, HasSubstr("the weakest cut: 1 link(s) out of 4 node(s), M/(1 b) each way "
                              "(max-flow"));
}

}  // namespace
