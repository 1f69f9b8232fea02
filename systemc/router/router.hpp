// The input-queued virtual-channel router (systemc/README.md "Router" and "Timing contract").
//
// Ports: K = ni_ports local ports (codes 0, 5, 6, 7 in order; flit.hpp), all present, and a
// direction port per neighbour. Each local port is an injection/ejection pair with the local
// latency, so the NI has the bandwidth of K links (the paper's K = 4 on a torus: all links
// together). Every local port injects alike. A normal packet at its destination leaves by
// local port index
//   in_port local ? local_index(in_port) : (in_port - 1) % K,
// so the links share the ejection ports evenly and with K = 4 each link has one of its own:
// the four links can all eject at full rate. An all-reduce message names its ejection port
// instead: after the swap at the source router, `next` must be a local port of the
// neighbour, which fails otherwise (a message never travels two hops).
//
// Pipeline of a head flit usable at an input in cycle a, without contention:
//   cycles a .. a+rc-1            route computation (RC)
//   cycle  a+rc+va-1              VC allocation decides (VA occupies the va cycles before)
//   cycle  a+rc+va+sa-1           switch allocation decides (SA), the flit leaves its buffer
//   cycles a+rc+va+sa .. a+R-1    switch traversal (ST)
//   cycle  a+R                    the flit goes onto the output link
// A failed allocation retries the next cycle. Body and tail flits skip RC and VA: a flit usable
// in cycle b can win SA in cycle b+sa-1 at the earliest, and one cycle after the flit ahead of
// it in its VC, so a packet's flits leave one per cycle. The credit for a buffer slot goes
// upstream in the cycle its flit wins SA. A packet's output VC is released in the cycle its
// tail wins SA (VA may hand it out again from the next cycle), and the next head in the same
// input VC starts RC in the next cycle.
//
// Output VCs: normal packets take their dateline class (dor_route.hpp) on a torus or ring,
// any VC on a mesh and at ejection; all-reduce messages any VC. Virtual cut-through: VA
// grants a free output VC to a normal packet only with credits >= its length (length 0
// counts 1; at most vc_depth); a message's head and the first flit after every SubTail need
// subpacket_flits credits before SA. Wormhole: a free VC, then one credit per flit.
//
// One call of evaluate() evaluates the whole pipeline for one cycle; the network's
// CycleScheduler makes it (scheduler/cycle_scheduler.hpp). It runs only in cycles in which
// something can happen (a flit or credit becomes usable, a stage delay ends, or the previous
// cycle granted something); a blocked allocation sleeps until a credit arrives. Arrivals are
// queued with the cycle they become usable and only read from then on, and everything sent in
// cycle t is usable at t+1 or later, so the order in which routers run within a cycle never
// matters.
//
// Switch traversal is carried in the link's delay: a flit that wins SA in cycle g goes onto
// its output link in cycle g+st+1 (the cycle above), and the router hands it to the receiver
// already in cycle g with delay st+1+latency, so it is usable there in the same cycle as if
// it had waited in a traversal buffer (nothing can overtake it: an output sends at most one
// flit per cycle, in grant order). flits_out() still counts a flit from its send cycle.
//
// Aggregation (switches of an in-network aggregation run only; aggregation/switch_aggregator.hpp
// and docs/ina.md): attach_aggregator() gives a switch an aggregation unit and a virtual input
// port for each output its results leave by, port codes after the real ones. A message of a
// flow in the unit's table arriving over a link is claimed at RC (its route is not read) and
// leaves its input VC through the unit, one flit per input port a cycle, from the cycle SA
// could have granted it on, its credit going upstream then; the unit's results enter the
// virtual ports (usable the next cycle) and take RC, VA and SA as any input does (in flow
// order, OutputSharing::kFlowOrder, on the VC of their virtual port only). Without a
// unit, RC tests one pointer per head and the evaluation one pointer per cycle.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "aggregation/switch_aggregator.hpp"
#include "flit/flit.hpp"
#include "flit/source_route.hpp"
#include "link/flit_sockets.hpp"
#include "noc/noc_config.hpp"
#include "router/credit_queue.hpp"
#include "router/dor_route.hpp"
#include "router/ring_buffer.hpp"
#include "router/switch_routes.hpp"
#include "router/vc_mask.hpp"
#include "scheduler/cycle_clock.hpp"
#include "scheduler/cycle_scheduler.hpp"

