// rtl/reduction_sequencer.sv against the SystemC ReductionSequencer
// (systemc/ni/reduction_sequencer.hpp), every cycle: the same Reduce blocks whose local read
// completes (at most one a cycle, random lengths of whole elements up to a line, at random
// gaps, never more than REDUCING between their read and their write-back, as the interlock
// keeps them), and the reduction unit's valid_o modelled as each beat LATENCY cycles later.
// From the SystemC contract (start = max(ready, free), ceil(e / LANES) beats, the write-back at
// the cycle admit() returns) the bench knows every beat entering the unit, its block, place,
// lanes and whether its partial sum is the read completing now, every beat's sums leaving it
// (with its block's place in the order of the reads, modulo REDUCING: the row of its operands
// and its sums), and every write-back with what travels with its block; the RTL must show each
// in its cycle. Two parameter sets, each its own Verilated model (tb/CMakeLists.txt): the NI's
// LANES = 16 / LATENCY = 4 / REDUCING = 64, and LANES = 3 / LATENCY = 1 / REDUCING = 4 (partial
// last beats, the shortest pipeline, a full queue). The first difference is named by cycle and
// signal, with both values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "Vreduction_sequencer.h"
#include "Vreduction_sequencer_small.h"
#include "ni/reduction_sequencer.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

struct Block {
  uint32_t slot, addr, len, meta;
};

// A beat entering the unit as the contract places it.
struct Beat {
  Block block;
  uint32_t row, idx, mask;
  bool bypass, last;
};

// What a run reached: cycles, blocks, beats, blocks that waited in the queue, most waiting.
struct Outcome {
  uint64_t cycles = 0, blocks = 0, beats = 0, queued = 0, most_queued = 0;
};

template <class Model, uint32_t kLanes, uint32_t kLatency, uint32_t kReducing>
class Bench {
 public:
  explicit Bench(int id)
      : golden_(("reduction_sequencer_" + std::to_string(id)).c_str(), config()) {
    dut_->read_i = 0;
    dut_->unit_out_i = 0;
    dut_.reset();
  }

  // One cycle: the read of `block` completes (none when absent). False once they differ.
  bool cycle(const Block* block, Outcome& out) {
    const uint64_t c = dut_.cycle() - t0_;
    if (block != nullptr) admit(*block, c, out);
    drive(block, c);
    dut_.settle();
    check(c, out);
    dut_.tick();
    ++out.cycles;
    return !::testing::Test::HasFailure();
  }

  // Blocks between their read and their write-back.
  size_t reducing() const { return reducing_; }

 private:
  static noc::ReductionConfig config() {
    noc::ReductionConfig cfg;
    cfg.elements_per_cycle = kLanes;
    cfg.latency = kLatency;
    return cfg;
  }

  // The SystemC contract's beats and write-back of a block whose read completes in cycle c.
  void admit(const Block& b, uint64_t c, Outcome& out) {
    const uint64_t done = golden_.admit(b.len, c);
    const uint32_t elems = b.len / 4;
    const uint32_t beats = (elems + kLanes - 1) / kLanes;
    const uint64_t start = done - kLatency - beats;
    for (uint32_t k = 0; k < beats; ++k) {
      const uint32_t left = elems - k * kLanes;
      const uint32_t mask = left >= kLanes ? (1u << kLanes) - 1 : (1u << left) - 1;
      beats_[start + k] = Beat{b, admitted_ % kReducing, k, mask, start == c && k == 0,
                               k + 1 == beats};
    }
    write_backs_[done] = b;
    ++admitted_;
    ++reducing_;
    ++out.blocks;
    out.beats += beats;
    if (start > c) {
      ++out.queued;
      waiting_.push_back(start);
    }
    while (!waiting_.empty() && waiting_.front() <= c) waiting_.pop_front();
    out.most_queued = std::max<uint64_t>(out.most_queued, waiting_.size());
  }

  void drive(const Block* b, uint64_t c) {
    dut_->read_i = b != nullptr;
    dut_->read_slot_i = static_cast<uint8_t>(b ? b->slot : 0);
    dut_->read_addr_i = b ? b->addr : 0;
    dut_->read_len_i = static_cast<uint16_t>(b ? b->len : 0);
    dut_->read_meta_i = static_cast<uint16_t>(b ? b->meta : 0);
    // The reduction unit: a beat leaves LATENCY cycles after it entered.
    dut_->unit_out_i = c >= kLatency && beats_.count(c - kLatency) != 0;
  }

