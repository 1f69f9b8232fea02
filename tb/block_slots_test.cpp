// rtl/block_slots.sv against the SystemC BlockSlots (systemc/ni/block_slots.hpp), every cycle: the
// same blocks starting (their first payload flit takes a slot and counts for its message, whose
// first block takes its record) and ending (their decode says whether the block is its message's
// last), up to one flit a port a cycle in port order, of a few messages at once on each port,
// blocks of different messages in flight together as on different VCs, one-flit blocks that start
// and end in one cycle, each message's last block flagged; and the same completed writes (one a
// cycle, any decoded block, in any order). The bench plays the ejection decoders, keeping each
// message's record from the cycle its first block took it (rec_o) and giving it with the message's
// later flits and their blocks' completions, as the NI does. The same slot for every new block, the
// same message in memory with the same key, the same empty flag, and the same overflow in the cycle
// the SystemC model throws for NiConfig::block_slots (a port's share of the slots) or
// NiConfig::open_messages. The first
// difference is named by cycle and signal, with both values.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "Vblock_slots.h"
#include "ni/block_slots.hpp"
#include "ni/ni_config.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

// tb/CMakeLists.txt builds the model with these (a port's BLOCKS small, so random runs reach
// it; kBlocks the slots of all ports).
constexpr uint32_t kK = 4, kPortBlocks = 8, kBlocks = kK * kPortBlocks, kSlotW = 5, kKeyW = 18,
                   kMessages = 16, kMsgW = 4;

// One port's flit in a cycle: it starts a block (takes a slot), ends one (the block whose
// slot is `slot`, or the one it starts), or both.
struct PortFlit {
  uint32_t port = 0;
  bool starts = false, ends = false;
  uint32_t key = 0;
  bool last = false;  // the block is its message's last
  uint32_t slot = 0;  // an ending block's slot, when it started in an earlier cycle
};

// What a run reached: cycles, blocks, messages in memory, messages whose last block completed
// while another of its blocks was live, and the bound that stopped it (if one did).
struct Outcome {
  uint64_t cycles = 0, blocks = 0, arrived = 0, passed = 0;
  std::string bound;
};

class Bench {
 public:
  explicit Bench(int id)
      : golden_(("block_slots_" + std::to_string(id)).c_str(), kPortBlocks, kK, kMessages) {
    dut_.reset();
  }

  // One cycle: the ports' flits (port order; the slots starting blocks take are written into
  // `flits`), then the completion of decoded block `done` (index into the decoded list; none
  // when negative). Returns false when the bound stopped both models or they differ.
  bool cycle(std::vector<PortFlit>& flits, int done, Outcome& out) {
    const uint64_t c = dut_.cycle();
    drive(flits, done);
    dut_.settle();
    std::string bound;
    try {
      for (PortFlit& f : flits) {
        if (f.starts) f.slot = golden_.take(c, f.port, f.key);
        if (f.ends) golden_.record(f.slot, f.last);
      }
    } catch (const noc::NiRunError& e) {
      const std::string what = e.what();
      bound = what.find("NiConfig::block_slots") != std::string::npos     ? "block_slots"
              : what.find("NiConfig::open_messages") != std::string::npos ? "open_messages"
                                                                          : what;
    }
    if (!bound.empty()) {  // the RTL flags the bound the SystemC model stopped at
      EXPECT_TRUE(bound == "block_slots" ? dut_->full_o : dut_->no_record_o)
          << "cycle " << c << ": the SystemC model stopped at " << bound;
      out.bound = bound;
      return false;
    }
    EXPECT_EQ(dut_->full_o, 0) << "cycle " << c << ": full_o";
    EXPECT_EQ(dut_->no_record_o, 0) << "cycle " << c << ": no_record_o";
    for (const PortFlit& f : flits) check_port(c, f);
    bool arrive = false;
    uint64_t key = 0;
    if (done >= 0) {
      const uint32_t slot = decoded_[static_cast<size_t>(done)];
      key = golden_.key(slot);
      if (last_[slot] && others_live(slot)) ++out.passed;
      arrive = golden_.complete(slot);
      if (arrive) record_.erase(key);
      decoded_.erase(decoded_.begin() + done);
    }
    EXPECT_EQ(dut_->arrive_o, arrive) << "cycle " << c << ": arrive_o";
    if (arrive && dut_->arrive_o) {
      EXPECT_EQ(dut_->arrive_key_o, key) << "cycle " << c << ": arrive_key_o";
    }
    EXPECT_EQ(dut_->empty_o, golden_.empty(c)) << "cycle " << c << ": empty_o";
    for (const PortFlit& f : flits) {
      if (!f.ends) continue;
      decoded_.push_back(f.slot);
      last_[f.slot] = f.last;
      ++out.blocks;
    }
    out.arrived += arrive;
    ++out.cycles;
    dut_.tick();
    return !::testing::Test::HasFailure();
  }

