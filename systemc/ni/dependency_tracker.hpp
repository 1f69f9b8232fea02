// The NI's dependency tracking (paper Fig. 6 (5)(6)): which messages have arrived in full, and
// whether the table's head entry still waits for one. The wait rules are
// host_sw/table/schedule_table.hpp's: a Reduce waits for the Reduce of its flow from every
// child; a Gather with a parent waits for the parent's Gather; a root Gather waits for its
// children's Reduces unless a Reduce of the same flow issued earlier at this node. A Put
// waits as a Gather does, and a Put's arrival counts as a Gather's: both are written, and
// they share the row. A message is known by (Op, flow, sender); no plan sends the same one
// twice.
//
// Hardware (rtl/dependency_tracker.sv): a scoreboard with one row per (Op, flow) holding the
// senders whose message of that flow has arrived, at most `slots` of them; the RTL raises an
// error when a row is full, and so does this model (std::runtime_error), so a run that passes
// here fits the RTL. An arrival counts for the head entry in the cycle it is recorded.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "table/schedule_table.hpp"

namespace mt::noc {

class DependencyTracker : public sc_core::sc_module {
 public:
  // `slots`: senders one (Op, flow) row holds (rtl/dependency_tracker.sv's SLOTS); `flows`:
  // the flow ids it has rows for (FLOWS).
  DependencyTracker(sc_core::sc_module_name name, uint32_t slots, uint32_t flows);

  // The host's start: nothing has arrived, no Reduce has issued.
  void reset();
  // The whole message (op, flow) from `sender` is in memory. Throws std::runtime_error when
  // the row already holds `slots` senders, or the flow has no row.
  void arrive(Op op, uint32_t flow, uint32_t sender);
  // The entry issued (a Reduce marks its flow as reduced here). Throws std::runtime_error
  // when its flow has no row.
  void issue(const TableEntry& e);
  // The first message `e` still waits for, in the order children first, then parent; false
  // when it waits for nothing.
  bool first_missing(const TableEntry& e, Op& op, uint32_t& from) const;
  bool arrived(Op op, uint32_t flow, uint32_t sender) const;
  uint32_t slots() const { return slots_; }
  // The largest flow id + 1 seen.
  uint32_t peak_flows() const { return peak_flows_; }
  // Counts reset(), arrive() and issue(): first_missing's answer for an entry stays the same
  // while this does.
  uint64_t changes() const { return changes_; }

 private:
  // Gather and Put share a row (both are written, not added).
  static uint64_t row(Op op, uint32_t flow) {
    const Op kind = writes(op) ? Op::kGather : op;
    return (uint64_t{static_cast<uint8_t>(kind)} << 32) | flow;
  }
  void check_flow(uint32_t flow, const char* what);

  uint32_t slots_, flows_, peak_flows_ = 0;
  std::unordered_map<uint64_t, std::vector<uint32_t>> rows_;  // (op, flow) -> senders
  std::vector<bool> reduced_flow_;
  uint64_t changes_ = 0;
};

}  // namespace mt::noc
