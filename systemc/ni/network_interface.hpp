// The MultiTree network interface (paper §IV-A Fig. 6, §IV-B): executes one node's schedule
// table on the router mesh, moving and summing the node's gradient buffer.
//
// Per cycle (one run by the network's CycleScheduler; systemc/ni/README.md has the timing
// contract):
//   ejection  flits that arrived in earlier cycles are decoded into blocks (④); a Gather block
//             is written to memory, a Reduce block is read-added-written through the
//             reduction unit; when a message's last block is in memory it clears the
//             dependency it answers (⑤, ⑥)
//   DMA       each injection port fetches the next burst of its oldest send while its NI
//             buffer has room; a burst's flits join the port's queue when the memory
//             completes the read
//   control   the table's head entry issues when its Step equals the timestep and its
//             dependencies are cleared (①): the decoder loads the lockstep counter (NOP) or
//             gives the DMA one send per destination (②); otherwise the timestep advances if
//             the lockstep counter is zero, the DMA is idle and the head is for a later
//             step (③). One issue or advance per cycle.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include <systemc>

#include "endpoint/endpoint.hpp"
#include "ni/decoder.hpp"
#include "ni/dependency_tracker.hpp"
#include "ni/dma_requester.hpp"
#include "ni/ejection_decoder.hpp"
#include "ni/flit_encoder.hpp"
#include "forwarding/forward_buffer.hpp"
#include "ni/block_slots.hpp"
#include "ni/interlock.hpp"
#include "ni/lockstep_counter.hpp"
#include "ni/ni_config.hpp"
#include "ni/ni_model.hpp"
#include "ni/reduction_sequencer.hpp"
#include "ni/send_channel.hpp"
#include "ni/reduction_unit.hpp"
#include "ni/schedule_table.hpp"
#include "ni/timestep_counter.hpp"
#include "memory/sampled_lines.hpp"
#include "router/dor_route.hpp"
#include "router/ring_buffer.hpp"

namespace mt::noc {

class NetworkInterface : public sc_core::sc_module, public NiModel {
 public:
  NetworkInterface(sc_core::sc_module_name name, const NiPlace& place, const NocConfig& noc,
                   const NiConfig& ni, const ReductionConfig& reduction, DType dtype,
                   CycleScheduler& scheduler);
  ~NetworkInterface() override;

  // The blocks of Fig. 6.
  NiScheduleTable table;
  TimestepCounter timestep;
  LockstepCounter lockstep;
  Decoder decoder;
  DependencyTracker dependencies;
  BlockSlots slots;      // received blocks from decode to memory, and message completion
  Interlock interlock;   // the read-after-write interlock of Reduce blocks
  DmaRequester dma;      // bind dma.mem to the accelerator memory
  ReductionSequencer sequencer;  // Reduce blocks through the reduction unit, one at a time
  ReductionUnit reduction;
  FlitEncoder encoder;
  EjectionDecoder ejection;

  // Network port i (0..ni_ports-1): bind port(i).out to Network::inject(node, i) and
  // Network::eject(node, i) to port(i).in.
  Endpoint& port(uint32_t i) { return *ports_.at(i); }
  uint32_t ports() const { return static_cast<uint32_t>(ports_.size()); }

  // The host starts the all-reduce (after loading the table): resets both counters; the NI
  // runs from the next cycle on.
  void start() override;
  // Nothing left to do: table executed, every send's last flit injected, every message that
  // arrived is in memory. A node cannot know that no more messages will come (a leaf's last
  // Gather is awaited by no entry): the all-reduce is over when every NI is done and every
  // flit injected has been ejected.
  bool done() const override { return done_; }
  // The cycle the NI last became done.
  uint64_t done_cycle() const override { return done_cycle_; }
  // Something happened (a flit moved, a block completed, an entry issued): for watchdogs.
  uint64_t progress() const override { return progress_; }
  // What the NI waits for, for a stall report ("node 5: table entry 3 (reduce flow 2, step
  // 4) waits for the Reduce of flow 2 from node 6").
  std::string status() const override;

  // Besides NiModel's on_step and on_issue: every flit that arrives at NI port `port`, in its
  // arrival cycle (the NI's ejection side; port(i).on_credit observes the injection side's
  // credits).
  std::function<void(uint32_t port, const Flit& flit, uint64_t cycle)> on_flit_in;
  // NiConfig::forward: the forwarding buffer holds more bytes than ever before.
  std::function<void(uint32_t node, uint64_t held_bytes)> on_forward_peak;