  size_t decoded() const { return decoded_.size(); }

 private:
  // A port's slot and record (a starting block) against the SystemC model's; a message's
  // first block keeps the record it took.
  void check_port(uint64_t c, const PortFlit& f) {
    const uint32_t p = f.port;
    EXPECT_EQ((dut_->take_o >> p) & 1u, uint32_t{f.starts}) << "cycle " << c << ": take_o[" << p << "]";
    if (!f.starts) return;
    const uint32_t rtl = (dut_->slot_o >> (kSlotW * p)) & (kBlocks - 1);
    EXPECT_EQ(rtl, f.slot) << "cycle " << c << ": slot_o[" << p << "]";
    const uint32_t rec = (dut_->rec_o >> (kMsgW * p)) & (kMessages - 1);
    if (record_.count(f.key) == 0) record_[f.key] = rec;
    EXPECT_EQ(rec, record_[f.key]) << "cycle " << c << ": rec_o[" << p << "]";
  }

  void drive(const std::vector<PortFlit>& flits, int done) {
    uint32_t want = 0, last = 0, first = 0, recs = 0;
    uint32_t words[3] = {};
    for (const PortFlit& f : flits) {
      const uint32_t p = f.port;
      want |= uint32_t{f.starts} << p;
      last |= uint32_t{f.ends && f.last} << p;
      for (uint32_t b = 0; b < kKeyW; ++b) {
        const uint32_t at = kKeyW * p + b;
        words[at / 32] |= ((f.key >> b) & 1u) << (at % 32);
      }
      const auto r = record_.find(f.key);
      first |= uint32_t{r == record_.end()} << p;
      recs |= (r == record_.end() ? 0 : r->second) << (kMsgW * p);
    }
    dut_->want_i = static_cast<uint8_t>(want);
    dut_->first_i = static_cast<uint8_t>(first);
    dut_->msg_rec_i = static_cast<uint16_t>(recs);
    dut_->last_i = static_cast<uint8_t>(last);
    for (int w = 0; w < 3; ++w) dut_->key_i[w] = words[w];
    const uint32_t slot = done >= 0 ? decoded_[static_cast<size_t>(done)] : 0;
    dut_->done_i = done >= 0;
    dut_->done_slot_i = static_cast<uint8_t>(slot);
    dut_->done_rec_i = static_cast<uint8_t>(done >= 0 ? record_.at(golden_.key(slot)) : 0);
  }

  bool others_live(uint32_t slot) const {
    return std::any_of(decoded_.begin(), decoded_.end(), [&](uint32_t s) {
      return s != slot && golden_.key(s) == golden_.key(slot);
    });
  }

  Clocked<Vblock_slots> dut_;
  noc::BlockSlots golden_;
  std::vector<uint32_t> decoded_;  // slots of blocks decoded in earlier cycles, not completed
  bool last_[kBlocks] = {};        // per slot: its block was its message's last
  std::map<uint64_t, uint32_t> record_;  // the record of each open message, by key
};

// Messages of 1 to 12 blocks, up to `open` being received at once on each port (a message
// comes through one port, as routes are deterministic), each block of a random one of its
// port's, one block of a message at a time (a message's blocks come on one VC, in order);
// every message has a fresh key (a permutation of a counter, so keys look unrelated). A port
// with a flit in a cycle ends one of its blocks in flight, or starts a block, half of them
// one flit long.
class Traffic {
 public:
  Traffic(uint32_t open, double block_p) : open_(open), block_(block_p) {}

