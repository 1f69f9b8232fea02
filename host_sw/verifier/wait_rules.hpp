// The NI's wait rules (table/schedule_table.hpp) checked against the messages that arrive.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "plan/plan.hpp"
#include "plan/plan_index.hpp"
#include "table/schedule_table.hpp"
#include "verifier/error_list.hpp"

namespace mt {

// For every node: each wait in its table names a message that really arrives before the
// entry's step (else the NI would wait forever), and each send waits, in its own entry or an
// earlier one, for every earlier arrival that overlaps the bytes it sends (else it could send
// before its data is complete). `tables` null: check the tables compile_tables would build.
// Not checked: that a message the plan delivers at a later step cannot reach the node before
// its earlier send of the same bytes. Tree-shaped plans rule that out by causality (a parent's
// data depends on the child's send), which every algorithm here relies on. In a plan with
// aggregation trees (Plan::aggregations) a Reduce into a tree never reaches the node it names
// (a switch takes it), and a tree's sum, a Gather, is awaited in its own step by an entry
// that only waits for it (table/schedule_table.hpp, compile_mixed).
void check_wait_rules(const Plan& plan, const PlanIndex& index, const TableSet* tables,
                      ErrorList& errors);

// The same rules a table at a time, for tables that are checked as they are compiled.
class WaitRules {
 public:
  WaitRules(const Plan& plan, const PlanIndex& index);
  // Node v's table (whose entries name bytes from base_addr on) against v's arrivals.
  void check(uint32_t v, const std::vector<TableEntry>& entries, uint64_t base_addr,
             ErrorList& errors);
  // The table compile_tables would build for v, with every send's children in one entry.
  void check_compiled(uint32_t v, ErrorList& errors);

 private:
  void check_entries(uint32_t v, const std::vector<TableEntry>& entries, uint64_t base_addr,
                     const ArrivalsBy& by_flow, ErrorList& errors);
  void await(uint32_t v, size_t i, const TableEntry& e, uint32_t from, Op op,
             const ArrivalsBy& by_flow, ErrorList& errors);
  void check_sent_bytes(uint32_t v, const TableEntry& e, int64_t rid, const ArrivalsBy& by_range,
                        ErrorList& errors) const;
  int64_t find_range(uint32_t flow, uint64_t offset, uint64_t size) const;

  const Plan& plan_;
  std::vector<std::vector<uint32_t>> overlaps_;  // for each range, those sharing a byte
  std::unordered_multimap<uint64_t, uint32_t> range_id_;  // ranges by (offset, size)
  std::vector<uint8_t> flow_state_;
  std::vector<bool> covered_;  // arrivals some entry waits for
  std::vector<bool> switch_flow_;  // flows with an aggregation tree (Plan::aggregations)
  bool switch_flow(uint32_t f) const { return f < switch_flow_.size() && switch_flow_[f]; }
  NodeTableCompiler compiler_;
  ArrivalsBy flow_index_, range_index_;
  bool ranges_are_flows_ = true;  // every transfer carries its flow's chunk (MultiTree)
};

}  // namespace mt
