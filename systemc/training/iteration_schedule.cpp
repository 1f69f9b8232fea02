#include "training/iteration_schedule.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "spec/checked_math.hpp"

namespace mt::training {

namespace {

uint64_t add(uint64_t a, uint64_t b) {
  return workload::checked_add(a, b, "the iteration's cycles");
}

// The forward pass in layer order, then back-propagation in reverse; returns its end.
uint64_t place_compute(const std::vector<workload::LayerCost>& layers, IterationSchedule& s) {
  uint64_t t = 0;
  s.layers.resize(layers.size());
  for (size_t i = 0; i < layers.size(); ++i) {
    s.layers[i].forward_start = t;
    t = add(t, layers[i].forward_cycles);
    s.layers[i].forward_end = t;
    s.forward_cycles = add(s.forward_cycles, layers[i].forward_cycles);
  }
  for (size_t i = layers.size(); i-- > 0;) {
    s.layers[i].backward_start = t;
    t = add(add(t, layers[i].input_grad_cycles), layers[i].weight_grad_cycles);
    s.layers[i].backward_end = t;
    s.backward_cycles = add(s.backward_cycles, layers[i].backward_cycles());
  }
  return t;
}

// The all-reduces one at a time, in FIFO order; returns the last one's end (0 without any).
uint64_t place_allreduces(const std::vector<GradientGroup>& groups, Overlap overlap,
                          uint64_t backward_end, const AllReduceCycles& cycles,
                          IterationSchedule& s) {
  uint64_t previous_end = 0;
  for (const GradientGroup& g : groups) {
    AllReduceSpan a;
    a.group = g;
    a.ready = overlap == Overlap::kNone ? backward_end : 0;
    for (size_t l : g.layers) {
      if (overlap == Overlap::kLayer) a.ready = std::max(a.ready, s.layers.at(l).backward_end);
      s.layers.at(l).allreduce = s.allreduces.size();
    }
    a.start = std::max(a.ready, previous_end);
    a.end = add(a.start, cycles(g.buffer_bytes));
    previous_end = a.end;
    s.allreduce_cycles = add(s.allreduce_cycles, a.cycles());
    s.allreduces.push_back(a);
  }
  return previous_end;
}

// The weight updates on the accelerator after back-propagation, each once its all-reduce has
// ended (a layer without one: at once), in the order they become possible; returns the end.
uint64_t place_updates(const std::vector<workload::LayerCost>& layers, uint64_t backward_end,
                       IterationSchedule& s) {
  std::vector<size_t> order;  // backward order, then stably by when each may start
  for (size_t i = layers.size(); i-- > 0;) order.push_back(i);
  auto eligible = [&](size_t i) {
    const std::optional<size_t> a = s.layers[i].allreduce;
    return a ? std::max(backward_end, s.allreduces[*a].end) : backward_end;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return eligible(x) < eligible(y); });
  uint64_t free = backward_end;
  for (size_t i : order) {
    LayerSpan& span = s.layers[i];
    span.update_start = span.update_end = eligible(i);
    if (layers[i].update_cycles == 0) continue;
    span.update_start = std::max(span.update_start, free);
    span.update_end = free = add(span.update_start, layers[i].update_cycles);
    s.update_cycles = add(s.update_cycles, layers[i].update_cycles);
  }
  return free;
}

}  // namespace

Overlap parse_overlap(const std::string& text) {
  if (text == "none") return Overlap::kNone;
  if (text == "layer") return Overlap::kLayer;
  throw InputError(fmt::format("--overlap {}: unknown (none or layer)", text));
}

const char* overlap_name(Overlap o) { return o == Overlap::kNone ? "none" : "layer"; }

IterationSchedule schedule_iteration(const std::vector<workload::LayerCost>& layers,
                                     const std::vector<GradientGroup>& groups, Overlap overlap,
                                     const AllReduceCycles& cycles) {
  IterationSchedule s;
  const uint64_t backward_end = place_compute(layers, s);
  const uint64_t allreduce_end = place_allreduces(groups, overlap, backward_end, cycles, s);
  const uint64_t update_end = place_updates(layers, backward_end, s);
  s.iteration_cycles = std::max({backward_end, allreduce_end, update_end});
  s.compute_cycles = add(add(s.forward_cycles, s.backward_cycles), s.update_cycles);
  // The accelerator computes without a gap until back-propagation ends and then only waits or
  // updates, and the all-reduces run without a gap once all are ready: so compute <= iteration
  // <= compute + allreduce, and both differences below are at least 0.
  s.exposed_comm_cycles = s.iteration_cycles - s.compute_cycles;
  s.overlap_cycles = s.allreduce_cycles - s.exposed_comm_cycles;
  return s;
}

}  // namespace mt::training
