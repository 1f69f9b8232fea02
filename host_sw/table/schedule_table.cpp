#include "table/schedule_table.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {
namespace {

// Appends `op` entries that wait for (Reduce) or send to (Gather) `nodes`, K per entry.
void append_split(std::vector<TableEntry>& out, TableEntry proto, const std::vector<uint32_t>& nodes,
                  uint32_t k) {
  if (nodes.empty()) {
    out.push_back(proto);
    return;
  }
  for (size_t i = 0; i < nodes.size(); i += k) {
    proto.children.assign(nodes.begin() + static_cast<long>(i),
                          nodes.begin() + static_cast<long>(std::min(nodes.size(), i + k)));
    out.push_back(proto);
  }
}

}  // namespace

std::vector<TableEntry> compile_node_entries(const Plan& plan, const PlanIndex& index,
                                             uint32_t node, const TableOptions& opt) {
  const uint32_t k = opt.children_slots;
  if (k == 0) throw InputError("children slots K must be at least 1");
  const ArrivalsBy arrivals(plan, index, node, ArrivalsBy::Key::kFlow);
  auto sources = [&](uint32_t flow, Op op, uint32_t before) {
    std::vector<uint32_t> out;
    for (uint32_t id : arrivals.of(flow)) {
      const Transfer& a = plan.transfers[id];
      if (a.op == op && a.step < before) out.push_back(a.src);
    }
    return out;
  };

  std::vector<TableEntry> out;
  std::vector<bool> reduced(plan.flows.size(), false);  // a Reduce of the flow is in the table
  const auto sends = index.sends(node);
  for (const uint32_t* it = sends.begin(); it != sends.end(); ++it) {
    const Transfer& t = plan.transfers[*it];
    const ByteRange& r = plan.ranges.at(t.range);
    TableEntry e;
    e.op = t.op;
    e.flow = t.flow;
    e.step = t.step;
    e.start_addr = opt.base_addr + r.offset;
    e.size = r.size;
    if (t.op == Op::kReduce) {
      // More children than K: the excess wait in terminal Reduces just before.
      std::vector<uint32_t> children = sources(t.flow, Op::kReduce, t.step);
      const size_t head = children.size() > k ? children.size() - k : 0;
      if (head > 0) {
        TableEntry wait = e;
        wait.parent = kNil;
        append_split(out, wait, {children.begin(), children.begin() + static_cast<long>(head)}, k);
      }
      e.parent = t.dst;
      e.children.assign(children.begin() + static_cast<long>(head), children.end());
      out.push_back(e);
      reduced.at(t.flow) = true;
      continue;
    }
    // Gather: one entry per flow and step; the later sends of the group follow this one.
    std::vector<uint32_t> dsts{t.dst};
    while (it + 1 != sends.end() && plan.transfers[*(it + 1)].op == Op::kGather &&
           plan.transfers[*(it + 1)].flow == t.flow && plan.transfers[*(it + 1)].step == t.step) {
      dsts.push_back(plan.transfers[*++it].dst);
    }
    std::vector<uint32_t> parents = sources(t.flow, Op::kGather, t.step);
    if (!parents.empty()) {
      e.parent = parents.front();  // the verifier rejects more than one
    } else if (!reduced.at(t.flow)) {
      // Root: Fig. 5 lets a single Gather wait for Reduces from its children; otherwise a
      // terminal Reduce states the wait set.
      std::vector<uint32_t> from = sources(t.flow, Op::kReduce, t.step);
      std::vector<uint32_t> a = from, b = dsts;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      bool later_gather = false;
      for (const uint32_t* j = it + 1; j != sends.end(); ++j) {
        later_gather = later_gather || (plan.transfers[*j].op == Op::kGather &&
                                        plan.transfers[*j].flow == t.flow);
      }
      if (a != b || dsts.size() > k || later_gather) {
        TableEntry wait = e;
        wait.op = Op::kReduce;
        append_split(out, wait, from, k);
        reduced.at(t.flow) = true;
      }
    }
    append_split(out, e, dsts, k);
  }
  return out;
}

TableSet compile_tables(const Plan& plan, const TableOptions& opt) {
  const PlanIndex index(plan);
  TableSet set;
  set.topology = plan.topology;
  set.algorithm = plan.algorithm;
  set.nodes = plan.nodes;
  set.flows = static_cast<uint32_t>(plan.flows.size());
  set.steps_per_phase = plan.steps_per_phase;
  set.children_slots = opt.children_slots;
  set.bytes = plan.bytes;
  set.dtype = plan.dtype;
  set.base_addr = opt.base_addr;
  // A NOP holds injection for one step's chunk: the largest message of that step.
  std::vector<uint64_t> step_bytes(plan.total_steps() + 1, 0);
  for (uint32_t s = 1; s <= plan.total_steps(); ++s) {
    for (uint32_t id : index.by_step(s)) {
      step_bytes[s] = std::max(step_bytes[s], plan.ranges[plan.transfers[id].range].size);
    }
  }
  set.tables.resize(plan.nodes);
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    ScheduleTable& table = set.tables[v];
    table.node = v;
    const std::vector<TableEntry> entries = compile_node_entries(plan, index, v, opt);
    uint32_t step = 1;
    for (const TableEntry& e : entries) {
      // Lockstep: every step up to the node's last send has an entry (Fig. 6 ③).
      for (; step < e.step; ++step) {
        TableEntry nop;
        nop.step = step;
        nop.start_addr = opt.base_addr;
        nop.size = step_bytes[step];
        table.entries.push_back(nop);
      }
      step = e.step + 1;
      table.entries.push_back(e);
    }
  }
  return set;
}

Plan plan_from_tables(const TableSet& set) {
  Plan plan;
  plan.algorithm = set.algorithm;
  plan.topology = set.topology;
  plan.nodes = set.nodes;
  plan.steps_per_phase = set.steps_per_phase;
  plan.bytes = set.bytes;
  plan.dtype = set.dtype;
  plan.flows.assign(set.flows, Flow{});
  plan.ranges.assign(set.flows, ByteRange{});
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> range_ids;
  auto range_of = [&](const TableEntry& e) {
    const std::pair<uint64_t, uint64_t> key{e.start_addr - set.base_addr, e.size};
    auto [it, fresh] = range_ids.emplace(key, static_cast<uint32_t>(plan.ranges.size()));
    if (fresh) plan.ranges.push_back({key.first, key.second});
    return it->second;
  };
  for (const ScheduleTable& table : set.tables) {
    for (const TableEntry& e : table.entries) {
      if (e.op == Op::kNop || (e.op == Op::kReduce && e.parent == kNil)) continue;
      const uint32_t r = range_of(e);
      if (e.op == Op::kReduce) {
        plan.transfers.push_back({e.flow, table.node, e.parent, r, e.step, Op::kReduce});
        continue;
      }
      if (e.parent == kNil && e.flow < set.flows) {
        plan.flows[e.flow] = {table.node, plan.ranges[r]};
        plan.ranges[e.flow] = plan.ranges[r];
      }
      for (uint32_t c : e.children) plan.transfers.push_back({e.flow, table.node, c, r, e.step, Op::kGather});
    }
  }
  return plan;
}

}  // namespace mt
