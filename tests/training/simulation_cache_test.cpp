// The on-disk cache of simulated all-reduces (mttrain --sim-cache): an entry is found only
// under its whole key (options, tool, size), a damaged or foreign entry is a miss that says
// why, and a directory that cannot hold entries is refused up front.
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "support/scratch_dir.hpp"
#include "training/simulation_cache.hpp"

namespace {

namespace fs = std::filesystem;
using mt::training::SimulationCache;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kRun = R"({"bytes":4096,"cycles":1234,"wall_seconds":0.5})";

std::string dir_for(const std::string& name) {
  return mt::test::fresh_dir("simulation_cache_", name);
}

TEST(SimulationCache, FindsAnEntryOnlyUnderItsWholeKey) {
  const std::string dir = dir_for("key") + "/entries";  // created by the cache
  const SimulationCache cache(dir, "--algorithm ring\n", "tool-a");
  std::string why = "unchanged?";
  EXPECT_FALSE(cache.load(4096, &why).has_value());
  EXPECT_EQ(why, "");  // no entry: nothing wrong
  cache.store(4096, kRun);
  const std::optional<std::string> got = cache.load(4096);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(json::parse(*got), json::parse(kRun));
  EXPECT_FALSE(cache.load(8192).has_value());  // another size
  EXPECT_FALSE(SimulationCache(dir, "--algorithm dbtree\n", "tool-a").load(4096).has_value());
  EXPECT_FALSE(SimulationCache(dir, "--algorithm ring\n", "tool-b").load(4096).has_value());
  EXPECT_THAT(mt::test::hidden_names(dir), IsEmpty());  // the temporary file was renamed
}

TEST(SimulationCache, AForeignOrDamagedEntryIsAMissThatSaysWhy) {
  const std::string dir = dir_for("damaged");
  const SimulationCache cache(dir, "--algorithm ring\n", "tool-a");
  // Another key's entry in this key's file (as a hash collision would leave it).
  const SimulationCache other(dir, "--algorithm dbtree\n", "tool-a");
  other.store(4096, kRun);
  fs::rename(other.path(4096), cache.path(4096));
  std::string why;
  EXPECT_FALSE(cache.load(4096, &why).has_value());
  EXPECT_THAT(why, HasSubstr("another simulation's entry"));
  std::ofstream(cache.path(4096)) << "{\"key\": ";  // cut short
  EXPECT_FALSE(cache.load(4096, &why).has_value());
  EXPECT_THAT(why, HasSubstr("unreadable entry"));
  EXPECT_THAT(why, HasSubstr(cache.path(4096)));
  cache.store(4096, kRun);  // a new simulation replaces it
  EXPECT_TRUE(cache.load(4096).has_value());
}

TEST(SimulationCache, ADirectoryItCannotUseIsRefused) {
  const std::string dir = dir_for("refused");
  std::ofstream(dir + "/file") << "x";
  try {
    SimulationCache(dir + "/file", "", "tool-a");
    FAIL() << "a file accepted as the cache directory";
  } catch (const mt::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("not a directory"));
  }
}

TEST(SimulationCache, TheToolIsIdentifiedByItsBytes) {
  const std::string id = SimulationCache::tool_identity();
  EXPECT_THAT(id, ::testing::MatchesRegex("fnv1a64:[0-9a-f]{16}"));
  EXPECT_EQ(id, SimulationCache::tool_identity());
  const char data[] = "a";
  EXPECT_EQ(mt::training::fnv1a64(data, 1), 0xaf63dc4c8601ec8cull);  // FNV-1a's published value
}

}  // namespace
