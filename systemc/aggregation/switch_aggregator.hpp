// A switch's aggregation unit (the NetReduce appendix, seed 002, Figs. 20-21; docs/ina.md):
// it takes the messages of the aggregation flows in its table (aggregation_table.hpp) out of
// the router's input VCs flit by flit, sums the children's flits of each sequence number in
// the flow's window (aggregation_window.hpp), and sends the sum on: up to the parent switch
// as a Reduce message, or, at the top of the tree, back down to every child as a Gather
// message; a Gather arriving from the parent it copies down to every child.
//
// Its place in the router (router/router.hpp, "Aggregation"): a message of a flow in the
// table that arrives over a link is claimed at route computation and leaves its input buffer
// through the unit instead of the switch allocator, at most one flit per input port a cycle,
// at the earliest when the switch allocator could have granted it, its credit going upstream
// then. The unit's results enter the router through virtual input ports, one per output
// port they leave by, each with the router's VCs (flow k of the table on VC k) and vc_depth
// flits of room, and from there take route computation, VC and switch allocation like any
// input: each leaves by a one-hop source route.
//
// Timing: a data flit is taken when its sequence number is in the window and the adder has a
// flit's add left this cycle (elements_per_cycle / 4 adds a cycle; a slot's first flit is
// copied, not added); a slot's sum is due `latency` cycles after its last flit was taken, and
// goes out, with the head of its message first, once every virtual VC it goes to has room
// (usable by the router the next cycle). A Gather from the parent is copied down the same way
// without the adder. A flit that cannot be taken stays in its input buffer: its credit does
// not go back, so a full window or a full output back-pressures the senders; nothing is
// dropped.
//
// Sharing (aggregation_table.hpp OutputSharing): under kVcPerFlow flow k of the table has VC
// k of every virtual port to itself; under kFlowOrder flow k sends on lane k mod lanes, the
// lane being the VC of its messages on the virtual port and on the link (the router holds a
// result to its virtual VC), and each lane of a virtual port carries its flows' messages in
// ascending flow id, the next flow's head only after the previous flow's tail: a flow whose
// turn has not come keeps its sums in its window (and back-pressures its children once the
// window is full), and a Gather from its parent stays in its input buffer.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "aggregation/aggregation_table.hpp"
#include "aggregation/aggregation_window.hpp"
#include "flit/flit.hpp"
#include "flit/source_route.hpp"
#include "link/flit_peer.hpp"

namespace mt::noc {

class SwitchAggregator final : public FlitPeer {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  // `hops`: the switch's route code (its results' one-hop routes). Validates the table and
  // the configuration (mt::InputError).
  // `lanes` (1..vcs): under kFlowOrder, the VCs 0..lanes-1 its results use.
  SwitchAggregator(uint32_t vertex, std::vector<AggregationEntry> entries,
                   const AggregationConfig& cfg, OutputSharing sharing, uint32_t lanes,
                   uint32_t vcs, uint32_t vc_depth, uint32_t subpacket_flits,
                   const RouteHopCode& hops);

  // The output ports the results leave by: virtual input port j of the router feeds
  // out_ports()[j].
  const std::vector<uint8_t>& out_ports() const { return out_ports_; }
  OutputSharing sharing() const { return sharing_; }
  // Whether a head flit starts a message the unit takes (a message of a flow in its table).
  bool claims(const Flit& head) const {
    return is_subpacket(head.type) && flow_index_.count(head.tree) != 0;
  }
  // Offers the front flit of input `port`, VC `vc` in cycle `now`; true when taken.
  bool take(unsigned port, unsigned vc, const Flit& flit, uint64_t now);
  // Sends what is due by `now` and fits: push(virtual port, vc, flit) for each flit, in
  // order. True when anything moved (a result sent, a window slot freed).
  template <typename Push>
  bool emit(uint64_t now, Push&& push);
  // The earliest cycle after `now` a sum becomes due (kNever: none waits for its adder).
  uint64_t next_due(uint64_t now) const;
  // Results in the unit not yet sent, and input messages still open (drain checks).
  uint64_t pending() const;
  std::string state_report() const;

  // Credits of the virtual ports' VCs, handed back by the router as it grants their flits.
  void accept_credit(unsigned port, uint8_t vc, uint64_t usable) override;
  void accept_flit(unsigned port, const Flit& flit, uint8_t vc, uint64_t usable) override;

