// The workload format's JSON: every kind read and written back unchanged, and every refusal
// (unknown key, negative, fractional or zero size, empty model, repeated key, bad ties) naming
// the file, the layer and the key.
#include "spec/workload_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace mt::workload {
namespace {

using ::testing::HasSubstr;

const std::string kAllKinds = R"({
  "version": 1,
  "name": "every-kind",
  "source": "hand-written",
  "notes": [
    "one layer of each kind"
  ],
  "layers": [
    {"name":"emb","kind":"embedding","rows":100,"dim":8,"lookups":4},
    {"name":"c","kind":"conv","ifmap_h":10,"ifmap_w":9,"filter_h":3,"filter_w":2,"channels":8,"filters":16,"stride":2,"instances":3},
    {"name":"f","kind":"fc","inputs":64,"outputs":10},
    {"name":"g","kind":"gemm","m":4,"k":8,"n":100,"tied_to":"emb"},
    {"name":"mm","kind":"matmul","m":4,"k":8,"n":4,"instances":2},
    {"name":"given","kind":"given","params":12,"forward_cycles":1,"input_grad_cycles":2,"weight_grad_cycles":3,"update_cycles":4}
  ]
}
)";

std::string error_of(const std::string& text) {
  try {
    workload_from_json(text, "m.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A one-layer workload around the layer object `layer`.
std::string with_layer(const std::string& layer) {
  return R"({"version":1,"name":"x","layers":[)" + layer + "]}";
}

TEST(WorkloadJson, ReadsEveryKind) {
  const Workload w = workload_from_json(kAllKinds, "m.json");
  ASSERT_EQ(w.layers.size(), 6u);
  EXPECT_EQ(w.source, "hand-written");
  EXPECT_EQ(w.layers[0].embedding.lookups, 4u);
  EXPECT_EQ(w.layers[1].conv.filter_w, 2u);
  EXPECT_EQ(w.layers[1].instances, 3u);
  EXPECT_EQ(w.layers[2].gemm.m, 1u);
  EXPECT_EQ(w.layers[3].tied_to, "emb");
  EXPECT_EQ(w.layers[5].given.update, 4u);
  // emb 100*8 = 800, conv 3*2*8*16 = 768, fc 640, gemm tied (0), matmul 0, given 12.
  EXPECT_EQ(parameter_count(w.layers[3]), 0u);
  EXPECT_EQ(weight_count(w.layers[3]), 800u);
  EXPECT_EQ(total_parameters(w), 800u + 768u + 640u + 12u);
}

TEST(WorkloadJson, WritesWhatItReads) {
  EXPECT_EQ(workload_to_json(workload_from_json(kAllKinds, "m.json")), kAllKinds);
}

TEST(WorkloadJson, UnknownKeysAreNamed) {
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"fc","inputs":1,"outputs":1,"strid":1})")),
              HasSubstr("m.json: layer 0 (a): \"strid\" is not a key of a fc layer"));
  EXPECT_THAT(error_of(R"({"version":1,"name":"x","layers":[],"comment":""})"),
              HasSubstr("m.json: \"comment\" is not a key of a workload"));
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"pool","inputs":1})")),
              HasSubstr("layer 0 (a): kind \"pool\" is not one of"));
  EXPECT_THAT(
      error_of(with_layer(R"({"name":"a","kind":"matmul","m":1,"k":1,"n":1,"tied_to":"b"})")),
      HasSubstr("\"tied_to\" is not a key of a matmul layer"));
}

TEST(WorkloadJson, NegativeZeroAndFractionalSizesAreNamed) {
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"fc","inputs":-4,"outputs":1})")),
              HasSubstr("m.json: layer 0 (a): inputs is -4; it must not be negative"));
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"fc","inputs":4,"outputs":0})")),
              HasSubstr("m.json: layer 0 (a): outputs is 0; it must be positive"));
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"fc","inputs":4.5,"outputs":1})")),
              HasSubstr("inputs is 4.5; it must be a whole number"));
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"fc","inputs":"4","outputs":1})")),
              HasSubstr("inputs is \"4\", not a number"));
  EXPECT_THAT(error_of(with_layer(R"({"name":"a","kind":"fc","inputs":4})")),
              HasSubstr("layer 0 (a): the key \"outputs\" is missing"));
}

TEST(WorkloadJson, EmptyModelAndMalformedFilesAreRefused) {
  EXPECT_THAT(error_of(R"({"version":1,"name":"x","layers":[]})"),
              HasSubstr("m.json: the workload has no layers"));
  EXPECT_THAT(error_of(R"({"version":2,"name":"x","layers":[]})"), HasSubstr("version 2"));
  EXPECT_THAT(error_of("{\"version\":1,"), HasSubstr("m.json: not valid JSON"));
  EXPECT_THAT(error_of(R"({"version":1,"name":"x","name":"y","layers":[]})"),
              HasSubstr("m.json: the key \"name\" appears twice in one object"));
}

TEST(WorkloadJson, BadTiesAreRefused) {
  const std::string fc = R"({"name":"a","kind":"fc","inputs":4,"outputs":2})";
  EXPECT_THAT(error_of(R"({"version":1,"name":"x","layers":[)" + fc +
                       R"(,{"name":"b","kind":"fc","inputs":2,"outputs":2,"tied_to":"a"}]})"),
              HasSubstr("layer 1 (b): tied_to \"a\": its weight has 8 parameters, this layer's 4"));
  EXPECT_THAT(error_of(R"({"version":1,"name":"x","layers":[{"name":"b","kind":"fc","inputs":4,)"
                       R"("outputs":2,"tied_to":"a"},)" +
                       fc + "]}"),
              HasSubstr("layer 0 (b): tied_to \"a\" names no earlier layer"));
  EXPECT_THAT(error_of(R"({"version":1,"name":"x","layers":[)" + fc + "," + fc +
                       R"(,{"name":"b","kind":"fc","inputs":4,"outputs":2,"tied_to":"a"}]})"),
              HasSubstr("tied_to \"a\" names more than one layer"));
}

TEST(WorkloadJson, OversizedFilterIsRefused) {
  EXPECT_THAT(
      error_of(with_layer(R"({"name":"c","kind":"conv","ifmap_h":2,"ifmap_w":9,)"
                          R"("filter_h":3,"filter_w":3,"channels":1,"filters":1,"stride":1})")),
      HasSubstr("layer 0 (c): the 3x3 filter is larger than the 2x9 ifmap"));
}

}  // namespace
}  // namespace mt::workload
