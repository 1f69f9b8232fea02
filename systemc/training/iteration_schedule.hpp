// The timeline of one data-parallel training iteration on one accelerator (every accelerator
// runs the same one): the forward pass of every layer in order, back-propagation in reverse
// order (per layer its input gradient, then its weight gradient: the layer's gradient is ready
// when its back-propagation ends), and the all-reduces of the gradients (the paper's §V-B and
// Fig. 11). Pure arithmetic on the layers' cycles and a function that gives an all-reduce's
// cycles from its buffer bytes; docs/mttrain.md draws the timeline.
//
//   none:  every all-reduce is ready when back-propagation ends (the paper: the whole model
//          in one all-reduce).
//   layer: each all-reduce is ready when the last of its layers (in backward order) has its
//          gradient, and runs while back-propagation goes on (the paper's layer-wise
//          all-reduce).
//
// In both, the all-reduces run one at a time in FIFO order: each starts at max(ready, the
// previous one's end). A layer's weight update (update_cycles; given layers only) runs on the
// accelerator once its all-reduce has ended and back-propagation and earlier updates are done.
// The iteration ends when back-propagation, the last all-reduce and the last update have.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compute/layer_costs.hpp"
#include "training/bucketing.hpp"

namespace mt::training {

enum class Overlap { kNone, kLayer };

Overlap parse_overlap(const std::string& text);  // "none" | "layer", else InputError
const char* overlap_name(Overlap o);

// An all-reduce's cycles from its buffer bytes, in the accelerator's cycles.
using AllReduceCycles = std::function<uint64_t(uint64_t buffer_bytes)>;

// One layer on the timeline (cycles from the iteration's start).
struct LayerSpan {
  uint64_t forward_start = 0, forward_end = 0;
  uint64_t backward_start = 0, backward_end = 0;  // backward_end: the gradient is ready
  std::optional<size_t> allreduce;                // the index of its all-reduce, if it has one
  uint64_t update_start = 0, update_end = 0;      // equal when it has no update cycles
};

// One all-reduce on the timeline.
struct AllReduceSpan {
  GradientGroup group;
  uint64_t ready = 0, start = 0, end = 0;
  uint64_t cycles() const { return end - start; }
};

struct IterationSchedule {
  std::vector<LayerSpan> layers;           // forward order, as the costs
  std::vector<AllReduceSpan> allreduces;   // in the order they run
  uint64_t forward_cycles = 0, backward_cycles = 0, update_cycles = 0;
  uint64_t compute_cycles = 0;       // forward + backward + update: the accelerator's work
  uint64_t allreduce_cycles = 0;     // the sum of the all-reduces' cycles
  uint64_t iteration_cycles = 0;     // start to the end of everything
  uint64_t exposed_comm_cycles = 0;  // iteration - compute: the accelerator waits
  uint64_t overlap_cycles = 0;       // allreduce - exposed: communication hidden by compute
};

// The timeline of `layers` (forward order) whose gradients go in `groups` (in the order they
// become ready: whole_model_group or bucket_gradients), the all-reduces taking `cycles`.
// InputError when a sum of cycles does not fit in 64 bits.
IterationSchedule schedule_iteration(const std::vector<workload::LayerCost>& layers,
                                     const std::vector<GradientGroup>& groups, Overlap overlap,
                                     const AllReduceCycles& cycles);

}  // namespace mt::training
