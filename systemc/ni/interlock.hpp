// The NI's read-after-write interlock of Reduce blocks (systemc/ni/README.md, "Read-after-write
// interlock"). A Reduce block reads the local partial sum, adds the received data and writes
// the sum back; a block whose bytes overlap a block being reduced (read issued, write-back not
// yet issued) must not read before that write-back has issued (the memory serves accesses in
// order, so a read issued after it sees the sum).
//
// One block a cycle: the Reduce blocks decoded in a cycle join a queue (port order), and the
// interlock takes its head each cycle, a block of the same cycle when the queue was empty. A
// port decodes at most a block a cycle and a block is at least a head and a payload flit, so
// the queue drains; it holds blocks that hold a block slot, so NiConfig::block_slots bounds
// it.
//
// The rule, by byte ranges: the block taken waits if it overlaps a block being reduced or a
// block already waiting (its dependencies). After the cycle's write-back, the oldest waiting
// block that overlaps no block being reduced and no block waiting before it reads, one per
// cycle, after the write-back. Ranges, not start addresses: Reduce blocks a node receives may
// overlap without being identical (a ring2d column-stage sub-chunk inside a row-stage chunk,
// halving-doubling's nested halves, double binary trees' chunks at other offsets).
//
// Hardware (rtl/interlock.sv), the same rule kept as counts: a waiting block's count of the
// blocks it overlaps when it is taken (being reduced or waiting), less one at each such
// block's write-back; it may read when its count is zero, which happens exactly when the rule
// above lets it. Blocks being reduced are a FIFO (reads issue, complete, are summed and
// written back in one order) of `reducing_blocks` entries, waiting ones a list of
// `waiting_blocks`; more stops the run with an error naming the NiConfig field, as the RTL
// raises error_o. Each cycle one block and the write-back are compared with the entries.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include <systemc>

namespace mt::noc {

class Interlock : public sc_core::sc_module {
 public:
  // NiConfig::reducing_blocks and waiting_blocks.
  Interlock(sc_core::sc_module_name name, uint32_t reducing_blocks, uint32_t waiting_blocks);

  // The Reduce block in block slot `slot`, [addr, addr + bytes), decoded this cycle (a
  // cycle's blocks in port order): it joins the queue.
  void arrive(uint32_t slot, uint64_t addr, uint64_t bytes);
  // After the cycle's arrivals: takes the queue's head, if any; its slot if it reads now
  // (otherwise it waits, or the queue was empty).
  std::optional<uint32_t> take();
  // The write-back of the block in `slot`, the oldest being reduced, issues.
  void write_back(uint32_t slot);
  // After the cycle's write-back: the waiting block that reads now, if any. Throws
  // std::runtime_error when more than `waiting_blocks` still wait.
  std::optional<uint32_t> release();

  size_t queued() const { return queue_.size(); }
  // Blocks queued or waiting: not yet read.
  size_t pending() const { return queue_.size() + waiting_.size(); }
  // The most blocks being reduced, and waiting, at once.
  size_t peak_reducing() const { return peak_reducing_; }
  size_t peak_waiting() const { return peak_waiting_; }

 private:
  struct Range {
    uint32_t slot;
    uint64_t addr, bytes;
  };
  bool overlaps(const Range& r, size_t waiting_before) const;
  void start_reducing(const Range& r);

  uint32_t reducing_blocks_, waiting_blocks_;
  std::deque<Range> queue_;      // decoded, not yet taken; oldest first
  std::deque<Range> reducing_;  // read issued, write-back not yet issued; oldest first
  std::deque<Range> waiting_;   // oldest first
  // A waiting block may be free to read: a write-back issued, or the last pass let one go
  // (another freed by the same write-back goes in the next cycle).
  bool maybe_free_ = false;
  size_t peak_reducing_ = 0, peak_waiting_ = 0;
};

}  // namespace mt::noc
