// rtl/interlock.sv against the SystemC Interlock (systemc/ni/interlock.hpp), every cycle: the
// same new Reduce blocks (whole lines, parts of lines and the top line of the address space,
// up to K a cycle, queued and taken one a cycle from the next) and write-backs in read order; the same
// block taken that reads at once and the same block released (slot, address, length), and
// the same overflow in the cycle the SystemC model throws for NiConfig::reducing_blocks. The
// first difference is named by cycle and signal, with both values.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vinterlock.h"
#include "ni/interlock.hpp"
#include "ni/ni_config.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

// tb/CMakeLists.txt builds the model with these.
constexpr uint32_t kK = 4, kSlots = 128, kReducing = 8, kMetaW = 5;

struct NewBlock {
  uint32_t slot;
  uint32_t addr, len;
};

// What a run reached: cycles, blocks that waited, and which bound stopped it (if one did).
struct Outcome {
  uint64_t cycles = 0, waited = 0, released = 0, most_queued = 0;
  std::string bound;
};

class Bench {
 public:
  explicit Bench(int id) : golden_(("interlock_" + std::to_string(id)).c_str(), kReducing) {
    dut_.reset();
    for (uint32_t s = 0; s < kSlots; ++s) free_.push_back(s);
  }

  // One cycle. Returns false when a bound stopped both models (checked to agree).
  bool cycle(std::vector<NewBlock> blocks, bool write_back, Outcome& out) {
    drive(blocks, write_back);
    dut_.settle();
    const uint64_t c = dut_.cycle();
    std::string bound;
    std::optional<uint32_t> issued, rel;
    bool taken = false;
    try {
      for (const NewBlock& b : blocks) golden_.arrive(b.slot, b.addr, b.len);
      out.most_queued = std::max<uint64_t>(out.most_queued, golden_.queued());
      const size_t queued = golden_.queued();
      issued = golden_.take();
      taken = golden_.queued() < queued;
      if (write_back) golden_.write_back(reading_.front());
      rel = golden_.release();
    } catch (const noc::NiRunError& e) {
      const std::string what = e.what();
      bound = what.find("NiConfig::reducing_blocks") != std::string::npos ? "reducing_blocks"
                                                                           : what;
    }
    EXPECT_EQ(dut_->reducing_full_o, bound == "reducing_blocks")
        << "cycle " << c << ": reducing_full_o";
    if (!bound.empty()) {
      out.bound = bound;
      return false;
    }
    EXPECT_EQ(dut_->issue_o, issued.has_value()) << "cycle " << c << ": issue_o";
    if (issued && dut_->issue_o) {
      EXPECT_EQ(dut_->issue_slot_o, *issued) << "cycle " << c << ": issue_slot_o";
      EXPECT_EQ(dut_->issue_meta_o, meta_of(*issued)) << "cycle " << c << ": issue_meta_o";
      EXPECT_EQ(dut_->issue_addr_o, addr_of_[*issued]) << "cycle " << c << ": issue_addr_o";
      EXPECT_EQ(dut_->issue_len_o, len_of_[*issued]) << "cycle " << c << ": issue_len_o";
    }
    EXPECT_EQ(dut_->release_o, rel.has_value()) << "cycle " << c << ": release_o";
    if (rel && dut_->release_o) {
      EXPECT_EQ(dut_->release_slot_o, *rel) << "cycle " << c << ": release_slot_o";
      EXPECT_EQ(dut_->release_meta_o, meta_of(*rel)) << "cycle " << c << ": release_meta_o";
      EXPECT_EQ(dut_->release_addr_o, addr_of_[*rel]) << "cycle " << c << ": release_addr_o";
      EXPECT_EQ(dut_->release_len_o, len_of_[*rel]) << "cycle " << c << ": release_len_o";
    }
    update(taken, issued, write_back, rel, out);
    dut_.tick();
    ++out.cycles;
    return !::testing::Test::HasFailure();
  }

  bool can_write_back() const { return !reading_.empty(); }
  bool slot_free() const { return !free_.empty(); }
  uint32_t take_slot(std::mt19937& rng) {
    std::uniform_int_distribution<size_t> pick(0, free_.size() - 1);
    const size_t i = pick(rng);
    const uint32_t s = free_[i];
    free_.erase(free_.begin() + static_cast<long>(i));
    return s;
  }

 private:
  // What travels with a block (the NI's message record), here a function of its slot.
  static uint32_t meta_of(uint32_t slot) { return (slot * 7 + 3) & ((1u << kMetaW) - 1); }

  void drive(const std::vector<NewBlock>& blocks, bool write_back) {
    uint32_t valid = 0, slots = 0, metas = 0;
    uint64_t lens = 0;
    for (size_t p = 0; p < blocks.size(); ++p) {
      valid |= 1u << p;
      slots |= blocks[p].slot << (7 * p);
      metas |= meta_of(blocks[p].slot) << (kMetaW * p);
      lens |= uint64_t{blocks[p].len} << (9 * p);
      dut_->new_addr_i[p] = blocks[p].addr;
      addr_of_[blocks[p].slot] = blocks[p].addr;
      len_of_[blocks[p].slot] = blocks[p].len;
    }
    dut_->new_i = static_cast<uint8_t>(valid);
    dut_->new_slot_i = slots;
    dut_->new_meta_i = metas;
    dut_->new_len_i = lens;
    dut_->wb_i = write_back;
    dut_->wb_slot_i = static_cast<uint8_t>(write_back ? reading_.front() : 0);
  }

