// Reads a table entry through the head read port (rd_idx_i, rd_*_o) of any Verilated model
// that has rtl/schedule_table.sv's (schedule_table, table_hex_loader): the index in one cycle,
// the fields in the next; and the next entry's wait fields (nx_*_o) read with it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "plan/plan.hpp"
#include "support/clocked.hpp"
#include "table/schedule_table.hpp"

namespace mt::tb {

// An entry with the wait fields (op, flow, parent, children) of the port's pins, nil as all
// ones in kNodeW bits; the rest left at their defaults.
template <uint32_t kNodeW, uint32_t kK, class Children>
TableEntry wait_entry(uint32_t op, uint32_t flow, uint32_t parent, Children children) {
  constexpr uint32_t nil = (1u << kNodeW) - 1;
  TableEntry e;
  e.op = static_cast<Op>(op);
  e.flow = flow;
  e.parent = parent == nil ? mt::kNil : parent;
  for (uint32_t k = 0; k < kK; ++k) {
    const uint32_t c = static_cast<uint32_t>(children >> (kNodeW * k)) & nil;
    if (c != nil) e.children.push_back(c);
  }
  return e;
}

template <uint32_t kNodeW, uint32_t kK, class Model>
TableEntry read_entry(Clocked<Model>& dut, uint32_t index) {
  using Index = std::remove_reference_t<decltype(dut->rd_idx_i)>;
  dut->rd_en_i = 1;
  dut->rd_idx_i = static_cast<Index>(index);
  dut->rd_idx_next_i = static_cast<Index>(index + 1);  // wraps as the index does (DEPTH 256)
  dut.tick();
  dut.settle();
  TableEntry e = wait_entry<kNodeW, kK>(dut->rd_op_o, dut->rd_flow_o, dut->rd_parent_o,
                                        dut->rd_children_o);
  e.step = dut->rd_step_o;
  e.start_addr = dut->rd_addr_o;
  e.size = dut->rd_size_o;
  return e;
}

// An entry's wait fields (op, flow, parent, children), the rest left at their defaults.
inline TableEntry wait_fields(const TableEntry& e) {
  TableEntry w;
  w.op = e.op;
  w.flow = e.flow;
  w.parent = e.parent;
  w.children = e.children;
  return w;
}

// The wait fields of the entry after the one read_entry read.
template <uint32_t kNodeW, uint32_t kK, class Model>
TableEntry next_wait_fields(Clocked<Model>& dut) {
  return wait_entry<kNodeW, kK>(dut->nx_op_o, dut->nx_flow_o, dut->nx_parent_o,
                                dut->nx_children_o);
}

}  // namespace mt::tb
