#include "verifier/wait_rules.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

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

}  // namespace

void check_wait_rules(const Plan& plan, const PlanIndex& index, const TableSet* tables,
                      ErrorList& errors) {
  const auto overlaps = overlapping_ranges(plan.ranges);
  // Entries name their bytes by address and size; find the plan range that matches.
  auto key = [](uint64_t offset, uint64_t size) { return offset * 0x9E3779B97F4A7C15ull ^ size; };
  std::unordered_multimap<uint64_t, uint32_t> range_id;
  for (uint32_t i = 0; i < plan.ranges.size(); ++i) {
    range_id.emplace(key(plan.ranges[i].offset, plan.ranges[i].size), i);
  }
  auto find_range = [&](uint64_t offset, uint64_t size) -> int64_t {
    auto [lo, hi] = range_id.equal_range(key(offset, size));
    for (auto it = lo; it != hi; ++it) {
      const ByteRange& b = plan.ranges[it->second];
      if (b.offset == offset && b.size == size) return it->second;
    }
    return -1;
  };
  // Per flow: 1 = a Reduce of it came earlier in this node's table, 2 = and was sent up.
  std::vector<uint8_t> flow_state(plan.flows.size(), 0);
  const uint64_t base = tables ? tables->base_addr : 0;
  TableOptions unbounded;
  unbounded.children_slots = std::numeric_limits<uint32_t>::max();
  std::vector<bool> covered(plan.transfers.size(), false);
  NodeTableCompiler compiler(plan, index, unbounded);
  ArrivalsBy flow_index(plan, index, ArrivalsBy::Key::kFlow);
  ArrivalsBy range_index(plan, index, ArrivalsBy::Key::kRange);
  // When every transfer carries its own flow's chunk (MultiTree), ranges are flows.
  bool ranges_are_flows = true;
  for (const Transfer& t : plan.transfers) ranges_are_flows = ranges_are_flows && t.range == t.flow;

  for (uint32_t v = 0; v < plan.nodes && !errors.full(); ++v) {
    const std::vector<TableEntry>& entries =
        tables ? tables->tables.at(v).entries : compiler.compile(v);
    if (tables) flow_index.load(v);
    const ArrivalsBy& by_flow = tables ? flow_index : compiler.arrivals();
    if (!ranges_are_flows) range_index.load(v);
    const ArrivalsBy& by_range = ranges_are_flows ? by_flow : range_index;
    std::fill(flow_state.begin(), flow_state.end(), 0);
    for (size_t i = 0; i < entries.size(); ++i) {
      const TableEntry& e = entries[i];
      if (e.op == Op::kNop) continue;
      auto at = [&] { return fmt::format("node {}, flow {}, step {}", v, e.flow, e.step); };
      // Marks the arrivals this entry waits for; a wait nothing answers would hang the NI.
      auto await = [&](uint32_t from, Op op) {
        bool found = false;
        for (const ArrivalsBy::Arrival& t : by_flow.of(e.flow)) {
          if (t.op != op || t.step >= e.step) continue;
          if (t.src == from) {
            covered[t.id] = true;
            found = true;
          } else if (op == Op::kGather) {
            errors.add(fmt::format("{}: receives the Gather of flow {} from both node {} and node {}", at(),
                            e.flow, from, t.src));
          }
        }
        if (!found) {
          errors.add(fmt::format("{}: table entry {} waits for a {} from node {} that no node sends it "
                          "before step {}", at(), i, op_name(op), from, e.step));
        }
      };
      if (e.op == Op::kReduce) {
        for (uint32_t c : e.children) await(c, Op::kReduce);
        if (e.parent == kNil) {  // terminal: waits, sends nothing
          flow_state.at(e.flow) = std::max<uint8_t>(flow_state.at(e.flow), 1);
          continue;
        }
        if (flow_state.at(e.flow) == 2) {
          errors.add(fmt::format("{}: sends its Reduce of flow {} a second time", at(), e.flow));
        }
        flow_state.at(e.flow) = 2;
      } else if (e.parent != kNil) {
        await(e.parent, Op::kGather);
      } else if (flow_state.at(e.flow) == 0) {
        for (uint32_t c : e.children) await(c, Op::kReduce);
      }
      // Every earlier arrival that overlaps the bytes sent must have been waited for.
      const int64_t rid = !tables && ranges_are_flows ? e.flow : find_range(e.start_addr - base, e.size);
      if (rid < 0) continue;  // plan_from_tables registers every sent range
      for (uint32_t r : overlaps[static_cast<size_t>(rid)]) {
        for (const ArrivalsBy::Arrival& t : by_range.of(r)) {
          if (t.step >= e.step || covered[t.id]) continue;
          const ByteRange& b = plan.ranges[static_cast<size_t>(rid)];
          errors.add(fmt::format("{}: sends bytes [{}, {}) before waiting for the {} of flow {} from node "
                          "{} (step {}); no entry up to this one waits for it", at(), b.offset,
                          b.end(), op_name(t.op), t.flow, t.src, t.step));
          break;
        }
      }
    }
  }
}

}  // namespace mt