namespace mt::noc {

// What a network shares with all its routers (owned by Network).
struct RouterShared {
  // Runs each router in the cycles it asks for (its pipeline evaluation).
  CycleScheduler* scheduler = nullptr;
  // Allocation priority of a packet, from its head flit; empty: round robin only.
  std::function<uint32_t(const Flit&)> priority;
  // Tests: evaluate every cycle from the first arrival on (idle skipping off).
  bool always_evaluate = false;
  // Routers and endpoints call each other directly (Network::set_direct_calls).
  bool direct_calls = true;
  // Deadlock watchdog (Network::set_watchdog): a flit entering from an NI arms it.
  uint64_t watchdog_cycles = 0;  // 0: off
  bool watchdog_armed = false;
  sc_core::sc_event* watchdog_event = nullptr;
};

constexpr uint32_t kNoNeighbour = std::numeric_limits<uint32_t>::max();

// What a router is built from: the topology vertex it is, and what each port code leads to.
struct RouterSpec {
  uint32_t vertex = 0;  // node id, or a switch's vertex id (host_sw/topology/topology.hpp)
  // neighbour[p]: the vertex port code p leads to; this vertex for a local (NI) port;
  // kNoNeighbour where the code is unused. At most kMaxRouterPorts codes.
  std::vector<uint32_t> neighbour;
  // Grid networks: where the router sits, and the port one step along each Step leads out by
  // (indexed by Step; kMaxRouterPorts: none; network/port_layout.hpp grid_step_ports).
  GridPlace place;
  std::array<uint8_t, 5> step_port{};
  // Switch networks (fat-tree, BiGraph, files with switches): their routing; null on a grid.
  const SwitchRoutes* switch_routes = nullptr;
  // port_latency[p]: the latency of the link on port code p, for its flits and credits alike
  // (a file topology's per-link "latency"); 0, or no entry: NocConfig's link_latency and
  // credit_latency.
  std::vector<uint32_t> port_latency;
};

class Router final : public sc_core::sc_module, public FlitPeer {
 public:
  using InSocket = FlitTargetSocket<Router>;
  using OutSocket = FlitInitiatorSocket<Router>;
  static constexpr uint32_t kNoNeighbour = noc::kNoNeighbour;

  // Sockets exist only for present ports. `shared` (and spec.switch_routes) outlive the router.
  Router(sc_core::sc_module_name name, const RouterSpec& spec, const NocConfig& cfg,
         RouterShared* shared);
  ~Router() override;

  // The topology vertex (on a grid, the node).
  uint32_t node() const { return node_; }
  // Port codes in use are below ports().
  uint8_t ports() const { return static_cast<uint8_t>(neighbour_.size()); }
  // How a source route names this router's links (flit/source_route.hpp).
  const RouteHopCode& hop_code() const { return hop_code_; }
  bool has_port(uint8_t p) const { return p < ports() && neighbour_[p] != kNoNeighbour; }
  // Whether port p is an NI (injection/ejection) port.
  bool is_local(uint8_t p) const { return has_port(p) && neighbour_[p] == node_; }
  // The vertex port p leads to (this vertex for a local port; kNoNeighbour if absent).
  uint32_t neighbour(uint8_t p) const { return p < ports() ? neighbour_[p] : kNoNeighbour; }
  // Where the router sits in its grid.
  const GridPlace& place() const { return place_; }
  // Port p's name: a grid's y-, y+, x-, x+ and local ports (flit.hpp port_name); on a switch
  // network the local ports' names and p<code> for links.
  std::string port_label(uint8_t p) const;
  // Port p's input (flits in, credits back) and output (flits out, credits in).
  InSocket& in(uint8_t p);
  OutSocket& out(uint8_t p);

  // Flits sent on port p's output link so far (0 for an absent port).
  uint64_t flits_out(uint8_t p) const;
  uint64_t flits_out_total() const;
  // Flits that arrived on port p's input on VC vc so far (shows the dateline classes).
  uint64_t flits_in(uint8_t p, uint8_t vc) const { return flits_in_.at((p << vc_shift_) | vc); }
  // Credits this router holds for the downstream buffer of output port p, VC vc (every credit
  // usable by the current cycle), and whether a packet holds that VC. After a drain every
  // output VC is free with vc_depth credits.
  uint32_t output_credits(uint8_t p, uint8_t vc) const { return credits_now(p, vc, now_cycle()); }
  bool output_busy(uint8_t p, uint8_t vc) const { return ovcs_.at((p << vc_shift_) | vc).busy; }
  // Pipeline evaluations so far (router-cycles actually simulated).
  uint64_t evaluations() const { return evaluations_; }
  // Link ends (a port's flits out or its credits back) that call the module at the other end
  // directly (link/flit_peer.hpp) instead of through the sockets.
  uint32_t direct_calls() const;
  // Largest number of flits any input VC has held. A flit counts from the cycle it wins SA
  // upstream (its slot is reserved by the credit the sender spent then), so this bounds the
  // true occupancy from above; credit flow control keeps it <= vc_depth. That holds in
  // lockstep (the scheduler's lookahead 1); in lookahead windows the receiving router may
  // have run through the window before the sender, its pops counted before the sender's
  // pushes, and the count is then lower than lockstep's.
  uint32_t max_vc_occupancy() const { return max_occupancy_; }
  // Flits in input buffers, or in switch traversal or on the links toward them.
  uint64_t buffered_flits() const;
  // One line per busy input VC: what it holds and what it waits for (deadlock reports).
  std::string state_report() const;

