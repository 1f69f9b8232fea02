#include "table/schedule_table.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {
NodeTableCompiler::NodeTableCompiler(const Plan& plan, const PlanIndex& index,
                                     const TableOptions& opt)
    : plan_(plan), index_(index), opt_(opt), arrivals_(plan, index, ArrivalsBy::Key::kFlow) {
  if (opt.children_slots == 0) throw InputError("children slots K must be at least 1");
  for (const Transfer& t : plan.transfers) has_puts_ = has_puts_ || t.op == Op::kPut;
  if (plan.aggregations.empty()) return;
  switch_flow_.assign(plan.flows.size(), false);
  for (const SwitchAggregation& a : plan.aggregations) {
    if (a.flow < switch_flow_.size()) switch_flow_[a.flow] = true;
  }
  mixed_ = std::find(switch_flow_.begin(), switch_flow_.end(), false) != switch_flow_.end();
}

// The Put arrivals of `node` that no later Gather or Put of their flow forwards, so that no
// entry would wait for them: a node at the end of a chain of Puts (a row's all-gather of
// partial sums) that sends those bytes on later in another flow.
void NodeTableCompiler::find_unforwarded_puts(uint32_t node) {
  puts_.clear();
  if (!has_puts_) return;
  written_.clear();  // (flow, step) of the node's Gathers and Puts, sorted
  for (const uint32_t s : index_.sends(node)) {
    const Transfer& t = plan_.transfers[s];
    if (writes(t.op)) written_.emplace_back(t.flow, t.step);
  }
  std::sort(written_.begin(), written_.end());
  for (const uint32_t id : index_.receives(node)) {
    const Transfer& a = plan_.transfers[id];
    if (a.op != Op::kPut) continue;
    const auto later = std::lower_bound(written_.begin(), written_.end(),
                                        std::make_pair(a.flow, a.step + 1));
    if (later == written_.end() || later->first != a.flow) puts_.push_back(id);
  }
}

// Before a send of [start_addr, +size): a terminal Put (parent: the sender, no children) for
// each pending Put arrival of an earlier step that shares a byte with it.
void NodeTableCompiler::await_puts(const Transfer& send, uint64_t start_addr, uint64_t size) {
  for (size_t i = 0; i < puts_.size();) {
    const Transfer& a = plan_.transfers[puts_[i]];
    const ByteRange& r = plan_.ranges[a.range];
    const uint64_t begin = opt_.base_addr + r.offset;
    if (a.step >= send.step || begin >= start_addr + size || start_addr >= begin + r.size) {
      ++i;
      continue;
    }
    TableEntry& e = next_entry();
    e.op = Op::kPut;
    e.flow = a.flow;
    e.parent = a.src;
    e.children.clear();
    e.step = send.step;
    e.start_addr = begin;
    e.size = r.size;
    puts_.erase(puts_.begin() + static_cast<long>(i));
  }
}

TableEntry& NodeTableCompiler::next_entry() {
  if (used_ == entries_.size()) entries_.emplace_back();
  return entries_[used_++];
}

// Appends copies of `proto` that wait for (Reduce) or send to (Gather) nodes[first, last),
// K per entry; one entry when the range is empty.
void NodeTableCompiler::append_split(const TableEntry& proto, const std::vector<uint32_t>& nodes,
                                     size_t first, size_t last) {
  const size_t k = opt_.children_slots;
  size_t i = first;
  do {
    TableEntry& e = next_entry();
    std::vector<uint32_t> storage = std::move(e.children);  // keep the slot's capacity
    e = proto;                                              // (proto has no children)
    e.children = std::move(storage);
    const size_t end = std::min(last, i + std::min(k, last - i));
    e.children.assign(nodes.begin() + static_cast<long>(i), nodes.begin() + static_cast<long>(end));
    i = end;
  } while (i < last);
}

// Senders of the messages of `flow` that arrive before step `before`, in arrival order: the
// written ones (Gather, Put) when `written`, else the Reduces.
void NodeTableCompiler::sources(uint32_t flow, bool written, uint32_t before,
                                std::vector<uint32_t>& out) const {
  out.clear();
  for (const ArrivalsBy::Arrival& a : arrivals_.of(flow)) {
    if (writes(a.op) == written && a.step < before) out.push_back(a.src);
  }
}

