// The NI's forwarding buffer (ni/forward_buffer.hpp): bytes held by address, replaced by a
// later put of the same bytes, freed by erase, and the count of bytes held.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "forwarding/forward_buffer.hpp"

namespace mt::noc {
namespace {

std::vector<uint8_t> bytes(uint64_t n, uint8_t first) {
  std::vector<uint8_t> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(first + i);
  return v;
}

TEST(ForwardBuffer, HoldsWhatWasPutAcrossPages) {
  ForwardBuffer f;
  const std::vector<uint8_t> a = bytes(600, 7);  // 0x1f0 .. 0x448: three 256-byte pages
  f.put(0x1f0, a.data(), a.size());
  EXPECT_TRUE(f.holds(0x1f0, 600));
  EXPECT_TRUE(f.holds(0x300, 16));
  EXPECT_FALSE(f.holds(0x1ef, 2));   // one byte before
  EXPECT_FALSE(f.holds(0x440, 16));  // runs past the end
  std::vector<uint8_t> out(600);
  f.read(0x1f0, out.data(), out.size());
  EXPECT_EQ(out, a);
  EXPECT_EQ(f.held_bytes(), 600u);
}

TEST(ForwardBuffer, ALaterSumReplacesTheEarlierAndIsCountedOnce) {
  ForwardBuffer f;
  const std::vector<uint8_t> a = bytes(256, 1), b = bytes(128, 100);
  f.put(0x1000, a.data(), a.size());
  f.put(0x1080, b.data(), b.size());
  EXPECT_EQ(f.held_bytes(), 256u);
  std::vector<uint8_t> out(256);
  f.read(0x1000, out.data(), out.size());
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(out[i], a[i]) << i;
  for (size_t i = 128; i < 256; ++i) EXPECT_EQ(out[i], b[i - 128]) << i;
}

TEST(ForwardBuffer, EraseFreesAndPeakRemembersTheMost) {
  ForwardBuffer f;
  const std::vector<uint8_t> a = bytes(1024, 0);
  f.put(0, a.data(), 512);
  f.put(4096, a.data(), 1024);
  EXPECT_EQ(f.peak_bytes(), 1536u);
  f.erase(4096 + 100, 200);
  EXPECT_EQ(f.held_bytes(), 1336u);
  EXPECT_FALSE(f.holds(4096, 1024));
  EXPECT_TRUE(f.holds(4096, 100));
  EXPECT_TRUE(f.holds(4096 + 300, 724));
  f.erase(0, 1 << 20);  // erasing bytes it does not hold is harmless
  EXPECT_EQ(f.held_bytes(), 0u);
  EXPECT_EQ(f.peak_bytes(), 1536u);
  f.put(8192, a.data(), 16);
  EXPECT_EQ(f.peak_bytes(), 1536u);
}

TEST(ForwardBuffer, ReadingBytesItDoesNotHoldIsAnError) {
  ForwardBuffer f;
  const std::vector<uint8_t> a = bytes(64, 0);
  f.put(0x40, a.data(), a.size());
  std::vector<uint8_t> out(65);
  EXPECT_THROW(f.read(0x40, out.data(), 65), std::logic_error);
}

TEST(ForwardBuffer, BytesThatEndAtTheTopOfTheAddressSpace) {
  ForwardBuffer f;
  const std::vector<uint8_t> a = bytes(300, 3);
  const uint64_t addr = ~uint64_t{0} - 299;  // [addr, 2^64)
  f.put(addr, a.data(), a.size());
  EXPECT_TRUE(f.holds(addr, 300));
  EXPECT_FALSE(f.holds(0, 1));  // nothing wrapped around to address 0
  std::vector<uint8_t> out(300);
  f.read(addr, out.data(), out.size());
  EXPECT_EQ(out, a);
  f.erase(addr, 300);
  EXPECT_EQ(f.held_bytes(), 0u);
}

}  // namespace
}  // namespace mt::noc