  void next(std::mt19937& rng, std::vector<PortFlit>& flits) {
    flits.clear();
    for (uint32_t p = 0; p < kK; ++p) {
      if (!block_(rng)) continue;
      std::vector<Open>& port = messages_[p];
      if (port.size() < open_ && (port.empty() || rng() % 3 == 0)) {
        const uint32_t key = (next_key_++ * 0x9e37u + 0x1234u) & ((1u << kKeyW) - 1);
        port.push_back({key, 1 + static_cast<uint32_t>(rng() % 12)});
      }
      Open& m = port[rng() % port.size()];
      PortFlit f;
      f.port = p;
      f.key = m.key;
      if (m.in_flight) {
        f.ends = true;
        f.slot = m.slot;
      } else {
        f.starts = true;
        f.ends = rng() % 2 == 0;
      }
      f.last = f.ends && m.left == 1;
      flits.push_back(f);
    }
  }

  // After the cycle: the slots the starting blocks took, the blocks that ended.
  void settle(const std::vector<PortFlit>& flits) {
    for (const PortFlit& f : flits) {
      std::vector<Open>& port = messages_[f.port];
      const auto m = std::find_if(port.begin(), port.end(), [&](const Open& o) { return o.key == f.key; });
      m->in_flight = !f.ends;
      m->slot = f.slot;
      if (f.ends && --m->left == 0) port.erase(m);
    }
  }

 private:
  struct Open {
    uint32_t key, left;
    bool in_flight = false;  // a block of it has its slot and has not ended
    uint32_t slot = 0;
  };
  uint32_t open_;
  std::bernoulli_distribution block_;
  std::vector<Open> messages_[kK];
  uint32_t next_key_ = 1;
};

Outcome run(int id, uint32_t seed, uint64_t cycles, uint32_t open, double block_p,
            double done_p) {
  Bench bench(id);
  Traffic traffic(open, block_p);
  std::mt19937 rng(seed);
  std::bernoulli_distribution done(done_p);
  Outcome out;
  std::vector<PortFlit> flits;
  for (uint64_t c = 0; c < cycles; ++c) {
    traffic.next(rng, flits);
    const int d =
        bench.decoded() != 0 && done(rng) ? static_cast<int>(rng() % bench.decoded()) : -1;
    if (!bench.cycle(flits, d, out)) break;
    traffic.settle(flits);
  }
  return out;
}

TEST(BlockSlotsLockstep, RandomBlocksEveryCycleAsTheSystemCModel) {
  Outcome all;
  for (int i = 0; i < 40; ++i) {
    // A port's flit ends a block about every other time: a flit on one port in ten cycles.
    const Outcome o = run(i, 100 + i, 4000, 1 + i % 2, 0.1, 0.5);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << 100 + i;
    EXPECT_EQ(o.bound, "") << "seed " << 100 + i;
    all.cycles += o.cycles;
    all.blocks += o.blocks;
    all.arrived += o.arrived;
    all.passed += o.passed;
  }
  std::cout << all.cycles << " cycles, " << all.blocks << " blocks, " << all.arrived
            << " messages in memory, " << all.passed
            << " of them with the last block done before another\n";
  // Both free lists wrap many times, and last blocks complete before others of their message.
  EXPECT_EQ(all.cycles, 40u * 4000u);
  EXPECT_GT(all.blocks, 40u * kBlocks * 20);
  EXPECT_GT(all.arrived, 40u * kMessages * 5);
  EXPECT_GT(all.passed, 200u);
}

TEST(BlockSlotsLockstep, TheBoundsStopBothModelsInTheSameCycle) {
  std::map<std::string, int> stopped;
  for (int i = 0; i < 30; ++i) {
    // Busy ports and few completions run out of slots; many messages at once, completed
    // quickly, out of records.
    const Outcome o = i % 2 == 0 ? run(100 + i, 2000 + i, 2000, 1, 0.3, 0.6)
                                 : run(100 + i, 2000 + i, 2000, 6, 0.2, 0.9);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << 2000 + i;
    ++stopped[o.bound.empty() ? "(none)" : o.bound];
  }
  std::cout << "of 30 runs, " << stopped["block_slots"] << " stopped at block_slots, "
            << stopped["open_messages"] << " at open_messages\n";
  EXPECT_GT(stopped["block_slots"], 10);
  EXPECT_GT(stopped["open_messages"], 10);
}

}  // namespace
}  // namespace mt::tb