 private:
  // One message the unit sends: to one output, flit by flit.
  struct OutStream {
    unsigned vport = 0;     // virtual port index
    uint32_t src = 0;       // the head's Src
    Op op = Op::kReduce;
    uint64_t sent = 0;      // flits sent, head included
    Flit proto;             // the head, once sent: every flit's fields but type, index, data
  };
  struct FlowState {
    FlowState(AggregationEntry e, AggregationWindow w) : entry(std::move(e)), window(w) {}
    AggregationEntry entry;
    AggregationWindow window;
    uint32_t index = 0;               // its place in the table (and in flows_)
    unsigned vc = 0;                  // the VC of its results on every virtual port
    std::vector<uint64_t> due;        // per window slot: when its sum leaves the adder
    std::vector<uint64_t> taken;      // per child: data flits taken
    std::vector<bool> child_open;     // per child: its head arrived
    bool known = false;               // a child's head gave the message's address and size
    uint64_t addr = 0, bytes = 0, payload = 0;
    std::vector<OutStream> results;   // up to the parent, or down to every child at the top
    std::vector<OutStream> copies;    // the parent's Gather down to every child
    bool down_open = false;           // the parent's Gather has begun
    uint64_t down_taken = 0;
  };
  struct InputContext {
    bool open = false;
    uint32_t flow = 0;                // index into flows_
    uint32_t child = 0;               // child index; kFromParent for the parent's Gather
  };
  static constexpr uint32_t kFromParent = std::numeric_limits<uint32_t>::max();

  bool take_head(InputContext& c, unsigned port, const Flit& flit);
  bool take_child_data(FlowState& s, InputContext& c, const Flit& flit, uint64_t now);
  bool take_parent_data(FlowState& s, const Flit& flit);
  // Builds flow s's streams (results, and copies below the top).
  void add_streams(FlowState& s);
  // Fills order_ from the flows' streams (kFlowOrder).
  void order_streams();
  // Whether every stream of `outs` may send its next flit: its VC has room for it (and for
  // the head, when not yet sent) and, under kFlowOrder, its virtual port's turn is s's.
  bool room(const FlowState& s, const std::vector<OutStream>& outs) const;
  // The head (when not yet sent) and payload flit `seq` of each stream, into pending_.
  void send(FlowState& s, std::vector<OutStream>& outs, const FlitData& data);
  Flit head_of(const FlowState& s, const OutStream& o) const;
  unsigned vport_of(uint8_t port) const;
  [[noreturn]] void fail(const std::string& what) const;

  uint32_t vertex_;
  AggregationConfig cfg_;
  OutputSharing sharing_;
  uint32_t vcs_;
  uint32_t subpacket_flits_;
  const RouteHopCode* hops_;
  std::vector<uint8_t> out_ports_;
  std::map<uint32_t, uint32_t> flow_index_;  // flow id -> index into flows_
  std::vector<FlowState> flows_;
  std::vector<InputContext> inputs_;  // per router input VC (port * vcs + vc)
  std::vector<uint32_t> room_;        // per virtual VC: flits it can still take
  // kFlowOrder: per virtual VC (a lane of a virtual port), the flows (indices) with a message
  // on it in ascending flow id, and the place in that list of the flow whose message goes now.
  std::vector<std::vector<uint32_t>> order_;
  std::vector<uint32_t> turn_;
  uint64_t adds_cycle_ = kNever;      // the cycle adds_left_ counts for
  uint32_t adds_left_ = 0;
  uint64_t next_packet_ = 0;
  // Flits of the current emit() call, handed to push in order.
  struct Out {
    unsigned vport, vc;
    Flit flit;
  };
  std::vector<Out> pending_;
};

template <typename Push>
bool SwitchAggregator::emit(uint64_t now, Push&& push) {
  bool moved = false;
  for (FlowState& s : flows_) {
    while (s.window.front_complete() && s.due[s.window.base() % s.due.size()] <= now &&
           room(s, s.results)) {
      send(s, s.results, s.window.pop_front());
      moved = true;
    }
  }
  for (const Out& o : pending_) push(o.vport, o.vc, o.flit);
  pending_.clear();
  return moved;
}

}  // namespace mt::noc
