// The output-stationary systolic-array model against cycles worked out by hand from SCALE-Sim's
// published runtime, cycles = (2R + C + T - 2) * ceil(S_R / R) * ceil(S_C / C) with S_R = m,
// S_C = n, T = k for C[m x n] = A[m x k] * B[k x n] (compute/systolic_model.hpp), on the
// paper's accelerator: R = C = 32, so every fold takes 2*32 + 32 + k - 2 = 94 + k cycles; 16
// samples on 16 PEs, one sample per PE.
#include "compute/systolic_model.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "compute/layer_costs.hpp"
#include "compute/layer_gemms.hpp"

namespace mt::workload {
namespace {

using ::testing::HasSubstr;

Layer conv_layer(const std::string& name, ConvGeometry g) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::kConv;
  l.conv = g;
  return l;
}

Layer fc_layer(const std::string& name, uint64_t inputs, uint64_t outputs) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::kFc;
  l.gemm = GemmGeometry{1, inputs, outputs};
  return l;
}

// The costs of `layer` as the second layer of a workload (so it has an input gradient).
LayerCost cost_of(const Layer& layer, const AcceleratorConfig& cfg = {}) {
  Workload w;
  w.name = "t";
  w.layers = {fc_layer("before", 1, 1), layer};
  validate(w, "t");
  return layer_costs(w, cfg).at(1);
}

TEST(SystolicModel, OneFoldAndManyFolds) {
  // 8 x 8 output, k = 5, on a 32 x 32 array: one fold of 2*32 + 32 + 5 - 2 = 99 cycles.
  OsRuntime r = os_runtime(Gemm{8, 5, 8}, 32, 32);
  EXPECT_EQ(r.row_folds, 1u);
  EXPECT_EQ(r.col_folds, 1u);
  EXPECT_EQ(r.cycles_per_fold, 99u);
  EXPECT_EQ(r.cycles, 99u);
  // 65 x 33 output, k = 10, on 32 x 16: ceil(65/32) = 3 row folds, ceil(33/16) = 3 column
  // folds, 2*32 + 16 + 10 - 2 = 88 cycles each: 9 * 88 = 792.
  r = os_runtime(Gemm{65, 10, 33}, 32, 16);
  EXPECT_EQ(r.row_folds, 3u);
  EXPECT_EQ(r.col_folds, 3u);
  EXPECT_EQ(r.cycles_per_fold, 88u);
  EXPECT_EQ(r.cycles, 792u);
}

TEST(SystolicModel, ConvolutionByHand) {
  // ifmap 10x10 (padding included), 3x3 filter, 16 channels, 40 filters, stride 1.
  // E = (10 - 3)/1 + 1 = 8: 64 output pixels; window 3*3*16 = 144.
  //   forward: m = 64, k = 144, n = 40: 2 x 2 folds of 94 + 144 = 238: 952.
  //   input gradient: H' = (8 - 1)*1 + 3 = 10, m = 100, k = 3*3*40 = 360, n = 16:
  //     4 x 1 folds of 94 + 360 = 454: 1816.
  //   weight gradient: m = 144, k = 64, n = 40: 5 x 2 folds of 94 + 64 = 158: 1580.
  const LayerCost c = cost_of(conv_layer("conv", {10, 10, 3, 3, 16, 40, 1}));
  EXPECT_EQ(c.forward_cycles, 952u);
  EXPECT_EQ(c.input_grad_cycles, 1816u);
  EXPECT_EQ(c.weight_grad_cycles, 1580u);
  EXPECT_EQ(c.backward_cycles(), 1816u + 1580u);
  EXPECT_EQ(c.params, 5760u);           // 3*3*16*40
  EXPECT_EQ(c.gradient_bytes, 23040u);  // 5760 * 4 bytes (32-bit)
}

TEST(SystolicModel, FullyConnectedByHand) {
  // 100 inputs, 50 outputs, one row per sample.
  //   forward: m = 1, k = 100, n = 50: 1 x 2 folds of 94 + 100 = 194: 388.
  //   input gradient: m = 1, k = 50, n = 100: 1 x 4 folds of 94 + 50 = 144: 576.
  //   weight gradient: m = 100, k = 1, n = 50: 4 x 2 folds of 94 + 1 = 95: 760.
  const LayerCost c = cost_of(fc_layer("fc", 100, 50));
  EXPECT_EQ(c.forward_cycles, 388u);
  EXPECT_EQ(c.input_grad_cycles, 576u);
  EXPECT_EQ(c.weight_grad_cycles, 760u);
  EXPECT_EQ(c.params, 5000u);
}

TEST(SystolicModel, StridedConvolutionByHand) {
  // ifmap 12x12, 3x3 filter, 4 channels, 8 filters, stride 2: E = floor((12 - 3)/2) + 1 = 5,
  // 25 output pixels; window 3*3*4 = 36. The windows read rows 0..10: H' = (5 - 1)*2 + 3 = 11.
  //   forward: m = 25, k = 36, n = 8: one fold of 94 + 36 = 130.
  //   input gradient: m = 11*11 = 121, k = 3*3*8 = 72, n = 4: 4 x 1 folds of 94 + 72 = 166: 664.
  //   weight gradient: m = 36, k = 25, n = 8: 2 x 1 folds of 94 + 25 = 119: 238.
  const LayerCost c = cost_of(conv_layer("strided", {12, 12, 3, 3, 4, 8, 2}));
  EXPECT_EQ(c.forward_cycles, 130u);
  EXPECT_EQ(c.input_grad_cycles, 664u);
  EXPECT_EQ(c.weight_grad_cycles, 238u);
}

