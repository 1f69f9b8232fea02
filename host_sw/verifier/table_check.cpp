#include "verifier/table_check.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "verifier/aggregation_check.hpp"

namespace mt {
namespace {

std::string send_text(Op op, uint32_t flow, uint32_t dst, uint32_t step, uint64_t addr,
                      uint64_t size) {
  return fmt::format("{} of flow {} to node {} in step {}, {} bytes at {:#x}", op_name(op), flow,
                     dst, step, size, addr);
}

}  // namespace

TableChecker::TableChecker(const Plan& plan, const PlanIndex& index, uint64_t base_addr,
                           size_t max_errors)
    : plan_(plan), index_(index), base_addr_(base_addr), list_(errors_, max_errors),
      wait_rules_(plan, index), switch_flow_(plan.flows.size(), false) {
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.flow < switch_flow_.size()) switch_flow_[a.flow] = true;
  }
}

void TableChecker::check(const ScheduleTable& table) {
  if (list_.full()) return;
  if (!plan_.aggregations.empty() && !mixed_aggregation(plan_)) {
    check_aggregated(table);
    return;
  }
  check_sends(table);
  const std::string rule = table_rule_error(table);
  if (!rule.empty()) list_.add(rule);
  wait_rules_.check(table.node, table.entries, base_addr_, list_);
}

// The table's sends, read as plan_from_tables reads them (a Reduce with a parent sends to it,
// a Gather to each child; NOPs and terminal Reduces send nothing), one for one against the
// plan's sends of the node.
void TableChecker::check_sends(const ScheduleTable& table) {
  const PlanIndex::Span sends = index_.sends(table.node);
  const uint32_t* next = sends.begin();
  // A tree's Gather that the plan has a node send is the switches' (mixed plans).
  auto skip_switch_gathers = [&] {
    while (next != sends.end() && plan_.transfers[*next].op == Op::kGather &&
           switch_flow(plan_.transfers[*next].flow)) {
      ++next;
    }
  };
  auto expect = [&](size_t i, const TableEntry& e, uint32_t dst) {
    skip_switch_gathers();
    auto got = [&] { return send_text(e.op, e.flow, dst, e.step, e.start_addr, e.size); };
    if (next == sends.end()) {
      list_.add(fmt::format("node {}, table entry {}: sends {}, which the plan does not",
                            table.node, i, got()));
      return;
    }
    const Transfer& t = plan_.transfers[*next++];
    const ByteRange& r = plan_.ranges[t.range];
    if (t.op != e.op || t.flow != e.flow || t.dst != dst || t.step != e.step ||
        base_addr_ + r.offset != e.start_addr || r.size != e.size) {
      list_.add(fmt::format("node {}, table entry {}: sends {}, where the plan sends {}",
                            table.node, i, got(),
                            send_text(t.op, t.flow, t.dst, t.step, base_addr_ + r.offset, r.size)));
    }
  };
  for (size_t i = 0; i < table.entries.size() && !list_.full(); ++i) {
    const TableEntry& e = table.entries[i];
    if (e.op == Op::kReduce && e.parent != kNil) expect(i, e, e.parent);
    if (writes(e.op)) {
      for (uint32_t c : e.children) expect(i, e, c);
    }
  }
  skip_switch_gathers();
  if (next != sends.end()) {
    const Transfer& t = plan_.transfers[*next];
    list_.add(fmt::format("node {}: its table does not send the plan's {}", table.node,
                          send_text(t.op, t.flow, t.dst, t.step,
                                    base_addr_ + plan_.ranges[t.range].offset,
                                    plan_.ranges[t.range].size)));
  }
}

void TableChecker::check_aggregated(const ScheduleTable& table) {
  std::vector<TableEntry> want;
  for (const Transfer& t : plan_.transfers) {
    if ((t.op == Op::kReduce ? t.src : t.dst) != table.node) continue;
    TableEntry e;
    e.op = t.op;
    e.flow = t.flow;
    e.parent = t.op == Op::kReduce ? t.dst : t.src;
    e.step = t.step;
    e.start_addr = base_addr_ + plan_.ranges[t.range].offset;
    e.size = plan_.ranges[t.range].size;
    want.push_back(e);
  }
  std::stable_sort(want.begin(), want.end(),
                   [](const TableEntry& a, const TableEntry& b) { return a.step < b.step; });
  if (want != table.entries) {
    list_.add(fmt::format("node {}: its table is not the {} entries of its Reduce into the "
                          "aggregation tree and its Gather back", table.node, want.size()));
  }
  const std::string rule = table_rule_error(table);
  if (!rule.empty()) list_.add(rule);
}

}  // namespace mt
