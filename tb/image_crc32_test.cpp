// rtl/image_crc32.sv against zlib's crc32: the check value, every byte from every state bit,
// and random byte strings.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

#include "Vimage_crc32.h"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

// Runs bytes through the combinational block from the running value INIT (all ones) and
// returns the CRC (running value xor all ones), as rtl/schedule_table.sv uses it.
uint32_t rtl_crc(Vimage_crc32& m, const std::vector<uint8_t>& bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t b : bytes) {
    m.crc_i = crc;
    m.byte_i = b;
    m.eval();
    crc = m.crc_o;
  }
  return crc ^ 0xFFFFFFFFu;
}

uint32_t zlib_crc(const std::vector<uint8_t>& bytes) {
  return static_cast<uint32_t>(crc32_z(crc32_z(0, Z_NULL, 0), bytes.data(), bytes.size()));
}

TEST(ImageCrc32, MatchesZlibOnTheCheckValueAndRandomStrings) {
  VerilatedContext ctx;
  Vimage_crc32 m(&ctx);
  const std::string check = "123456789";
  EXPECT_EQ(rtl_crc(m, {check.begin(), check.end()}), 0xCBF43926u);
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> bytes(rng() % 300);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    ASSERT_EQ(rtl_crc(m, bytes), zlib_crc(bytes)) << bytes.size() << " bytes";
  }
}

TEST(ImageCrc32, EveryByteFromEveryOneHotState) {
  VerilatedContext ctx;
  Vimage_crc32 m(&ctx);
  for (uint32_t bit = 0; bit < 32; ++bit) {
    for (uint32_t b = 0; b < 256; ++b) {
      // The running value after one byte from state s: zlib's crc32 of that byte continued
      // from CRC s ^ ~0 (zlib keeps the complemented value between calls).
      const uint32_t s = 1u << bit;
      const uint8_t byte = static_cast<uint8_t>(b);
      const uint32_t want = static_cast<uint32_t>(crc32_z(s ^ 0xFFFFFFFFu, &byte, 1)) ^ 0xFFFFFFFFu;
      m.crc_i = s;
      m.byte_i = byte;
      m.eval();
      ASSERT_EQ(m.crc_o, want) << "state bit " << bit << ", byte " << b;
    }
  }
}

}  // namespace
}  // namespace mt::tb