void NodeTableCompiler::add_tree_entry(const Transfer& t) {
  TableEntry& e = next_entry();
  e.op = t.op;
  e.flow = t.flow;
  e.parent = t.op == Op::kReduce ? t.dst : t.src;
  e.children.clear();
  e.step = t.step;
  e.start_addr = opt_.base_addr + plan_.ranges.at(t.range).offset;
  e.size = plan_.ranges.at(t.range).size;
}

const std::vector<TableEntry>& NodeTableCompiler::compile_aggregated(uint32_t node) {
  used_ = 0;
  for (const Transfer& t : plan_.transfers) {
    if ((t.op == Op::kReduce ? t.src : t.dst) == node) add_tree_entry(t);
  }
  std::stable_sort(entries_.begin(), entries_.begin() + static_cast<long>(used_),
                   [](const TableEntry& a, const TableEntry& b) { return a.step < b.step; });
  entries_.resize(used_);
  return entries_;
}

const std::vector<TableEntry>& NodeTableCompiler::compile(uint32_t node) {
  if (mixed_) return compile_mixed(node);
  if (!plan_.aggregations.empty()) return compile_aggregated(node);
  const size_t k = opt_.children_slots;
  arrivals_.load(node);
  used_ = 0;
  reduced_.assign(plan_.flows.size(), false);
  find_unforwarded_puts(node);
  const auto sends = index_.sends(node);
  for (const uint32_t* it = sends.begin(); it != sends.end(); ++it) {
    const Transfer& t = plan_.transfers[*it];
    const ByteRange& r = plan_.ranges.at(t.range);
    TableEntry e;  // prototype: no children, so no allocation
    e.op = t.op;
    e.flow = t.flow;
    e.step = t.step;
    e.start_addr = opt_.base_addr + r.offset;
    e.size = r.size;
    if (!puts_.empty()) await_puts(t, e.start_addr, e.size);
    if (t.op == Op::kReduce) {
      // More children than K: the excess wait in terminal Reduces just before.
      sources(t.flow, false, t.step, children_);
      const size_t head = children_.size() > k ? children_.size() - k : 0;
      if (head > 0) append_split(e, children_, 0, head);  // parent nil
      e.parent = t.dst;
      append_split(e, children_, head, children_.size());
      reduced_.at(t.flow) = true;
      continue;
    }
    // Gather or Put: one entry per op, flow and step; the later sends of the group follow
    // this one.
    dsts_.assign(1, t.dst);
    while (it + 1 != sends.end() && plan_.transfers[*(it + 1)].op == t.op &&
           plan_.transfers[*(it + 1)].flow == t.flow && plan_.transfers[*(it + 1)].step == t.step) {
      dsts_.push_back(plan_.transfers[*++it].dst);
    }
    sources(t.flow, true, t.step, from_);
    if (!from_.empty()) {
      e.parent = from_.front();  // the verifier rejects more than one
    } else if (!reduced_.at(t.flow)) {
      // Root: Fig. 5 lets a single Gather wait for Reduces from its children; otherwise a
      // terminal Reduce states the wait set.
      sources(t.flow, false, t.step, from_);
      sorted_a_ = from_;
      sorted_b_ = dsts_;
      std::sort(sorted_a_.begin(), sorted_a_.end());
      std::sort(sorted_b_.begin(), sorted_b_.end());
      bool later_gather = false;
      for (const uint32_t* j = it + 1; j != sends.end(); ++j) {
        later_gather = later_gather || (writes(plan_.transfers[*j].op) &&
                                        plan_.transfers[*j].flow == t.flow);
      }
      if (sorted_a_ != sorted_b_ || dsts_.size() > k || later_gather) {
        TableEntry wait = e;
        wait.op = Op::kReduce;
        append_split(wait, from_, 0, from_.size());
        reduced_.at(t.flow) = true;
      }
    }
    append_split(e, dsts_, 0, dsts_.size());
  }
  entries_.resize(used_);  // rarely shrinks: nodes have similar table sizes
  return entries_;
}

