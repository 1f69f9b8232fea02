#include "mtc/table_text.hpp"

#include <fmt/format.h>

namespace mt {
namespace {

std::string node_or_nil(uint32_t v) { return v == kNil ? "nil" : std::to_string(v); }

std::string op_title(Op op) {
  switch (op) {
    case Op::kReduce: return "Reduce";
    case Op::kGather: return "Gather";
    case Op::kNop: return "NOP";
  }
  return "?";
}

}  // namespace

std::string tables_text(const TableSet& set) {
  std::string s = fmt::format(
      "{} on {}: {} nodes, {} flows, {} steps per phase, {} bytes of {}, K = {} children slots\n",
      set.algorithm, set.topology, set.nodes, set.flows, set.steps_per_phase, set.bytes,
      dtype_name(set.dtype), set.children_slots);
  for (const ScheduleTable& t : set.tables) {
    s += fmt::format("\nAccelerator {}\n", t.node);
    std::string children_title = "Children";
    const size_t children_width = std::max<size_t>(children_title.size(), 4 * set.children_slots);
    s += fmt::format("  {:<7}{:>7}{:>8}  {:<{}}{:>6}{:>14}{:>10}\n", "Op", "FlowID", "Parent",
                     children_title, children_width, "Step", "Start Addr", "Size");
    for (const TableEntry& e : t.entries) {
      std::string kids;
      for (uint32_t k = 0; k < set.children_slots; ++k) {
        kids += fmt::format("{:<4}", k < e.children.size() ? std::to_string(e.children[k]) : "nil");
      }
      s += fmt::format("  {:<7}{:>7}{:>8}  {:<{}}{:>6}{:>#14x}{:>10}\n", op_title(e.op), e.flow,
                       node_or_nil(e.parent), kids, children_width, e.step, e.start_addr, e.size);
    }
  }
  return s;
}

}  // namespace mt
