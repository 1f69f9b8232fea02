// Reads a table entry through the head read port (rd_head_i, rd_start_i, rd_*_o) of any
// Verilated model that has rtl/schedule_table.sv's (schedule_table, table_hex_loader): the
// index as the head in one cycle (the entry is one of the two candidates read), and again in
// the next, when the fields come.
#pragma once

#include <cstdint>
#include <type_traits>

#include "plan/plan.hpp"
#include "support/clocked.hpp"
#include "table/schedule_table.hpp"

namespace mt::tb {

// The fields on rd_*_o now, as an entry.
template <uint32_t kNodeW, uint32_t kK, class Model>
TableEntry read_fields(Clocked<Model>& dut) {
  constexpr uint32_t nil = (1u << kNodeW) - 1;
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

template <uint32_t kNodeW, uint32_t kK, class Model>
TableEntry read_entry(Clocked<Model>& dut, uint32_t index) {
  dut->rd_head_i = static_cast<std::remove_reference_t<decltype(dut->rd_head_i)>>(index);
  dut->rd_start_i = 0;
  dut.tick();
  dut.settle();
  return read_fields<kNodeW, kK>(dut);
}

}  // namespace mt::tb
