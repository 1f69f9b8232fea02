// What the tests of the mtsim command and of its hardening share: where the built tools are,
// and a fresh directory per test.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace mt::test {

inline const std::string kMtsim = std::string(MT_BIN_DIR) + "/mtsim";
inline const std::string kMtc = MTC_EXE;

// An empty directory `<prefix><name>` under the test temp directory.
inline std::string fresh_dir(const std::string& prefix, const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(::testing::TempDir()) / (prefix + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

}  // namespace mt::test
