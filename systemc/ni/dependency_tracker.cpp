#include "ni/dependency_tracker.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ni/ni_config.hpp"

namespace mt::noc {

DependencyTracker::DependencyTracker(sc_core::sc_module_name name, uint32_t slots,
                                     uint32_t flows)
    : sc_module(name), slots_(slots), flows_(flows) {}

void DependencyTracker::check_flow(uint32_t flow, const char* what) {
  peak_flows_ = std::max(peak_flows_, flow + 1);
  if (flow >= flows_) {
    throw NiRunError(fmt::format("{}: {} of flow {}; the RTL scoreboard has rows for flows 0 "
                                 "to {} (NiConfig::flows)", name(), what, flow, flows_ - 1));
  }
}

void DependencyTracker::reset() {
  ++changes_;
  rows_.clear();
  reduced_flow_.clear();
}

void DependencyTracker::arrive(Op op, uint32_t flow, uint32_t sender) {
  ++changes_;
  check_flow(flow, "a message");
  std::vector<uint32_t>& senders = rows_[row(op, flow)];
  if (senders.size() >= slots_) {
    throw NiRunError(fmt::format(
        "{}: the {} of flow {} from node {} is the {}th message of its (op, flow) here; the "
        "RTL scoreboard holds {} (NiConfig::arrival_slots)",
        name(), op_name(op), flow, sender, senders.size() + 1, slots_));
  }
  senders.push_back(sender);
}

void DependencyTracker::issue(const TableEntry& e) {
  ++changes_;
  if (e.op == Op::kNop) return;
  check_flow(e.flow, "an entry");
  if (e.op != Op::kReduce) return;
  if (e.flow >= reduced_flow_.size()) reduced_flow_.resize(e.flow + 1, false);
  reduced_flow_[e.flow] = true;
}

bool DependencyTracker::arrived(Op op, uint32_t flow, uint32_t sender) const {
  const auto it = rows_.find(row(op, flow));
  return it != rows_.end() &&
         std::find(it->second.begin(), it->second.end(), sender) != it->second.end();
}

bool DependencyTracker::first_missing(const TableEntry& e, Op& op, uint32_t& from) const {
  auto missing = [&](Op o, uint32_t node) {
    if (arrived(o, e.flow, node)) return false;
    op = o;
    from = node;
    return true;
  };
  if (writes(e.op) && e.parent != kNil) return missing(Op::kGather, e.parent);  // the row of both
  const bool reduced = e.flow < reduced_flow_.size() && reduced_flow_[e.flow];
  if (e.op == Op::kReduce || (writes(e.op) && !reduced)) {
    for (uint32_t c : e.children) {
      if (missing(Op::kReduce, c)) return true;
    }
  }
  return false;
}

}  // namespace mt::noc