  void update(bool taken, std::optional<uint32_t> issued, bool write_back,
              std::optional<uint32_t> rel, Outcome& out) {
    if (write_back) {
      free_.push_back(reading_.front());  // the block's slot is free once it is written
      reading_.pop_front();
    }
    if (issued) {
      reading_.push_back(*issued);
    } else if (taken) {
      ++out.waited;
    }
    if (rel) {
      reading_.push_back(*rel);
      ++out.released;
    }
  }

  Clocked<Vinterlock> dut_;
  noc::Interlock golden_;
  std::deque<uint32_t> reading_;  // blocks being reduced, in read order
  std::vector<uint32_t> free_;    // block slots not in the interlock
  uint32_t addr_of_[kSlots] = {}, len_of_[kSlots] = {};
};

// Blocks of a few 256-byte lines: mostly whole lines (another child's block of the same
// bytes), some a part of a line (a chunk's first or last block; other bytes of the line may
// be reduced at once), some in the lines that end at 2^32.
NewBlock random_block(Bench& bench, std::mt19937& rng, uint32_t lines) {
  std::uniform_int_distribution<uint32_t> line(0, lines - 1), kind(0, 9), flits(0, 15);
  NewBlock b{bench.take_slot(rng), 0x4000 + 0x100 * line(rng), 256};
  const uint32_t k = kind(rng);
  if (k == 0) {  // flits [first, last] of the line
    const uint32_t a = flits(rng), z = flits(rng);
    b.addr += 16 * std::min(a, z);
    b.len = 16 * (std::max(a, z) - std::min(a, z) + 1);
  }
  if (k == 1) b.len = 4 * (1 + flits(rng) * 4 + flits(rng) % 4);  // a short last block
  if (k == 2) b.addr = 0xfffffe00u + 0x100 * (line(rng) % 2);  // ends at 2^32
  return b;
}

Outcome run(int id, uint32_t seed, uint64_t cycles, uint32_t chunks, double arrive_p,
            double write_back_p) {
  Bench bench(id);
  std::mt19937 rng(seed);
  std::bernoulli_distribution arrive(arrive_p), write_back(write_back_p);
  Outcome out;
  for (uint64_t c = 0; c < cycles; ++c) {
    std::vector<NewBlock> blocks;
    for (uint32_t p = 0; p < kK && bench.slot_free(); ++p) {
      if (arrive(rng)) blocks.push_back(random_block(bench, rng, chunks));
    }
    const bool wb = bench.can_write_back() && write_back(rng);
    if (!bench.cycle(blocks, wb, out)) break;
  }
  return out;
}

TEST(InterlockLockstep, RandomBlocksEveryCycleAsTheSystemCModel) {
  uint64_t cycles = 0, waited = 0, released = 0;
  for (int i = 0; i < 50; ++i) {
    const Outcome o = run(i, 1000 + i, 4000, 12, 0.06, 0.5);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << 1000 + i;
    cycles += o.cycles;
    waited += o.waited;
    released += o.released;
  }
  std::cout << cycles << " cycles, " << waited << " blocks waited, " << released
            << " released\n";
  // Most runs go the whole way, and they exercise the chains of waiting blocks, not just blocks that read
  // at once.
  EXPECT_GT(cycles, 150000u);
  EXPECT_GT(waited, 2000u);
  EXPECT_GT(released, 2000u);
}

TEST(InterlockLockstep, BurstsOfBlocksQueueAndTheQueueWraps) {
  uint64_t cycles = 0, most = 0;
  for (int i = 0; i < 10; ++i) {
    // Two blocks a cycle on average, mostly disjoint, every block written back at once: the
    // queue grows until the block slots run out, and its places wrap many times.
    const Outcome o = run(200 + i, 3000 + i, 3000, 4096, 0.5, 1.0);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << 3000 + i;
    cycles += o.cycles;
    most = std::max(most, o.most_queued);
  }
  std::cout << cycles << " cycles, at most " << most << " blocks queued of " << kSlots << "\n";
  EXPECT_GT(cycles, 10000u);
  EXPECT_GT(most, kSlots / 2);
}

TEST(InterlockLockstep, TheReducingBoundStopsBothModelsInTheSameCycle) {
  int reducing = 0;
  for (int i = 0; i < 40; ++i) {
    // Busy arrivals, rare write-backs: many lines fill the blocks being reduced, or few lines
    // make long chains of waiting blocks until the block slots run out.
    const Outcome o = run(100 + i, 2000 + i, 3000, i % 2 ? 3 : 24, 0.5, 0.1);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << 2000 + i;
    EXPECT_TRUE(o.bound.empty() || o.bound == "reducing_blocks") << o.bound;
    reducing += o.bound == "reducing_blocks";
  }
  std::cout << "of 40 runs, " << reducing << " stopped at reducing_blocks\n";
  EXPECT_GT(reducing, 10);
}

}  // namespace
}  // namespace mt::tb