namespace {

// The node's entries, with a NOP for every step before its last send that has no entry
// (lockstep, Fig. 6 ③); a NOP holds injection for its step's largest chunk. Reuses the
// table's entries (and their children's memory) from the previous node.
void fill_with_nops(ScheduleTable& table, const std::vector<TableEntry>& entries,
                    const std::vector<uint64_t>& step_bytes, uint64_t base_addr) {
  size_t count = entries.size();
  for (uint32_t step = 1, i = 0; i < entries.size(); step = entries[i++].step + 1) {
    count += entries[i].step > step ? entries[i].step - step : 0;
  }
  // One allocation of the exact size: growing by doubling costs a third more memory and a
  // copy of every entry (ring2d on torus:256x256 has 5.9e7 entries).
  if (table.entries.capacity() < count) {
    table.entries.clear();
    table.entries.reserve(count);
  }
  table.entries.resize(count);
  size_t used = 0;
  uint32_t step = 1;
  for (const TableEntry& e : entries) {
    for (; step < e.step; ++step) {
      TableEntry& nop = table.entries[used++];
      nop.op = Op::kNop;
      nop.flow = 0;
      nop.parent = kNil;
      nop.children.clear();
      nop.step = step;
      nop.start_addr = base_addr;
      nop.size = step_bytes[step];
    }
    step = e.step + 1;
    table.entries[used++] = e;
  }
}

TableSet set_header(const Plan& plan, const TableOptions& opt) {
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
  return set;
}

// A NOP holds injection for one step's chunk: the largest message of that step.
std::vector<uint64_t> nop_sizes(const Plan& plan) {
  std::vector<uint64_t> step_bytes(plan.total_steps() + 1, 0);
  for (const Transfer& t : plan.transfers) {
    if (t.step <= plan.total_steps()) {
      step_bytes[t.step] = std::max(step_bytes[t.step], plan.ranges[t.range].size);
    }
  }
  return step_bytes;
}

}  // namespace

TableStream::TableStream(const Plan& plan, const TableOptions& opt)
    : TableStream(plan, opt, PlanIndex(plan)) {}

TableStream::TableStream(const Plan& plan, const TableOptions& opt, PlanIndex index)
    : header_(set_header(plan, opt)), index_(std::move(index)), step_bytes_(nop_sizes(plan)),
      compiler_(plan, index_, opt) {}

const ScheduleTable& TableStream::table(uint32_t node) {
  table_.node = node;
  fill_with_nops(table_, compiler_.compile(node), step_bytes_, header_.base_addr);
  return table_;
}

TableSet compile_tables(const Plan& plan, const TableOptions& opt) {
  TableStream stream(plan, opt);
  TableSet set = stream.header();
  set.tables.reserve(plan.nodes);
  for (uint32_t v = 0; v < plan.nodes; ++v) set.tables.push_back(stream.table(v));
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
      if (e.op == Op::kGather && e.parent == kNil && e.flow < set.flows) {
        plan.flows[e.flow] = {table.node, plan.ranges[r]};
        plan.ranges[e.flow] = plan.ranges[r];
      }
      for (uint32_t c : e.children) plan.transfers.push_back({e.flow, table.node, c, r, e.step, e.op});
    }
  }
  return plan;
}

std::string table_rule_error(const ScheduleTable& table) {
  const std::vector<TableEntry>& entries = table.entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    const TableEntry& e = entries[i];
    auto at = [&] { return fmt::format("node {}, table entry {}", table.node, i); };
    if (i > 0 && e.step < entries[i - 1].step) {
      return fmt::format("{}: step {} after step {} in entry {}; the NI issues its entries in "
                         "order, each in its step, so steps must not decrease",
                         at(), e.step, entries[i - 1].step, i - 1);
    }
    if (e.parent == table.node) {
      return fmt::format("{}, field parent: node {} is the table's own node; an NI sends to "
                         "and waits for other nodes only", at(), table.node);
    }
    for (size_t k = 0; k < e.children.size(); ++k) {
      if (e.children[k] == table.node) {
        return fmt::format("{}, field children[{}]: node {} is the table's own node; an NI "
                           "sends to and waits for other nodes only", at(), k, table.node);
      }
    }
  }
  return {};
}

}  // namespace mt
