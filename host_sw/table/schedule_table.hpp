// Per-node schedule tables (paper §IV-A, Fig. 5-6), compiled from a verified plan.
//
// Entry semantics, as the NI executes them (the table is a queue; only its head can issue,
// and only when Step equals the timestep counter):
//   Reduce, parent p:   waits for Reduce(flow) from every node in Children, adds them into the
//                       local partial sum, sends the partial sum of the chunk to p.
//   Reduce, parent nil: the same wait and aggregation, sends nothing (a root's, or more
//                       children than one entry holds).
//   Gather, parent p:   waits for a Gather or Put (flow) from p, writes it, sends it to Children.
//   Gather, parent nil: the root of the flow sends the full sum to Children. If a Reduce of the
//                       same flow came earlier in this table it waits for nothing more;
//                       otherwise it waits for Reduce(flow) from every node in Children (Fig. 5).
//   Put, parent p / nil: as a Gather, but what it sends is a partial sum, which the receiver
//                       writes without adding its own value (plan/plan.hpp). The NI receives
//                       Gather and Put alike (it writes the block) and keeps their arrivals in
//                       one row per flow, so a wait for "a Gather or Put from p" is one look-up.
//                       With no children a Put only waits (a terminal Put): the compiler puts
//                       one before the first send of bytes that a Put arrival, not forwarded,
//                       brought.
//   NOP:                holds injection for the step time of a Size-byte per-step chunk.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "plan/plan.hpp"
#include "plan/plan_index.hpp"

namespace mt {

constexpr uint32_t kNil = std::numeric_limits<uint32_t>::max();

struct TableEntry {
  Op op = Op::kNop;
  uint32_t flow = 0;
  uint32_t parent = kNil;
  std::vector<uint32_t> children;  // at most TableSet::children_slots
  uint32_t step = 0;
  uint64_t start_addr = 0;
  uint64_t size = 0;

  bool operator==(const TableEntry& o) const {
    return op == o.op && flow == o.flow && parent == o.parent && children == o.children &&
           step == o.step && start_addr == o.start_addr && size == o.size;
  }
};

struct ScheduleTable {
  uint32_t node = 0;
  std::vector<TableEntry> entries;
};

// Everything the NIs of one all-reduce are loaded with.
struct TableSet {
  std::string topology;
  std::string algorithm;
  uint32_t nodes = 0;
  uint32_t flows = 0;
  uint32_t steps_per_phase = 0;
  uint32_t children_slots = 4;  // K: NI bandwidth / link bandwidth
  uint64_t bytes = 0;
  DType dtype = DType::kFp32;
  uint64_t base_addr = 0;       // Start Addr of byte 0 of the all-reduce buffer
  std::vector<ScheduleTable> tables;  // tables[n].node == n
};

struct TableOptions {
  uint32_t children_slots = 4;
  uint64_t base_addr = 0;
};

// Compiles a plan into tables: one Reduce per flow a node sends up, one Gather (or Put) per
// flow and step a node sends down, terminal Reduces where the wait set is not the Gather's children,
// NOPs for the steps a node has nothing to send. Entries are ordered by step; within a step
// in plan order. Throws InputError if a send has more destinations than K slots.
TableSet compile_tables(const Plan& plan, const TableOptions& opt);

// One node's table without NOPs (what compile_tables builds before filling step gaps); the
// verifier checks these against the node's arrivals. Reuses its buffers from node to node,
// so large plans compile without an allocation per entry.
class NodeTableCompiler {
 public:
  NodeTableCompiler(const Plan& plan, const PlanIndex& index, const TableOptions& opt);
  // The node's entries; valid until the next call.
  const std::vector<TableEntry>& compile(uint32_t node);
  // The node's arrivals by flow, as compile() indexed them.
  const ArrivalsBy& arrivals() const { return arrivals_; }

