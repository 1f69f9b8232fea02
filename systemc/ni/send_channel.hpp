// One NI injection port's sends (rtl/send_channel.sv): the send queue (NiConfig::send_queue),
// the DMA burst reads of the oldest send as the port's NI buffer has room, and the bursts read
// and not yet injected. The NI asks it for the next burst (next_burst) in each cycle in which
// one can be due (may_burst), has the bytes read (from the memory, or with NiConfig::forward
// from its own buffer), encodes them into the port's Endpoint when the read completes
// (read_done), and the Endpoint says when a flit leaves (sent).
//
// Per cycle (the RTL's contract): the oldest send asks for its next burst (dma_burst_bytes,
// less at its end) when the NI buffer has room for the burst's flits, counting flits being
// read (buffer_flits), and fewer than buffer_lines bursts are being read or buffered at the
// start of the cycle (a burst whose last flit left in this cycle still counts); the send leaves
// the queue with its last burst. A burst's flits join the NI buffer in the cycle its read
// completes and leave from the next.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "endpoint/endpoint.hpp"
#include "ni/flit_encoder.hpp"
#include "ni/ni_config.hpp"
#include "router/ring_buffer.hpp"

namespace mt::noc {

// A burst of a send to read: bytes [offset, offset + bytes) of the send, at `addr`, and the
// flits they take.
struct BurstRead {
  SendJob job;
  uint64_t addr = 0, offset = 0, bytes = 0, flits = 0;
};

// A plain object, not a module: the NI holds its ports' channels side by side and looks at
// them every evaluation, so they stay in one array (a host-speed choice; no process of its own).
class SendChannel {
 public:
  // `port`: the Endpoint whose NI buffer the bursts fill.
  SendChannel(const NiConfig& ni, const FlitEncoder& encoder, const Endpoint& port)
      : ni_(&ni), encoder_(&encoder), port_(&port) {}

  // Sends queued.
  size_t queued() const { return jobs_.size(); }
  // Sends queued at the start of cycle `now`, a send whose last burst was asked for in this
  // cycle still counting: an entry issues when its sends fit it (queued_at + its sends <=
  // send_queue).
  size_t queued_at(uint64_t now) const { return jobs_.size() + (last_done_ == now); }
  void push(const SendJob& job) { jobs_.push_back(job); }
  // The next burst of the oldest send, if the NI buffer has room for it in cycle `now` (see
  // above); from then on it counts as being read.
  std::optional<BurstRead> next_burst(uint64_t now);
  // False when next_burst(now) would find no send or, as far as flits left since it last
  // found no room tell, no room.
  bool may_burst(uint64_t now) const { return !jobs_.empty() && now >= retry_; }
  // A burst's read completes: its `flits` join the NI buffer.
  void read_done(uint64_t flits) { inflight_flits_ -= flits; }
  // A flit of the NI buffer left in cycle `cycle`.
  void sent(uint64_t cycle) {
    if (--lines_.front() == 0) {
      lines_.pop_front();
      last_line_freed_ = cycle;
    }
    --sends_short_;
    if (last_line_freed_ == cycle) --lines_short_;
    if (sends_short_ <= 0 && lines_short_ <= 0) retry_ = std::min(retry_, cycle + 1);
  }
  // No send queued and no burst being read.
  bool dma_idle() const { return jobs_.empty() && inflight_flits_ == 0; }
  // Whether bytes of the queued sends not read yet overlap [addr, addr + len).
  bool unread(uint64_t addr, uint64_t len) const;

 private:
  // Bursts buffered at the start of cycle `now`.
  size_t lines_at(uint64_t now) const { return lines_.size() + (last_line_freed_ == now); }

  const NiConfig* ni_;
  const FlitEncoder* encoder_;
  const Endpoint* port_;
  RingBuffer<SendJob> jobs_;           // oldest first
  uint64_t fetched_ = 0;               // bytes of jobs_.front() read so far
  uint64_t inflight_flits_ = 0;        // flits of reads not yet completed
  RingBuffer<uint64_t> lines_;         // flits left of every burst read and not yet injected
  uint64_t last_line_freed_ = ~0ull;   // cycle the last line's last flit left
  uint64_t last_done_ = ~0ull;         // cycle the last send left the queue
  // When the buffer had no room for the next burst: the flits that must still leave, and the
  // lines that must still be freed, before it can have room (only a flit leaving makes room:
  // a completed read's flits move from being read to the buffer, and the next burst stays the
  // same), and the first cycle it can, the one after the flit that makes both (~0 until
  // then; 0 when the last call found room).
  int64_t sends_short_ = 0, lines_short_ = 0;
  uint64_t retry_ = 0;
};

}  // namespace mt::noc
