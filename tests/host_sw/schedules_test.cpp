// The checked-in golden image sets in schedules/ are exactly what mtc builds today.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "image/image.hpp"
#include "verifier/verifier.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::pair<std::string, std::string>> golden_sets() {
  std::vector<std::pair<std::string, std::string>> sets;
  std::ifstream in(std::string(MT_SOURCE_DIR) + "/schedules/sets.txt");
  std::string name, topology;
  while (in >> name >> topology) sets.emplace_back(name, topology);
  return sets;
}

TEST(Schedules, ListsTheFourIssueSets) {
  const auto sets = golden_sets();
  ASSERT_EQ(sets.size(), 4u);
  std::vector<std::string> topologies;
  for (const auto& s : sets) topologies.push_back(s.second);
  EXPECT_EQ(topologies, (std::vector<std::string>{"mesh:2x2", "mesh:4x4", "torus:4x4", "torus:8x8"}));
}

TEST(Schedules, RebuildIsBitIdentical) {
  for (const auto& [name, topology] : golden_sets()) {
    SCOPED_TRACE(name);
    const fs::path golden = fs::path(MT_SOURCE_DIR) / "schedules" / name;
    const fs::path fresh = fs::path(::testing::TempDir()) / ("schedules_" + name);
    fs::remove_all(fresh);
    const std::string cmd = std::string(MTC_EXE) + " plan --topology " + topology +
                            " --algorithm multitree --bytes 1MiB --dtype fp32 --format json --out " +
                            fresh.string() + " > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(golden)) {
      const fs::path rebuilt = fresh / entry.path().filename();
      ASSERT_TRUE(fs::exists(rebuilt)) << entry.path().filename() << " is no longer written";
      EXPECT_EQ(slurp(entry.path()), slurp(rebuilt)) << entry.path() << " differs";
      ++files;
    }
    size_t written = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(fresh)) ++written;
    EXPECT_EQ(files, written) << "mtc writes files the golden set lacks";
  }
}

TEST(Schedules, GoldenSetsDecodeAndVerify) {
  for (const auto& [name, topology] : golden_sets()) {
    SCOPED_TRACE(name);
    const mt::TableSet set = mt::read_image_set(std::string(MT_SOURCE_DIR) + "/schedules/" + name);
    EXPECT_EQ(set.topology, topology);
    const mt::VerifyReport r = mt::verify_tables(set, mt::parse_topology(topology));
    EXPECT_TRUE(r.ok()) << r.errors.front();
  }
}

}  // namespace
