// What one training iteration costs per layer on one accelerator, in forward order: the
// compute cycles of the forward pass and of back-propagation (input and weight gradients) and
// the bytes of the weight gradient the all-reduce sums. An iteration simulator runs the
// forward passes in order, then back-propagates in reverse order, each layer's gradient
// joining the all-reduce once its weight gradient is computed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compute/accelerator.hpp"
#include "spec/workload.hpp"

namespace mt::workload {

struct LayerCost {
  std::string name;
  uint64_t params = 0;          // parameter_count: 0 for a layer without weights of its own
  uint64_t gradient_bytes = 0;  // params * element_bytes
  uint64_t forward_cycles = 0;
  uint64_t input_grad_cycles = 0;
  uint64_t weight_grad_cycles = 0;
  uint64_t update_cycles = 0;  // after the all-reduce; given layers only
  uint64_t backward_cycles() const { return input_grad_cycles + weight_grad_cycles; }
};

// The costs of every layer of `w` on the accelerator `cfg` (both validated first). A geometry
// layer's cycles are os_runtime of its layer_gemms for samples_per_pe(cfg) samples (all PEs
// work in parallel, so the busiest PE's cycles are the accelerator's); the first layer has no
// input gradient. A given layer's cycles are taken as they are: the file's cycles for the
// accelerator's whole local mini-batch. InputError when a count does not fit in 64 bits.
std::vector<LayerCost> layer_costs(const Workload& w, const AcceleratorConfig& cfg);

struct CostTotals {
  uint64_t params = 0, gradient_bytes = 0;
  uint64_t forward_cycles = 0, backward_cycles = 0;
};

// The sums over the layers (InputError when a sum does not fit in 64 bits).
CostTotals totals(const std::vector<LayerCost>& costs);

}  // namespace mt::workload
