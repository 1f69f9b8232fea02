// mt::ZeroedPages: zeroed, writable bytes on a huge-page boundary, or a clear error.
#include "common/zeroed_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

namespace mt {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(ZeroedPages, MapsZeroedWritableBytesOnAHugePageBoundary) {
  const std::size_t bytes = 3 * kMiB + 5;  // spans two 2 MiB pages, the second in part
  ZeroedPages pages(bytes);
  ASSERT_NE(pages.data(), nullptr);
  EXPECT_EQ(pages.size(), bytes);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pages.data()) % (2 * kMiB), 0u);
  EXPECT_TRUE(std::all_of(pages.data(), pages.data() + bytes, [](uint8_t b) { return b == 0; }));
  for (std::size_t i = 0; i < bytes; i += 4093) pages.data()[i] = static_cast<uint8_t>(i);
  pages.data()[bytes - 1] = 0x5a;
  for (std::size_t i = 0; i < bytes; i += 4093) {
    ASSERT_EQ(pages.data()[i], static_cast<uint8_t>(i)) << "byte " << i;
  }
  EXPECT_EQ(pages.data()[bytes - 1], 0x5a);
}

TEST(ZeroedPages, SeparateMappingsDoNotShareBytes) {
  ZeroedPages a(4096), b(4096);
  a.data()[0] = 1;
  EXPECT_EQ(b.data()[0], 0);
}

TEST(ZeroedPages, NoBytesMapNothing) {
  ZeroedPages pages(0);
  EXPECT_EQ(pages.data(), nullptr);
  EXPECT_EQ(pages.size(), 0u);
}

// Half the address space is refused by the host; the largest sizes overflow the rounding to
// whole huge pages.
TEST(ZeroedPages, AnImpossibleSizeIsAnErrorNamingIt) {
  const std::size_t top = std::numeric_limits<std::size_t>::max();
  for (const std::size_t bytes : {top / 2, top - 1}) {
    try {
      ZeroedPages pages(bytes);
      ADD_FAILURE() << "mapped " << bytes << " bytes";
    } catch (const std::system_error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(bytes)), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace mt
