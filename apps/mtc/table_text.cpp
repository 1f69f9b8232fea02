#include "mtc/table_text.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mt {
namespace {

// The op column, padded to its 7 characters.
std::string_view op_column(Op op) {
  switch (op) {
    case Op::kReduce: return "Reduce ";
    case Op::kGather: return "Gather ";
    case Op::kPut: return "Put    ";
    case Op::kNop: return "NOP    ";
  }
  return "?      ";
}

constexpr std::string_view kChildrenTitle = "Children";

}  // namespace

TablesTextWriter::TablesTextWriter(std::ostream& os, const TableSet& set)
    : set_(set), out_(os),
      children_width_(std::max<size_t>(kChildrenTitle.size(), 4 * set.children_slots)) {
  fmt::format_to(std::back_inserter(out_.buffer()),
                 "{} on {}: {} nodes, {} flows, {} steps per phase, {} bytes of {}, K = {} "
                 "children slots\n",
                 set.algorithm, set.topology, set.nodes, set.flows, set.steps_per_phase, set.bytes,
                 dtype_name(set.dtype), set.children_slots);
}

// Compiled formats, no string per field or line.
void TablesTextWriter::add(const ScheduleTable& t) {
  fmt::memory_buffer& buf = out_.buffer();
  auto out = std::back_inserter(buf);
  fmt::format_to(out, FMT_COMPILE("\nAccelerator {}\n"), t.node);
  fmt::format_to(out, "  {:<7}{:>7}{:>8}  {:<{}}{:>6}{:>14}{:>10}\n", "Op", "FlowID", "Parent",
                 kChildrenTitle, children_width_, "Step", "Start Addr", "Size");
  for (const TableEntry& e : t.entries) {
    buf.append(std::string_view("  "));
    buf.append(op_column(e.op));
    if (e.parent == kNil) {
      fmt::format_to(out, FMT_COMPILE("{:>7}     nil  "), e.flow);
    } else {
      fmt::format_to(out, FMT_COMPILE("{:>7}{:>8}  "), e.flow, e.parent);
    }
    // K slots of at least 4 characters, the whole padded to the column's width.
    const size_t kids_start = buf.size();
    for (uint32_t k = 0; k < set_.children_slots; ++k) {
      if (k < e.children.size()) {
        fmt::format_to(out, FMT_COMPILE("{:<4}"), e.children[k]);
      } else {
        buf.append(std::string_view("nil "));
      }
    }
    for (size_t w = buf.size() - kids_start; w < children_width_; ++w) buf.push_back(' ');
    fmt::format_to(out, FMT_COMPILE("{:>6}{:>#14x}{:>10}\n"), e.step, e.start_addr, e.size);
    out_.maybe_flush();
  }
}

void write_tables_text(std::ostream& os, const TableSet& set) {
  TablesTextWriter writer(os, set);
  write_tables(writer, set);
}

void write_aggregation_text(std::ostream& os, const Plan& plan) {
  std::vector<const SwitchAggregation*> rows;
  for (const SwitchAggregation& a : plan.aggregations) rows.push_back(&a);
  std::stable_sort(rows.begin(), rows.end(), [](const SwitchAggregation* a,
                                                const SwitchAggregation* b) {
    return a->vertex < b->vertex;
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    const SwitchAggregation& a = *rows[i];
    if (i == 0 || rows[i - 1]->vertex != a.vertex) {
      os << fmt::format("\nSwitch {} (aggregation)\n  {:>6}  {:>6}  {}\n", a.vertex, "FlowID",
                        "Parent", "Children");
    }
    const std::string parent =
        a.parent == SwitchAggregation::kTop ? std::string("top") : std::to_string(a.parent);
    os << fmt::format("  {:>6}  {:>6}  {}\n", a.flow, parent, fmt::join(a.children, " "));
  }
}

}  // namespace mt
