#include "training/bucketing.hpp"

#include "plan/plan.hpp"
#include "spec/checked_math.hpp"

namespace mt::training {

namespace {

void add_layer(GradientGroup& g, size_t index, const workload::LayerCost& layer) {
  g.layers.push_back(index);
  g.gradient_bytes = workload::checked_add(g.gradient_bytes, layer.gradient_bytes,
                                           "the gradient bytes of an all-reduce");
}

void close_group(std::vector<GradientGroup>& groups, GradientGroup& g) {
  if (g.layers.empty()) return;
  g.buffer_bytes = allreduce_buffer_bytes(g.gradient_bytes);
  groups.push_back(g);
  g = GradientGroup{};
}

}  // namespace

uint64_t allreduce_buffer_bytes(uint64_t gradient_bytes) {
  const uint64_t elements = workload::ceil_div(gradient_bytes, kElementBytes);
  return workload::checked_mul(elements, kElementBytes, "the all-reduce buffer bytes");
}

std::vector<GradientGroup> whole_model_group(const std::vector<workload::LayerCost>& layers) {
  std::vector<GradientGroup> groups;
  GradientGroup g;
  for (size_t i = layers.size(); i-- > 0;) {
    if (layers[i].params != 0) add_layer(g, i, layers[i]);
  }
  close_group(groups, g);
  return groups;
}

std::vector<GradientGroup> bucket_gradients(const std::vector<workload::LayerCost>& layers,
                                            uint64_t bucket_bytes) {
  std::vector<GradientGroup> groups;
  GradientGroup g;
  for (size_t i = layers.size(); i-- > 0;) {
    const workload::LayerCost& layer = layers[i];
    if (layer.params == 0) continue;
    const bool fits = bucket_bytes != 0 && g.gradient_bytes <= bucket_bytes &&
                      layer.gradient_bytes <= bucket_bytes - g.gradient_bytes;
    if (!fits) close_group(groups, g);
    add_layer(g, i, layer);
  }
  close_group(groups, g);
  return groups;
}

}  // namespace mt::training
