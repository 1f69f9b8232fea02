// The ASTRA-sim text importer: a DATA workload's layers become given layers with the file's
// cycles and the weight-gradient bytes as 32-bit parameters; bad input names the line and field.
#include "import/astrasim_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace mt::workload {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::string& text) {
  try {
    workload_from_astrasim_text(text, "w.txt", "w");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kLayer2 = "fc\t-1\t10\tNONE\t0\t20\tNONE\t0\t30\tNONE\t0\t0\n";

TEST(AstraSimText, ReadsDataParallelLayers) {
  const std::string text =
      "DATA\n2\nconv1 -1 13003 NONE 0 12864 NONE 0 32291 ALLREDUCE 37632 3229\n\n" + kLayer2;
  const Workload w = workload_from_astrasim_text(text, "w.txt", "w");
  ASSERT_EQ(w.layers.size(), 2u);
  const Layer& l = w.layers[0];
  EXPECT_EQ(l.name, "conv1");
  EXPECT_EQ(l.kind, LayerKind::kGiven);
  EXPECT_EQ(l.given.forward, 13003u);
  EXPECT_EQ(l.given.input_grad, 12864u);
  EXPECT_EQ(l.given.weight_grad, 32291u);
  EXPECT_EQ(l.given.update, 3229u);
  EXPECT_EQ(parameter_count(l), 9408u);  // 37632 bytes / 4: 7*7*3*64
  EXPECT_EQ(parameter_count(w.layers[1]), 0u);
  // With 2-byte elements the same bytes are twice the parameters.
  EXPECT_EQ(parameter_count(workload_from_astrasim_text(text, "w.txt", "w", 2).layers[0]), 18816u);
}

TEST(AstraSimText, OtherParallelismAndCountsAreRefused) {
  EXPECT_THAT(error_of("HYBRID_TRANSFORMER\n1\n" + kLayer2),
              HasSubstr("w.txt:1: the parallelism is \"HYBRID_TRANSFORMER\"; only DATA"));
  EXPECT_THAT(error_of("DATA\n2\n" + kLayer2),
              HasSubstr("w.txt:2: the file has 1 layer lines; the count names 2"));
  EXPECT_THAT(error_of("DATA\n1\n" + kLayer2 + kLayer2),
              HasSubstr("w.txt:4: a layer line after the 1"));
  EXPECT_THAT(error_of("DATA\n0\n"), HasSubstr("w.txt: the workload has no layers"));
  EXPECT_THAT(error_of("DATA\n-3\n"), HasSubstr("w.txt:2, the layer count: \"-3\" is negative"));
}

TEST(AstraSimText, BadFieldsAreNamed) {
  EXPECT_THAT(error_of("DATA\n1\nfc -1 10 NONE 0 20 NONE 0 30 NONE 0\n"),
              HasSubstr("w.txt:3: 11 fields; a layer line has 12"));
  EXPECT_THAT(error_of("DATA\n1\nfc -1 -10 NONE 0 20 NONE 0 30 NONE 0 0\n"),
              HasSubstr("w.txt:3, field 3 (forward compute cycles): \"-10\" is negative"));
  EXPECT_THAT(error_of("DATA\n1\nfc x 10 NONE 0 20 NONE 0 30 NONE 0 0\n"),
              HasSubstr("w.txt:3, field 2 (reserved): \"x\" is not an integer"));
  EXPECT_THAT(error_of("DATA\n1\nfc -1 10 ALLGATHER 64 20 NONE 0 30 NONE 0 0\n"),
              HasSubstr("w.txt:3, field 4 (forward collective): ALLGATHER"));
  EXPECT_THAT(
      error_of("DATA\n1\nfc -1 10 NONE 0 20 NONE 0 30 BROADCAST 64 0\n"),
      HasSubstr("field 10 (weight-gradient collective): \"BROADCAST\" is not a collective"));
  EXPECT_THAT(error_of("DATA\n1\nfc -1 10 NONE 0 20 NONE 0 30 ALLREDUCE 6 0\n"),
              HasSubstr("field 11 (weight-gradient bytes): 6 bytes is not a positive multiple"));
  EXPECT_THAT(error_of("DATA\n1\nfc -1 10 NONE 0 20 NONE 0 30 NONE 64 0\n"),
              HasSubstr("field 11 (weight-gradient bytes): 64 bytes with NONE"));
}

}  // namespace
}  // namespace mt::workload
