// The parameter server (ps) on mtsim: exact sums in both data types and both flow-control
// modes, and the incast it exists to show: the server's one link carries every worker's
// buffer in, so the reduce phase takes (N - 1) M / b.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

using ::testing::HasSubstr;
using mt::test::kMtsim;
using mt::test::run_command;

TEST(MtsimPs, ExactSumsInBothTypesAndFlowControlModes) {
  for (const char* spec : {"fattree:2x2", "bigraph:2x2"}) {
    for (const char* dtype : {"int32", "fp32"}) {
      for (const char* fc : {"message", "packet"}) {
        const std::string args = std::string(" -t ") + spec + " -a ps -b 16KiB --dtype " + dtype +
                                 " --flow-control " + fc;
        SCOPED_TRACE(args);
        const auto r = run_command(kMtsim + args);
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_THAT(r.out, HasSubstr("verified        yes"));
      }
    }
  }
}

TEST(MtsimPs, IncastAtTheServerSetsTheReducePhase) {
  // fattree:4x2: 16 nodes, one 16 B/cycle link each. 15 workers' 64 KiB (4096 flits each)
  // cross the server's one link: the Gathers cannot start before 15 * 4096 cycles.
  const auto r = run_command(kMtsim + " -t fattree:4x2 -a ps -b 64KiB --timeline");
  ASSERT_EQ(r.code, 0) << r.out;
  const uint64_t flits = 64 * 1024 / 16;
  // Step 6 is the second Gather step (T = 4): it begins after the first Gather step's 4 sends.
  const std::string::size_type at = r.out.find("\n     6 ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const uint64_t step6 = std::stoull(r.out.substr(at + 8));
  EXPECT_GE(step6, 15 * flits + 4 * flits) << r.out;
  // ... and not much more: the server's link is the bottleneck, not the workers'.
  EXPECT_LT(step6, 15 * flits + 4 * flits + 4000) << r.out;
}

TEST(MtsimPs, DirectNetworkIsBadInput) {
  const auto r = run_command(kMtsim + " -t torus:3x3 -a ps -b 16KiB");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("direct network"));
}

}  // namespace
