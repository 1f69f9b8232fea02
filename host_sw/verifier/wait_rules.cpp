#include "verifier/wait_rules.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace mt {
namespace {

// For each range, the ranges that share a byte with it (itself included).
std::vector<std::vector<uint32_t>> overlapping_ranges(const std::vector<ByteRange>& ranges) {
  std::vector<uint32_t> order(ranges.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return ranges[a].offset < ranges[b].offset; });
  uint64_t longest = 0;
  for (const ByteRange& r : ranges) longest = std::max(longest, r.size);
  std::vector<std::vector<uint32_t>> out(ranges.size());
  for (uint32_t r = 0; r < ranges.size(); ++r) {
    const ByteRange& a = ranges[r];
    // Candidates start before a ends and no earlier than a.offset - longest.
    auto hi = std::lower_bound(order.begin(), order.end(), a.end(),
                               [&](uint32_t i, uint64_t v) { return ranges[i].offset < v; });
    for (auto it = hi; it != order.begin();) {
      const ByteRange& b = ranges[*--it];
      if (b.offset + longest <= a.offset) break;
      if (b.end() > a.offset && b.size > 0 && a.size > 0) out[r].push_back(*it);
    }
  }
  return out;
}

uint64_t range_key(uint64_t offset, uint64_t size) {
  return offset * 0x9E3779B97F4A7C15ull ^ size;
}

TableOptions unbounded_children() {
  TableOptions o;
  o.children_slots = std::numeric_limits<uint32_t>::max();
  return o;
}

}  // namespace

WaitRules::WaitRules(const Plan& plan, const PlanIndex& index)
    : plan_(plan), overlaps_(overlapping_ranges(plan.ranges)),
      flow_state_(plan.flows.size(), 0), covered_(plan.transfers.size(), false),
      switch_flow_(plan.flows.size(), false),
      compiler_(plan, index, unbounded_children()),
      flow_index_(plan, index, ArrivalsBy::Key::kFlow),
      range_index_(plan, index, ArrivalsBy::Key::kRange) {
  // Entries name their bytes by address and size; find the plan range that matches.
  for (uint32_t i = 0; i < plan.ranges.size(); ++i) {
    range_id_.emplace(range_key(plan.ranges[i].offset, plan.ranges[i].size), i);
  }
  for (const Transfer& t : plan.transfers) ranges_are_flows_ = ranges_are_flows_ && t.range == t.flow;
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.flow < switch_flow_.size()) switch_flow_[a.flow] = true;
  }
}

// Ranges of the same bytes are interchangeable here (each overlaps what the other does), so
// the flow's own chunk, where it is those bytes (MultiTree), saves the hash look-up.
int64_t WaitRules::find_range(uint32_t flow, uint64_t offset, uint64_t size) const {
  if (flow < plan_.ranges.size() && plan_.ranges[flow].offset == offset &&
      plan_.ranges[flow].size == size) {
    return flow;
  }
  auto [lo, hi] = range_id_.equal_range(range_key(offset, size));
  for (auto it = lo; it != hi; ++it) {
    const ByteRange& b = plan_.ranges[it->second];
    if (b.offset == offset && b.size == size) return it->second;
  }
  return -1;
}

void WaitRules::check(uint32_t v, const std::vector<TableEntry>& entries, uint64_t base_addr,
                      ErrorList& errors) {
  flow_index_.load(v);
  check_entries(v, entries, base_addr, flow_index_, errors);
}

void WaitRules::check_compiled(uint32_t v, ErrorList& errors) {
  const std::vector<TableEntry>& entries = compiler_.compile(v);
  check_entries(v, entries, 0, compiler_.arrivals(), errors);
}

