// The NI's wait rules (table/schedule_table.hpp) checked against the messages that arrive.
#pragma once

#include <string>
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
// data depends on the child's send), which every algorithm here relies on.
void check_wait_rules(const Plan& plan, const PlanIndex& index, const TableSet* tables,
                      ErrorList& errors);

}  // namespace mt
