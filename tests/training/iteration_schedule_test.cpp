// The iteration's timeline on synthetic layers whose answer is known in closed form, in both
// overlap modes, with a synthetic all-reduce time.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "training/bucketing.hpp"
#include "training/iteration_schedule.hpp"

namespace {

using mt::training::AllReduceSpan;
using mt::training::bucket_gradients;
using mt::training::IterationSchedule;
using mt::training::Overlap;
using mt::training::schedule_iteration;
using mt::training::whole_model_group;
using mt::workload::LayerCost;

LayerCost layer(const char* name, uint64_t bytes, uint64_t fwd, uint64_t ig, uint64_t wg,
                uint64_t update = 0) {
  LayerCost c;
  c.name = name;
  c.params = bytes / 4;
  c.gradient_bytes = bytes;
  c.forward_cycles = fwd;
  c.input_grad_cycles = ig;
  c.weight_grad_cycles = wg;
  c.update_cycles = update;
  return c;
}

// Three layers in forward order, L0 L1 L2:
//   forward        F = 10, 20, 30                  (forward ends at 60)
//   backward       B2 = 15 + 25, B1 = 5 + 5, B0 = 0 + 50 (input + weight gradient; L0 has no
//                  input gradient)
//   gradients      4000, 8000, 16000 bytes
// and an all-reduce of b bytes taking T(b) = 100 + b / 100 cycles: T(4000) = 140,
// T(8000) = 180, T(16000) = 260, T(28000) = 380.
// Back-propagation runs L2, L1, L0: L2's gradient is ready at 60 + 40 = 100, L1's at 110, L0's
// at 160, where back-propagation ends. Compute = 60 + 100 = 160 either way.
std::vector<LayerCost> three_layers() {
  return {layer("L0", 4000, 10, 0, 50), layer("L1", 8000, 20, 5, 5),
          layer("L2", 16000, 30, 15, 25)};
}

uint64_t linear_time(uint64_t bytes) { return 100 + bytes / 100; }

TEST(IterationSchedule, NonOverlappedIsComputeThenTheWholeModel) {
  const std::vector<LayerCost> layers = three_layers();
  const IterationSchedule s =
      schedule_iteration(layers, whole_model_group(layers), Overlap::kNone, linear_time);
  // One all-reduce of 28000 bytes from 160: iteration = 160 + T(28000) = 540; all of it exposed.
  ASSERT_EQ(s.allreduces.size(), 1u);
  EXPECT_EQ(s.allreduces[0].ready, 160u);
  EXPECT_EQ(s.allreduces[0].start, 160u);
  EXPECT_EQ(s.allreduces[0].end, 540u);
  EXPECT_EQ(s.forward_cycles, 60u);
  EXPECT_EQ(s.backward_cycles, 100u);
  EXPECT_EQ(s.compute_cycles, 160u);
  EXPECT_EQ(s.allreduce_cycles, 380u);
  EXPECT_EQ(s.iteration_cycles, 540u);
  EXPECT_EQ(s.exposed_comm_cycles, 380u);
  EXPECT_EQ(s.overlap_cycles, 0u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(s.layers[i].allreduce, 0u);
}

TEST(IterationSchedule, LayerWiseQueuesInFifoOrder) {
  const std::vector<LayerCost> layers = three_layers();
  const IterationSchedule s =
      schedule_iteration(layers, bucket_gradients(layers, 0), Overlap::kLayer, linear_time);
  // L2's all-reduce: ready 100, runs 100..360. L1's: ready 110, waits for L2's, 360..540. L0's:
  // ready 160, waits, 540..680. Iteration 680; all-reduce 260 + 180 + 140 = 580; exposed
  // 680 - 160 = 520; overlap 580 - 520 = 60 (L2's all-reduce during 100..160).
  ASSERT_EQ(s.allreduces.size(), 3u);
  const uint64_t expect[3][4] = {{2, 100, 100, 360}, {1, 110, 360, 540}, {0, 160, 540, 680}};
  for (size_t k = 0; k < 3; ++k) {
    const AllReduceSpan& a = s.allreduces[k];
    ASSERT_EQ(a.group.layers, std::vector<size_t>{expect[k][0]});
    EXPECT_EQ(a.ready, expect[k][1]) << k;
    EXPECT_EQ(a.start, expect[k][2]) << k;
    EXPECT_EQ(a.end, expect[k][3]) << k;
    EXPECT_EQ(s.layers[expect[k][0]].allreduce, k);
    EXPECT_EQ(s.layers[expect[k][0]].backward_end, expect[k][1]);
  }
  EXPECT_EQ(s.compute_cycles, 160u);
  EXPECT_EQ(s.allreduce_cycles, 580u);
  EXPECT_EQ(s.iteration_cycles, 680u);
  EXPECT_EQ(s.exposed_comm_cycles, 520u);
  EXPECT_EQ(s.overlap_cycles, 60u);
}

TEST(IterationSchedule, LayerWiseAllReducesShorterThanBackwardAreHidden) {
  // T = 5: each all-reduce ends before the next gradient is ready: 100..105, 110..115,
  // 160..165. Only the last one is exposed: iteration 165, exposed 5, overlap 15 - 5 = 10.
  const std::vector<LayerCost> layers = three_layers();
  const IterationSchedule s = schedule_iteration(layers, bucket_gradients(layers, 0),
                                                 Overlap::kLayer, [](uint64_t) { return 5; });
  EXPECT_EQ(s.allreduces[0].start, 100u);
  EXPECT_EQ(s.allreduces[1].start, 110u);
  EXPECT_EQ(s.allreduces[2].start, 160u);
  EXPECT_EQ(s.iteration_cycles, 165u);
  EXPECT_EQ(s.exposed_comm_cycles, 5u);
  EXPECT_EQ(s.overlap_cycles, 10u);
}

TEST(IterationSchedule, LayersWithoutParametersSendNothing) {
  std::vector<LayerCost> layers = three_layers();
  layers[1] = layer("pool", 0, 20, 5, 5);
  const IterationSchedule s =
      schedule_iteration(layers, bucket_gradients(layers, 0), Overlap::kLayer, linear_time);
  // L2 100..360, L0 ready 160, 360..500: iteration 500, all-reduce 400, exposed 340.
  ASSERT_EQ(s.allreduces.size(), 2u);
  EXPECT_FALSE(s.layers[1].allreduce.has_value());
  EXPECT_EQ(s.allreduces[1].start, 360u);
  EXPECT_EQ(s.iteration_cycles, 500u);
  EXPECT_EQ(s.allreduce_cycles, 400u);
  EXPECT_EQ(s.exposed_comm_cycles, 340u);
  EXPECT_EQ(s.overlap_cycles, 60u);
}

TEST(IterationSchedule, BucketIsReadyWithItsLastLayer) {
  // L2 and L1 in one bucket of 24000 bytes: ready when L1's gradient is (110), T = 340, so
  // 110..450; L0 160 -> 450..590.
  const std::vector<LayerCost> layers = three_layers();
  const IterationSchedule s =
      schedule_iteration(layers, bucket_gradients(layers, 24000), Overlap::kLayer, linear_time);
  ASSERT_EQ(s.allreduces.size(), 2u);
  EXPECT_EQ(s.allreduces[0].group.layers, (std::vector<size_t>{2, 1}));
  EXPECT_EQ(s.allreduces[0].ready, 110u);
  EXPECT_EQ(s.allreduces[0].end, 450u);
  EXPECT_EQ(s.allreduces[1].end, 590u);
  EXPECT_EQ(s.iteration_cycles, 590u);
}

TEST(IterationSchedule, UpdatesFollowTheirAllReduceAfterBackPropagation) {
  // The layer-wise timeline above with updates of 7 cycles (L2) and 3 (L0): L2's runs at
  // 360..367 (its all-reduce's end), L0's at 680..683. Compute 170, exposed 513, overlap 67.
  std::vector<LayerCost> layers = three_layers();
  layers[2].update_cycles = 7;
  layers[0].update_cycles = 3;
  const IterationSchedule s =
      schedule_iteration(layers, bucket_gradients(layers, 0), Overlap::kLayer, linear_time);
  EXPECT_EQ(s.layers[2].update_start, 360u);
  EXPECT_EQ(s.layers[2].update_end, 367u);
  EXPECT_EQ(s.layers[0].update_start, 680u);
  EXPECT_EQ(s.update_cycles, 10u);
  EXPECT_EQ(s.compute_cycles, 170u);
  EXPECT_EQ(s.iteration_cycles, 683u);
  EXPECT_EQ(s.exposed_comm_cycles, 513u);
  EXPECT_EQ(s.overlap_cycles, 67u);
  // Non-overlapped: updates after the whole all-reduce, 540..550.
  const IterationSchedule n =
      schedule_iteration(layers, whole_model_group(layers), Overlap::kNone, linear_time);
  EXPECT_EQ(n.iteration_cycles, 550u);
  EXPECT_EQ(n.exposed_comm_cycles, 380u);
}

TEST(IterationSchedule, ModelWithoutParametersIsCompute) {
  const std::vector<LayerCost> layers = {layer("a", 0, 10, 0, 0), layer("b", 0, 5, 2, 0)};
  for (Overlap o : {Overlap::kNone, Overlap::kLayer}) {
    const auto groups = o == Overlap::kNone ? whole_model_group(layers) : bucket_gradients(layers, 0);
    const IterationSchedule s = schedule_iteration(layers, groups, o, linear_time);
    EXPECT_TRUE(s.allreduces.empty());
    EXPECT_EQ(s.iteration_cycles, 17u);
    EXPECT_EQ(s.exposed_comm_cycles, 0u);
  }
}

TEST(IterationSchedule, CyclesThatOverflowAreRefused) {
  const std::vector<LayerCost> layers = three_layers();
  EXPECT_THROW(schedule_iteration(layers, whole_model_group(layers), Overlap::kNone,
                                  [](uint64_t) { return ~uint64_t{0}; }),
               mt::InputError);
}

TEST(IterationSchedule, OverlapNames) {
  EXPECT_EQ(mt::training::parse_overlap("none"), Overlap::kNone);
  EXPECT_EQ(mt::training::parse_overlap("layer"), Overlap::kLayer);
  EXPECT_STREQ(mt::training::overlap_name(Overlap::kLayer), "layer");
  EXPECT_THROW(mt::training::parse_overlap("bucket"), mt::InputError);
}

}  // namespace
