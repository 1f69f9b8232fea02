// A switch's aggregation table (docs/ina.md): one entry per aggregation flow that passes
// through the switch, loaded before the run as an NI's schedule table is, and the parameters
// of its aggregation unit.
//
// An entry names the flow (a head flit's Tree ID), the input ports its children's messages
// arrive on (each child's Reduce of the flow comes over its own link; the sum goes back down
// the same links), the Src each child's copy of the result carries (for a node: the parent
// its NI's table waits for), and the output port toward the parent switch, or none at the
// top of the tree, which sends the full sum back down to every child.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace mt::noc {

constexpr uint8_t kNoAggregationParent = 0xff;

struct AggregationEntry {
  uint32_t flow = 0;
  std::vector<uint8_t> child_ports;    // input ports of the children's Reduces
  std::vector<uint32_t> child_labels;  // per child: the Src of the sum sent back to it
  uint8_t parent_port = kNoAggregationParent;  // output port toward the parent switch
};

// The aggregation unit's parameters: its window and adder (the NI reduction unit's default
// width and latency; docs/ina.md).
struct AggregationConfig {
  uint32_t window = 256;            // sequence numbers (flits) in flight per flow
  uint32_t elements_per_cycle = 16;  // adder width: 4 flits of 4 elements a cycle
  uint32_t latency = 4;             // adder pipeline depth, cycles
  DType dtype = DType::kFp32;

  // mt::InputError naming the bad field (a window of 0, an adder narrower than a flit).
  void validate() const;
};

// How the flows of a unit share its outputs (docs/ina.md, "Flows and VCs").
enum class OutputSharing : uint8_t {
  // Flow k of the table sends on VC k of every output it uses, at any time: at most as many
  // flows as VCs.
  kVcPerFlow,
  // Flow k sends on VC k mod vcs, and every output carries its flows' messages one after
  // another in ascending flow id, each whole before the next begins: any number of flows.
  kFlowOrder,
};

// The sharing a network's units use: kVcPerFlow when no switch has more than `vcs` flows
// (`most_flows`), kFlowOrder otherwise (every unit alike: the deadlock-freedom argument of
// docs/ina.md needs every output of every switch in flow order).
OutputSharing output_sharing_for(size_t most_flows, uint32_t vcs);

// mt::InputError naming switch `vertex` and the entry when an entry has no children, a child
// label list of another length, a port twice, a flow twice, or, under kVcPerFlow, more flows
// than `vcs` (each flow's results leave on a VC of their own).
void validate_aggregation_table(uint32_t vertex, const std::vector<AggregationEntry>& entries,
                                uint32_t vcs, OutputSharing sharing);

}  // namespace mt::noc
