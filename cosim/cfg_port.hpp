// The host's side of the table-write port (rtl/README.md "The table-write port") of any
// ClockedModel that has it (network_interface, schedule_table): one access, bytes as words,
// and the host's load sequence of an image. Faults are returned, not thrown: mtsim --rtl
// turns them into errors, tb/ into test failures.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "clocked_model.hpp"
#include "ni_formats.hpp"

namespace mt::cosim {

// How many cycles the host waits for cfg_ready_o before it calls the port stuck: well above
// the loader's longest digest of a word (rtl/README.md "The table-write port").
constexpr uint32_t kCfgReadyWatchdog = 128;

struct CfgResponse {
  bool stuck = false;     // cfg_ready_o stayed low for kCfgReadyWatchdog cycles
  bool answered = false;  // cfg_rvalid_o was high in the cycle after the handshake
  bool error = false;     // cfg_error_o: the register map refused the access
  uint32_t data = 0;      // cfg_rdata_o
  uint32_t waited = 0;    // cycles cfg_ready_o was low before the access was taken
};

// What went wrong with the port itself in `r`, or "" (an error answer is not a port fault).
inline std::string cfg_fault(const CfgResponse& r) {
  if (r.stuck) return fmt::format("cfg_ready_o stays low for {} cycles", kCfgReadyWatchdog);
  if (!r.answered) return "no response (cfg_rvalid_o low after the handshake)";
  return "";
}

// One access, starting in the current cycle with the inputs not yet settled: cfg_valid_i
// until cfg_ready_o (an edge per cycle of waiting), the handshake edge, then the response,
// settled in the cycle after it with cfg_valid_i low. A stuck port still gets the handshake
// edge, so the access takes kCfgReadyWatchdog + 1 edges.
template <class Model>
CfgResponse cfg_access(ClockedModel<Model>& dut, bool write, uint32_t addr, uint32_t data) {
  dut->cfg_valid_i = 1;
  dut->cfg_write_i = write;
  dut->cfg_addr_i = addr;
  dut->cfg_wdata_i = data;
  CfgResponse r;
  for (;; ++r.waited) {
    dut.settle();
    if (dut->cfg_ready_o) break;
    if (r.waited >= kCfgReadyWatchdog) {
      r.stuck = true;
      break;
    }
    dut.edge();
  }
  dut.edge();
  dut->cfg_valid_i = 0;
  dut.settle();
  r.answered = dut->cfg_rvalid_o != 0;
  r.error = dut->cfg_error_o != 0;
  r.data = dut->cfg_rdata_o;
  return r;
}

// Writes `bytes` as 32-bit little-endian words at increasing addresses from `addr` (the port
// has no byte enables: the bytes missing from a last partial word are written as zeros).
// Stops at the first access that faults or is refused and returns its response; else the
// last one's. `waited` is the longest wait of them all.
template <class Model>
CfgResponse cfg_write_bytes(ClockedModel<Model>& dut, uint32_t addr, const uint8_t* bytes,
                            size_t n) {
  CfgResponse last;
  last.answered = true;  // no bytes: no access, no fault
  uint32_t longest = 0;
  for (size_t at = 0; at < n; at += 4) {
    uint32_t word = 0;
    for (size_t b = 0; b < 4 && at + b < n; ++b) word |= uint32_t{bytes[at + b]} << (8 * b);
    last = cfg_access(dut, true, static_cast<uint32_t>(addr + at), word);
    longest = std::max(longest, last.waited);
    if (last.error || !cfg_fault(last).empty()) break;
  }
  last.waited = longest;
  return last;
}

struct CfgLoad {
  uint32_t status = 0;        // the STATUS register after LOAD (format::table_status)
  uint32_t longest_wait = 0;  // the longest time cfg_ready_o kept an access waiting
  std::string fault;          // the first access that faulted or was refused, or ""
};

// The host's load sequence: the image from the window base, LENGTH = `length`, LOAD, then
// STATUS is read. Stops at the first access that faults or is refused (status stays 0).
template <class Model>
CfgLoad cfg_load(ClockedModel<Model>& dut, const std::vector<uint8_t>& image, uint32_t length) {
  namespace cfg = format::config;
  CfgLoad load;
  auto ok = [&](const CfgResponse& r, const char* what) {
    load.longest_wait = std::max(load.longest_wait, r.waited);
    std::string fault = cfg_fault(r);
    if (fault.empty() && r.error) fault = "refused";
    if (!fault.empty()) load.fault = fmt::format("{}: {}", what, fault);
    return fault.empty();
  };
  if (!ok(cfg_write_bytes(dut, cfg::kImageBase, image.data(), image.size()), "image window") ||
      !ok(cfg_access(dut, true, cfg::kRegLength, length), "LENGTH") ||
      !ok(cfg_access(dut, true, cfg::kRegLoad, 1), "LOAD")) {
    return load;
  }
  const CfgResponse status = cfg_access(dut, false, cfg::kRegStatus, 0);
  if (ok(status, "STATUS")) load.status = status.data;
  return load;
}

template <class Model>
CfgLoad cfg_load(ClockedModel<Model>& dut, const std::vector<uint8_t>& image) {
  return cfg_load(dut, image, static_cast<uint32_t>(image.size()));
}

}  // namespace mt::cosim