 private:
  // In-network aggregation (Plan::aggregations): the node's Reduce into the tree, parent the
  // node it names, and its Gather of the sum from that node, no children (docs/ina.md).
  const std::vector<TableEntry>& compile_aggregated(uint32_t node);
  // A mixed plan (ring transfers between nodes beside aggregation trees: hierarchical
  // NetReduce; mixed_table.cpp): the node's sends as compile() makes them, its Reduce into a
  // tree after a terminal Reduce for each earlier arrival of its bytes that no entry awaits
  // yet (the ring's last reduce-scatter step), and its Gather of the tree's sum from the node
  // it names, no children; the tree Gathers the plan has the named node send are the
  // switches', not its table's.
  const std::vector<TableEntry>& compile_mixed(uint32_t node);
  void mixed_reduce(const Transfer& t);
  void mixed_gather(const uint32_t*& it, const uint32_t* end);
  void await_before_tree(uint32_t node, const Transfer& t);
  // The entry of a transfer into or out of an aggregation tree: a Reduce to the node it names,
  // or a Gather from it, no children.
  void add_tree_entry(const Transfer& t);
  bool switch_flow(uint32_t flow) const { return flow < switch_flow_.size() && switch_flow_[flow]; }
  TableEntry& next_entry();
  void append_split(const TableEntry& proto, const std::vector<uint32_t>& nodes, size_t first,
                    size_t last);
  void sources(uint32_t flow, bool written, uint32_t before, std::vector<uint32_t>& out) const;
  void find_unforwarded_puts(uint32_t node);
  void await_puts(const Transfer& send, uint64_t start_addr, uint64_t size);

  const Plan& plan_;
  const PlanIndex& index_;
  const TableOptions opt_;
  ArrivalsBy arrivals_;
  std::vector<TableEntry> entries_;  // slots [0, used_) hold the node's table
  size_t used_ = 0;
  std::vector<bool> reduced_;        // a Reduce of the flow is in this node's table
  bool has_puts_ = false;            // the plan has Puts
  std::vector<bool> switch_flow_;    // flows with an aggregation tree
  bool mixed_ = false;               // and flows without one (compile_mixed)
  std::vector<uint32_t> events_;     // compile_mixed: the transfers of the node's entries
  std::vector<uint32_t> puts_;       // the node's Put arrivals no later entry waits for yet
  std::vector<std::pair<uint32_t, uint32_t>> written_;
  std::vector<uint32_t> children_, dsts_, from_, sorted_a_, sorted_b_;
};

// The tables compile_tables builds, one node at a time in one table's memory: for output that
// is written table by table (a plan on torus:64x64 has 3.4e7 entries).
class TableStream {
 public:
  TableStream(const Plan& plan, const TableOptions& opt);
  // With the plan's index already built (PlanIndex(plan)).
  TableStream(const Plan& plan, const TableOptions& opt, PlanIndex index);
  // The set's fields, without tables.
  const TableSet& header() const { return header_; }
  const PlanIndex& index() const { return index_; }
  // The node's table, NOPs included; valid until the next call.
  const ScheduleTable& table(uint32_t node);

 private:
  TableSet header_;
  PlanIndex index_;
  std::vector<uint64_t> step_bytes_;  // a NOP's size in each step
  NodeTableCompiler compiler_;
  ScheduleTable table_;
};

// The transfers the tables send, as a plan (for verifying tables read back from images).
Plan plan_from_tables(const TableSet& tables);

// The rules of a whole table that no entry shows alone (the image decoder checks each entry,
// as the NIs' loaders do, and an NI would refuse these only while it runs):
//   - steps never decrease: only the head issues, in its step, and the timestep counter only
//     advances, so an entry after one of a later step would be for a step already past (the
//     SystemC NI's "table entry I is for step S, after step T", the RTL's ErrStep);
//   - no entry names the table's own node as its parent or a child: the NI sends to and waits
//     for other nodes (a send to itself is the RTL's ErrSend and the SystemC NI's "a table
//     entry sends to node N"; a wait for itself never ends).
// The first entry that breaks one, as "node N, table entry I: ..." naming the rule; empty
// when none does. read_image_set, ImageSetWriter and the verifier refuse such a table.
std::string table_rule_error(const ScheduleTable& table);

}  // namespace mt
