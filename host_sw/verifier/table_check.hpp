// Tables checked one at a time as they are compiled, for output written table by table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "plan/plan_index.hpp"
#include "table/schedule_table.hpp"
#include "verifier/error_list.hpp"
#include "verifier/wait_rules.hpp"

namespace mt {

// Checks each node's table against the plan it was compiled from, which verify_plan proved:
// the table sends exactly the node's transfers of the plan (op, flow, destination, step and
// bytes, in the order of PlanIndex::sends), it keeps the rules of a whole table
// (table_rule_error), and the NI's wait rules hold for its entries. Over every node that is
// what verify_tables proves of the whole set (its plan_from_tables is then the proved plan),
// in the memory of one table. For an in-network aggregation plan (Plan::aggregations, which
// verify_plan proves instead of the wait rules) a table must hold exactly the node's Reduce
// into the tree and its Gather back, parent the node they name, no children, in step order;
// in a mixed plan (aggregation_check.hpp, mixed_aggregation) the checks above, less the tree
// Gathers the plan has a node send, which the switches send.
class TableChecker {
 public:
  TableChecker(const Plan& plan, const PlanIndex& index, uint64_t base_addr, size_t max_errors);
  void check(const ScheduleTable& table);
  const std::vector<std::string>& errors() const { return errors_; }
  bool ok() const { return errors_.empty(); }

 private:
  void check_sends(const ScheduleTable& table);
  void check_aggregated(const ScheduleTable& table);

  const Plan& plan_;
  const PlanIndex& index_;
  uint64_t base_addr_;
  std::vector<std::string> errors_;
  ErrorList list_;
  WaitRules wait_rules_;
  std::vector<bool> switch_flow_;  // flows with an aggregation tree
  bool switch_flow(uint32_t f) const { return f < switch_flow_.size() && switch_flow_[f]; }
};

}  // namespace mt
