// Which gradients go in which all-reduce: buckets keep every byte and the backward order.
#include <gtest/gtest.h>

#include "training/bucketing.hpp"

namespace {

using mt::training::allreduce_buffer_bytes;
using mt::training::bucket_gradients;
using mt::training::GradientGroup;
using mt::training::whole_model_group;
using mt::workload::LayerCost;

std::vector<LayerCost> layers_of(const std::vector<uint64_t>& bytes) {
  std::vector<LayerCost> layers;
  for (uint64_t b : bytes) {
    LayerCost c;
    c.name = "l" + std::to_string(layers.size());
    c.params = b / 4;
    c.gradient_bytes = b;
    layers.push_back(c);
  }
  return layers;
}

// The groups' layers one after the other, and their bytes.
std::vector<size_t> flattened(const std::vector<GradientGroup>& groups, uint64_t& bytes) {
  std::vector<size_t> order;
  bytes = 0;
  for (const GradientGroup& g : groups) {
    order.insert(order.end(), g.layers.begin(), g.layers.end());
    bytes += g.gradient_bytes;
    EXPECT_EQ(g.buffer_bytes, g.gradient_bytes);
  }
  return order;
}

TEST(Bucketing, FusesConsecutiveLayersUpToTheLimit) {
  // Backward order: l5 (30000, over the limit: alone), l4 + l3 (2000 + 16000), l2 (8000 would
  // take it past 20000), l1 has no parameters, l2 + l0 (8000 + 4000).
  const std::vector<LayerCost> layers = layers_of({4000, 0, 8000, 16000, 2000, 30000});
  const std::vector<GradientGroup> g = bucket_gradients(layers, 20000);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].layers, (std::vector<size_t>{5}));
  EXPECT_EQ(g[1].layers, (std::vector<size_t>{4, 3}));
  EXPECT_EQ(g[2].layers, (std::vector<size_t>{2, 0}));
  EXPECT_EQ(g[1].gradient_bytes, 18000u);
  EXPECT_EQ(g[2].gradient_bytes, 12000u);
}

TEST(Bucketing, ConservesBytesAndBackwardOrder) {
  const std::vector<LayerCost> layers = layers_of({4000, 0, 8000, 16000, 2000, 30000, 4, 12});
  const std::vector<size_t> backward = {7, 6, 5, 4, 3, 2, 0};  // with parameters
  for (uint64_t limit : {0ull, 1ull, 16ull, 10000ull, 20000ull, 60016ull, 1ull << 40}) {
    uint64_t bytes = 0;
    EXPECT_EQ(flattened(bucket_gradients(layers, limit), bytes), backward) << limit;
    EXPECT_EQ(bytes, 60016u) << limit;
    for (const GradientGroup& g : bucket_gradients(layers, limit)) {
      EXPECT_TRUE(g.layers.size() == 1 || g.gradient_bytes <= limit) << limit;
    }
  }
  EXPECT_EQ(bucket_gradients(layers, 0).size(), 7u);             // one per layer
  EXPECT_EQ(bucket_gradients(layers, 1ull << 40).size(), 1u);    // everything fits
  uint64_t bytes = 0;
  EXPECT_EQ(flattened(whole_model_group(layers), bytes), backward);
  EXPECT_EQ(bytes, 60016u);
  EXPECT_EQ(whole_model_group(layers).size(), 1u);
}

TEST(Bucketing, NoParametersNoGroups) {
  const std::vector<LayerCost> layers = layers_of({0, 0});
  EXPECT_TRUE(bucket_gradients(layers, 0).empty());
  EXPECT_TRUE(bucket_gradients(layers, 100).empty());
  EXPECT_TRUE(whole_model_group(layers).empty());
}

TEST(Bucketing, BuffersArePaddedToWholeElements) {
  EXPECT_EQ(allreduce_buffer_bytes(4), 4u);
  EXPECT_EQ(allreduce_buffer_bytes(6), 8u);
  EXPECT_EQ(allreduce_buffer_bytes(65536), 65536u);
  EXPECT_EQ(allreduce_buffer_bytes(65537), 65540u);
  std::vector<LayerCost> layers = layers_of({4000, 4000});
  layers[0].gradient_bytes = 2001;  // a 2-byte element's gradient: 1000.5 elements of 4 bytes
  const std::vector<GradientGroup> g = bucket_gradients(layers, 0);
  EXPECT_EQ(g[1].gradient_bytes, 2001u);
  EXPECT_EQ(g[1].buffer_bytes, 2004u);
  EXPECT_EQ(whole_model_group(layers)[0].buffer_bytes, 6004u);
}

}  // namespace
