// Schedule-table images: CRC, bit layout, binary/hex/JSON round trips, image sets on disk and
// every rejection the decoder promises (host_sw/image/IMAGE_FORMAT.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "image/image.hpp"

namespace mt {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using nlohmann::json;

// The what() of the InputError f throws; a test failure if it throws none.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

TableEntry entry(Op op, uint32_t flow, uint32_t parent, std::vector<uint32_t> children,
                 uint32_t step, uint64_t start_addr, uint64_t size) {
  TableEntry e;
  e.op = op;
  e.flow = flow;
  e.parent = parent;
  e.children = std::move(children);
  e.step = step;
  e.start_addr = start_addr;
  e.size = size;
  return e;
}

// N = 4, flows = 3, T = 2, K = 2, addr 16 / size 13 bits. Widths: op 2, flow 2, node 3,
// step 3 -> op [1:0] flow [3:2] parent [6:4] child0 [9:7] child1 [12:10] step [15:13]
// start_addr [31:16] size [44:32], pad [47:45]; 45 bits in 6 bytes. Node 0's table is the
// worked example of IMAGE_FORMAT.md.
TableSet small_set() {
  TableSet s;
  s.topology = "torus:2x2";
  s.algorithm = "multitree";
  s.nodes = 4;
  s.flows = 3;
  s.steps_per_phase = 2;
  s.children_slots = 2;
  s.bytes = 64;
  s.dtype = DType::kFp32;
  s.base_addr = 0x1000;
  s.tables.resize(4);
  for (uint32_t n = 0; n < 4; ++n) s.tables[n].node = n;
  s.tables[0].entries = {entry(Op::kReduce, 2, 1, {3}, 2, 0x1010, 0x10),
                         entry(Op::kGather, 2, 1, {3}, 3, 0x1010, 0x10)};
  s.tables[1].entries = {entry(Op::kReduce, 2, kNil, {0, 2}, 2, 0x1010, 0x10),
                         entry(Op::kGather, 2, kNil, {0, 2}, 3, 0x1010, 0x10),
                         entry(Op::kNop, 0, kNil, {}, 4, 0x1000, 0x10)};
  s.tables[2].entries = {entry(Op::kReduce, 2, 1, {}, 1, 0x1010, 0x10),
                         entry(Op::kNop, 1, kNil, {}, 2, 0x1000, 0x10),
                         entry(Op::kGather, 2, 1, {}, 4, 0x1010, 0x10)};
  // Node 3 has an empty table.
  return s;
}

const ImageOptions kSmallOpt{16, 13};
constexpr size_t kHeader = 60;
constexpr size_t kEntryBytes = 6;

// Test-side bit poking, written independently of the codec's packer.
void poke(std::vector<uint8_t>& img, size_t entry_index, uint32_t lsb, uint32_t width,
          uint64_t value) {
  const size_t base = kHeader + entry_index * kEntryBytes;
  for (uint32_t i = 0; i < width; ++i) {
    const size_t bit = lsb + i;
    uint8_t& byte = img[base + bit / 8];
    const auto mask = static_cast<uint8_t>(1u << (bit % 8));
    byte = ((value >> i) & 1u) ? static_cast<uint8_t>(byte | mask)
                               : static_cast<uint8_t>(byte & ~mask);
  }
}

void put_u(std::vector<uint8_t>& img, size_t offset, size_t bytes, uint64_t v) {
  for (size_t i = 0; i < bytes; ++i) img[offset + i] = static_cast<uint8_t>(v >> (8 * i));
}

void refresh_crc(std::vector<uint8_t>& img) {
  put_u(img, 56, 4, image_crc(img));
}

std::vector<uint8_t> small_image(uint32_t node = 0) {
  return encode_image(small_set(), node, kSmallOpt);
}

// Decodes `img` after fixing its CRC, so the check under test is the one that fires.
std::string decode_error(std::vector<uint8_t> img, const ImageExpect& expect = {}) {
  refresh_crc(img);
  return error_of([&] { decode_image(img, expect); });
}

void expect_same_set(const TableSet& a, const TableSet& b) {
  EXPECT_EQ(a.topology, b.topology);
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.flows, b.flows);
  EXPECT_EQ(a.steps_per_phase, b.steps_per_phase);
  EXPECT_EQ(a.children_slots, b.children_slots);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.base_addr, b.base_addr);
  ASSERT_EQ(a.tables.size(), b.tables.size());
  for (size_t n = 0; n < a.tables.size(); ++n) {
    EXPECT_EQ(a.tables[n].node, b.tables[n].node);
    EXPECT_EQ(a.tables[n].entries, b.tables[n].entries) << "table " << n;
  }
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("image_test_" + std::to_string(rd()) + "_" +
                                         std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// ---- CRC ---------------------------------------------------------------------------------

TEST(ImageCrc, CoversHeaderBeforeTheFieldAndEveryEntryByte) {
  std::vector<uint8_t> img = small_image();
  const uint32_t crc = image_crc(img);
  img[56] ^= 0xff;  // the crc32 field itself is not covered
  EXPECT_EQ(image_crc(img), crc);
  img[55] ^= 1;
  EXPECT_NE(image_crc(img), crc);
  img[55] ^= 1;
  img.back() ^= 0x80;
  EXPECT_NE(image_crc(img), crc);
  EXPECT_THROW(image_crc(std::vector<uint8_t>(59, 0)), InputError);
}

// ---- Layout ------------------------------------------------------------------------------

TEST(ImageLayout, WidthsFollowTheFormulas) {
  const ImageLayout l = image_layout(small_set(), kSmallOpt);
  EXPECT_EQ(l.children_slots, 2u);
  EXPECT_EQ(l.op_bits, 2u);
  EXPECT_EQ(l.flow_bits, 2u);  // flows 3 -> values 0..2
  EXPECT_EQ(l.node_bits, 3u);  // nodes 4 -> 0b100; nil 0b111
  EXPECT_EQ(l.step_bits, 3u);  // 2T = 4
  EXPECT_EQ(l.addr_bits, 16u);
  EXPECT_EQ(l.size_bits, 13u);
  EXPECT_EQ(l.entry_bits, 45u);
  EXPECT_EQ(l.entry_bytes, 6u);
}

TEST(ImageLayout, EdgeWidths) {
  TableSet s = small_set();
  s.nodes = 1;
  s.flows = 1;
  s.steps_per_phase = 1;
  s.children_slots = 0;
  ImageLayout l = image_layout(s, {64, 64});
  EXPECT_EQ(l.node_bits, 1u);  // node 0, nil 1
  EXPECT_EQ(l.flow_bits, 1u);  // at least one bit
  EXPECT_EQ(l.step_bits, 2u);  // 2T = 2 = 0b10
  EXPECT_EQ(l.entry_bits, 2u + 1 + 1 + 2 + 64 + 64);
  EXPECT_EQ(l.entry_bytes, 17u);
  s.nodes = 8;  // a power of two needs one bit more than its largest id
  s.flows = 9;
  s.steps_per_phase = 4;
  l = image_layout(s, {});
  EXPECT_EQ(l.node_bits, 4u);
  EXPECT_EQ(l.flow_bits, 4u);
  EXPECT_EQ(l.step_bits, 4u);
}

TEST(ImageLayout, RejectsImpossibleParameters) {
  TableSet s = small_set();
  EXPECT_THAT(error_of([&] { image_layout(s, {0, 32}); }), HasSubstr("addr_bits"));
  EXPECT_THAT(error_of([&] { image_layout(s, {32, 65}); }), HasSubstr("size_bits"));
  s.children_slots = 256;
  EXPECT_THAT(error_of([&] { image_layout(s, {}); }), HasSubstr("children_slots"));
  s = small_set();
  s.nodes = 0;
  EXPECT_THAT(error_of([&] { image_layout(s, {}); }), HasSubstr("nodes = 0"));
}

// ---- Binary: exact bytes -----------------------------------------------------------------

TEST(ImageBinary, WorkedExampleBitExact) {
  const std::vector<uint8_t> img = small_image(0);
  // Header, by hand (IMAGE_FORMAT.md, "Header").
  std::vector<uint8_t> want = {
      'M', 'T', 'S', 'T',      // magic
      0x01, 0x00,              // version
      0x3c, 0x00,              // header_bytes 60
      0x00, 0x00, 0x00, 0x00,  // node_id
      0x04, 0x00, 0x00, 0x00,  // nodes
      0x03, 0x00, 0x00, 0x00,  // flows
      0x02, 0x00, 0x00, 0x00,  // entries
      0x02, 0x00, 0x00, 0x00,  // steps_per_phase
      2, 2, 2, 3, 3, 16, 13,   // children_slots op flow node step addr size bits
      0x01,                    // dtype fp32
      0x2d, 0x00,              // entry_bits 45
      0x06, 0x00,              // entry_bytes
      0x40, 0, 0, 0, 0, 0, 0, 0,     // bytes 64
      0x00, 0x10, 0, 0, 0, 0, 0, 0,  // base_addr 0x1000
      0, 0, 0, 0,                    // crc32, filled below
      // entry 0: reduce flow 2 parent 1 children {3, nil} step 2 start 0x1010 size 0x10
      //   = 0x0010_1010_5d99
      0x99, 0x5d, 0x10, 0x10, 0x10, 0x00,
      // entry 1: gather, same fields, step 3 = 0x0010_1010_7d9a
      0x9a, 0x7d, 0x10, 0x10, 0x10, 0x00};
  refresh_crc(want);
  EXPECT_EQ(img, want);
  // The CRC printed in IMAGE_FORMAT.md's worked example.
  EXPECT_EQ(img[56] | img[57] << 8 | img[58] << 16 | uint32_t{img[59]} << 24, 0xee250444u);
}

TEST(ImageBinary, HeaderDecodesToTheTableSetValues) {
  const DecodedImage d = decode_image(small_image(2));
  const ImageHeader& h = d.header;
  EXPECT_EQ(h.magic, kImageMagic);
  EXPECT_EQ(h.version, 1);
  EXPECT_EQ(h.header_bytes, 60);
  EXPECT_EQ(h.node_id, 2u);
  EXPECT_EQ(h.nodes, 4u);
  EXPECT_EQ(h.flows, 3u);
  EXPECT_EQ(h.entries, 3u);
  EXPECT_EQ(h.steps_per_phase, 2u);
  EXPECT_EQ(h.children_slots, 2);
  EXPECT_EQ(h.node_bits, 3);
  EXPECT_EQ(h.addr_bits, 16);
  EXPECT_EQ(h.size_bits, 13);
  EXPECT_EQ(h.dtype, DType::kFp32);
  EXPECT_EQ(h.entry_bits, 45);
  EXPECT_EQ(h.entry_bytes, 6);
  EXPECT_EQ(h.bytes, 64u);
  EXPECT_EQ(h.base_addr, 0x1000u);
}

// ---- Binary: round trips -----------------------------------------------------------------

TEST(ImageBinary, RoundTripSmallSet) {
  const TableSet s = small_set();
  for (uint32_t n = 0; n < s.nodes; ++n) {
    const DecodedImage d = decode_image(encode_image(s, n, kSmallOpt), ImageExpect{n, 4u});
    EXPECT_EQ(d.table.node, n);
    EXPECT_EQ(d.table.entries, s.tables[n].entries) << "node " << n;
  }
}

TEST(ImageBinary, RoundTripIntDtypeAndDefaultOptions) {
  TableSet s = small_set();
  s.dtype = DType::kInt32;
  const DecodedImage d = decode_image(encode_image(s, 1));
  EXPECT_EQ(d.header.dtype, DType::kInt32);
  EXPECT_EQ(d.header.addr_bits, 32);
  EXPECT_EQ(d.header.size_bits, 32);
  EXPECT_EQ(d.table.entries, s.tables[1].entries);
}

struct Extremes {
  uint32_t nodes, flows, steps_per_phase, children_slots, addr_bits, size_bits;
};

uint64_t ones(uint32_t bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Every field at the largest value its width allows (and nil / empty slots), per width.
TEST(ImageBinary, RoundTripMaximalValuesAtEachWidth) {
  const std::vector<Extremes> cases = {
      {1, 1, 1, 0, 1, 1},        {2, 2, 1, 1, 8, 8},        {7, 8, 3, 3, 31, 33},
      {8, 9, 4, 4, 63, 64},      {255, 256, 8, 8, 64, 64},  {256, 1, 100, 255, 32, 1},
      {1000, 1024, 7, 16, 48, 40}};
  for (const Extremes& c : cases) {
    SCOPED_TRACE(::testing::Message() << "nodes " << c.nodes << " flows " << c.flows << " T "
                                      << c.steps_per_phase << " K " << c.children_slots
                                      << " addr " << c.addr_bits << " size " << c.size_bits);
    TableSet s;
    s.nodes = c.nodes;
    s.flows = c.flows;
    s.steps_per_phase = c.steps_per_phase;
    s.children_slots = c.children_slots;
    s.bytes = ~uint64_t{0};  // [0, 2^64 - 1): every address and size fits the buffer
    s.base_addr = 0;
    s.tables.resize(c.nodes);
    for (uint32_t n = 0; n < c.nodes; ++n) s.tables[n].node = n;
    const uint32_t last = c.nodes - 1;
    std::vector<uint32_t> full;
    for (uint32_t k = 0; k < c.children_slots; ++k) full.push_back(last - k % c.nodes);
    const uint32_t top_step = 2 * c.steps_per_phase;
    auto& entries = s.tables[last].entries;
    // A Reduce or Gather moves at least one byte; the NOP takes the largest address.
    entries.push_back(entry(Op::kReduce, c.flows - 1, last, full, top_step, 0, 1));
    entries.push_back(entry(Op::kGather, c.flows - 1, kNil, full, top_step, 0, ones(c.size_bits)));
    entries.push_back(entry(Op::kGather, 0, last, {}, 1, 0, 1));
    entries.push_back(entry(Op::kNop, 0, kNil, {}, 1, ones(c.addr_bits), 0));
    const ImageOptions opt{c.addr_bits, c.size_bits};
    const std::vector<uint8_t> img = encode_image(s, last, opt);
    const ImageLayout l = image_layout(s, opt);
    EXPECT_EQ(img.size(), 60u + entries.size() * l.entry_bytes);
    const DecodedImage d = decode_image(img, ImageExpect{last, c.nodes});
    EXPECT_EQ(d.table.entries, entries);
    EXPECT_EQ(d.header.entry_bits, l.entry_bits);
  }
}

// ---- Encoder rejections ------------------------------------------------------------------

TEST(ImageEncode, RejectsValueWiderThanItsField) {
  TableSet s = small_set();
  s.bytes = 0x20000;
  s.tables[2].entries[1].start_addr = 0x10000;  // 17 bits, addr_bits 16
  const std::string what = error_of([&] { encode_image(s, 2, kSmallOpt); });
  EXPECT_THAT(what, HasSubstr("node 2"));
  EXPECT_THAT(what, HasSubstr("entry 1"));
  EXPECT_THAT(what, HasSubstr("start_addr"));
  EXPECT_THAT(what, HasSubstr("addr_bits = 16"));
  s = small_set();
  s.tables[1].entries[0].size = 0x2000;  // 14 bits, size_bits 13
  EXPECT_THAT(error_of([&] { encode_image(s, 1, kSmallOpt); }), HasSubstr("size_bits = 13"));
}

TEST(ImageEncode, RejectsMoreChildrenThanSlots) {
  TableSet s = small_set();
  s.tables[1].entries[1].children = {0, 2, 3};
  const std::string what = error_of([&] { encode_image(s, 1, kSmallOpt); });
  EXPECT_THAT(what, HasSubstr("node 1"));
  EXPECT_THAT(what, HasSubstr("entry 1"));
  EXPECT_THAT(what, HasSubstr("children"));
  EXPECT_THAT(what, HasSubstr("K = 2"));
}

TEST(ImageEncode, RejectsWhatTheDecoderWouldReject) {
  TableSet s = small_set();
  s.tables[0].entries[0].step = 5;  // fits step_bits 3, but 2T = 4
  EXPECT_THAT(error_of([&] { encode_image(s, 0, kSmallOpt); }), HasSubstr("field step"));
  s = small_set();
  s.tables[0].entries[1].parent = 4;  // fits node_bits, not a node
  EXPECT_THAT(error_of([&] { encode_image(s, 0, kSmallOpt); }), HasSubstr("field parent"));
  s = small_set();
  s.tables[0].entries[1].children = {kNil, 2};
  EXPECT_THAT(error_of([&] { encode_image(s, 0, kSmallOpt); }), HasSubstr("children[0]"));
  s = small_set();
  s.tables[3].node = 2;
  EXPECT_THAT(error_of([&] { encode_image(s, 3, kSmallOpt); }), HasSubstr("tables[3]"));
  EXPECT_THAT(error_of([&] { encode_image(small_set(), 4, kSmallOpt); }),
              HasSubstr("no such node"));
}

// ---- Decoder rejections (one per rule) ---------------------------------------------------

TEST(ImageDecode, RejectsWrongMagic) {
  std::vector<uint8_t> img = small_image();
  img[0] = 'X';
  EXPECT_THAT(decode_error(img), HasSubstr("wrong magic"));
}

TEST(ImageDecode, RejectsUnsupportedVersion) {
  std::vector<uint8_t> img = small_image();
  put_u(img, 4, 2, 2);
  const std::string what = decode_error(img);
  EXPECT_THAT(what, HasSubstr("unsupported format version 2"));
}

TEST(ImageDecode, RejectsHeaderTooShort) {
  std::vector<uint8_t> img = small_image();
  img.resize(40);
  EXPECT_THAT(error_of([&] { decode_image(img); }), HasSubstr("header too short"));
  img.resize(2);
  EXPECT_THAT(error_of([&] { decode_image(img); }), HasSubstr("header too short"));
}

TEST(ImageDecode, RejectsWrongHeaderBytes) {
  std::vector<uint8_t> img = small_image();
  put_u(img, 6, 2, 64);
  EXPECT_THAT(decode_error(img), HasSubstr("header_bytes = 64"));
}

TEST(ImageDecode, RejectsTruncatedEntries) {
  std::vector<uint8_t> img = small_image();
  img.pop_back();
  const std::string what = error_of([&] { decode_image(img); });
  EXPECT_THAT(what, HasSubstr("truncated"));
  EXPECT_THAT(what, HasSubstr("need 72 bytes"));
}

TEST(ImageDecode, RejectsTrailingBytes) {
  std::vector<uint8_t> img = small_image();
  img.push_back(0);
  img.push_back(0);
  EXPECT_THAT(error_of([&] { decode_image(img); }), HasSubstr("2 trailing bytes"));
}

TEST(ImageDecode, RejectsCrcMismatchAndPrintsBothValues) {
  std::vector<uint8_t> img = small_image();
  const uint32_t stored = img[56] | img[57] << 8 | img[58] << 16 | uint32_t{img[59]} << 24;
  img[kHeader + 3] ^= 0x01;  // a start_addr bit: still a valid entry, only the CRC catches it
  const uint32_t actual = image_crc(img);
  const std::string what = error_of([&] { decode_image(img); });
  EXPECT_THAT(what, HasSubstr("CRC mismatch"));
  char buf[16];
  std::snprintf(buf, sizeof buf, "%#010x", stored);
  EXPECT_THAT(what, HasSubstr(buf));
  std::snprintf(buf, sizeof buf, "%#010x", actual);
  EXPECT_THAT(what, HasSubstr(buf));
}

TEST(ImageDecode, RejectsWidthsInconsistentWithHeader) {
  const std::vector<std::pair<size_t, const char*>> fields = {
      {29, "op_bits"}, {30, "flow_bits"}, {31, "node_bits"}, {32, "step_bits"}};
  for (const auto& [offset, name] : fields) {
    std::vector<uint8_t> img = small_image();
    img[offset] = static_cast<uint8_t>(img[offset] + 1);
    const std::string what = decode_error(img);
    EXPECT_THAT(what, HasSubstr("inconsistent header"));
    EXPECT_THAT(what, HasSubstr(name));
  }
  // nodes = 8 needs node_bits 4, the header still says 3.
  std::vector<uint8_t> img = small_image();
  put_u(img, 12, 4, 8);
  EXPECT_THAT(decode_error(img), HasSubstr("node_bits = 3, nodes = 8 needs 4"));
}

TEST(ImageDecode, RejectsEntryBitsInconsistent) {
  std::vector<uint8_t> img = small_image();
  put_u(img, 36, 2, 46);
  EXPECT_THAT(decode_error(img), HasSubstr("entry_bits = 46"));
}

TEST(ImageDecode, RejectsEntryBytesInconsistent) {
  std::vector<uint8_t> img = small_image();
  put_u(img, 38, 2, 7);
  img.resize(kHeader + 2 * 7, 0);  // so the size check would pass with the bad value
  EXPECT_THAT(decode_error(img), HasSubstr("entry_bytes = 7, entry_bits = 45 needs 6"));
}

TEST(ImageDecode, RejectsBadDtype) {
  std::vector<uint8_t> img = small_image();
  img[35] = 2;
  EXPECT_THAT(decode_error(img), HasSubstr("dtype code 2"));
}

TEST(ImageDecode, RejectsNonZeroPadBits) {
  std::vector<uint8_t> img = small_image();
  poke(img, 1, 47, 1, 1);
  const std::string what = decode_error(img);
  EXPECT_THAT(what, HasSubstr("entry 1"));
  EXPECT_THAT(what, HasSubstr("pad"));
}

// Op code 3 is Put: node 0's Gather (entry 1) poked to 3 decodes as a Put of the same fields.
TEST(ImageDecode, DecodesOpCode3AsPut) {
  std::vector<uint8_t> img = small_image();
  poke(img, 1, 0, 2, 3);
  refresh_crc(img);
  const ScheduleTable t = decode_image(img).table;
  ASSERT_EQ(t.entries.size(), 2u);
  TableEntry want = small_set().tables[0].entries[1];
  want.op = Op::kPut;
  EXPECT_EQ(t.entries[1], want);
  EXPECT_EQ(t.entries[0], small_set().tables[0].entries[0]);
}

TEST(ImageDecode, RejectsFlowOutOfRange) {
  std::vector<uint8_t> img = small_image();
  poke(img, 1, 2, 2, 3);
  EXPECT_THAT(decode_error(img), HasSubstr("entry 1, field flow: 3 is not below flows = 3"));
}

TEST(ImageDecode, RejectsParentOutOfRange) {
  std::vector<uint8_t> img = small_image();
  poke(img, 0, 4, 3, 5);  // 5 >= 4 nodes and not nil (7)
  EXPECT_THAT(decode_error(img), HasSubstr("entry 0, field parent: 5"));
}

TEST(ImageDecode, RejectsChildOutOfRange) {
  std::vector<uint8_t> img = small_image();
  poke(img, 1, 7, 3, 4);
  EXPECT_THAT(decode_error(img), HasSubstr("entry 1, field children[0]: 4 is not a node"));
}

TEST(ImageDecode, RejectsUsedChildAfterEmptySlot) {
  std::vector<uint8_t> img = small_image();
  poke(img, 0, 7, 3, 7);   // child0 empty
  poke(img, 0, 10, 3, 2);  // child1 used
  EXPECT_THAT(decode_error(img),
              HasSubstr("entry 0, field children[1]: used slot (node 2) after an empty slot"));
}

TEST(ImageDecode, RejectsStepZero) {
  std::vector<uint8_t> img = small_image();
  poke(img, 1, 13, 3, 0);
  EXPECT_THAT(decode_error(img), HasSubstr("entry 1, field step: 0 is outside 1..4"));
}

TEST(ImageDecode, RejectsStepBeyondTwoT) {
  std::vector<uint8_t> img = small_image();
  poke(img, 0, 13, 3, 5);
  EXPECT_THAT(decode_error(img), HasSubstr("entry 0, field step: 5 is outside 1..4"));
}

TEST(ImageDecode, RejectsNopWithParent) {
  std::vector<uint8_t> img = small_image();
  poke(img, 0, 0, 2, 0);  // reduce -> nop, parent 1 stays
  EXPECT_THAT(decode_error(img), HasSubstr("entry 0, field parent: a nop must have parent nil"));
}

TEST(ImageDecode, RejectsStartAddrBelowBase) {
  std::vector<uint8_t> img = small_image();
  poke(img, 1, 16, 16, 0x0ff0);
  EXPECT_THAT(decode_error(img), HasSubstr("entry 1, field start_addr: 0xff0 is below base_addr"));
}

TEST(ImageDecode, RejectsRangePastBufferEnd) {
  std::vector<uint8_t> img = small_image();
  poke(img, 0, 32, 13, 0x31);  // 0x1010 + 0x31 > 0x1000 + 64
  EXPECT_THAT(decode_error(img), HasSubstr("entry 0, field start_addr/size"));
  img = small_image();
  poke(img, 0, 16, 16, 0x1041);  // starts past the end
  EXPECT_THAT(decode_error(img), HasSubstr("ends past the buffer end"));
}

TEST(ImageDecode, RejectsASendOfZeroBytes) {
  std::vector<uint8_t> img = small_image();
  poke(img, 0, 32, 13, 0);  // entry 0, a Reduce, moves nothing
  EXPECT_THAT(decode_error(img), HasSubstr("entry 0, field size: 0: a reduce entry must move"));
  img = small_image(1);
  poke(img, 2, 32, 13, 0);  // entry 2, a NOP: its size is only its step time
  refresh_crc(img);
  EXPECT_NO_THROW(decode_image(img));
}

TEST(ImageDecode, RejectsNodeIdMismatch) {
  const std::string what = error_of([&] { decode_image(small_image(1), ImageExpect{2u, {}}); });
  EXPECT_THAT(what, HasSubstr("node id mismatch"));
  EXPECT_THAT(what, HasSubstr("for node 1, expected node 2"));
}

TEST(ImageDecode, RejectsNodeCountMismatch) {
  const std::string what = error_of([&] { decode_image(small_image(1), ImageExpect{{}, 8u}); });
  EXPECT_THAT(what, HasSubstr("node count mismatch"));
  EXPECT_THAT(what, HasSubstr("nodes = 4, expected 8"));
}

TEST(ImageDecode, RejectsNodeIdNotBelowNodes) {
  std::vector<uint8_t> img = small_image();
  put_u(img, 8, 4, 4);
  EXPECT_THAT(decode_error(img), HasSubstr("node_id 4 is not below nodes = 4"));
}

TEST(ImageDecode, AcceptsWhatItWasGiven) {
  // The mutations above are real: the untouched image, CRC refreshed, still decodes.
  std::vector<uint8_t> img = small_image();
  refresh_crc(img);
  EXPECT_EQ(decode_image(img).table.entries, small_set().tables[0].entries);
}

// Flip every bit of every header and entry byte (CRC refreshed): the decoder either rejects
// with an InputError or accepts an image that re-encodes to exactly the same bytes, i.e. the
// encoding is canonical and nothing slips through half-checked.
TEST(ImageDecode, EveryAcceptedMutationReencodesIdentically) {
  const std::vector<uint8_t> good = small_image(1);
  int accepted = 0, rejected = 0;
  for (size_t byte = 0; byte < good.size(); ++byte) {
    if (byte >= 56 && byte < kHeader) continue;  // the CRC itself
    for (uint32_t bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> img = good;
      img[byte] = static_cast<uint8_t>(img[byte] ^ (1u << bit));
      refresh_crc(img);
      DecodedImage d;
      try {
        d = decode_image(img);
      } catch (const InputError&) {
        ++rejected;
        continue;
      }
      ++accepted;
      TableSet s;
      s.nodes = d.header.nodes;
      s.flows = d.header.flows;
      s.steps_per_phase = d.header.steps_per_phase;
      s.children_slots = d.header.children_slots;
      s.bytes = d.header.bytes;
      s.base_addr = d.header.base_addr;
      s.dtype = d.header.dtype;
      s.tables.resize(s.nodes);
      for (uint32_t n = 0; n < s.nodes; ++n) s.tables[n].node = n;
      s.tables[d.header.node_id] = d.table;
      EXPECT_EQ(encode_image(s, d.header.node_id, {d.header.addr_bits, d.header.size_bits}),
                img)
          << "byte " << byte << " bit " << bit;
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

// ---- Hex ---------------------------------------------------------------------------------

TEST(ImageHex, WorkedExampleLines) {
  const std::string hex = encode_hex(small_set(), 0, kSmallOpt);
  EXPECT_THAT(hex, HasSubstr("\n001010105d99\n001010107d9a\n"));
  EXPECT_THAT(hex, HasSubstr("// node_bits 3\n"));
  EXPECT_THAT(hex, HasSubstr("// crc32 0xee250444\n"));
  EXPECT_THAT(hex, HasSubstr("// magic MTST\n"));
  EXPECT_THAT(hex, HasSubstr("reg [44:0] mem"));
  // Every non-comment line is one entry of exactly ceil(45 / 4) = 12 digits.
  std::istringstream in(hex);
  int words = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("//", 0) == 0) continue;
    EXPECT_EQ(line.size(), 12u) << line;
    ++words;
  }
  EXPECT_EQ(words, 2);
}

TEST(ImageHex, RoundTripAndSameAsBin) {
  const TableSet s = small_set();
  for (uint32_t n = 0; n < s.nodes; ++n) {
    const std::vector<uint8_t> bin = encode_image(s, n, kSmallOpt);
    const std::string hex = encode_hex(s, n, kSmallOpt);
    EXPECT_EQ(hex_to_image(hex), bin) << "node " << n;
    const DecodedImage from_hex = decode_hex(hex, ImageExpect{n, 4u});
    const DecodedImage from_bin = decode_image(bin);
    EXPECT_EQ(from_hex.header, from_bin.header);
    EXPECT_EQ(from_hex.table.entries, s.tables[n].entries);
  }
}

TEST(ImageHex, RoundTripWideEntries) {
  TableSet s = small_set();
  s.bytes = ~uint64_t{0} - 0x1000;
  s.tables[1].entries[0].size = ~uint64_t{0} - 0x2000;
  const ImageOptions opt{64, 64};
  const std::string hex = encode_hex(s, 1, opt);
  EXPECT_EQ(decode_hex(hex).table.entries, s.tables[1].entries);
  EXPECT_EQ(hex_to_image(hex), encode_image(s, 1, opt));
}

TEST(ImageHex, RejectsMalformedText) {
  const std::string hex = encode_hex(small_set(), 0, kSmallOpt);
  std::string bad = hex;
  bad.replace(bad.find("001010105d99"), 12, "01010105d99");
  EXPECT_THAT(error_of([&] { hex_to_image(bad); }), HasSubstr("11 hex digits"));
  bad = hex;
  bad.replace(bad.find("// flows 3\n"), 11, "");
  EXPECT_THAT(error_of([&] { hex_to_image(bad); }), HasSubstr("missing header field 'flows'"));
  bad = hex;
  bad.replace(bad.find("001010105d99"), 12, "00101010zd99");
  EXPECT_THAT(error_of([&] { hex_to_image(bad); }), HasSubstr("not a hex entry word"));
  bad = hex;
  bad.replace(bad.find("001010105d99"), 12, "001010105d98");
  EXPECT_THAT(error_of([&] { decode_hex(bad); }), HasSubstr("CRC mismatch"));
}

// ---- JSON --------------------------------------------------------------------------------

TEST(ImageJson, TableKeysAreTheContract) {
  const json j = table_json(small_set(), 1);
  EXPECT_EQ(j["node"], 1);
  ASSERT_EQ(j["entries"].size(), 3u);
  const json& e0 = j["entries"][0];
  EXPECT_EQ(e0["op"], "reduce");
  EXPECT_TRUE(e0["parent"].is_null());
  EXPECT_EQ(e0["children"], json({0, 2}));
  EXPECT_EQ(e0["flow"], 2);
  EXPECT_EQ(e0["step"], 2);
  EXPECT_EQ(e0["start_addr"], 0x1010);
  EXPECT_EQ(e0["size"], 0x10);
  EXPECT_EQ(e0.size(), 7u);
  EXPECT_EQ(j["entries"][1]["op"], "gather");
  EXPECT_EQ(j["entries"][2]["op"], "nop");
  EXPECT_EQ(table_json(small_set(), 0)["entries"][0]["parent"], 1);
}

TEST(ImageJson, TablesKeysAreTheContract) {
  const json j = tables_json(small_set());
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_THAT(keys, ::testing::UnorderedElementsAre("topology", "algorithm", "nodes", "flows",
                                                    "steps_per_phase", "children_slots", "bytes",
                                                    "dtype", "base_addr", "tables"));
  EXPECT_EQ(j["topology"], "torus:2x2");
  EXPECT_EQ(j["dtype"], "fp32");
  EXPECT_EQ(j["base_addr"], 0x1000);
  EXPECT_EQ(j["tables"].size(), 4u);
  EXPECT_EQ(j["tables"][3]["entries"], json::array());
}

// The streamed JSON is nlohmann::json's dump(2) of the whole document, byte for byte: with
// keys after "tables" (extra), a table without entries and entries with and without children.
TEST(ImageJson, StreamedTablesAreTheDumpOfTheWholeDocument) {
  const TableSet s = small_set();
  for (const json& extra : {json::object(), json{{"verification", {{"errors", json::array()},
                                                                   {"verified", true}}},
                                                 {"a_key", "first"}}}) {
    json whole = tables_json(s);
    whole.update(extra);
    std::ostringstream out;
    TablesJsonWriter writer(out, s, extra);
    write_tables(writer, s);
    EXPECT_EQ(out.str(), whole.dump(2) + "\n") << extra.dump();
  }
}

// node_NN.json's text, written into a buffer reused from table to table.
TEST(ImageJson, TableTextAppendsToABuffer) {
  const TableSet s = small_set();
  fmt::memory_buffer buf;
  for (uint32_t n = 0; n < s.nodes; ++n) append_table_json_text(s.tables[n], buf);
  std::string all;
  for (uint32_t n = 0; n < s.nodes; ++n) all += table_json_text(s, n);
  EXPECT_EQ(fmt::to_string(buf), all);
  EXPECT_EQ(table_from_json(json::parse(table_json_text(s, 0))).entries, s.tables[0].entries);
}

TEST(ImageJson, RoundTrip) {
  TableSet s = small_set();
  s.dtype = DType::kInt32;
  expect_same_set(tables_from_json(tables_json(s)), s);
  // Through text too: parsed integers are unsigned, built ones signed.
  expect_same_set(tables_from_json(json::parse(tables_json(s).dump())), s);
  EXPECT_EQ(table_from_json(table_json(s, 2)).entries, s.tables[2].entries);
}

TEST(ImageJson, RejectsMissingUnknownAndMistypedKeys) {
  json j = tables_json(small_set());
  j.erase("flows");
  EXPECT_THAT(error_of([&] { tables_from_json(j); }), HasSubstr("missing key 'flows'"));
  j = tables_json(small_set());
  j["colour"] = "blue";
  EXPECT_THAT(error_of([&] { tables_from_json(j); }), HasSubstr("unknown key 'colour'"));
  j = tables_json(small_set());
  j["tables"][1]["entries"][0].erase("step");
  std::string what = error_of([&] { tables_from_json(j); });
  EXPECT_THAT(what, HasSubstr("node 1, entry 0"));
  EXPECT_THAT(what, HasSubstr("missing key 'step'"));
  j = tables_json(small_set());
  j["tables"][1]["entries"][2]["op"] = "scatter";
  EXPECT_THAT(error_of([&] { tables_from_json(j); }), HasSubstr("'scatter' is not"));
  j = tables_json(small_set());
  j["tables"][0]["entries"][0]["flow"] = -1;
  EXPECT_THAT(error_of([&] { tables_from_json(j); }), HasSubstr("non-negative integer"));
  j = tables_json(small_set());
  j["dtype"] = "fp16";
  what = error_of([&] { tables_from_json(j); });
  EXPECT_THAT(what, HasSubstr("key 'dtype'"));
  EXPECT_THAT(what, HasSubstr("fp16"));
  j = tables_json(small_set());
  std::swap(j["tables"][0], j["tables"][1]);
  EXPECT_THAT(error_of([&] { tables_from_json(j); }),
              HasSubstr("tables[0] is the table of node 1"));
}

// ---- Image sets --------------------------------------------------------------------------

TEST(ImageSet, StemPadding) {
  EXPECT_EQ(image_stem(0, 1), "node_00");
  EXPECT_EQ(image_stem(3, 4), "node_03");
  EXPECT_EQ(image_stem(99, 100), "node_99");
  EXPECT_EQ(image_stem(5, 101), "node_005");
  EXPECT_EQ(image_stem(1000, 1001), "node_1000");
}

TEST(ImageSet, WriteReadRoundTrip) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "set";
  const TableSet s = small_set();
  write_image_set(s, dir.string(), kSmallOpt);
  for (const char* f : {"manifest.json", "node_00.bin", "node_00.hex", "node_00.json",
                        "node_03.bin", "node_03.hex", "node_03.json"}) {
    EXPECT_TRUE(fs::is_regular_file(dir / f)) << f;
  }
  EXPECT_EQ(slurp(dir / "node_02.hex"), encode_hex(s, 2, kSmallOpt));
  const std::string bin = slurp(dir / "node_01.bin");
  EXPECT_EQ(std::vector<uint8_t>(bin.begin(), bin.end()), encode_image(s, 1, kSmallOpt));

  const json m = json::parse(slurp(dir / "manifest.json"));
  EXPECT_EQ(m["format"], "multitree-schedule-images");
  EXPECT_EQ(m["format_version"], 1);
  EXPECT_EQ(m["addr_bits"], 16);
  EXPECT_EQ(m["size_bits"], 13);
  EXPECT_EQ(m["files"], json({"node_00", "node_01", "node_02", "node_03"}));
  EXPECT_FALSE(m.contains("tables"));
  EXPECT_EQ(m["nodes"], 4);

  expect_same_set(read_image_set(dir.string()), s);
  // Nothing but the set itself is left next to it.
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(ImageSet, ReplacesAnExistingSet) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "set";
  TableSet s = small_set();
  write_image_set(s, dir.string(), kSmallOpt);
  s.tables[3].entries.push_back(entry(Op::kNop, 0, kNil, {}, 1, 0x1000, 8));
  write_image_set(s, dir.string() + "/", kSmallOpt);
  expect_same_set(read_image_set(dir.string()), s);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(ImageSet, BadTableLeavesOldSetAndNoTemporaries) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "set";
  write_image_set(small_set(), dir.string(), kSmallOpt);
  TableSet bad = small_set();
  bad.tables[2].entries[0].step = 9;
  EXPECT_THAT(error_of([&] { write_image_set(bad, dir.string(), kSmallOpt); }),
              HasSubstr("node 2, entry 0, field step"));
  expect_same_set(read_image_set(dir.string()), small_set());
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

// A set written a table at a time: stopped on the way (an error in a later table), the old set
// stays and nothing else is left.
TEST(ImageSet, WriterStoppedBeforeFinishLeavesTheOldSet) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "set";
  write_image_set(small_set(), dir.string(), kSmallOpt);
  TableSet other = small_set();
  other.base_addr = 0x2000;
  for (ScheduleTable& t : other.tables) {
    for (TableEntry& e : t.entries) e.start_addr += 0x1000;
  }
  {
    ImageSetWriter writer(other, dir.string(), kSmallOpt);
    writer.add(other.tables[0]);
    writer.add(other.tables[1]);
  }
  expect_same_set(read_image_set(dir.string()), small_set());
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
  ImageSetWriter writer(other, dir.string(), kSmallOpt);
  write_tables(writer, other);
  expect_same_set(read_image_set(dir.string()), other);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(ImageSet, RefusesToReplaceOtherDirectories) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "precious";
  fs::create_directories(dir);
  spit(dir / "thesis.tex", "do not delete");
  EXPECT_THAT(error_of([&] { write_image_set(small_set(), dir.string(), kSmallOpt); }),
              HasSubstr("refusing to replace"));
  EXPECT_EQ(slurp(dir / "thesis.tex"), "do not delete");
}

// A table whose entries are each valid but that no NI can run (issue 36): its steps go
// backwards, or an entry names the table's own node. The image decodes, as the NIs' loaders
// judge it entry by entry; the set's writer and reader refuse it, naming the node, the entry
// and the rule.
TEST(ImageSet, RefusesATableNoNiCanRun) {
  struct Case {
    std::function<void(TableSet&)> edit;
    uint32_t node;
    std::string rule;
  };
  const std::vector<Case> cases = {
      {[](TableSet& s) { std::swap(s.tables[2].entries[0], s.tables[2].entries[1]); }, 2,
       "node 2, table entry 1: step 1 after step 2 in entry 0; the NI issues its entries in "
       "order, each in its step, so steps must not decrease"},
      {[](TableSet& s) { s.tables[0].entries[1].parent = 0; }, 0,
       "node 0, table entry 1, field parent: node 0 is the table's own node"},
      {[](TableSet& s) { s.tables[1].entries[0].children[1] = 1; }, 1,
       "node 1, table entry 0, field children[1]: node 1 is the table's own node"},
  };
  for (const Case& c : cases) {
    TableSet bad = small_set();
    c.edit(bad);
    EXPECT_NO_THROW(decode_image(encode_image(bad, c.node, kSmallOpt))) << c.rule;
    TempDir tmp;
    const fs::path dir = tmp.path() / "set";
    EXPECT_THAT(error_of([&] { write_image_set(bad, dir.string(), kSmallOpt); }),
                HasSubstr("image set: " + c.rule));
    EXPECT_FALSE(fs::exists(dir));
    write_image_set(small_set(), dir.string(), kSmallOpt);
    const fs::path stem = dir / image_stem(c.node, 4);
    const std::vector<uint8_t> bin = encode_image(bad, c.node, kSmallOpt);
    spit(stem.string() + ".bin", std::string(bin.begin(), bin.end()));
    spit(stem.string() + ".hex", encode_hex(bad, c.node, kSmallOpt));
    spit(stem.string() + ".json", table_json_text(bad, c.node));
    EXPECT_THAT(error_of([&] { read_image_set(dir.string()); }),
                HasSubstr(stem.string() + ".bin: " + c.rule));
  }
}

TEST(ImageSet, ReadErrorsNameTheFile) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "set";
  write_image_set(small_set(), dir.string(), kSmallOpt);

  // A .bin flipped in an entry.
  std::string bin = slurp(dir / "node_01.bin");
  bin[kHeader + 2] = static_cast<char>(bin[kHeader + 2] ^ 0x40);
  spit(dir / "node_01.bin", bin);
  std::string what = error_of([&] { read_image_set(dir.string()); });
  EXPECT_THAT(what, HasSubstr("node_01.bin"));
  EXPECT_THAT(what, HasSubstr("CRC mismatch"));

  // A .hex that disagrees with its (valid) .bin.
  write_image_set(small_set(), dir.string(), kSmallOpt);
  std::string hex = slurp(dir / "node_00.hex");
  hex.replace(hex.find("001010107d9a"), 12, "001010109d9a");
  spit(dir / "node_00.hex", hex);
  what = error_of([&] { read_image_set(dir.string()); });
  EXPECT_THAT(what, HasSubstr("node_00.hex"));
  EXPECT_THAT(what, HasSubstr("does not match"));

  // A .json that disagrees with its .bin.
  write_image_set(small_set(), dir.string(), kSmallOpt);
  json j = json::parse(slurp(dir / "node_02.json"));
  j["entries"][0]["size"] = 8;
  spit(dir / "node_02.json", j.dump());
  what = error_of([&] { read_image_set(dir.string()); });
  EXPECT_THAT(what, HasSubstr("node_02.json"));
  EXPECT_THAT(what, HasSubstr("does not match"));

  // A .bin of another node in the wrong place.
  write_image_set(small_set(), dir.string(), kSmallOpt);
  fs::copy_file(dir / "node_01.bin", dir / "node_02.bin", fs::copy_options::overwrite_existing);
  what = error_of([&] { read_image_set(dir.string()); });
  EXPECT_THAT(what, HasSubstr("node_02.bin"));
  EXPECT_THAT(what, HasSubstr("node id mismatch"));

  // A .bin that disagrees with the manifest.
  write_image_set(small_set(), dir.string(), kSmallOpt);
  json m = json::parse(slurp(dir / "manifest.json"));
  m["base_addr"] = 0;
  spit(dir / "manifest.json", m.dump());
  what = error_of([&] { read_image_set(dir.string()); });
  EXPECT_THAT(what, HasSubstr("node_00.bin"));
  EXPECT_THAT(what, HasSubstr("base_addr"));

  // A missing file.
  write_image_set(small_set(), dir.string(), kSmallOpt);
  fs::remove(dir / "node_03.hex");
  EXPECT_THAT(error_of([&] { read_image_set(dir.string()); }), HasSubstr("node_03.hex"));

  // A manifest with an unknown key.
  write_image_set(small_set(), dir.string(), kSmallOpt);
  m = json::parse(slurp(dir / "manifest.json"));
  m["extra"] = 1;
  spit(dir / "manifest.json", m.dump());
  what = error_of([&] { read_image_set(dir.string()); });
  EXPECT_THAT(what, HasSubstr("manifest.json"));
  EXPECT_THAT(what, HasSubstr("unknown key 'extra'"));
}

}  // namespace
}  // namespace mt
