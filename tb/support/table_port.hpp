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

template <uint32_t kNodeW, uint32_t kK, class Model>
TableEntry read_entry(Clocked<Model>& dut, uint32_t index) {
  constexpr uint32_t nil = (1u << kNodeW) - 1;
  using Index = std::remove_reference_t<decltype(dut->rd_idx_i)>;
  dut->rd_idx_i = static_cast<Index>(index);
  dut->rd_idx_next_i = static_cast<Index>(index + 1);  // wraps as the index does (DEPTH 256)
  dut.tick();
  dut.settle();
  TableEntry e;
  e.op = static_cast<Op>(dut->rd_op_o);
  e.flow = dut->rd_flow_o;
  e.parent = dut->rd_parent_o == nil ? mt::kNil : dut->rd_parent_o;
  for (uint32_t k = 0; k < kK; ++k) {
    const uint32_t c = static_cast<uint32_t>(dut->rd_children_o >> (kNodeW * k)) & nil;
    if (c != nil) e.children.push_back(c);
  }
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
  constexpr uint32_t nil = (1u << kNodeW) - 1;
  TableEntry e;
  e.op = static_cast<Op>(dut->nx_op_o);
  e.flow = dut->nx_flow_o;
  e.parent = dut->nx_parent_o == nil ? mt::kNil : dut->nx_parent_o;
  for (uint32_t k = 0; k < kK; ++k) {
    const uint32_t c = static_cast<uint32_t>(dut->nx_children_o >> (kNodeW * k)) & nil;
    if (c != nil) e.children.push_back(c);
  }
  return e;
}

}  // namespace mt::tb