  // Gives this switch an aggregation unit (see Aggregation above), before the simulation
  // starts: a virtual input port for each of unit->out_ports(). mt::InputError when the
  // router is not a switch or the ports would be more than its VC masks hold.
  void attach_aggregator(std::unique_ptr<SwitchAggregator> unit);
  const SwitchAggregator* aggregator() const { return aggregator_.get(); }

 private:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  struct Arrival {
    Flit flit;
    uint64_t usable = 0;  // first cycle the router may use it
  };
  enum class VcState : uint8_t { kIdle, kVcAlloc, kActive, kAggregating };
  struct InputVc {
    RingBuffer<Arrival> fifo{8};
    VcState state = VcState::kIdle;
    bool message = false;   // the packet at the front is an all-reduce message
    bool reserve = false;   // the next flit starts a sub-packet: needs a reservation
    uint8_t out_port = 0, out_vc = 0;
    uint8_t vc_lo = 0, vc_hi = 0;  // output VCs the route may take
    uint32_t need = 0;      // credits a free output VC needs before VA grants it
    uint32_t priority = 0;
    uint64_t ready = 0;     // first cycle the next stage may act
  };
  struct OutputVc {
    bool busy = false;      // held by a packet until its tail leaves
    uint32_t credits = 0;
  };
  // The input VCs of one output port that VA found no output VC for. They are parked: VA
  // skips them until an output VC of the port frees or, those that found a free one short of
  // credits, until cycle `retry`: the first by which the credits on their way give a free VC
  // what it needs, or the usable cycle of a credit that arrives before that. A retry in
  // between would fail again: no output VC frees, and a free one holds fewer credits than
  // it needs (a free VC's credits only grow).
  struct VaParking {
    VcMask all = 0;
    VcMask credit_short = 0;
    uint64_t retry = kNever;  // the earliest of credit_short's retry cycles
  };

  // The clocked pipeline (one call per evaluated cycle).
  void evaluate(uint64_t now);
  void before_end_of_elaboration() override;  // offers direct calls to the peers
  void end_of_elaboration() override;  // takes the sockets' bound interfaces and peers
  void route(unsigned ivc_index, uint64_t now);                              // RC
  // An idle VC has a head at its front (it arrived, or the packet ahead of it left) that RC
  // cannot take before cycle `at`.
  void idle_head(uint64_t at) { rc_next_ = std::min(rc_next_, at); }
  void route_grid(InputVc& v, Flit& head, unsigned in_port, unsigned in_vc, bool injected);
  void route_switched(InputVc& v, Flit& head, unsigned in_port, unsigned in_vc, bool injected);
  void allocate_vcs(uint64_t now, bool& progress, uint64_t& next);          // VA
  void park_va(unsigned ivc_index, unsigned port, bool credit_short);
  void unpark_va(unsigned port, VcMask m);
  void allocate_switch(uint64_t now, bool& progress, uint64_t& next);       // SA
  void grant_switch(unsigned ivc_index, uint64_t now);
  // Aggregation: the unit takes claimed flits, then sends what is due into the virtual ports.
  void aggregate(uint64_t now, bool& progress, uint64_t& next);
  // Credits arriving at an output port are taken into its output VCs when a decision needs
  // more than an output VC holds (take_port_credits), or all of them when an evaluation moves
  // nothing, to find the next wake-up (take_credits): the decisions see every credit usable by
  // their cycle, as if all were taken at the start of each evaluation, but a stream of flits
  // no longer costs a take per port and cycle.
  void take_credits(uint64_t now, uint64_t& next);
  // False, taking nothing, if no credit is on its way to port p.
  bool take_port_credits(unsigned p, uint64_t now);
  uint32_t credits_now(unsigned p, unsigned vc, uint64_t now) const;

  // TLM callbacks, tagged with the port.
  tlm::tlm_sync_enum receive_flit(int port, Flit& flit, tlm::tlm_phase& phase,
                                  sc_core::sc_time& delay);
  tlm::tlm_sync_enum receive_credit(int port, Flit& credit, tlm::tlm_phase& phase,
                                    sc_core::sc_time& delay);
  // What the callbacks do, given the cycle the flit or credit is usable from (FlitPeer).
  void accept_flit(unsigned port, const Flit& flit, uint8_t vc, uint64_t usable) override;
  void accept_credit(unsigned port, uint8_t vc, uint64_t usable) override;

