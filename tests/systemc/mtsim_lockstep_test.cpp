// mtsim's results are the same whether every node advances one cycle at a time with all the
// others (--lockstep) or each node's router and NI run a link's latency ahead alone (the
// default: CycleScheduler "Groups and lookahead"; in two colours' turns where the network has
// no odd cycle, one window for all on torus:3x3). Compared: the whole --json but wall_seconds
// and router_cycles (the host's time and the simulation effort), on grids, switch networks
// and the options that change the NI's or the network's timing.
// (MtsimOutputExact compares grid runs with the JSON recorded before any speed work too.)
#include <fstream>
#include <ostream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mtsim_test_util.hpp"
#include "support/run_command.hpp"

namespace {

using mt::test::kMtsim;
using mt::test::run_command;

struct Case {
  const char* name;
  const char* args;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.args; }

nlohmann::json run_json(const std::string& dir, const std::string& args, bool lockstep) {
  const std::string path = dir + (lockstep ? "/lockstep.json" : "/windows.json");
  const auto r = run_command(kMtsim + " -q " + args + (lockstep ? " --lockstep" : "") +
                             " --json " + path);
  EXPECT_EQ(r.code, 0) << args << (lockstep ? " --lockstep" : "") << ":\n" << r.out;
  std::ifstream in(path);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << path;
  j.erase("wall_seconds");
  j.erase("router_cycles");
  return j;
}

class MtsimLockstep : public ::testing::TestWithParam<Case> {};

TEST_P(MtsimLockstep, WindowsGiveTheResultsOfLockstep) {
  const Case& c = GetParam();
  const std::string dir = mt::test::fresh_dir("mtsim_lockstep_", c.name);
  const nlohmann::json lockstep = run_json(dir, c.args, true);
  const nlohmann::json windows = run_json(dir, c.args, false);
  ASSERT_TRUE(lockstep.contains("cycles")) << lockstep.dump();
  EXPECT_TRUE(lockstep.at("verified").get<bool>());
  EXPECT_EQ(windows, lockstep) << "lockstep:\n" << lockstep.dump() << "\nwindows:\n"
                               << windows.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Runs, MtsimLockstep,
    ::testing::Values(
        Case{"torus4x4_multitree", "-t torus:4x4 -a multitree -b 64KiB"},
        Case{"torus4x4_multitree_packet",
             "-t torus:4x4 -a multitree -b 64KiB --flow-control packet"},
        Case{"mesh3x3_ring", "-t mesh:3x3 -a ring -b 16KiB"},
        Case{"torus4x4_ring2d", "-t torus:4x4 -a ring2d -b 16KiB"},
        Case{"torus3x3_multitree", "-t torus:3x3 -a multitree -b 16KiB"},
        Case{"torus4x4_dbtree_int32", "-t torus:4x4 -a dbtree -b 16KiB --dtype int32"},
        Case{"torus4x4_multitree_forward", "-t torus:4x4 -a multitree -b 64KiB --ni-forward"},
        Case{"torus4x4_multitree_paper", "-t torus:4x4 -a multitree -b 64KiB --config paper"},
        Case{"torus8x8_multitree_sampled", "-t torus:8x8 -a multitree -b 64KiB --data sampled"},
        Case{"fattree4x2_multitree", "-t fattree:4x2 -a multitree -b 64KiB"},
        Case{"fattree4x2_ring_packet", "-t fattree:4x2 -a ring -b 16KiB --flow-control packet"},
        Case{"bigraph4x4_hdrm", "-t bigraph:4x4 -a hdrm -b 16KiB"},
        Case{"fattree4x2_ina_window8",
             "-t fattree:4x2 -a ina -b 64KiB --ina-window 8 --ina-latency 7"},
        Case{"fattree4x2_ps", "-t fattree:4x2 -a ps -b 16KiB"}),
    [](const ::testing::TestParamInfo<Case>& p) { return std::string(p.param.name); });

}  // namespace
