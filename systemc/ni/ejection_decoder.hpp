// The NI's ejection side: reassembles the flits of each ejection port and VC into blocks of
// gradient data and tells which message each belongs to and when a message is complete. A
// block ends at its message's or packet's end and at every multiple of a line
// (format::flit::kLineBytes, 256): it lies within one line, the interlock's key. A head's
// address must be a multiple of a flit's payload, so no flit crosses a line.
//
// A message's sender is the neighbour it came from: the router swapped Next and Eject at the
// source, so Eject now names the sender's output port and the sender is this router's
// neighbour across the opposite port (paper §IV-B). A packet's sender is its Src.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "flit/flit.hpp"
#include "ni/ni_config.hpp"
#include "noc/noc_config.hpp"
#include "plan/plan.hpp"

namespace mt::noc {

// The opposite direction of a router port (y- <-> y+, x- <-> x+); the local port is its own.
uint8_t opposite_port(uint8_t p);

struct ReceivedBlock {
  Op op = Op::kNop;
  uint32_t flow = 0;
  uint32_t sender = 0;
  uint64_t addr = 0;               // where the block's bytes belong
  std::vector<uint8_t> data;       // its bytes
  bool message_done = false;       // the last bytes of the message have now arrived
  uint32_t slot = 0;               // the block slot its first payload flit took
};

// Takes a block slot for a block of message (op, flow, sender) whose first payload flit
// arrives on ejection port `port` (BlockSlots::take).
using TakeSlot =
    std::function<uint32_t(uint32_t port, Op op, uint32_t flow, uint32_t sender)>;

class EjectionDecoder : public sc_core::sc_module {
 public:
  // `neighbour[p]`: the node across this router's port p (Router::kNoNeighbour if none).
  // `sender_in_head` (switch networks): a message's sender is its head's Src, not the
  // neighbour its Eject names.
  // `packet_messages`: packet-mode messages open at once on one port (NiConfig).
  EjectionDecoder(sc_core::sc_module_name name, uint32_t node,
                  const std::array<uint32_t, kPorts>& neighbour, const NocConfig& noc,
                  uint32_t packet_messages, bool sender_in_head = false);

  // Takes one flit that arrived on ejection port `port_index`. A block's first payload flit
  // takes its block slot from `take_slot` (the RTL writes every payload flit into its block's
  // slot as it arrives; slot 0 when empty). Returns true when the flit ends a block, which is
  // then in `block`. Throws std::runtime_error for flits that do not continue what their port
  // and VC carry.
  bool consume(const Flit& flit, uint32_t port_index, ReceivedBlock& block,
               const TakeSlot& take_slot = {});

  // Messages started but not yet complete (a run that ends with some left lost data).
  size_t open_messages() const;
  // The most packet-mode messages open at once on one port.
  size_t peak_packet_messages() const { return peak_packet_messages_; }

 private:
  struct Context {
    bool open = false;
    bool message = false;       // all-reduce message (else normal packet)
    Op op = Op::kNop;
    uint32_t flow = 0, sender = 0;
    uint64_t addr = 0;          // address of the next payload byte
    uint64_t left = 0;          // payload bytes still to come in this message or packet
    uint64_t message_bytes = 0;
    std::vector<uint8_t> data;  // the block so far
    bool has_slot = false;      // the block so far has taken its slot
    uint32_t slot = 0;
  };
  [[noreturn]] void fail(const Flit& f, uint32_t port_index, const char* what) const;
  static uint64_t key(Op op, uint32_t flow, uint32_t sender) {
    return (uint64_t{static_cast<uint8_t>(op)} << 56) | (uint64_t{flow} << 28) | sender;
  }

  uint32_t node_;
  std::array<uint32_t, kPorts> neighbour_;
  bool sender_in_head_;
  uint32_t vcs_;
  std::vector<Context> contexts_;  // port_index * vcs + vc
  // Packet mode: payload bytes received so far of each message (packets may interleave), and
  // the port it opened on; its port's count of open messages.
  struct PacketMessage {
    uint64_t bytes = 0;
    uint32_t port = 0;
  };
  std::unordered_map<uint64_t, PacketMessage> packet_messages_;
  std::vector<size_t> port_packet_messages_;
  uint32_t packet_messages_bound_;
  size_t open_messages_ = 0, peak_packet_messages_ = 0;
};

}  // namespace mt::noc
