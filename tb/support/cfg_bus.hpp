// The host's side of the table-write port (rtl/README.md "The table-write port"), for any
// Verilated model that has it (schedule_table, network_interface): single accesses, and the
// host's load sequence of an image.
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "ni_formats.hpp"
#include "support/clocked.hpp"

namespace mt::tb {

struct CfgResponse {
  bool error = false;
  uint32_t data = 0;
};

// One access: valid until ready (at most 8 cycles), then the response of the next cycle.
template <class Model>
CfgResponse cfg_access(Clocked<Model>& dut, bool write, uint32_t addr, uint32_t data) {
  dut->cfg_valid_i = 1;
  dut->cfg_write_i = write;
  dut->cfg_addr_i = addr;
  dut->cfg_wdata_i = data;
  for (int wait = 0;; ++wait) {
    dut.settle();
    if (dut->cfg_ready_o) break;
    EXPECT_LT(wait, 8) << "cfg_ready_o stays low";
    if (wait >= 8) break;
    dut.tick();
  }
  dut.tick();
  dut->cfg_valid_i = 0;
  dut.settle();
  EXPECT_TRUE(dut->cfg_rvalid_o);
  return {dut->cfg_error_o != 0, dut->cfg_rdata_o};
}

// The host's sequence: the image as little-endian words from the window base, LENGTH = length,
// LOAD. Returns the STATUS register afterwards.
template <class Model>
uint32_t cfg_load(Clocked<Model>& dut, const std::vector<uint8_t>& image, uint32_t length) {
  namespace cfg = format::config;
  for (size_t at = 0; at < image.size(); at += 4) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4 && at + b < image.size(); ++b) w |= uint32_t{image[at + b]} << (8 * b);
    EXPECT_FALSE(cfg_access(dut, true, static_cast<uint32_t>(cfg::kImageBase + at), w).error);
  }
  EXPECT_FALSE(cfg_access(dut, true, cfg::kRegLength, length).error);
  EXPECT_FALSE(cfg_access(dut, true, cfg::kRegLoad, 1).error);
  return cfg_access(dut, false, cfg::kRegStatus, 0).data;
}

template <class Model>
uint32_t cfg_load(Clocked<Model>& dut, const std::vector<uint8_t>& image) {
  return cfg_load(dut, image, static_cast<uint32_t>(image.size()));
}

}  // namespace mt::tb
