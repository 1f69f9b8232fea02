// The network side of an NI, for tests and traffic generators: injects queued flits one per
// cycle as credits allow, and sinks every arriving flit at once (returning its credit).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "flit/flit_sink.hpp"
#include "link/flit_sockets.hpp"
#include "noc/noc_config.hpp"
#include "router/credit_queue.hpp"
#include "router/ring_buffer.hpp"
#include "scheduler/cycle_clock.hpp"
#include "scheduler/cycle_scheduler.hpp"

namespace mt::noc {

class Endpoint final : public sc_core::sc_module, public FlitPeer, public FlitSink {
 public:
  // With `driver`, the endpoint has no process of its own: a credit or send arriving
  // between its evaluations notifies *driver, and the owner's run, which *driver makes, calls
  // evaluate() of every endpoint that shares it whose next_wake() has come, then asks *driver
  // for the earliest next_wake() of them all (an evaluation leaves its next wake-up there
  // without asking). An NI drives its ports this way: one run per cycle instead of one per
  // port, and one request.
  Endpoint(sc_core::sc_module_name name, uint32_t node, const NocConfig& cfg,
           const CycleEvent* driver = nullptr);
  // The work of cycle `now` (the current one): take usable credits, inject one flit if it
  // may.
  void evaluate(uint64_t now);
  // The first cycle in which evaluate() can do anything (kNever: none until a credit or a send
  // arrives, each of which lowers it).
  uint64_t next_wake() const { return next_wake_; }

  // One local port pair of the node's router: port i's two sockets, any i.
  FlitInitiatorSocket<Endpoint> out;  // bind to Network::inject(node, i)
  FlitTargetSocket<Endpoint> in;      // Network::eject(node, i) binds to this

  // Queues one packet or message (its flits in order; Flit::vc is ignored: the endpoint picks
  // the injection VC per packet, round robin over VCs with credits). Flits leave at most one
  // per cycle, from the next cycle on. Under virtual cut-through a packet's head waits for a VC
  // with room for the whole packet (a message: for each sub-packet). Throws mt::InputError if
  // the types do not continue whole packets/messages (a packet may span several calls).
  void send(const std::vector<Flit>& flits);
  // send() without the copy (FlitSink): append() queues a copy of `proto` for the caller to
  // complete in place; commit(n) then checks the last n flits appended as send() does (throwing,
  // with them removed, if they do not continue whole packets/messages) and lets them leave.
  // Nothing may use the endpoint between the appends and their commit.
  Flit& append(const Flit& proto) override;
  void commit(size_t n);
  size_t queued_flits() const { return queue_.size(); }
  // The flits queued at the start of cycle `now`: the same whether SystemC runs this endpoint
  // before or after its user within the cycle (at most one flit leaves per cycle), as a
  // hardware occupancy register reads.
  size_t queued_flits_at(uint64_t now) const {
    return queued_flits() + (last_send_ == now ? 1 : 0);
  }

  // Called for every flit that arrives, with the VC it came on and its arrival cycle, as the
  // router hands it over: in that cycle or before it (the endpoint sinks every flit on arrival
  // and returns its credit then, so nothing about it is left to decide in the cycle itself).
  std::function<void(const Flit& flit, uint8_t vc, uint64_t cycle)> on_receive;
  // Called for every flit as it goes onto the injection link (with the VC it took).
  std::function<void(const Flit& flit, uint64_t cycle)> on_send;
  // Called for every credit the router returns, with the cycle from which it counts.
  std::function<void(uint8_t vc, uint64_t usable)> on_credit;

  uint32_t node() const { return node_; }
  uint64_t flits_sent() const { return sent_; }
  uint64_t flits_received() const { return received_; }
  // The current cycle of the simulation (clock_ps per cycle).
  uint64_t cycle() const {
    return driver_ != nullptr ? driver_->scheduler().now() : clock_.now();
  }
  // Credits held for VC vc of the router's local input buffer, counting every credit usable by
  // the current cycle (vc_depth when all returned).
  uint32_t credits(uint32_t vc) const {
    return credits_.at(vc) + credits_in_.usable(static_cast<uint8_t>(vc), cycle());
  }

  // A flit from the router (port 0: the one link), usable from cycle `usable` on; a credit for
  // the router's input buffer (FlitPeer: what receive_flit and receive_credit do).
  void accept_flit(unsigned port, const Flit& flit, uint8_t vc, uint64_t usable) override;
  void accept_credit(unsigned port, uint8_t vc, uint64_t usable) override;

 private:
  // (The implementation adds what it needs below.)
  SC_HAS_PROCESS(Endpoint);
  struct Timed {
    Flit flit;
    uint64_t cycle = 0;  // first cycle it may leave
  };
  enum class Open : uint8_t { kNone, kPacket, kMessage };  // what send() has left open

  void run() { evaluate(cycle()); }  // the process of an endpoint without a driver
  void end_of_elaboration() override;  // takes the bound interfaces and the router's calls
  bool try_inject(uint64_t now);
  // Credits usable by `now` into credits_: taken when a decision needs them, or to find the
  // next wake-up when the next cycle is not due anyway.
  void take_credits(uint64_t now);
  uint32_t head_need(const Flit& head) const;
  void wake_at(uint64_t cycle, uint64_t now);  // now: the current cycle
  tlm::tlm_sync_enum receive_flit(Flit& flit, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum receive_credit(Flit& credit, tlm::tlm_phase& phase,
                                    sc_core::sc_time& delay);

  uint32_t node_;
  NocConfig cfg_;
  uint64_t sent_ = 0, received_ = 0;
  uint64_t last_send_ = ~0ull;  // cycle of the last flit injected
  CycleClock clock_;
  DelayCycles flit_delay_, credit_delay_;  // of the router's flits and credits
  sc_core::sc_time local_delay_;
  RingBuffer<Timed> queue_;
  CreditQueue credits_in_;
  std::vector<uint32_t> credits_;  // free slots per VC of the router's local input
  int current_vc_ = -1;            // VC of the packet being injected, -1 between packets
  uint32_t next_vc_ = 0;           // round-robin start for the next packet
  bool reserve_ = false;           // next flit starts a sub-packet (needs a reservation)
  Open open_ = Open::kNone;
  sc_core::sc_event own_wake_;
  const CycleEvent* driver_;  // the owner's wake-up, or null: own_wake_
  // The router's input and output: the interfaces bound, and the router if it takes direct
  // calls (link/flit_peer.hpp).
  tlm::tlm_fw_transport_if<FlitProtocol>* router_fw_ = nullptr;
  tlm::tlm_bw_transport_if<FlitProtocol>* router_bw_ = nullptr;
  FlitPeerRef router_in_, router_out_;
  uint64_t next_wake_ = ~0ull;
  Flit credit_;
};

}  // namespace mt::noc
