#include "mtc/table_text.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include <fmt/compile.h>
#include <fmt/format.h>

namespace mt {
namespace {

// The op column, padded to its 7 characters.
std::string_view op_column(Op op) {
  switch (op) {
    case Op::kReduce: return "Reduce ";
    case Op::kGather: return "Gather ";
    case Op::kNop: return "NOP    ";
  }
  return "?      ";
}

}  // namespace

void write_tables_text(std::ostream& os, const TableSet& set) {
  // Compiled formats into a buffer written out table by table (a plan of 2^14 nodes prints
  // half a gigabyte): no string per field or line, and not the whole text in memory.
  fmt::memory_buffer buf;
  auto flush = [&] {
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  };
  auto out = std::back_inserter(buf);
  fmt::format_to(out,
                 "{} on {}: {} nodes, {} flows, {} steps per phase, {} bytes of {}, K = {} "
                 "children slots\n",
                 set.algorithm, set.topology, set.nodes, set.flows, set.steps_per_phase, set.bytes,
                 dtype_name(set.dtype), set.children_slots);
  const std::string children_title = "Children";
  const size_t children_width = std::max<size_t>(children_title.size(), 4 * set.children_slots);
  for (const ScheduleTable& t : set.tables) {
    if (buf.size() > (1u << 20)) flush();
    fmt::format_to(out, FMT_COMPILE("\nAccelerator {}\n"), t.node);
    fmt::format_to(out, "  {:<7}{:>7}{:>8}  {:<{}}{:>6}{:>14}{:>10}\n", "Op", "FlowID", "Parent",
                   children_title, children_width, "Step", "Start Addr", "Size");
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
      for (uint32_t k = 0; k < set.children_slots; ++k) {
        if (k < e.children.size()) {
          fmt::format_to(out, FMT_COMPILE("{:<4}"), e.children[k]);
        } else {
          buf.append(std::string_view("nil "));
        }
      }
      for (size_t w = buf.size() - kids_start; w < children_width; ++w) buf.push_back(' ');
      fmt::format_to(out, FMT_COMPILE("{:>6}{:>#14x}{:>10}\n"), e.step, e.start_addr, e.size);
    }
  }
  flush();
}

}  // namespace mt
