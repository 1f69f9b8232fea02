// mtsim's results do not change when the way the model is simulated does (issue 15: the
// simulator made faster without changing a single simulated cycle or summed bit).
//
// tests/golden/mtsim_output_hashes.txt holds the SHA-256 of mtsim's canonical --json, less
// wall_seconds and router_cycles (they measure the host and the simulation effort, not the
// model), for every algorithm on torus:4x4, mesh:3x3 and torus:8x8 at 4 KiB and 64 KiB and a
// few options that change the NI's or the network's timing. What stays covers the contract:
// cycles, the per-step timeline, every link's load, the flit counts and verified (every node
// holds the exact sum). It was recorded with an mtsim built before any change for speed:
//   tests/scripts/mtsim_output_hashes.sh <that build>/bin/mtsim > tests/golden/mtsim_output_hashes.txt
// and this test runs the same script with today's mtsim. The JSON then gained a key,
// `children_slots` (issue 14: the children slots the tables were compiled with); the file was
// recorded again after checking that every one of the 41 runs' JSON was the recorded one plus
// "children_slots": 4 and nothing else. It gained `cut_bound_cycles` (the weakest cut's lower
// bound, host_sw/topology/cut_bound.hpp) the same way: recorded again after checking that every
// run's JSON less that key hashes to the line recorded before; and again when a block's slot
// came to be taken at its first payload flit, after checking that every run's JSON less
// ni_peaks.block_slots hashes as before; and when a message's record came to be taken with its
// first block's slot, after checking that every run's JSON with ni_peaks.open_messages one
// lower hashes as before (5 runs changed); and when block slots became each port's own, after
// checking that every run's JSON less ni_peaks.block_slots hashes as before (35 runs
// changed). A deliberate change of the model's timing records the file anew, in the commit
// that changes it.
#include <gtest/gtest.h>

#include "support/recorded_lines.hpp"

namespace {

TEST(MtsimOutputExact, EveryRunsJsonIsThatRecordedBeforeTheSpeedWork) {
  // 3 networks x 6 runs x 2 sizes, and 5 option cases.
  mt::test::expect_recorded_lines(
      std::string(MT_SOURCE_DIR) + "/tests/golden/mtsim_output_hashes.txt", 41,
      std::string(MT_SOURCE_DIR) + "/tests/scripts/mtsim_output_hashes.sh " + MT_BIN_DIR +
          "/mtsim");
}

}  // namespace
