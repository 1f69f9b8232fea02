// The NI's read-after-write interlock of Reduce blocks (systemc/ni/README.md, "Read-after-write
// interlock"). A Reduce block reads the local partial sum, adds the received data and writes
// the sum back; a block of a line that a block being reduced (read issued, write-back not yet
// issued) also lies in must not read before that write-back has issued (the memory serves
// accesses in order, so a read issued after it sees the sum).
//
// One block a cycle: the Reduce blocks decoded in a cycle join a queue (port order), and the
// interlock takes its head each cycle, from the cycle after the block joined (the queue is
// the register stage between the decoders and the interlock's lookup). A
// port decodes at most a block a cycle and a block is at least a head and a payload flit, so
// the queue drains; it holds blocks that hold a block slot, so NiConfig::block_slots bounds
// it.
//
// Keyed by line. Every block lies within one 256-byte line (the ejection decoder cuts blocks
// at lines), so two blocks conflict exactly when their lines are equal: one key compare per
// entry, no byte ranges. The blocks of one line form a chain: the oldest is being reduced, the
// others wait behind it in arrival order. Blocks being reduced are a FIFO (reads issue,
// complete, are summed and written back in one order) of `reducing_blocks` entries, each with
// its line and its chain's last block; a waiting block is a successor link of the block before
// it in its chain (a field per block slot), so it needs no place beyond its block slot. Each
// cycle:
//   take: the block taken looks its line up among the entries being reduced (an exact-match
//     CAM of lines); on a hit it becomes the successor of that chain's last block and waits,
//     otherwise it reads now and its line gets an entry;
//   write-back: the oldest entry leaves; if its chain goes on, its successor reads now, after
//     the write-back, and takes over the entry's line and chain.
// At most one block joins and one leaves the waiting ones a cycle, no list is searched. More
// than `reducing_blocks` entries stops the run with an error naming the NiConfig field, as
// the RTL (rtl/interlock.sv) raises error_o.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>

#include <systemc>

#include "router/ring_buffer.hpp"

namespace mt::noc {

class Interlock : public sc_core::sc_module {
 public:
  // NiConfig::reducing_blocks.
  Interlock(sc_core::sc_module_name name, uint32_t reducing_blocks);

  // The Reduce block in block slot `slot`, [addr, addr + bytes) within one line, decoded this
  // cycle (a cycle's blocks in port order): it joins the queue.
  void arrive(uint32_t slot, uint64_t addr, uint64_t bytes);
  // After the cycle's arrivals, in every cycle with a block queued: takes the queue's head if
  // it joined in an earlier cycle; its slot if it reads now (otherwise it waits, or no block
  // was ready).
  std::optional<uint32_t> take();
  // The write-back of the block in `slot`, the oldest being reduced, issues.
  void write_back(uint32_t slot);
  // After the cycle's write-back: the waiting block that reads now, if any. Inline, so that
  // the common empty answer stays in registers.
  std::optional<uint32_t> release() {
    if (!released_) {
      peak_waiting_ = std::max(peak_waiting_, waiting_);
      return std::nullopt;
    }
    return release_successor();
  }

  size_t queued() const { return queue_.size(); }
  // Blocks queued or waiting: not yet read.
  size_t pending() const { return queue_.size() + waiting_; }
  // The most blocks being reduced, and waiting, at once.
  size_t peak_reducing() const { return peak_reducing_; }
  size_t peak_waiting() const { return peak_waiting_; }

 private:
  struct Queued {
    uint32_t slot;
    uint64_t line;
  };
  // A block being reduced: its slot, its line and the last block of its line's chain.
  struct Entry {
    uint32_t slot;
    uint64_t line;
    uint32_t last;
  };
  void start_reducing(const Entry& e);
  uint32_t release_successor();  // release() with a successor released

  uint32_t reducing_blocks_;
  RingBuffer<Queued> queue_;    // decoded, not yet taken; oldest first
  size_t joined_ = 0;           // of those, decoded in this cycle (the queue's tail)
  std::deque<Entry> reducing_;  // read issued, write-back not yet issued; oldest first
  std::unordered_map<uint32_t, uint32_t> successor_;  // slot -> the next block of its chain
  size_t waiting_ = 0;
  std::optional<Entry> released_;  // the successor of this cycle's write-back
  size_t peak_reducing_ = 0, peak_waiting_ = 0;
};

}  // namespace mt::noc