TEST(SystolicModel, SamplesBeyondThePesStackOnEachPe) {
  // 32 samples on 16 PEs: 2 per PE. The fc layer of FullyConnectedByHand:
  //   forward: m = 2, k = 100, n = 50: still 1 x 2 folds of 194: 388.
  //   weight gradient: m = 100, k = 2, n = 50: 4 x 2 folds of 94 + 2 = 96: 768.
  AcceleratorConfig cfg;
  cfg.batch = 32;
  EXPECT_EQ(samples_per_pe(cfg), 2u);
  const LayerCost c = cost_of(fc_layer("fc", 100, 50), cfg);
  EXPECT_EQ(c.forward_cycles, 388u);
  EXPECT_EQ(c.weight_grad_cycles, 768u);
  // 17 samples on 16 PEs: the busiest PE has 2.
  cfg.batch = 17;
  EXPECT_EQ(samples_per_pe(cfg), 2u);
}

TEST(SystolicModel, InstancesStackLikeSamples) {
  // 3 instances of the strided convolution: forward m = 75, k = 36, n = 8: 3 folds of 130: 390;
  // weight gradient m = 36, k = 75, n = 8: 2 folds of 94 + 75 = 169: 338.
  Layer l = conv_layer("roi", {12, 12, 3, 3, 4, 8, 2});
  l.instances = 3;
  const LayerCost c = cost_of(l);
  EXPECT_EQ(c.forward_cycles, 390u);
  EXPECT_EQ(c.weight_grad_cycles, 338u);
}

TEST(SystolicModel, FirstLayerHasNoInputGradientAndEmbeddingsNoGemm) {
  Workload w;
  w.name = "t";
  Layer e;
  e.name = "table";
  e.kind = LayerKind::kEmbedding;
  e.embedding = EmbeddingGeometry{1000, 8, 1};
  w.layers = {fc_layer("first", 100, 50), e};
  const std::vector<LayerCost> costs = layer_costs(w, AcceleratorConfig{});
  EXPECT_EQ(costs[0].forward_cycles, 388u);
  EXPECT_EQ(costs[0].input_grad_cycles, 0u);
  EXPECT_EQ(costs[0].weight_grad_cycles, 760u);
  EXPECT_EQ(costs[1].forward_cycles + costs[1].backward_cycles(), 0u);
  EXPECT_EQ(costs[1].gradient_bytes, 32000u);  // 1000 * 8 * 4
  const CostTotals t = totals(costs);
  EXPECT_EQ(t.params, 5000u + 8000u);
  EXPECT_EQ(t.forward_cycles, 388u);
  EXPECT_EQ(t.backward_cycles, 760u);
}

TEST(SystolicModel, GivenCyclesPassThrough) {
  Layer g;
  g.name = "given";
  g.kind = LayerKind::kGiven;
  g.given_params = 10;
  g.given = GivenCycles{7, 8, 9, 3};
  const LayerCost c = cost_of(g);
  EXPECT_EQ(c.forward_cycles, 7u);
  EXPECT_EQ(c.input_grad_cycles, 8u);
  EXPECT_EQ(c.weight_grad_cycles, 9u);
  EXPECT_EQ(c.update_cycles, 3u);
  EXPECT_EQ(c.gradient_bytes, 40u);
}

TEST(SystolicModel, BadAcceleratorParametersAreNamed) {
  AcceleratorConfig cfg;
  cfg.pes = 0;
  EXPECT_THROW(
      {
        try {
          validate(cfg);
        } catch (const InputError& e) {
          EXPECT_THAT(e.what(), HasSubstr("PEs is 0"));
          throw;
        }
      },
      InputError);
  cfg = AcceleratorConfig{};
  cfg.clock_hz = 0;
  EXPECT_THROW(validate(cfg), InputError);
  cfg = AcceleratorConfig{};
  cfg.array_cols = 0;
  EXPECT_THROW(layer_costs(Workload{"t", "", {}, {fc_layer("a", 1, 1)}}, cfg), InputError);
}

TEST(SystolicModel, UnvalidatedWorkloadIsRefused) {
  // A stride of 0 would divide by zero in the output size; layer_costs validates first.
  Workload w{"t", "", {}, {conv_layer("c", {10, 10, 3, 3, 1, 1, 0})}};
  try {
    layer_costs(w, AcceleratorConfig{});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("t: layer 0 (c): stride is 0"));
  }
}

TEST(SystolicModel, OverflowIsRefused) {
  const uint64_t huge = uint64_t{1} << 40;
  EXPECT_THROW(os_runtime(Gemm{huge, huge, huge}, 1, 1), InputError);
}

}  // namespace
}  // namespace mt::workload
