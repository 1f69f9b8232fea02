// Directories the tests of the tools write into: a fresh one per test, and what a writer left
// behind in one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace mt::test {

// An empty directory `<prefix><name>` under the test temp directory.
inline std::string fresh_dir(const std::string& prefix, const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(::testing::TempDir()) / (prefix + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

// Names in `dir` that start with ".": the temporary files and directories writers leave.
inline std::vector<std::string> hidden_names(const std::string& dir) {
  std::vector<std::string> names;
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name[0] == '.') names.push_back(name);
  }
  return names;
}

}  // namespace mt::test
