// The sample of mtsim --data sampled (allreduce/data_sample.hpp): one line in every KiB, the
// buffer's first and last line, and every table entry's first and last line.
#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "allreduce/data_sample.hpp"
#include "common/error.hpp"
#include "topology/topology.hpp"

namespace mt::noc {
namespace {

TableSet tables(const std::string& topology, const std::string& algorithm, uint64_t bytes) {
  PlanOptions po;
  po.bytes = bytes;
  TableOptions to;
  to.base_addr = 0x10000;  // offsets are from the buffer's first byte, not address 0
  return compile_tables(build_plan(parse_topology(topology), algorithm, po), to);
}

TEST(DataSample, HoldsALinePerKibTheEndsAndEveryEntrysEnds) {
  for (const char* algorithm : {"multitree", "ring", "dbtree"}) {
    const TableSet set = tables("torus:4x4", algorithm, 64 * 1024 + 36);
    const DataSample sample(set, 3);
    const std::vector<uint64_t>& lines = sample.lines();
    ASSERT_FALSE(lines.empty());
    EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
    EXPECT_EQ(std::adjacent_find(lines.begin(), lines.end()), lines.end()) << "distinct";
    auto has = [&](uint64_t offset) {
      return std::binary_search(lines.begin(), lines.end(), offset - offset % 16);
    };
    for (uint64_t l : lines) EXPECT_EQ(l % 16, 0u);
    EXPECT_TRUE(has(0));
    EXPECT_TRUE(has(set.bytes - 1));
    for (uint64_t kib = 0; kib * 1024 < set.bytes; ++kib) {
      const auto at = std::lower_bound(lines.begin(), lines.end(), kib * 1024);
      EXPECT_TRUE(at != lines.end() && *at < (kib + 1) * 1024) << algorithm << " KiB " << kib;
    }
    for (const ScheduleTable& t : set.tables) {
      for (const TableEntry& e : t.entries) {
        if (e.op == Op::kNop || e.size == 0) continue;
        EXPECT_TRUE(has(e.start_addr - set.base_addr)) << algorithm;
        EXPECT_TRUE(has(e.start_addr - set.base_addr + e.size - 1)) << algorithm;
      }
    }
    // A small part of the buffer: one line per KiB and the boundaries of 16 nodes' entries.
    EXPECT_LT(16 * lines.size(), set.bytes / 16) << algorithm;
  }
}

TEST(DataSample, DependsOnTheSeedAndGrowsWithTheBuffer) {
  const TableSet small = tables("mesh:3x3", "multitree", 36 * 1024);
  const TableSet big = tables("mesh:3x3", "multitree", 36 * 4096);
  EXPECT_NE(DataSample(small, 1).lines(), DataSample(small, 2).lines());
  EXPECT_EQ(DataSample(small, 1).lines(), DataSample(small, 1).lines());
  const size_t a = DataSample(small, 1).lines().size(), b = DataSample(big, 1).lines().size();
  EXPECT_GE(b, 144u);  // one per KiB of 144 KiB
  EXPECT_LT(b, 4 * a);  // the entries' boundaries do not grow with the size
}

TEST(DataSample, DataModeNames) {
  EXPECT_EQ(parse_data_mode("full"), DataMode::kFull);
  EXPECT_EQ(parse_data_mode("sampled"), DataMode::kSampled);
  EXPECT_STREQ(data_mode_name(DataMode::kSampled), "sampled");
  try {
    parse_data_mode("half");
    FAIL() << "accepted --data half";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("--data half: must be full or sampled"));
  }
}

}  // namespace
}  // namespace mt::noc