  // mtsim --data sampled: the memory stores only these 16-byte lines of the buffer at `base`
  // (AccelMemory's sample, offsets ascending) and reads every other byte as zero, at every
  // node, so those bytes are zero in every flit and every sum. The reduction unit then adds
  // only the sampled lines' elements: zero plus zero is zero in int32 and fp32, so every
  // byte and every cycle stays the same (the pipeline's timing still takes the whole block).
  void set_data_sample(std::shared_ptr<const SampledLines> lines, uint64_t base);

  const NiPlace& place() const { return place_; }
  uint64_t flits_injected() const override;
  std::optional<NiPeaks> peaks() const override {
    return NiPeaks{slots.peak_live(),   interlock.peak_reducing(),
                   interlock.peak_waiting(), dma.peak_outstanding(),
                   dependencies.peak_flows(), table.entries().size(),
                   ejection.peak_packet_messages(), slots.peak_open()};
  }
  uint64_t flits_ejected() const override;
  uint64_t head_flits_injected() const override { return heads_; }
  // Registers the NI's state with a trace file (GTKWave): timestep, lockstep counter, table
  // head (index, op, flow), DMA busy, done, and each port's flits out and in. Values are those
  // of the NI's last evaluation (it sleeps while nothing happens, e.g. during a NOP, so the
  // lockstep counter shows its load and then zero).
  void trace(sc_core::sc_trace_file* tf) const override;

  // NiModel's sockets and table status.
  FlitOut& flit_out(uint32_t i) override { return port(i).out; }
  FlitIn& flit_in(uint32_t i) override { return port(i).in; }
  tlm::tlm_initiator_socket<>& memory() override { return dma.mem; }
  tlm::tlm_target_socket<>& config() override { return table.config; }
  uint32_t table_status() const override { return table.status(); }
  std::string table_error() const override { return table.error(); }
  bool counting(uint64_t now) const override { return !lockstep.zero(now); }

 private:
  enum class EventKind : uint8_t { kBurstRead, kReduceRead, kWriteBack, kBlockDone };
  struct Pending {
    // Built in place in the heap (schedule()): a copy from a temporary would store the narrow
    // fields one by one and load them back as one word, a failed store-to-load forward.
    Pending(uint64_t c, uint64_t s, EventKind k, uint32_t b)
        : cycle(c), seq(s), kind(k), slot(b) {}
    uint64_t cycle;
    uint64_t seq;  // keeps same-cycle events in the order they were scheduled
    EventKind kind;
    uint32_t slot;  // index into bursts_ or blocks_
    bool operator>(const Pending& o) const {
      return cycle != o.cycle ? cycle > o.cycle : seq > o.seq;
    }
  };
  // A DMA read of a send, waiting for the memory: the bytes read, encoded into flits when
  // the read completes (a quarter of the flits' bytes to hold meanwhile; encoding is a pure
  // function of the send and the bytes, so when it runs changes nothing).
  struct Burst {  // its bytes: burst_data(slot)
    uint32_t port = 0;
    uint32_t bytes = 0;
    SendJob job;
    uint64_t offset = 0;        // of the bytes in the send
  };
  struct Block {  // received data on its way into memory
    Op op = Op::kNop;
    uint32_t flow = 0, sender = 0;
    uint64_t addr = 0;
    std::vector<uint8_t> data;
    std::vector<uint8_t> acc;  // a Reduce block's local partial sum, as its read returns it
    bool counted = false;      // counted towards its message's arrival (forwarding: early)
  };
  struct Message {  // a message wholly in memory, as the scoreboard records it
    Op op;
    uint32_t flow, sender;
  };
  struct Arrived {
    Flit flit;
    uint32_t port;
    uint64_t cycle;
  };

