// Which layers' gradients travel together in one all-reduce: the whole model at once (the
// non-overlapped iteration), one all-reduce per layer with parameters (layer-wise), or
// consecutive layers fused into buckets of up to a byte limit, as data-parallel frameworks fuse
// them (PyTorch DDP's bucket_cap_mb, Horovod's fusion buffer).
#pragma once

#include <cstdint>
#include <vector>

#include "compute/layer_costs.hpp"

namespace mt::training {

// One all-reduce of an iteration and the gradients it sums.
struct GradientGroup {
  std::vector<size_t> layers;   // indices in forward order, listed in backward order
  uint64_t gradient_bytes = 0;  // the sum of their gradient bytes
  uint64_t buffer_bytes = 0;    // the all-reduce buffer: allreduce_buffer_bytes(gradient_bytes)
};

// The size of the all-reduce buffer that carries `gradient_bytes`: the planner takes a positive
// whole number of its 4-byte elements (mt::kElementBytes, every supported dtype), so a count
// that is not a multiple of 4 is padded up to the next one (with 4-byte gradients, never).
// Every other size runs as it is: the planner cuts chunks on 16-byte grains itself, the
// buffer's last chunk ending between two.
uint64_t allreduce_buffer_bytes(uint64_t gradient_bytes);

// Every layer with parameters in one all-reduce; none for a model without parameters.
std::vector<GradientGroup> whole_model_group(const std::vector<workload::LayerCost>& layers);

// The layers with parameters in backward order (last layer first), cut into consecutive groups:
// with `bucket_bytes` 0, one group per layer; otherwise a group takes the next layer while its
// gradient bytes stay within `bucket_bytes`, and a layer larger than the limit is a group of
// its own. Layers without parameters belong to no group. The groups come in the order their
// gradients become ready during back-propagation.
std::vector<GradientGroup> bucket_gradients(const std::vector<workload::LayerCost>& layers,
                                            uint64_t bucket_bytes);

}  // namespace mt::training