  void check(uint64_t c, Outcome&) {
    const auto in = beats_.find(c);
    EXPECT_EQ(dut_->beat_o, in != beats_.end()) << "cycle " << c << ": beat_o";
    if (in != beats_.end() && dut_->beat_o) {
      const Beat& b = in->second;
      EXPECT_EQ(dut_->beat_slot_o, b.block.slot) << "cycle " << c << ": beat_slot_o";
      EXPECT_EQ(dut_->beat_row_o, b.row) << "cycle " << c << ": beat_row_o";
      EXPECT_EQ(dut_->beat_idx_o, b.idx) << "cycle " << c << ": beat_idx_o";
      EXPECT_EQ(dut_->beat_mask_o, b.mask) << "cycle " << c << ": beat_mask_o";
      EXPECT_EQ(dut_->beat_bypass_o, b.bypass) << "cycle " << c << ": beat_bypass_o";
    }
    if (c >= kLatency) {
      const auto left = beats_.find(c - kLatency);
      if (left != beats_.end()) {
        EXPECT_EQ(dut_->sum_row_o, left->second.row) << "cycle " << c << ": sum_row_o";
        EXPECT_EQ(dut_->sum_idx_o, left->second.idx) << "cycle " << c << ": sum_idx_o";
        beats_.erase(left);
      }
    }
    const auto wb = write_backs_.find(c);
    EXPECT_EQ(dut_->wb_o, wb != write_backs_.end()) << "cycle " << c << ": wb_o";
    if (wb != write_backs_.end() && dut_->wb_o) {
      EXPECT_EQ(dut_->wb_slot_o, wb->second.slot) << "cycle " << c << ": wb_slot_o";
      EXPECT_EQ(dut_->wb_addr_o, wb->second.addr) << "cycle " << c << ": wb_addr_o";
      EXPECT_EQ(dut_->wb_len_o, wb->second.len) << "cycle " << c << ": wb_len_o";
      EXPECT_EQ(dut_->wb_meta_o, wb->second.meta) << "cycle " << c << ": wb_meta_o";
    }
    if (wb != write_backs_.end()) {
      write_backs_.erase(wb);
      --reducing_;
    }
  }

  Clocked<Model> dut_;
  noc::ReductionSequencer golden_;
  uint64_t t0_ = dut_.cycle();  // SystemC cycle 0
  std::map<uint64_t, Beat> beats_;         // by the cycle it enters the unit
  std::map<uint64_t, Block> write_backs_;  // by the cycle it is asked for
  std::deque<uint64_t> waiting_;           // start cycles of the blocks queued
  size_t reducing_ = 0;
  uint32_t admitted_ = 0;  // blocks whose read completed
};

// Random blocks: a read completes with probability `read_p` in a cycle (while fewer than
// kReducing blocks are between their read and their write-back), of 1 to 64 elements.
template <class B, uint32_t kReducing>
Outcome run(int id, uint32_t seed, uint64_t cycles, double read_p) {
  B bench(id);
  std::mt19937 rng(seed);
  std::bernoulli_distribution read(read_p);
  Outcome out;
  for (uint64_t c = 0; c < cycles; ++c) {
    Block b{static_cast<uint32_t>(rng() % 128), static_cast<uint32_t>(rng() % 4096) * 256,
            4 * (1 + static_cast<uint32_t>(rng() % 64)), static_cast<uint32_t>(rng() % 1024)};
    const bool now = bench.reducing() < kReducing && read(rng);
    if (!bench.cycle(now ? &b : nullptr, out)) break;
  }
  return out;
}

template <class B, uint32_t kReducing>
void random_runs(const char* name, int runs, uint64_t cycles) {
  Outcome all;
  for (int i = 0; i < runs; ++i) {
    // From sparse reads (every block bypasses) to back-to-back ones (the queue fills).
    const double read_p = 0.02 + 0.08 * (i % 10);
    const Outcome o = run<B, kReducing>(i, 300 + i, cycles, read_p);
    ASSERT_FALSE(::testing::Test::HasFailure()) << name << " seed " << 300 + i;
    all.cycles += o.cycles;
    all.blocks += o.blocks;
    all.beats += o.beats;
    all.queued += o.queued;
    all.most_queued = std::max(all.most_queued, o.most_queued);
  }
  std::cout << name << ": " << all.cycles << " cycles, " << all.blocks << " blocks, "
            << all.beats << " beats, " << all.queued << " blocks queued, at most "
            << all.most_queued << " at once\n";
  EXPECT_EQ(all.cycles, static_cast<uint64_t>(runs) * cycles);
  EXPECT_GT(all.queued, all.blocks / 4) << "too few blocks waited for the unit";
  EXPECT_LT(all.queued, all.blocks) << "no block went straight in";
  EXPECT_GE(all.most_queued + 2, kReducing) << "the queue never came near REDUCING";
}

TEST(ReductionSequencerLockstep, NiParametersEveryCycleAsTheSystemCModel) {
  random_runs<Bench<Vreduction_sequencer, 16, 4, 64>, 64>("LANES 16, LATENCY 4", 20, 3000);
}

TEST(ReductionSequencerLockstep, SmallUnitEveryCycleAsTheSystemCModel) {
  random_runs<Bench<Vreduction_sequencer_small, 3, 1, 4>, 4>("LANES 3, LATENCY 1", 20, 3000);
}

}  // namespace
}  // namespace mt::tb
