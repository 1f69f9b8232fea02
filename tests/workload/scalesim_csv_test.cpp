// The SCALE-Sim topology importer: a hand-written CSV in SCALE-Sim's own layout (trailing
// commas, a blank line, a fully connected layer written as a 1x1 convolution) becomes conv
// layers field for field; bad input names the file, the line and the column.
#include "import/scalesim_csv.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"

namespace mt::workload {
namespace {

using ::testing::HasSubstr;

const std::string kHeader =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,\n";

// The exception's message when parsing `text` as "net.csv" throws InputError.
std::string error_of(const std::string& text) {
  try {
    workload_from_scalesim_csv(text, "net.csv", "net");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ScaleSimCsv, ReadsEveryColumnOfEveryLayer) {
  const std::string csv = kHeader +
                          "Conv1,  227, 227,  11, 11,  3,  96,  4,\n"
                          "\n"
                          "Conv2, 31, 29, 5, 3, 96, 256, 1,\r\n"
                          "FC6, 1, 1, 1, 1, 9216, 4096, 1,\n";
  const Workload w = workload_from_scalesim_csv(csv, "net.csv", "net");
  EXPECT_EQ(w.name, "net");
  ASSERT_EQ(w.layers.size(), 3u);
  const ConvGeometry& c2 = w.layers[1].conv;
  EXPECT_EQ(w.layers[1].name, "Conv2");
  EXPECT_EQ(w.layers[1].kind, LayerKind::kConv);
  EXPECT_EQ(c2.ifmap_h, 31u);
  EXPECT_EQ(c2.ifmap_w, 29u);
  EXPECT_EQ(c2.filter_h, 5u);
  EXPECT_EQ(c2.filter_w, 3u);
  EXPECT_EQ(c2.channels, 96u);
  EXPECT_EQ(c2.filters, 256u);
  EXPECT_EQ(c2.stride, 1u);
  EXPECT_EQ(w.layers[0].conv.stride, 4u);
  // Parameters: 11*11*3*96 = 34848, 5*3*96*256 = 368640, 9216*4096 = 37748736.
  EXPECT_EQ(parameter_count(w.layers[0]), 34848u);
  EXPECT_EQ(parameter_count(w.layers[1]), 368640u);
  EXPECT_EQ(parameter_count(w.layers[2]), 37748736u);
  EXPECT_EQ(total_parameters(w), 34848u + 368640u + 37748736u);
}

TEST(ScaleSimCsv, TakesColumnsByHeaderNameWithoutTrailingComma) {
  const std::string csv =
      "Strides,Num Filter,Channels,Filter Width,Filter Height,IFMAP Width,IFMAP Height,Layer name\n"
      "2,8,4,3,3,12,11,a\n";
  const Workload w = workload_from_scalesim_csv(csv, "net.csv", "net");
  ASSERT_EQ(w.layers.size(), 1u);
  EXPECT_EQ(w.layers[0].name, "a");
  EXPECT_EQ(w.layers[0].conv.stride, 2u);
  EXPECT_EQ(w.layers[0].conv.filters, 8u);
  EXPECT_EQ(w.layers[0].conv.channels, 4u);
  EXPECT_EQ(w.layers[0].conv.ifmap_w, 12u);
  EXPECT_EQ(w.layers[0].conv.ifmap_h, 11u);
}

TEST(ScaleSimCsv, UnknownColumnNamesFileLineAndColumn) {
  const std::string csv =
      "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filters, "
      "Strides\nc,5,5,3,3,1,1,1\n";
  const std::string e = error_of(csv);
  EXPECT_THAT(e, HasSubstr("net.csv:1, column 7"));
  EXPECT_THAT(e, HasSubstr("\"Num Filters\" is not a SCALE-Sim topology column"));
}

TEST(ScaleSimCsv, MissingAndRepeatedColumnsAreNamed) {
  EXPECT_THAT(error_of("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                       "Channels, Num Filter\nc,5,5,3,3,1,1\n"),
              HasSubstr("net.csv:1: the column \"Strides\" is missing"));
  EXPECT_THAT(error_of("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                       "Channels, Num Filter, Strides, Channels\nc,5,5,3,3,1,1,1,1\n"),
              HasSubstr("net.csv:1, column 9: \"Channels\" is also column 6"));
}

TEST(ScaleSimCsv, NegativeZeroAndNonNumericSizesNameLineAndColumn) {
  EXPECT_THAT(error_of(kHeader + "ok,5,5,3,3,1,1,1,\nbad,5,5,3,3,-2,1,1,\n"),
              HasSubstr("net.csv:3, column 6 (Channels): \"-2\" is negative"));
  EXPECT_THAT(error_of(kHeader + "bad,5,5,3,3,2,0,1,\n"),
              HasSubstr("net.csv:2, column 7 (Num Filter): 0; it must be positive"));
  EXPECT_THAT(error_of(kHeader + "bad,5,5.5,3,3,2,1,1,\n"),
              HasSubstr("net.csv:2, column 3 (IFMAP Width): \"5.5\" is not a whole number"));
  EXPECT_THAT(error_of(kHeader + "bad,5,,3,3,2,1,1,\n"),
              HasSubstr("net.csv:2, column 3 (IFMAP Width): the field is empty"));
}

TEST(ScaleSimCsv, LinesOfAnotherFieldCountAreRefused) {
  // SCALE-Sim's own Transformer.csv has a title line "Transformer," under its header.
  EXPECT_THAT(error_of(kHeader + "Transformer,\n"),
              HasSubstr("net.csv:2: 1 fields; the header has 8"));
  EXPECT_THAT(error_of(kHeader + "c,5,5,3,3,1,1,1,7,\n"), HasSubstr("net.csv:2: 9 fields"));
}

TEST(ScaleSimCsv, EmptyModelAndOversizedFilterAreRefused) {
  EXPECT_THAT(error_of(kHeader), HasSubstr("net.csv: the workload has no layers"));
  EXPECT_THAT(error_of(kHeader + ",,,,,,,,\n"), HasSubstr("net.csv: the workload has no layers"));
  EXPECT_THAT(error_of(""), HasSubstr("net.csv: the file is empty"));
  EXPECT_THAT(error_of(kHeader + "big,3,3,5,5,1,1,1,\n"),
              HasSubstr("net.csv: line 2 (big): the 5x5 filter is larger than the 3x3 ifmap"));
}

TEST(ScaleSimCsv, MissingFileIsNamed) {
  try {
    read_scalesim_csv("/nonexistent/net.csv");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/net.csv: cannot open"));
  }
}

}  // namespace
}  // namespace mt::workload
