// The accelerator of the paper's evaluation (§V-A, Table III): a TPU-like accelerator of 16
// processing elements (PEs), each a 32x32 systolic array with output-stationary dataflow,
// 32-bit precision, 1 GHz, double-buffered with enough memory bandwidth for peak throughput;
// trained with 16 samples per accelerator (§V-B: a mini-batch of 16 x N on N nodes).
#pragma once

#include <cstdint>

namespace mt::workload {

struct AcceleratorConfig {
  uint64_t array_rows = 32;    // R: rows of each PE's systolic array
  uint64_t array_cols = 32;    // C: columns
  uint64_t pes = 16;           // systolic arrays per accelerator
  uint64_t batch = 16;         // samples per accelerator in one iteration
  uint64_t element_bytes = 4;  // bytes of one gradient element (32-bit)
  double clock_hz = 1e9;       // the accelerator's clock
};

// InputError naming the parameter when a count is 0 or the clock is not a positive finite
// frequency.
void validate(const AcceleratorConfig& cfg);

// The samples each PE computes: ceil(batch / pes). The samples are spread one per PE; with more
// samples than PEs every PE takes as many as the busiest one (docs/workloads.md).
uint64_t samples_per_pe(const AcceleratorConfig& cfg);

// Cycles of the accelerator's clock as seconds.
double seconds(uint64_t cycles, const AcceleratorConfig& cfg);

}  // namespace mt::workload
