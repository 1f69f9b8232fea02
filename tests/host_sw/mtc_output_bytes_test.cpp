// mtc's output bytes do not change when the way they are produced does (issue 15: output
// streamed table by table instead of built as whole documents).
//
// tests/golden/mtc_output_hashes.txt holds the SHA-256 of `mtc plan`'s text tables, its JSON,
// its --out image set and `mtc show` of that set (text and JSON) for every algorithm on
// torus:8x8 and a few other networks and options. It was recorded with the mtc built from main
// at fc65079, before the output was streamed:
//   tests/scripts/mtc_output_hashes.sh <that build>/bin/mtc > tests/golden/mtc_output_hashes.txt
// and this test runs the same script with today's mtc. A deliberate change of the output
// format records the file anew, in the commit that changes the format.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(MtcOutputBytes, TextJsonImagesAndShowAreThoseRecordedBeforeStreaming) {
  std::ifstream in(std::string(MT_SOURCE_DIR) + "/tests/golden/mtc_output_hashes.txt");
  std::stringstream recorded;
  recorded << in.rdbuf();
  const std::vector<std::string> want = lines_of(recorded.str());
  ASSERT_EQ(want.size(), 70u) << "14 cases, 5 outputs each";
  const auto r = mt::test::run_command(std::string(MT_SOURCE_DIR) +
                                       "/tests/scripts/mtc_output_hashes.sh " + MTC_EXE);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::vector<std::string> got = lines_of(r.out);
  ASSERT_EQ(got.size(), want.size()) << r.out;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
}

}  // namespace
