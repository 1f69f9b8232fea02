// The sampled lines of mtsim --data sampled (memory/sampled_lines.hpp): the first line an
// offset meets, found through the index by KiB, agrees with a search over all the lines.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "memory/sampled_lines.hpp"

namespace mt::noc {
namespace {

// What first_from must return: the first line whose 16 bytes reach `offset` or beyond.
size_t searched(const std::vector<uint64_t>& lines, uint64_t offset) {
  const uint64_t line = offset - offset % SampledLines::kLineBytes;
  return static_cast<size_t>(std::lower_bound(lines.begin(), lines.end(), line) - lines.begin());
}

TEST(SampledLines, FirstFromAgreesWithASearchAtEveryOffset) {
  // Lines several to a KiB, KiBs with none, a line at a KiB's first and last 16 bytes.
  const std::vector<uint64_t> offsets = {0, 16, 1008, 1024, 1040, 2032, 5120, 5136, 9200};
  const SampledLines lines(offsets);
  ASSERT_EQ(lines.size(), offsets.size());
  for (uint64_t at = 0; at < 11 * 1024; ++at) {
    ASSERT_EQ(lines.first_from(at), searched(offsets, at)) << "offset " << at;
  }
}

TEST(SampledLines, FirstFromAgreesWithASearchOnARandomSample) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> offsets;
  for (uint64_t line = 0; line < 64 * 1024; ++line) {
    if (rng() % 50 == 0) offsets.push_back(line * SampledLines::kLineBytes);
  }
  const SampledLines lines(offsets);
  for (int k = 0; k < 100000; ++k) {
    const uint64_t at = rng() % (1 << 20) + (k % 2 == 0 ? 0 : 1 << 20);  // half past the end
    ASSERT_EQ(lines.first_from(at), searched(offsets, at)) << "offset " << at;
  }
}

TEST(SampledLines, AnEmptySampleHasNoLineAnywhere) {
  const SampledLines lines({});
  EXPECT_EQ(lines.size(), 0u);
  EXPECT_EQ(lines.first_from(0), 0u);
  EXPECT_EQ(lines.first_from(123456), 0u);
}

TEST(SampledLines, RejectsUnalignedUnsortedAndRepeatedLines) {
  EXPECT_THROW(SampledLines({0, 24}), InputError);
  EXPECT_THROW(SampledLines({32, 16}), InputError);
  EXPECT_THROW(SampledLines({16, 16}), InputError);
  try {
    SampledLines({0, 48, 40});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sampled line 2 at offset 40"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mt::noc
