// mtsim --data sampled (allreduce/data_sample.hpp): the same cycles, step timeline and link
// loads as --data full on every path that touches the buffers (--compare, --images, --rtl),
// a wrong sampled sum caught with exit code 3, bad values refused, memory the host refuses
// named as such, and the data held growing with the sample, not with nodes x bytes.
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using mt::test::kMtc;
using mt::test::kMtsim;
using mt::test::run_command;

std::string temp_dir(const std::string& name) {
  return mt::test::fresh_dir("mtsim_data_test_", name);
}

// Runs mtsim with `args` and --json; returns the JSON, without the wall times.
nlohmann::json run_json(const std::string& args, const std::string& json) {
  const auto r = run_command(kMtsim + " -q " + args + " --json " + json);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  std::ifstream f(json);
  nlohmann::json j = nlohmann::json::parse(f);
  j.erase("wall_seconds");
  for (nlohmann::json& c : j.at("compare")) c.erase("wall_seconds");
  return j;
}

TEST(MtsimData, SampledRunsHaveTheCyclesTimelineAndLinksOfFullRuns) {
  const std::string dir = temp_dir("same");
  ASSERT_EQ(run_command(kMtc + " plan -t mesh:2x2 -a multitree -b 4KiB --out " + dir + "/set").code, 0);
  const std::vector<std::string> runs = {
      "-t torus:4x4 -b 64KiB --compare ring,dbtree,multitree:packet",
      "-t mesh:3x3 -b 36KiB --dtype int32 --compare ring,dbtree,multitree:packet",
      // Sizes whose blocks start and end inside sampled lines (the NI adds only the sampled
      // lines' part of each block: set_data_sample).
      "-t mesh:3x3 -b 36852 --compare ring,multitree:packet",
      "-t torus:4x4 -b 65540 --dtype int32 -a ring --compare ring2d",
      "--images " + dir + "/set --flow-control packet",
      // Co-simulation: the RTL NI reads and writes the memory through the same TLM socket.
      "-t mesh:2x2 -b 4KiB --rtl",
      "-t mesh:2x2 -b 4KiB --dtype int32 --flow-control packet --rtl-nodes 1",
  };
  for (const std::string& args : runs) {
    const nlohmann::json full = run_json(args, dir + "/full.json");
    nlohmann::json sampled = run_json(args + " --data sampled", dir + "/sampled.json");
    EXPECT_FALSE(full.contains("data")) << "a default run's JSON is as it was";
    // The queue bounds' peaks come from the SystemC NIs; an all-RTL run has none.
    const bool all_rtl = args.size() >= 5 && args.compare(args.size() - 5, 5, "--rtl") == 0;
    EXPECT_EQ(full.contains("ni_peaks"), !all_rtl) << args;
    EXPECT_EQ(sampled.at("data"), "sampled") << args;
    const uint64_t checked = sampled.at("checked_elements").get<uint64_t>();
    EXPECT_GT(checked, 0u) << args;
    EXPECT_LT(checked, sampled.at("bytes").get<uint64_t>() / 4) << args;
    for (const char* key : {"data", "checked_elements", "data_bytes"}) sampled.erase(key);
    ASSERT_EQ(sampled.at("compare").size(), full.at("compare").size());
    for (nlohmann::json& c : sampled.at("compare")) {
      EXPECT_EQ(c.at("data"), "sampled") << args;
      for (const char* key : {"data", "checked_elements", "data_bytes"}) c.erase(key);
    }
    EXPECT_EQ(sampled, full) << args;  // cycles, steps, links, flits, verified: everything
  }
}

TEST(MtsimData, TheOutputSaysTheDataWasSampled) {
  const auto r = run_command(kMtsim + " -q -t mesh:3x3 -b 36KiB --data sampled --compare ring");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("config default, data sampled\n"));
  EXPECT_THAT(r.out, HasSubstr("data            sampled: "));
  EXPECT_THAT(r.out, HasSubstr("of 9216 elements per node stored and checked"));
  EXPECT_THAT(r.out, HasSubstr("verified        yes, on the sample: all 9 nodes"));
  EXPECT_THAT(r.out, HasSubstr("sample\n"));  // the comparison's verified column
  const auto full = run_command(kMtsim + " -q -t mesh:3x3 -b 36KiB");
  EXPECT_THAT(full.out, ::testing::Not(HasSubstr("sampled")));
  EXPECT_THAT(full.out, HasSubstr("verified        yes: all 9 nodes hold the exact sum"));
}

