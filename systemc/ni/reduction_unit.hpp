// The NI's reduction unit (paper Fig. 6): adds received data element-wise into the local
// accumulator. Functional plus timing: the sum is computed at once, and reduce() returns the
// cycle from which it may be used.
//
// Timing contract (cycles; the RTL copies it): one in-order pipeline taking elements_per_cycle
// elements a cycle, `latency` stages deep. Jobs enter in call order; a job of e elements ready
// at cycle `ready` starts at start = max(ready, free), `free` being the cycle the previous job's
// last elements had entered (0 at first); free = start + ceil(e / elements_per_cycle); the sum
// is complete at done = free + latency. A zero-byte job follows the same formula (it takes no
// pipeline cycle but still waits for its turn and the latency).
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

class ReductionUnit : public sc_core::sc_module {
 public:
  // Validates `cfg` and `dtype` (mt::InputError).
  ReductionUnit(sc_core::sc_module_name name, const ReductionConfig& cfg, mt::DType dtype);

  // Adds `bytes` of `src` element-wise into `acc` and returns the cycle the sum is complete
  // (see the timing contract above). `bytes` must be a multiple of 4, else mt::InputError and
  // nothing changes. `acc` may equal `src`.
  uint64_t reduce(uint8_t* acc, const uint8_t* src, uint64_t bytes, uint64_t ready);
  // reduce() in two parts, for a caller that knows some elements' sums unobserved: the job
  // of `bytes` through the pipeline (its cycle, as reduce() returns it), and the sums of any
  // of its elements. Both throw mt::InputError as reduce() does.
  uint64_t schedule(uint64_t bytes, uint64_t ready);
  void add(uint8_t* acc, const uint8_t* src, uint64_t bytes) const;

  const ReductionConfig& config() const { return cfg_; }
  mt::DType dtype() const { return dtype_; }
  uint64_t elements() const { return elements_; }        // reduced so far
  uint64_t busy_cycles() const { return busy_cycles_; }  // cycles elements entered the pipeline
  uint64_t free_cycle() const { return free_; }

 private:
  uint64_t elements_of(uint64_t bytes) const;  // mt::InputError unless whole elements

  ReductionConfig cfg_;
  mt::DType dtype_;
  uint64_t free_ = 0;
  uint64_t elements_ = 0, busy_cycles_ = 0;
};

}  // namespace mt::noc
