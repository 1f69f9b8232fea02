// The host's side of the table-write port (rtl/README.md "The table-write port"), for any
// Verilated model that has it (schedule_table, network_interface): single accesses, and the
// host's load sequence of an image.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "ni_formats.hpp"
#include "support/clocked.hpp"

namespace mt::tb {

struct CfgResponse {
  bool error = false;
  uint32_t data = 0;
  uint32_t waited = 0;  // cycles cfg_ready_o was low before the access was taken
};

// How long a bench waits for cfg_ready_o before it calls the port stuck: well above the
// loader's longest digest of a word (rtl/README.md "The table-write port").
constexpr int kCfgReadyWatchdog = 128;

// One access: valid until ready, then the response of the next cycle.
template <class Model>
CfgResponse cfg_access(Clocked<Model>& dut, bool write, uint32_t addr, uint32_t data) {
  dut->cfg_valid_i = 1;
  dut->cfg_write_i = write;
  dut->cfg_addr_i = addr;
  dut->cfg_wdata_i = data;
  int wait = 0;
  for (;; ++wait) {
    dut.settle();
    if (dut->cfg_ready_o) break;
    EXPECT_LT(wait, kCfgReadyWatchdog) << "cfg_ready_o stays low";
    if (wait >= kCfgReadyWatchdog) break;
    dut.tick();
  }
  dut.tick();
  dut->cfg_valid_i = 0;
  dut.settle();
  EXPECT_TRUE(dut->cfg_rvalid_o);
  return {dut->cfg_error_o != 0, dut->cfg_rdata_o, static_cast<uint32_t>(wait)};
}

// The host's sequence: the image as little-endian words from the window base, LENGTH = length,
// LOAD. Returns the STATUS register afterwards; `longest_wait`, when given, the longest time
// cfg_ready_o kept an access waiting.
template <class Model>
uint32_t cfg_load(Clocked<Model>& dut, const std::vector<uint8_t>& image, uint32_t length,
                  uint32_t* longest_wait = nullptr) {
  namespace cfg = format::config;
  uint32_t longest = 0;
  auto access = [&](bool write, uint32_t addr, uint32_t data) {
    const CfgResponse r = cfg_access(dut, write, addr, data);
    longest = std::max(longest, r.waited);
    return r;
  };
  for (size_t at = 0; at < image.size(); at += 4) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4 && at + b < image.size(); ++b) w |= uint32_t{image[at + b]} << (8 * b);
    EXPECT_FALSE(access(true, static_cast<uint32_t>(cfg::kImageBase + at), w).error);
  }
  EXPECT_FALSE(access(true, cfg::kRegLength, length).error);
  EXPECT_FALSE(access(true, cfg::kRegLoad, 1).error);
  const uint32_t status = access(false, cfg::kRegStatus, 0).data;
  if (longest_wait) *longest_wait = longest;
  return status;
}

template <class Model>
uint32_t cfg_load(Clocked<Model>& dut, const std::vector<uint8_t>& image) {
  return cfg_load(dut, image, static_cast<uint32_t>(image.size()));
}

}  // namespace mt::tb