// The test hook adds 1 to one element of one node's initial data: every node's sum there must
// come out wrong, and the run fails with exit code 3 in both modes.
TEST(MtsimData, AWrongSampledSumFailsTheRun) {
  const std::string dir = temp_dir("fault");
  const uint64_t last = 64 * 1024 / 4 - 1;  // the buffer's last line is always sampled
  for (const std::string& fault : {std::string("5:0"), "15:" + std::to_string(last)}) {
    for (const char* extra : {"", " --dtype int32", " --flow-control packet --compare ring"}) {
      for (const char* data : {"sampled", "full"}) {
        const std::string args = std::string(" -q -t torus:4x4 -b 64KiB --data ") + data +
                                 extra + " --inject-fault " + fault + " --json " + dir + "/x.json";
        const auto r = run_command(kMtsim + args);
        EXPECT_EQ(r.code, 3) << args << "\n" << r.out;
        EXPECT_THAT(r.out, HasSubstr("verified        NO: node 0, element " +
                                     fault.substr(fault.find(':') + 1) + " "))
            << args;
        EXPECT_FALSE(fs::exists(dir + "/x.json")) << args;
      }
    }
  }
}

TEST(MtsimData, BadValuesAreRefused) {
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"--data partial", "--data partial: must be full or sampled"},
      {"--data ''", "--data: the value is empty; give one, or leave the option out"},
      {"--data SAMPLED", "--data SAMPLED: must be full or sampled"},
      {"--data sampled --inject-fault 1", "--inject-fault 1: give NODE:ELEMENT"},
      {"--data sampled --inject-fault 16:0", "node 16 does not exist"},
      {"--data sampled --inject-fault 0:1000", "element 1000 is not checked with --data sampled"},
      {"--inject-fault 0:16384", "element 16384 is not checked with --data full"},
  };
  for (const Case& c : cases) {
    const auto r = run_command(kMtsim + " -q -t torus:4x4 -b 64KiB " + c.args);
    EXPECT_EQ(r.code, 1) << c.args << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("mtsim: error: " )) << c.args;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.args << "\n" << r.out;
  }
}

// A host that refuses memory below what this machine's RAM allows is an input error naming
// the run, with no JSON. `ulimit -v` stands in for such a host: in 1 GiB of address space,
// 16 x 128 MiB memories do not fit, and at 512 MiB neither do the expected sums (8 bytes an
// element), which are allocated first.
TEST(MtsimData, MemoryTheHostRefusesIsAClearError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "MT_SANITIZE: AddressSanitizer's shadow memory does not fit any ulimit -v";
#endif
  const std::string dir = temp_dir("host");
  for (const std::string bytes : {"134217728", "536870912"}) {
    const auto r = run_command("ulimit -v 1048576 && " + kMtsim + " -q -t torus:4x4 -b " +
                               bytes + " --json " + dir + "/x.json");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_THAT(r.out, HasSubstr("mtsim: error: the host refused memory for a " + bytes +
                                 "-byte all-reduce on 16 nodes with --data full (--data "
                                 "sampled stores 1/64 of the data)"));
    EXPECT_FALSE(fs::exists(dir + "/x.json")) << bytes;
  }
}

// The bytes the model holds for data (every node's stored bytes and the expected sums): with
// --data sampled 16 bytes per sampled line per node and 8 per checked element, about 1/64 of
// what --data full holds (nodes x bytes, and 8 bytes per element for the sums), and 4 times
// the buffer is about 4 times the sample.
TEST(MtsimData, TheDataHeldGrowsWithTheSampleNotTheBuffer) {
  const std::string dir = temp_dir("held");
  auto held = [&](const std::string& bytes) {
    nlohmann::json j = run_json("-t mesh:2x2 -b " + bytes + " --data sampled", dir + "/h.json");
    const uint64_t checked = j.at("checked_elements").get<uint64_t>();
    EXPECT_EQ(j.at("data_bytes").get<uint64_t>(), 4 * 4 * checked + 8 * checked) << bytes;
    return std::pair{j.at("data_bytes").get<uint64_t>(), j.at("bytes").get<uint64_t>()};
  };
  const auto [small, small_bytes] = held("256KiB");
  const auto [big, big_bytes] = held("1MiB");
  const uint64_t full = 4 * big_bytes + 8 * big_bytes / 4;
  EXPECT_LT(big, full / 32);
  EXPECT_GT(big, 3 * small);
  EXPECT_LT(big, 5 * small);
  EXPECT_EQ(big_bytes, 4 * small_bytes);
}

}  // namespace
