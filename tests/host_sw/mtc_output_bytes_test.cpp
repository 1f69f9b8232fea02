// mtc's output bytes do not change when the way they are produced does (issue 15: output
// streamed table by table instead of built as whole documents).
//
// tests/golden/mtc_output_hashes.txt holds the SHA-256 of `mtc plan`'s text tables, its JSON,
// its --out image set and `mtc show` of that set (text and JSON) for every algorithm on
// torus:8x8 and a few other networks and options. It was recorded with an mtc that built each
// output as a whole document in memory, before the output was streamed:
//   tests/scripts/mtc_output_hashes.sh <that build>/bin/mtc > tests/golden/mtc_output_hashes.txt
// and this test runs the same script with today's mtc. `mtc plan`'s text then gained three
// closing lines, the bandwidth lower bounds (per node and by the weakest cut); the file was
// recorded again after checking that every text output less those lines hashes to its line
// recorded before (the other outputs did not change). A deliberate change of the output
// format records the file anew, in the commit that changes the format.
#include <gtest/gtest.h>

#include "support/recorded_lines.hpp"

namespace {

TEST(MtcOutputBytes, TextJsonImagesAndShowAreThoseRecordedBeforeStreaming) {
  // 14 cases, 5 outputs each.
  mt::test::expect_recorded_lines(
      std::string(MT_SOURCE_DIR) + "/tests/golden/mtc_output_hashes.txt", 70,
      std::string(MT_SOURCE_DIR) + "/tests/scripts/mtc_output_hashes.sh " + MTC_EXE);
}

}  // namespace
