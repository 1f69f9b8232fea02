// Compares what a command prints, line by line, with lines recorded in a file (the output
// hash tests: tests/scripts/*_hashes.sh against tests/golden/*_hashes.txt).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace mt::test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// `recorded` must hold `count` lines (a guard against a truncated file), and `command` must
// exit 0 and print the same lines; a differing line is reported with its number.
inline void expect_recorded_lines(const std::string& recorded, size_t count,
                                  const std::string& command) {
  std::ifstream in(recorded);
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<std::string> want = lines_of(text.str());
  ASSERT_EQ(want.size(), count) << recorded;
  const CommandResult r = run_command(command);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::vector<std::string> got = lines_of(r.out);
  ASSERT_EQ(got.size(), want.size()) << r.out;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
}

}  // namespace mt::test
