// The seven bundled models of the paper (§V-B): each reads, writes back to the same bytes, and
// carries the parameter count worked out by hand from its paper's layer table (GEMM weights
// only: no biases, no normalisation parameters; workload/models/README.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "compute/layer_costs.hpp"
#include "models/bundled.hpp"
#include "spec/workload_json.hpp"

namespace mt::workload {
namespace {

using ::testing::HasSubstr;

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(BundledModels, EveryModelReadsAndWritesBackUnchanged) {
  ASSERT_EQ(bundled_model_names().size(), 7u);
  for (const std::string& name : bundled_model_names()) {
    const Workload w = bundled_model(name);
    EXPECT_EQ(w.name, name);
    EXPECT_FALSE(w.source.empty()) << name;
    const std::string path = std::string(MT_SOURCE_DIR) + "/workload/models/" + name + ".json";
    EXPECT_EQ(workload_to_json(w), file_text(path)) << name;
  }
}

TEST(BundledModels, ParameterCountsByHand) {
  // AlexNet: conv 11*11*3*96 + 5*5*96*256 + 3*3*256*384 + 3*3*384*384 + 3*3*384*256
  //   = 34848 + 614400 + 884736 + 1327104 + 884736 = 3745824;
  //   fc 9216*4096 + 4096*4096 + 4096*1000 = 37748736 + 16777216 + 4096000 = 58621952.
  EXPECT_EQ(total_parameters(bundled_model("alexnet")), 3745824u + 58621952u);
  // ResNet-50: conv1 7*7*3*64 = 9408; conv2_x 73728 + 2*69632 = 212992; conv3_x
  //   376832 + 3*278528 = 1212416; conv4_x 1507328 + 5*1114112 = 7077888; conv5_x
  //   6029312 + 2*4456448 = 14942208; fc 2048*1000 = 2048000. Sum 25502912 (the usual 25.56M
  //   less 53120 batch-normalisation parameters and the fc's 1000 biases).
  EXPECT_EQ(total_parameters(bundled_model("resnet50")), 25502912u);
  // Faster R-CNN: the ResNet-50 trunk to conv4_x 9408 + 212992 + 1212416 + 7077888 = 8512704;
  //   RPN 3*3*1024*512 + 512*18 + 512*36 = 4718592 + 9216 + 18432; head conv5_x 14942208 and
  //   fc 2048*21 + 2048*84 = 43008 + 172032. Sum 28416192.
  EXPECT_EQ(total_parameters(bundled_model("fasterrcnn")), 28416192u);
  // AlphaGo Zero: 3*3*17*256 = 39168; 38 convolutions of 3*3*256*256 = 22413312; policy
  //   256*2 + 722*362 = 512 + 261364; value 256*1 + 361*256 + 256*1 = 256 + 92416 + 256.
  EXPECT_EQ(total_parameters(bundled_model("alphagozero")),
            39168u + 22413312u + 512u + 261364u + 256u + 92416u + 256u);
  // NCF: embeddings (138493 + 26744) * (8 + 32) = 6609480; MLP 64*32 + 32*16 + 16*8 + 16*1 = 2704.
  EXPECT_EQ(total_parameters(bundled_model("ncf")), 6609480u + 2704u);
  // Transformer base: the shared embedding 37000*512 = 18944000; per encoder layer 4*512*512
  //   + 2*512*2048 = 3145728, per decoder layer 8*512*512 + 2*512*2048 = 4194304.
  EXPECT_EQ(total_parameters(bundled_model("transformer")),
            18944000u + 6 * 3145728u + 6 * 4194304u);
  // GoogLeNet: conv1 7*7*3*64 + conv2 64*64 + 3*3*64*192 = 9408 + 4096 + 110592; each
  //   inception module cin*(#1x1 + #3x3reduce + #5x5reduce + pool proj) + 9*#3x3reduce*#3x3
  //   + 25*#5x5reduce*#5x5 (Table 1): 3a 163328, 3b 388096, 4a 375552, 4b 448512, 4c 509440,
  //   4d 604672, 4e 867328, 5a 1042432, 5b 1442816; fc 1024*1000. Sum 6990272 (Table 1
  //   rounds its rows and totals 6.8M).
  EXPECT_EQ(total_parameters(bundled_model("googlenet")),
            9408u + 4096u + 110592u + 163328u + 388096u + 375552u + 448512u + 509440u + 604672u +
                867328u + 1042432u + 1442816u + 1024000u);
}

TEST(BundledModels, ResNetConv1CyclesByHand) {
  // conv1: ifmap 230x230 (224 padded by 3), 7x7, 3 channels, 64 filters, stride 2:
  // E = (230 - 7)/2 + 1 = 112 (floor), 12544 pixels, window 147. One sample per PE:
  //   forward: m = 12544, k = 147, n = 64: 392 x 2 folds of 94 + 147 = 241: 188944.
  //   weight gradient: m = 147, k = 12544, n = 64: 5 x 2 folds of 94 + 12544 = 12638: 126380.
  //   input gradient: none (the first layer).
  const std::vector<LayerCost> c = layer_costs(bundled_model("resnet50"), AcceleratorConfig{});
  EXPECT_EQ(c[0].name, "conv1");
  EXPECT_EQ(c[0].forward_cycles, 188944u);
  EXPECT_EQ(c[0].input_grad_cycles, 0u);
  EXPECT_EQ(c[0].weight_grad_cycles, 126380u);
}

TEST(BundledModels, UnknownNameListsTheModels) {
  try {
    bundled_model("vgg16");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("\"vgg16\" is not a bundled model (alexnet, alphagozero"));
  }
}

}  // namespace
}  // namespace mt::workload
