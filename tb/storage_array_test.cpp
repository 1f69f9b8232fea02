// rtl/storage_array.sv with registered write ports (WRITE_REG = 1) against the same array
// without them (tb/storage_array_tb.sv): random writes (several ports, lane masks, the same
// word from two ports and in consecutive cycles) and reads, the read data equal every cycle; a
// registered read port without its read enable holds its data. Without the bypass (BYPASS =
// 0) the same, with no read of a word in the cycle after it is written (the rule such an
// array sets its block).
// The first difference is named by cycle, read port and both values.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

#include "Vstorage_array_async.h"
#include "Vstorage_array_no_bypass.h"
#include "Vstorage_array_sync.h"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

// The benches' parameters (tb/CMakeLists.txt): 16-bit words of two 8-bit lanes, 8 words,
// 2 write ports, 2 read ports.
constexpr int kAddrW = 3;
constexpr int kWrites = 2;
constexpr int kReads = 2;
constexpr int kWidth = 16;

constexpr int kWords = 8;
constexpr int kLanes = 2;

// Which lanes of which words some write has reached (a word never written reads as whatever
// the power-up left, in each array its own).
using Written = std::array<std::array<bool, kLanes>, kWords>;

// Compares the read data of read port r of the two arrays lane by lane where the word's lane
// was written before the read: `a` the address the data was read at, `written` what was
// written then.
template <class Model>
void expect_same(Clocked<Model>& dut, int r, uint32_t a, const Written& written, int cycle) {
  for (int l = 0; l < kLanes; ++l) {
    if (!written[a][l]) continue;
    const int shift = kWidth * r + 8 * l;
    const uint32_t direct = (dut->rdata_direct_o >> shift) & 0xFFu;
    const uint32_t reg = (dut->rdata_reg_o >> shift) & 0xFFu;
    ASSERT_EQ(direct, reg) << "cycle " << cycle << ", read port " << r << ", address " << a
                           << ", lane " << l;
  }
}

uint32_t port_data(uint32_t rdata, int r) { return (rdata >> (kWidth * r)) & 0xFFFFu; }

// `no_bypass`: a registered read of a word written in the last cycle is not enabled.
template <class Model>
void run_random(uint32_t seed, int cycles, bool sync_read, bool no_bypass = false) {
  Clocked<Model> dut;
  dut.reset();
  std::mt19937 rng(seed);
  auto draw = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  // Addresses 0 and 1 half the time, so reads meet the words being written.
  auto addr = [&] { return draw(2) != 0 ? draw(2) : draw(kWords); };
  Written written{};
  // A registered read port's last enabled read: its address and what was written then (none
  // yet: nothing to compare), and whether it read in the last cycle.
  std::array<uint32_t, kReads> held_addr{};
  std::array<Written, kReads> held_written{};
  std::array<bool, kReads> read_last{};
  uint32_t direct_before = 0, reg_before = 0;
  std::array<bool, kWords> written_last{};  // words some write reached in the last cycle
  for (int c = 0; c < cycles; ++c) {
    uint32_t we = 0, waddr = 0, wmask = 0, wdata = 0, raddr = 0, re = 0;
    for (int w = 0; w < kWrites; ++w) {
      we |= (draw(3) != 0 ? 1u : 0u) << w;
      waddr |= addr() << (kAddrW * w);
      wmask |= draw(4) << (kLanes * w);
      wdata |= draw(0x10000u) << (kWidth * w);
    }
    for (int r = 0; r < kReads; ++r) {
      const uint32_t a = addr();
      raddr |= a << (kAddrW * r);
      // A registered read holds a quarter of the time.
      if (draw(4) != 0 && !(no_bypass && written_last[a])) re |= 1u << r;
    }
    dut->we_i = static_cast<uint8_t>(we);
    dut->waddr_i = static_cast<uint8_t>(waddr);
    dut->wmask_i = static_cast<uint8_t>(wmask);
    dut->wdata_i = wdata;
    dut->raddr_i = static_cast<uint8_t>(raddr);
    dut->re_i = static_cast<uint8_t>(re);
    dut.settle();
    for (int r = 0; r < kReads; ++r) {
      const uint32_t a = (raddr >> (kAddrW * r)) & (kWords - 1);
      if (!sync_read) {
        expect_same(dut, r, a, written, c);  // this cycle's address, enable or not
      } else if (c > 0) {
        // A registered read gives its last enabled read; without one in the last cycle, the
        // data held.
        expect_same(dut, r, held_addr[r], held_written[r], c);
        if (!read_last[r]) {
          ASSERT_EQ(port_data(dut->rdata_direct_o, r), port_data(direct_before, r))
              << "cycle " << c << ": read port " << r << " without its enable did not hold";
          ASSERT_EQ(port_data(dut->rdata_reg_o, r), port_data(reg_before, r))
              << "cycle " << c << ": read port " << r << " without its enable did not hold";
        }
      }
      if (::testing::Test::HasFatalFailure()) return;
      read_last[r] = ((re >> r) & 1u) != 0;
      if (read_last[r]) {
        held_addr[r] = a;
        held_written[r] = written;
      }
    }
    direct_before = dut->rdata_direct_o;
    reg_before = dut->rdata_reg_o;
    written_last = {};
    for (int w = 0; w < kWrites; ++w) {
      if (!((we >> w) & 1u)) continue;
      const uint32_t a = (waddr >> (kAddrW * w)) & (kWords - 1);
      for (int l = 0; l < kLanes; ++l) {
        if ((wmask >> (kLanes * w + l)) & 1u) written[a][l] = written_last[a] = true;
      }
    }
    dut.edge();
  }
}

TEST(StorageArray, RegisteredWritesReadAsDirectWritesAsynchronous) {
  for (uint32_t seed = 1; seed <= 20; ++seed) run_random<Vstorage_array_async>(seed, 4000, false);
}

TEST(StorageArray, RegisteredWritesReadAsDirectWritesSynchronous) {
  for (uint32_t seed = 1; seed <= 20; ++seed) run_random<Vstorage_array_sync>(seed, 4000, true);
}

TEST(StorageArray, RegisteredWritesWithoutBypassReadAsDirectWrites) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run_random<Vstorage_array_no_bypass>(seed, 4000, true, true);
  }
}

}  // namespace
}  // namespace mt::tb