// Marks the arrivals entry i waits for; a wait nothing answers would hang the NI.
void WaitRules::await(uint32_t v, size_t i, const TableEntry& e, uint32_t from, Op op,
                      const ArrivalsBy& by_flow, ErrorList& errors) {
  auto at = [&] { return fmt::format("node {}, flow {}, step {}", v, e.flow, e.step); };
  bool found = false;
  // Gather and Put arrivals share the NI's row: a wait for one is answered by either.
  const bool written = writes(op);
  // The sum of an aggregation tree comes back in its own step, to an entry of that step that
  // only waits for it (table/schedule_table.hpp, compile_mixed).
  const uint32_t last = e.step + (switch_flow(e.flow) && written && e.children.empty() ? 1 : 0);
  for (const ArrivalsBy::Arrival& t : by_flow.of(e.flow)) {
    if (writes(t.op) != written || t.op == Op::kNop || t.step >= last) continue;
    if (t.src == from) {
      covered_[t.id] = true;
      found = true;
    } else if (written) {
      errors.add(fmt::format("{}: receives the {} of flow {} from both node {} and node {}",
                             at(), op_name(t.op), e.flow, from, t.src));
    }
  }
  if (!found) {
    errors.add(fmt::format("{}: table entry {} waits for a {} from node {} that no node sends it "
                           "before step {}", at(), i, written ? "gather or put" : op_name(op),
                           from, e.step));
  }
}

// Every earlier arrival that overlaps the bytes sent (range rid) must have been waited for.
void WaitRules::check_sent_bytes(uint32_t v, const TableEntry& e, int64_t rid,
                                 const ArrivalsBy& by_range, ErrorList& errors) const {
  for (uint32_t r : overlaps_[static_cast<size_t>(rid)]) {
    for (const ArrivalsBy::Arrival& t : by_range.of(r)) {
      if (t.step >= e.step || covered_[t.id]) continue;
      // A Reduce into an aggregation tree never reaches the node it names: a switch takes it.
      if (t.op == Op::kReduce && switch_flow(t.flow)) continue;
      const ByteRange& b = plan_.ranges[static_cast<size_t>(rid)];
      errors.add(fmt::format("node {}, flow {}, step {}: sends bytes [{}, {}) before waiting for "
                             "the {} of flow {} from node {} (step {}); no entry up to this one "
                             "waits for it", v, e.flow, e.step, b.offset, b.end(), op_name(t.op),
                             t.flow, t.src, t.step));
      break;
    }
  }
}

void WaitRules::check_entries(uint32_t v, const std::vector<TableEntry>& entries,
                              uint64_t base_addr, const ArrivalsBy& by_flow, ErrorList& errors) {
  const bool compiled = &by_flow == &compiler_.arrivals();  // check_compiled's own table
  if (!ranges_are_flows_) range_index_.load(v);
  const ArrivalsBy& by_range = ranges_are_flows_ ? by_flow : range_index_;
  // Per flow: 1 = a Reduce of it came earlier in this node's table, 2 = and was sent up.
  std::fill(flow_state_.begin(), flow_state_.end(), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    const TableEntry& e = entries[i];
    if (e.op == Op::kNop) continue;
    if (e.op == Op::kReduce) {
      for (uint32_t c : e.children) await(v, i, e, c, Op::kReduce, by_flow, errors);
      if (e.parent == kNil) {  // terminal: waits, sends nothing
        flow_state_.at(e.flow) = std::max<uint8_t>(flow_state_.at(e.flow), 1);
        continue;
      }
      if (flow_state_.at(e.flow) == 2) {
        errors.add(fmt::format("node {}, flow {}, step {}: sends its Reduce of flow {} a second "
                               "time", v, e.flow, e.step, e.flow));
      }
      flow_state_.at(e.flow) = 2;
    } else if (e.parent != kNil) {
      await(v, i, e, e.parent, Op::kGather, by_flow, errors);
    } else if (flow_state_.at(e.flow) == 0) {
      for (uint32_t c : e.children) await(v, i, e, c, Op::kReduce, by_flow, errors);
    }
    if (writes(e.op) && e.children.empty()) continue;  // a terminal Put: waits, sends nothing
    // Compiled entries of MultiTree carry their flow's range; others are found by address
    // (plan_from_tables registers every range a table sends).
    const int64_t rid = compiled && ranges_are_flows_
                            ? e.flow
                            : find_range(e.flow, e.start_addr - base_addr, e.size);
    if (rid >= 0) check_sent_bytes(v, e, rid, by_range, errors);
  }
}

void check_wait_rules(const Plan& plan, const PlanIndex& index, const TableSet* tables,
                      ErrorList& errors) {
  WaitRules rules(plan, index);
  for (uint32_t v = 0; v < plan.nodes && !errors.full(); ++v) {
    if (tables) {
      rules.check(v, tables->tables.at(v).entries, tables->base_addr, errors);
    } else {
      rules.check_compiled(v, errors);
    }
  }
}

}  // namespace mt
