// The NI's block slots (rtl/block_slots.sv): a received block holds one from its first payload
// flit (each flit is written into the slot as it arrives) until its memory write completes
// (the write of a Gather block, or the write-back of a Reduce block's sum), and the slots tell
// when a message is in memory.
//
// Allocation: each NI port has its own `slots` block slots (port p's are p * slots onwards),
// so the data of a port's blocks is written into a bank of its own (the RTL's block-data banks
// each have one write port). A port's free slots are a FIFO: at reset its places hold its
// slots in order; a new block of the port takes the slot at its head, and a completed write
// returns its slot at the tail, behind every slot free at the cycle's start, so a slot freed
// in a cycle is not taken in the same cycle. A new block that finds no free slot of its port
// stops the run with an error naming NiConfig::block_slots, as the RTL raises error_o.
//
// Message completion: a message (op, flow, sender: its key) is in memory when its last block
// has been decoded and every block of it has completed. It has a record from its first block's
// first payload flit until then, which counts its live blocks (each from its first payload
// flit); `open_messages` records in use stop the run with an error naming
// NiConfig::open_messages, as the RTL raises error_o. (The RTL takes a record from a free list
// with the slot and carries it with the message's blocks; the model finds it by key.)
//
// Within a cycle the NI takes the cycle's slots and records (take) and records its decoded
// blocks (record) before any write completes (complete), as the RTL's decoders see the free
// counts of the cycle's start.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <systemc>

namespace mt::noc {

class BlockSlots : public sc_core::sc_module {
 public:
  // NiConfig::block_slots (a port's) for each of `ports` NI ports, and NiConfig::open_messages.
  BlockSlots(sc_core::sc_module_name name, uint32_t slots, uint32_t ports,
             uint32_t open_messages);

  // A block of message `key` has its first payload flit on NI port `port` in cycle `now` (a
  // cycle's flits in port order): the block takes a slot of the port, into which its flits are
  // written, and counts for its message (the message's first block takes its record). Returns
  // the slot.
  uint32_t take(uint64_t now, uint32_t port, uint64_t key);
  // The block in `slot` is decoded (its last flit arrived); `last`: the message's last block.
  void record(uint32_t slot, bool last);
  // The memory write of the block in `slot` completes: the slot is free, and the block no
  // longer keeps its message out of memory. True when the message is now in memory.
  bool complete(uint32_t slot) {
    release(slot);
    return count(slot);
  }
  // The two halves of complete(), apart for the forwarding experiment (NiConfig::forward),
  // where a Reduce block's sum counts for its message once it is held in the NI, before its
  // write-back completes: the block no longer keeps its message out of memory (true when the
  // message is now in memory), and its slot is free. Each once per block.
  bool count(uint32_t slot);
  void release(uint32_t slot);

  // The message of the block in `slot`.
  uint64_t key(uint32_t slot) const { return key_.at(slot); }
  // No slot is live after this cycle's completions, leaving aside the blocks taken in cycle
  // `now` (rtl/block_slots.sv empty_o).
  bool empty(uint64_t now) const {
    return live_ == (take_cycle_ == now ? taken_now_ : 0);
  }
  size_t live() const { return live_; }
  // The slot numbers of all ports: a slot is below it.
  size_t slots() const { return key_.size(); }
  // The most slots one port held at once (what NiConfig::block_slots must be).
  size_t peak_live() const { return peak_port_live_; }
  size_t peak_open() const { return peak_open_; }  // the most messages open at once

 private:
  struct Message {
    uint32_t live = 0;  // blocks that took a slot, not yet counted
    bool last = false;  // its last block has been decoded
  };

  struct Fifo {
    std::vector<uint32_t> places;  // slot numbers
    size_t head = 0;               // place of the next slot taken
    size_t free = 0;               // free slots, from head on
  };

  std::vector<Fifo> fifos_;       // each port's free slots
  uint32_t per_port_;             // slots of a port
  std::vector<uint64_t> key_;     // per slot: the message of its block
  std::unordered_map<uint64_t, Message> messages_;  // open messages (a record each)
  uint32_t open_bound_;
  size_t peak_open_ = 0;
  size_t live_ = 0, peak_port_live_ = 0;
  uint64_t take_cycle_ = ~uint64_t{0};  // the cycle of the last take
  size_t taken_now_ = 0;                // slots taken in take_cycle_
};

}  // namespace mt::noc
