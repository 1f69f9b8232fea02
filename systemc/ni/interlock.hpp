// The NI's read-after-write interlock of Reduce blocks (systemc/ni/README.md, "Read-after-write
// interlock"). A Reduce block reads the local partial sum, adds the received data and writes
// the sum back; a block whose bytes overlap a block being reduced (read issued, write-back not
// yet issued) must not read before that write-back has issued (the memory serves accesses in
// order, so a read issued after it sees the sum).
//
// The rule, by byte ranges: a Reduce block decoded in a cycle waits if it overlaps a block
// being reduced or a block already waiting; waiting blocks are tried oldest first after a
// cycle's write-back, and one goes (its read issues after the write-back) when it overlaps no
// block being reduced, including those released before it in the same pass, and no block
// waiting before it. Ranges, not start addresses: Reduce blocks a node receives may overlap
// without being identical (a ring2d column-stage sub-chunk inside a row-stage chunk,
// halving-doubling's nested halves, double binary trees' chunks at other offsets).
//
// Hardware (rtl/network_interface.sv): a waiting list of `waiting_blocks` entries; more
// waiting at once stops the run with an error naming NiConfig::waiting_blocks, where the RTL
// raises error_o.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>

namespace mt::noc {

class Interlock : public sc_core::sc_module {
 public:
  // `waiting_blocks`: NiConfig::waiting_blocks.
  Interlock(sc_core::sc_module_name name, uint32_t waiting_blocks);

  // The Reduce block in block slot `slot`, [addr, addr + bytes), decoded this cycle (a
  // cycle's blocks in port order): true if it reads now, false if it waits.
  bool arrive(uint32_t slot, uint64_t addr, uint64_t bytes);
  // The write-back of the block in `slot` issues: it is no longer being reduced.
  void write_back(uint32_t slot);
  // After the cycle's write-back: the waiting blocks that read now, oldest first (valid until
  // the next call). Throws std::runtime_error when more than `waiting_blocks` still wait.
  const std::vector<uint32_t>& release();

  size_t waiting() const { return waiting_.size(); }
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

  uint32_t waiting_blocks_;
  std::vector<Range> reducing_;  // read issued, write-back not yet issued
  std::deque<Range> waiting_;    // oldest first
  bool shrank_ = false;          // a block left reducing_ since release() last ran
  std::vector<uint32_t> released_;
  size_t peak_reducing_ = 0, peak_waiting_ = 0;
};

}  // namespace mt::noc
