// The table compiler's mixed plans (schedule_table.hpp, compile_mixed): ring transfers between
// nodes beside the switches' aggregation trees (hierarchical NetReduce, docs/ina.md).
#include <algorithm>

#include "table/schedule_table.hpp"

namespace mt {

// Before the node's Reduce into a tree: a terminal Reduce (parent nil) for each flow whose
// Reduces arrived at the node before the step, over bytes the send carries, that no entry
// awaits yet; the NI tracks arrivals per flow, and the tree's flow is not theirs.
void NodeTableCompiler::await_before_tree(uint32_t node, const Transfer& t) {
  const ByteRange& sent = plan_.ranges.at(t.range);
  for (const uint32_t id : index_.receives(node)) {
    const Transfer& a = plan_.transfers[id];
    const ByteRange& r = plan_.ranges.at(a.range);
    if (a.op != Op::kReduce || switch_flow(a.flow) || a.step >= t.step || reduced_.at(a.flow) ||
        r.offset >= sent.end() || sent.offset >= r.end()) {
      continue;
    }
    TableEntry wait;
    wait.op = Op::kReduce;
    wait.flow = a.flow;
    wait.step = t.step;
    wait.start_addr = opt_.base_addr + r.offset;
    wait.size = r.size;
    sources(a.flow, false, t.step, children_);
    append_split(wait, children_, 0, children_.size());  // parent nil: waits, sends nothing
    reduced_.at(a.flow) = true;
  }
}

// A Reduce between nodes, as compile() makes it: it waits for its flow's earlier Reduces.
void NodeTableCompiler::mixed_reduce(const Transfer& t) {
  const ByteRange& r = plan_.ranges.at(t.range);
  TableEntry e;
  e.op = Op::kReduce;
  e.flow = t.flow;
  e.step = t.step;
  e.start_addr = opt_.base_addr + r.offset;
  e.size = r.size;
  sources(t.flow, false, t.step, children_);
  const size_t k = opt_.children_slots;
  const size_t head = children_.size() > k ? children_.size() - k : 0;
  if (head > 0) append_split(e, children_, 0, head);  // parent nil
  e.parent = t.dst;
  append_split(e, children_, head, children_.size());
  reduced_.at(t.flow) = true;
}

// A Gather between nodes and the node's further Gathers of its flow and step: from the parent
// whose Gather arrived earlier, or, where none did, after the flow's Reduces (a terminal
// Reduce, unless an entry awaits them already).
void NodeTableCompiler::mixed_gather(const uint32_t*& it, const uint32_t* end) {
  const Transfer& t = plan_.transfers[*it];
  const ByteRange& r = plan_.ranges.at(t.range);
  TableEntry e;
  e.op = t.op;
  e.flow = t.flow;
  e.step = t.step;
  e.start_addr = opt_.base_addr + r.offset;
  e.size = r.size;
  dsts_.assign(1, t.dst);
  while (it + 1 != end && plan_.transfers[*(it + 1)].op == t.op &&
         plan_.transfers[*(it + 1)].flow == t.flow && plan_.transfers[*(it + 1)].step == t.step) {
    dsts_.push_back(plan_.transfers[*++it].dst);
  }
  sources(t.flow, true, t.step, from_);
  if (!from_.empty()) {
    e.parent = from_.front();
  } else if (!reduced_.at(t.flow)) {
    sources(t.flow, false, t.step, from_);
    if (!from_.empty()) {
      TableEntry wait = e;
      wait.op = Op::kReduce;
      append_split(wait, from_, 0, from_.size());
    }
    reduced_.at(t.flow) = true;
  }
  append_split(e, dsts_, 0, dsts_.size());
}

const std::vector<TableEntry>& NodeTableCompiler::compile_mixed(uint32_t node) {
  arrivals_.load(node);
  used_ = 0;
  reduced_.assign(plan_.flows.size(), false);
  // The node's sends, less the tree Gathers the switches send in its name, and the tree
  // Gathers it receives, in step order (plan order within a step).
  events_.clear();
  for (const uint32_t id : index_.sends(node)) {
    const Transfer& t = plan_.transfers[id];
    if (!(switch_flow(t.flow) && t.op == Op::kGather)) events_.push_back(id);
  }
  for (const uint32_t id : index_.receives(node)) {
    const Transfer& t = plan_.transfers[id];
    if (switch_flow(t.flow) && t.op == Op::kGather) events_.push_back(id);
  }
  std::stable_sort(events_.begin(), events_.end(), [this](uint32_t a, uint32_t b) {
    return plan_.transfers[a].step < plan_.transfers[b].step;
  });
  for (const uint32_t* it = events_.data(); it != events_.data() + events_.size(); ++it) {
    const Transfer& t = plan_.transfers[*it];
    if (!switch_flow(t.flow)) {
      if (t.op == Op::kReduce) {
        mixed_reduce(t);
      } else {
        mixed_gather(it, events_.data() + events_.size());
      }
      continue;
    }
    if (t.op == Op::kReduce) await_before_tree(node, t);
    add_tree_entry(t);
  }
  entries_.resize(used_);
  return entries_;
}

}  // namespace mt
