// Plan verifier: run before any plan or table set is used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "table/schedule_table.hpp"
#include "topology/topology.hpp"

namespace mt {

struct VerifyReport {
  std::vector<std::string> errors;  // empty when the plan is correct
  uint32_t steps_per_phase = 0;
  uint32_t step_bound = 0;          // max(diameter, ceil((N-1)/min node degree))
  uint32_t diameter = 0;
  uint64_t transfers = 0;
  uint32_t max_step_link_load = 0;  // most transfers on one directed link in one step
  // Bytes each directed link carries over the whole plan; an aggregation tree's flow on the
  // tree's links, switch-to-switch hops included (tree_links.hpp).
  std::vector<uint64_t> link_bytes;
  uint64_t max_link_bytes = 0;
  // Put arrivals that share bytes with a Reduce reaching the same node at a later step from
  // another node. The sums above are proven in step order; the NI applies each message as it
  // arrives, so a Put that lands after such a Reduce overwrites what it added. Nothing in the
  // tables orders the two but the NIs keeping step (mtsim checks every run's sums).
  uint64_t unordered_puts = 0;

  bool ok() const { return errors.empty(); }
};

// Proves a plan: structure (ids, steps, ranges, adjacency), contention (when the plan promises
// it), dependencies (every transfer a sender needs comes from an earlier step), and by
// symbolic execution that every node ends with every chunk summed over all nodes exactly once.
// Errors name the node, flow and step. Stops collecting after `max_errors`.
VerifyReport verify_plan(const Plan& plan, const Topology& topo, size_t max_errors = 20);

// Proves tables: each keeps the rules of a whole table (table_rule_error: steps never
// decrease, no entry names its own node), the plan they send verifies, and the NI's wait
// rules (schedule_table.hpp) make every send wait for all the data it carries. Contention freedom is not checked (tables
// carry neither the promise nor routes; verify_plan checks it on the plan), only reported in
// max_step_link_load. Tables of ina (in-network aggregation) are refused with an error: their
// sums are in the switches' tables, which a table set does not hold.
VerifyReport verify_tables(const TableSet& tables, const Topology& topo, size_t max_errors = 20);

// Throws InputError with the first error(s) when the plan does not verify; the report when
// it does. `index`: the plan's PlanIndex, when the caller builds one anyway (built otherwise).
VerifyReport require_valid(const Plan& plan, const Topology& topo,
                           const PlanIndex* index = nullptr);

}  // namespace mt