  bool is_switch() const { return switch_routes_ && node_ >= switch_routes_->nodes(); }
  uint64_t now_cycle() const;
  void wake_at(uint64_t cycle);
  [[noreturn]] void fail(const std::string& what) const;
  std::string vc_report(unsigned i) const;

  uint32_t node_;
  GridPlace place_;
  const SwitchRoutes* switch_routes_;  // null on a grid
  std::vector<uint32_t> neighbour_;  // per port code; this vertex for the local ports
  RouteHopCode hop_code_;
  std::array<uint8_t, 5> step_port_;  // Step -> direction port (kMaxRouterPorts: none)
  std::vector<uint8_t> eject_port_;  // input port -> local port of a packet's exit
  NocConfig cfg_;
  RouterShared* shared_;
  uint32_t vcs_;
  unsigned vc_shift_;           // log2(vcs)
  uint32_t subpacket_need_;     // credits a sub-packet reserves (1 under wormhole)
  CycleClock clock_;
  // What a grant sends over each port: its flits forward (switch traversal + link latency)
  // and its credits back, to the interfaces the sockets are bound to. They are taken from the
  // sockets once bound, so a call does not go through sc_port's lookup each time.
  struct PortLink {
    tlm::tlm_fw_transport_if<FlitProtocol>* fw = nullptr;  // the output's receiver
    tlm::tlm_bw_transport_if<FlitProtocol>* bw = nullptr;  // the input's sender
    sc_core::sc_time link_delay, credit_delay;
    uint64_t link_cycles = 0, credit_cycles = 0;  // the same in cycles
    DelayCycles flit_in, credit_in;  // the delays flits and credits arrive with, in cycles
    // The modules at the other ends when they take direct calls (link/flit_peer.hpp); the
    // calls go through the sockets otherwise.
    FlitPeerRef next;  // the output's receiver
    FlitPeerRef prev;  // the input's sender
  };
  std::vector<PortLink> port_links_;  // per port code

  std::vector<std::unique_ptr<InSocket>> in_;
  std::vector<std::unique_ptr<OutSocket>> out_;

  // Every port code below ports() has VCs (unused codes, e.g. absent local ports, too).
  std::vector<InputVc> ivcs_;     // index port * vcs + vc
  std::vector<OutputVc> ovcs_;    // index port * vcs + vc
  // Per output port, the send cycles of its last send_slots_ grants (slot: grant count modulo
  // send_slots_, a power of two at least the most grants an output can have unsent, so every
  // older grant has been sent; see the constructor).
  std::vector<uint64_t> send_cycles_;
  uint64_t send_slots_ = 1;
  std::vector<CreditQueue> credits_in_;  // per output port: its credits on their way back
  std::vector<VaParking> va_parking_;  // per output port
  // Bit masks over input VC indices, so a cycle touches only busy VCs.
  VcMask nonempty_ = 0, vc_alloc_ = 0, active_ = 0;
  VcMask va_parked_ = 0;        // of vc_alloc_, the parked ones (VaParking)
  uint64_t rc_next_ = 0;         // no idle VC's head is usable for RC before this cycle
  PortMask va_retry_ports_ = 0;  // ports whose parked VCs have a retry cycle
  PortMask credit_ports_ = 0;  // ports with credits in flight
  PortMask local_ports_ = 0;   // the NI ports
  // Round-robin pointers of the separable allocators.
  std::vector<uint8_t> va_in_ptr_;    // per input VC, over output VCs of its port
  std::vector<uint8_t> va_out_ptr_;   // per output VC, over input VC indices
  std::vector<uint8_t> sa_in_ptr_;    // per input port, over its VCs
  std::vector<uint8_t> sa_out_ptr_;   // per output port, over input ports

  CycleEvent wake_;  // runs evaluate()
  uint64_t next_wake_ = kNever;  // cycle of the pending wake notification
  uint64_t evaluations_ = 0;
  uint32_t max_occupancy_ = 0;
  std::vector<uint64_t> flits_out_;  // granted, per output port (some not yet sent)
  std::vector<uint64_t> flits_in_;  // per input VC
  Flit credit_;  // scratch payload for credits
  // Aggregation (null and 0 unless attach_aggregator was called).
  std::unique_ptr<SwitchAggregator> aggregator_;
  VcMask aggregating_ = 0;    // input VCs whose message the unit takes
  unsigned real_ports_ = 0;   // port codes below it are the router's own; above, virtual
};

}  // namespace mt::noc