  void evaluate(uint64_t now);  // the ports' too: they share this run (Endpoint's driver)
  void eject(uint64_t now);
  void decode_arrivals(uint64_t now);  // the flits of eject() that arrived before `now`
  void run_events(uint64_t now);
  // A host-speed hint, no model behaviour: the state event `ev` reads, written a memory
  // latency ago and out of the host's cache by now, fetched one evaluation early.
  void prefetch(const Pending& ev) const;
  void fetch(uint64_t now);
  // The table's head (Fig. 6): issues it, or advances the timestep. Two cases that do
  // nothing are told inline: a done table, and a head that found a message missing with the
  // dependencies as they still are (a head of the current step; the timestep stays while it
  // waits). control_head decides the others.
  void control(uint64_t now) {
    if (head_ >= table.entries().size()) return;
    if (waiting_head_ == head_ && waiting_changes_ == dependencies.changes()) return;
    control_head(now);
  }
  void control_head(uint64_t now);
  SendRoute route_to(const SendRequest& s) const;
  void schedule(uint64_t cycle, EventKind kind, uint32_t slot);
  void issue_reduce(uint32_t slot, uint64_t now);
  uint64_t reduce_block(Block& b, uint64_t now);  // the sum into b.acc; its ready cycle
  void release_waiting(uint64_t now);
  void block_done(uint32_t slot);
  void count_block(uint32_t slot);
  void record_arrivals();
  // Forwarding: [addr, addr + len) from the NI, if it holds it (ready the next cycle).
  bool fetch_forwarded(uint64_t addr, uint8_t* data, uint64_t len, uint64_t now,
                       uint64_t& ready);
  // The bytes of burst slot `slot`: dma_burst_bytes of burst_bytes_, at a place known from the
  // slot alone (prefetch() reaches them without reading the Burst first).
  uint8_t* burst_data(uint32_t slot) {
    return burst_bytes_.data() + size_t{slot} * ni_.dma_burst_bytes;
  }
  const uint8_t* burst_data(uint32_t slot) const {
    return burst_bytes_.data() + size_t{slot} * ni_.dma_burst_bytes;
  }
  bool unread_by_any_send(uint64_t addr, uint64_t len) const;
  void plan_forwarding();
  void hold_sum(const Block& b);
  bool dma_idle() const;
  void wake_at(uint64_t cycle) {
    if (cycle >= next_wake_) return;
    next_wake_ = cycle;
    wake_.notify_at(cycle);
  }
  // The cycle to run in for a flit arriving in `cycle`: the next, to decode it, or its own,
  // when the flit ends the NI's done or is counted in the traces then.
  uint64_t arrival_wake(uint64_t cycle) const { return done_ || traced_ ? cycle : cycle + 1; }
  // Whether a flit in the inbox has arrived by cycle `now` (the ports hand flits over early).
  bool arrived_by(uint64_t now) const { return !inbox_.empty() && inbox_.front().cycle <= now; }
  // The flits that arrive in cycle `now` (evaluate calls it when done or traced): the NI is
  // no longer done, and the traces count them.
  void note_arrivals(uint64_t now);
  uint64_t now_cycle() const;
  static uint64_t key(Op op, uint32_t flow, uint32_t sender) {
    return (uint64_t{static_cast<uint8_t>(op)} << 56) | (uint64_t{flow} << 28) | sender;
  }

  NiPlace place_;
  NocConfig noc_;
  NiConfig ni_;
  std::vector<std::unique_ptr<Endpoint>> ports_;
  std::vector<SendChannel> channels_;  // per port
  // Bit p: channels_[p] has a send queued (fetch and dma_idle pass over the others).
  uint32_t queued_ports_ = 0;
  RingBuffer<Arrived> inbox_;  // by cycle, then port
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> events_;
  uint64_t seq_ = 0;
  std::vector<Burst> bursts_;
  std::vector<uint8_t> burst_bytes_;  // every burst slot's bytes (burst_data)
  std::vector<uint32_t> free_bursts_;
  std::vector<Block> blocks_;  // per block slot
  // Messages that came wholly into memory in this cycle: the scoreboard records them in the
  // next (record_arrivals), from the RTL's arrival register.
  std::vector<Message> arriving_;
  Decoded decoded_;
  ReceivedBlock received_;
  TakeSlot take_slot_;  // the ejection decoder's: a block slot from `slots` in this cycle
  ForwardBuffer forward_;
  std::shared_ptr<const SampledLines> sample_;  // set_data_sample; null: all bytes
  uint64_t sample_base_ = 0;
  // NiConfig::forward_prefix_bytes: the bytes of the table's sends of reduced data the NI
  // holds, as [addr, addr + bytes).
  std::vector<std::pair<uint64_t, uint64_t>> forward_ranges_;

  bool started_ = false, done_ = false;
  uint64_t done_cycle_ = 0, progress_ = 0, heads_ = 0, next_job_id_ = 1;
  uint64_t last_flit_sent_ = ~0ull;  // cycle a port last sent a flit
  size_t head_ = 0;  // index of the table's head entry
  // The head entry and DependencyTracker::changes() when it last waited for a message.
  size_t waiting_head_ = ~size_t{0};
  uint64_t waiting_changes_ = 0;
  CycleEvent wake_;  // runs evaluate(): the NI's and its ports' wake-ups
  uint64_t next_wake_ = ~0ull;
  // Traced copies (sc_trace samples variables), kept once trace() has registered them.
  mutable bool traced_ = false;
  uint32_t trace_timestep_ = 0, trace_entry_ = 0, trace_op_ = 0, trace_flow_ = 0;
  std::vector<uint64_t> trace_flits_out_, trace_flits_in_;  // per port
  uint64_t trace_lockstep_ = 0;
  bool trace_dma_busy_ = false;
};

}  // namespace mt::noc
