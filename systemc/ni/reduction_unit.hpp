// The NI's reduction unit (paper Fig. 6): adds received data element-wise into the local
// accumulator, the arithmetic of rtl/reduction_unit.sv. Its timing (elements_per_cycle
// elements a cycle, `latency` stages deep) is the reduction sequencer's contract
// (ni/reduction_sequencer.hpp), which feeds it.
//
// Arithmetic: little-endian 32-bit elements; int32 wraps around (two's complement), fp32 is
// one IEEE single-precision addition acc = acc + src per element (round to nearest even,
// subnormals kept). Every fp32 NaN sum (a NaN operand, quiet or signalling, or inf + -inf) is
// the canonical NaN kCanonicalNan = 0x7FC00000 (positive quiet NaN, as RISC-V), not the
// CPU's NaN (x86 gives 0xFFC00000 for inf + -inf and keeps an operand's payload), so the
// sums compare bit for bit with the RTL adder (rtl/fp32_adder.sv).
#pragma once

#include <cstdint>

#include <systemc>

#include "ni_formats.hpp"
#include "plan/plan.hpp"

namespace mt::noc {

// The one NaN an fp32 sum can be (see Arithmetic above).
inline constexpr uint32_t kCanonicalNan = format::fp32::kCanonicalNan;  // format/ni_formats.json
static_assert(kCanonicalNan == 0x7FC00000u, "the positive quiet NaN");

struct ReductionConfig {
  // 4 links x 4 elements of a 16-byte flit: keeps up with K = 4 ejection ports.
  uint32_t elements_per_cycle = 16;
  uint32_t latency = 4;  // pipeline depth, cycles

  // Throws mt::InputError naming the bad field.
  void validate() const;
};

// The elements in `bytes`; mt::InputError naming `who` unless they are whole.
uint64_t elements_of(uint64_t bytes, const char* who);

class ReductionUnit : public sc_core::sc_module {
 public:
  // Validates `dtype` (mt::InputError).
  ReductionUnit(sc_core::sc_module_name name, mt::DType dtype);

  // Adds `bytes` of `src` element-wise into `acc`. `bytes` must be a multiple of 4, else
  // mt::InputError and nothing changes. `acc` may equal `src` (or else does not overlap it).
  void add(uint8_t* acc, const uint8_t* src, uint64_t bytes) const;

  mt::DType dtype() const { return dtype_; }

 private:
  mt::DType dtype_;
};

}  // namespace mt::noc
