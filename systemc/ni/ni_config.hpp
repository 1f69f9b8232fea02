// Parameters of the MultiTree NI (systemc/ni/README.md) that are not the network's.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "ni_formats.hpp"
#include "noc/noc_config.hpp"

namespace mt::noc {

// What the RTL NI reports on error_o during a run (format/ni_formats.json, errors.run): most
// often a run that needs more of an NiConfig bound than the NI has, the message naming the
// field. Thrown by the NI's blocks and caught by the NI, which stops the run with it as its
// fault: a failed all-reduce (mtsim's exit 3), as with the RTL NI, not an internal error.
struct NiRunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Payload bytes of a body or tail flit. The VC and Type bits of Fig. 8b travel beside the
// payload, as in the paper's accounting (256-byte packets = 16 payload flits + 1 head: 6%).
constexpr uint32_t kFlitPayloadBytes = format::flit::kPayloadBytes;

enum class FlowControl : uint8_t {
  kMessage,  // §IV-B: one head flit per gradient message, sub-packets end in sub-tails
  kPacket,   // baseline: every packet_payload_bytes of payload get their own head flit
};
const char* flow_control_name(FlowControl f);
// "message" or "packet"; throws mt::InputError otherwise.
FlowControl parse_flow_control(const std::string& text);

struct NiConfig {
  FlowControl flow_control = FlowControl::kMessage;
  uint32_t packet_payload_bytes = 256;  // packet-based mode (paper Table III)
  // Injection buffer of each NI port, flits: what the DMA may have fetched ahead of the
  // network. Footnote 4's "NI buffer"; the paper gives no size, this is one VC buffer.
  uint32_t buffer_flits = 318;
  uint32_t dma_burst_bytes = 256;       // one DMA read of a send
  // Senders the dependency scoreboard records per (Op, flow) (rtl/dependency_tracker.sv's
  // SLOTS): a node hears from at most its 4 tree children, or 2 ring neighbours, per flow.
  uint32_t arrival_slots = 4;
  // Flows the scoreboard has rows for: flow ids 0..flows-1 (rtl/dependency_tracker.sv's
  // FLOWS); entries a node's table holds (rtl/schedule_table.sv's DEPTH); packet-mode messages
  // open at once on one ejection port (rtl/ejection_decoder.sv's PKT_MSGS). The RTL is built
  // with them; run_allreduce sizes the first two to the tables it loads, as the area flow
  // does (systemc/ni/README.md, "Bounded queues").
  uint32_t flows = 64;
  uint32_t table_entries = 256;
  uint32_t packet_messages = 4;
  // The RTL's queue sizes (rtl/README.md), which the model obeys: bursts of sends one NI port
  // buffers (read or being read, not yet injected: rtl/endpoint.sv's LINES; a full NI buffer
  // of 256-byte bursts is 19 of them), and sends queued for one port (the DMA's send queue;
  // an entry whose sends do not fit waits).
  uint32_t buffer_lines = 20;
  uint32_t send_queue = 4;
  // Received blocks the RTL holds at once on one NI port (from a block's first payload flit,
  // which takes a slot of its port, until it is written to memory); the model checks it and
  // stops with an error where the RTL would have to stall ejection.
  uint32_t block_slots = 64;
  // Messages open at once, from their first block's first payload flit until they are in memory
  // (rtl/block_slots.sv's MESSAGES: a record each counts its live blocks). The model checks it
  // and stops with an error where the RTL would have to stall ejection.
  uint32_t open_messages = 32;
  // The read-after-write interlock (rtl/interlock.sv): Reduce blocks between their read and
  // their write-back (REDUCING; the blocks waiting behind them need no place of their own:
  // they wait in their block slots); memory accesses asked for and not yet complete
  // (rtl/dma_requester.sv's DEPTH). The model stops with an error naming the field where the
  // RTL would have to stall.
  uint32_t reducing_blocks = 64;
  uint32_t memory_requests = 256;
  // Deadlock watchdog: an NI that has work left and sees nothing happen (no flit in or out,
  // no memory or reduction completion) for this many cycles stops the simulation. 0: off.
  uint64_t watchdog_cycles = 20000;
  // Forwarding of reduced data (systemc/ni/README.md, "Forwarding reduced data"; a model
  // experiment, not in the RTL): the reduction unit's sums are also kept in the NI
  // (ForwardBuffer), a Reduce message counts as arrived when its last sum leaves the adder
  // rather than when its write-back completes, and a send's burst whose bytes the NI holds
  // takes them from there instead of reading the memory. Off: every send reads the memory.
  bool forward = false;
  // With forward: hold only the first this many bytes of each send of reduced data (a
  // Reduce entry with children, a root's Gather), enough to cover the memory's read latency;
  // the send reads the rest from memory behind them. 0: all of it.
  uint64_t forward_prefix_bytes = 0;

  // Checks ranges; throws mt::InputError naming the bad parameter.
  void validate() const;
  std::string str() const;
};

// The most each of the queue bounds above held at once in one NI during a run: what the bound
// must be for that run (mtsim --json: ni_peaks; block_slots, like the bound, is one port's).
// waiting_blocks is the most Reduce blocks that waited behind the interlock at once, which is
// no bound of its own (they hold block slots).
struct NiPeaks {
  uint64_t block_slots = 0, reducing_blocks = 0, waiting_blocks = 0, memory_requests = 0;
  // The largest flow id + 1 and the table entries the NI held; the most packet-mode messages
  // open on one ejection port.
  uint64_t flows = 0, table_entries = 0, packet_messages = 0;
  // The most messages open at once (NiConfig::open_messages).
  uint64_t open_messages = 0;

  // Each field the larger of this and `o`'s.
  void include(const NiPeaks& o);
};

// Flits a send of `bytes` takes on the wire: one head and at least one payload flit per
// message (message mode) or per packet (packet mode).
uint64_t send_flits(uint64_t bytes, const NiConfig& cfg);

}  // namespace mt::noc
