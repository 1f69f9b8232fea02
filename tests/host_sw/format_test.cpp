// The one description of the shared formats (format/ni_formats.json): its layouts are
// consistent, and the Verilog include the build generates says what the C++ header says.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "ni_formats.hpp"

namespace mt::format {
namespace {

TEST(Format, HeaderFieldsTileTheHeaderWithTheCrcLast) {
  uint32_t at = 0;
  for (const ByteField& f : image::kHeader) {
    EXPECT_EQ(f.offset, at) << f.name;
    EXPECT_TRUE(f.bytes == 1 || f.bytes == 2 || f.bytes == 4 || f.bytes == 8) << f.name;
    at += f.bytes;
  }
  EXPECT_EQ(at, image::kHeaderBytes);
  EXPECT_EQ(image::field::kCrc32.offset + image::field::kCrc32.bytes, image::kHeaderBytes);
}

TEST(Format, HeadFieldsOfEachKindAreDisjointAndFitTheFlit) {
  std::map<std::string, BitField> by_name;
  for (const BitField& f : flit::kHead) by_name[f.name] = f;
  auto check = [&](const auto& names) {
    std::set<uint32_t> used;
    for (const char* n : names) {
      ASSERT_TRUE(by_name.count(n)) << n;
      const BitField& f = by_name[n];
      EXPECT_LE(f.lsb + f.bits, flit::kDataBits) << n;
      for (uint32_t b = f.lsb; b < f.lsb + f.bits; ++b) EXPECT_TRUE(used.insert(b).second) << n;
    }
  };
  check(flit::kNormalHeadFields);
  check(flit::kSubHeadFields);
  check(flit::kRoutedSubHeadFields);
  EXPECT_EQ(flit::kRouteBits, by_name["route_lo"].bits + by_name["route_hi"].bits);
  EXPECT_GE(by_name["next"].bits, flit::kPortBits);
  EXPECT_GE(by_name["eject"].bits, flit::kPortBits);
  EXPECT_EQ(by_name["op"].bits, image::kOpBits);
}

TEST(Format, RegistersLieAboveTheImageWindow) {
  for (uint64_t r : {config::kRegLength, config::kRegLoad, config::kRegStatus,
                     config::kRegEntries}) {
    EXPECT_GE(r, config::kImageBase + config::kImageWindow);
    EXPECT_EQ(r % 4, 0u);
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The generated package: beside the include, in the same directory.
std::string package_path() {
  const std::string svh = MT_FORMAT_SVH;
  return svh.substr(0, svh.rfind('/') + 1) + "ni_formats_pkg.sv";
}

// Every `localparam ... NAME = VALUE;` of a generated Verilog file (the include by default).
std::map<std::string, uint64_t> svh_params(const std::string& path = MT_FORMAT_SVH) {
  const std::string text = read_text(path);
  const std::regex re(
      R"(localparam [^=]*\b([A-Z0-9_]+) = (?:32'h([0-9a-f]+)|(?:[0-9]+'d)?([0-9]+));)");
  std::map<std::string, uint64_t> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    const auto& m = *it;
    out[m[1]] = m[2].matched ? std::stoull(m[2], nullptr, 16) : std::stoull(m[3]);
  }
  return out;
}

// Port lists name the package's constants, module bodies the include's: the same ones.
TEST(Format, VerilogPackageHoldsTheIncludesConstants) {
  const std::string text = read_text(package_path());
  EXPECT_NE(text.find("\npackage ni_formats_pkg;\n"), std::string::npos);
  EXPECT_NE(text.find("\nendpackage\n"), std::string::npos);
  const auto pkg = svh_params(package_path());
  EXPECT_GT(pkg.size(), 50u);
  EXPECT_EQ(pkg, svh_params());
  EXPECT_EQ(pkg.at("FLIT_DATA_BITS"), flit::kDataBits);
  EXPECT_EQ(pkg.at("FLIT_TYPE_BITS"), flit::kTypeBits);
}

TEST(Format, VerilogIncludeAgreesWithTheCppHeader) {
  const auto p = svh_params();
  auto expect = [&](const char* name, uint64_t v) {
    ASSERT_TRUE(p.count(name)) << name;
    EXPECT_EQ(p.at(name), v) << name;
  };
  expect("IMG_MAGIC", image::kMagicLe);
  expect("IMG_VERSION", image::kVersion);
  expect("IMG_HEADER_BYTES", image::kHeaderBytes);
  expect("IMG_NODE_ID_OFFSET", image::field::kNodeId.offset);
  expect("IMG_BASE_ADDR_BYTES", image::field::kBaseAddr.bytes);
  expect("IMG_CRC32_OFFSET", image::field::kCrc32.offset);
  expect("OP_REDUCE", op::kReduce);
  expect("OP_GATHER", op::kGather);
  expect("DTYPE_FP32", dtype::kFp32);
  expect("FLIT_TYPE_SUB_MESSAGE_TAIL", flit_type::kSubMessageTail);
  expect("PORT_LOCAL3", port::kLocal3);
  expect("TABLE_STATUS_ERROR", table_status::kError);
  expect("FLIT_DATA_BITS", flit::kDataBits);
  for (const BitField& f : flit::kHead) {
    std::string up = f.name;
    for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    expect(("HEAD_" + up + "_LSB").c_str(), f.lsb);
    expect(("HEAD_" + up + "_BITS").c_str(), f.bits);
  }
  expect("TABLE_ERROR_BITS", table_error::kBits);
  expect("TABLE_ERROR_CRC", table_error::kCrc);
  expect("TABLE_ERROR_ORDER", table_error::kOrder);
  expect("RUN_ERROR_BITS", run_error::kBits);
  expect("RUN_ERROR_REDUCING", run_error::kReducing);
  expect("RUN_ERROR_BLOCKS", run_error::kBlocks);
  expect("CFG_IMAGE_WINDOW", config::kImageWindow);
  expect("CFG_REG_LOAD", config::kRegLoad);
  expect("CFG_REG_ENTRIES", config::kRegEntries);
  uint32_t header_fields = 0;
  for (const auto& [name, v] : p) header_fields += name.rfind("IMG_", 0) == 0 && name.size() > 7 &&
                                                   name.compare(name.size() - 7, 7, "_OFFSET") == 0;
  EXPECT_EQ(header_fields, std::size(image::kHeader));
}

// The error codes: a text for each, the table's codes within their port, a run error per bit.
TEST(Format, ErrorCodesHaveTheirTexts) {
  EXPECT_EQ(std::size(table_error::kText), table_error::kOrder + 1);
  EXPECT_LE(std::size(table_error::kText), size_t{1} << table_error::kBits);
  EXPECT_GT(std::size(table_error::kText), size_t{1} << (table_error::kBits - 1));
  EXPECT_STREQ(table_error::kText[table_error::kNone], "none");
  EXPECT_EQ(std::size(run_error::kText), run_error::kBits);
  EXPECT_NE(std::string(run_error::kText[run_error::kReducing]).find("NiConfig::reducing_blocks"),
            std::string::npos);
}

}  // namespace
}  // namespace mt::format
