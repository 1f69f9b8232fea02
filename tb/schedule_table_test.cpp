// rtl/schedule_table.sv: loads every golden image of schedules/ through the table-write port
// and reads back, entry by entry, what the C++ decoder (host_sw/image, the SystemC table's
// loader) decodes; accepts exactly the images the C++ decoder accepts (bad header fields,
// entries, lengths and CRCs, and random corruptions with the CRC made right again); keeps
// the previous table when an image is rejected; answers the register map as the SystemC
// configuration target does.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "Vschedule_table.h"
#include "common/error.hpp"
#include "image/image.hpp"
#include "ni_formats.hpp"
#include "cfg_port.hpp"
#include "support/clocked.hpp"
#include "support/files.hpp"
#include "support/table_port.hpp"

namespace mt::tb {
namespace {

namespace fs = std::filesystem;
namespace cfg = format::config;

// The instance's parameters (tb/CMakeLists.txt keeps the defaults of rtl/schedule_table.sv).
constexpr uint32_t kNodeW = 8, kK = 4, kDepth = 256;

using Response = cosim::CfgResponse;

class Table {
 public:
  Table(uint32_t node, uint32_t nodes) {
    dut_->node_id_i = static_cast<uint8_t>(node);
    dut_->nodes_i = static_cast<uint8_t>(nodes);
    dut_->rd_en_i = 1;  // the head read port reads every cycle
    dut_.reset();
  }

  // One access on the table-write port; the port must not fault (the register map may refuse).
  Response write(uint32_t addr, uint32_t data) {
    return checked(cosim::cfg_access(dut_, true, addr, data));
  }
  Response read(uint32_t addr) { return checked(cosim::cfg_access(dut_, false, addr, 0)); }
  // The host's load sequence; returns the STATUS register afterwards, and in `longest_wait`
  // the longest time cfg_ready_o kept an access waiting. Every access must be taken.
  uint32_t load(const std::vector<uint8_t>& image, uint32_t length,
                uint32_t* longest_wait = nullptr) {
    const cosim::CfgLoad l = cosim::cfg_load(dut_, image, length);
    EXPECT_EQ(l.fault, "");
    if (longest_wait) *longest_wait = l.longest_wait;
    return l.status;
  }
  uint32_t load(const std::vector<uint8_t>& image) {
    return load(image, static_cast<uint32_t>(image.size()));
  }

  TableEntry entry(uint32_t index) { return read_entry<kNodeW, kK>(dut_, index); }
  // The next entry's wait fields, read with the last entry().
  TableEntry next() { return next_wait_fields<kNodeW, kK>(dut_); }

  Clocked<Vschedule_table>& dut() { return dut_; }

 private:
  static Response checked(const Response& r) {
    EXPECT_EQ(cosim::cfg_fault(r), "");
    return r;
  }

  Clocked<Vschedule_table> dut_;
};

// Whether an image the C++ decoder accepts fits this RTL instance (rtl/README.md).
bool fits_instance(const ImageHeader& h) {
  return h.children_slots <= kK && h.node_bits <= kNodeW && h.flow_bits <= kNodeW &&
         h.step_bits <= 8 && h.addr_bits <= 32 && h.size_bits <= 32 && h.entries <= kDepth &&
         h.base_addr + h.bytes <= (uint64_t{1} << 32) && h.base_addr < (uint64_t{1} << 32);
}

// The C++ decoder's verdict, as the SystemC table applies it, for an image this instance can
// hold (a decoded image beyond its parameters is a capacity error in the RTL).
bool cpp_accepts(const std::vector<uint8_t>& image, uint32_t node, uint32_t nodes) {
  try {
    return fits_instance(decode_image(image, ImageExpect{node, nodes}).header);
  } catch (const InputError&) {
    return false;
  }
}

void expect_table(Table& t, const ScheduleTable& want, const std::string& where) {
  ASSERT_EQ(t.read(cfg::kRegEntries).data, want.entries.size()) << where;
  for (uint32_t i = 0; i < want.entries.size(); ++i) {
    ASSERT_EQ(t.entry(i), want.entries[i]) << where << ", entry " << i;
    if (i + 1 < want.entries.size()) {
      ASSERT_EQ(t.next(), wait_fields(want.entries[i + 1])) << where << ", entry " << i + 1
                                                            << " read as the next";
    }
  }
}

std::vector<fs::path> golden_sets() {
  std::vector<fs::path> sets;
  for (const auto& d : fs::directory_iterator(fs::path(MT_SOURCE_DIR) / "schedules")) {
    if (d.is_directory()) sets.push_back(d.path());
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

// The longest the bus can wait for the loader on this image (rtl/README.md "The table-write
// port"): a word's four bytes are digested while the fields they complete are taken, one a
// cycle, so an access waits for at most 4 + the most fields one 32-bit word completes.
uint32_t ready_wait_bound(const ImageHeader& h) {
  std::vector<uint32_t> widths = {h.op_bits, h.flow_bits, h.node_bits};
  for (uint32_t k = 0; k < h.children_slots; ++k) widths.push_back(h.node_bits);
  for (uint32_t w : {uint32_t{h.step_bits}, uint32_t{h.addr_bits}, uint32_t{h.size_bits},
                     uint32_t{h.entry_bytes} * 8u - h.entry_bits}) {
    widths.push_back(w);
  }
  std::map<uint64_t, uint32_t> fields_of_word;  // 32-bit word of the image -> fields it completes
  for (uint64_t e = 0; e < h.entries; ++e) {
    uint64_t at = 8 * (uint64_t{h.header_bytes} + e * h.entry_bytes);  // bit offset in the image
    for (uint32_t w : widths) {
      at += w;
      ++fields_of_word[(at == 0 ? 0 : at - 1) / 32];
    }
  }
  uint32_t most = 0;
  for (const auto& [word, n] : fields_of_word) most = std::max(most, n);
  return 4 + most;
}

TEST(ScheduleTable, LoadsEveryGoldenImageAsTheCppDecoderReadsIt) {
  size_t images = 0, entries = 0;
  uint32_t longest_wait = 0;
  for (const fs::path& set : golden_sets()) {
    const TableSet tables = read_image_set(set.string());
    for (uint32_t n = 0; n < tables.nodes; ++n) {
      const fs::path bin = set / (image_stem(n, tables.nodes) + ".bin");
      const std::vector<uint8_t> image = read_bytes(bin);
      Table t(n, tables.nodes);
      uint32_t waited = 0;
      ASSERT_EQ(t.load(image, static_cast<uint32_t>(image.size()), &waited),
                format::table_status::kLoaded) << bin;
      EXPECT_LE(waited, ready_wait_bound(decode_image(image).header)) << bin;
      longest_wait = std::max(longest_wait, waited);
      EXPECT_EQ(t.dut()->error_cause_o, 0u);
      EXPECT_EQ(t.dut()->dtype_o, static_cast<uint32_t>(tables.dtype));
      expect_table(t, decode_image(image).table, bin.string());
      ++images;
      entries += tables.tables[n].entries.size();
    }
  }
  EXPECT_EQ(images, 4u + 16u + 16u + 64u);
  RecordProperty("entries", static_cast<int>(entries));
  RecordProperty("longest_ready_wait", static_cast<int>(longest_wait));
}

// A golden image of a 4x4 torus node with one header field or byte changed.
class BadImage : public ::testing::Test {
 protected:
  void SetUp() override {
    good_ = read_bytes(fs::path(MT_SOURCE_DIR) / "schedules/multitree_torus4x4/node_05.bin");
    ASSERT_TRUE(cpp_accepts(good_, 5, 16));
  }
  static void put(std::vector<uint8_t>& img, const format::ByteField& f, uint64_t v) {
    for (uint32_t i = 0; i < f.bytes; ++i) img[f.offset + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  static void fix_crc(std::vector<uint8_t>& img) { put(img, format::image::field::kCrc32, image_crc(img)); }
  // Loads the good image, then `bad`: the RTL must reject it exactly when the C++ decoder
  // does, and keep the good table when it does.
  void expect_verdict(const std::vector<uint8_t>& bad, uint32_t length, uint32_t node = 5,
                      uint32_t nodes = 16) {
    Table t(node, nodes);
    const bool good_fits = node == 5 && nodes == 16;
    if (good_fits) {
      ASSERT_EQ(t.load(good_), format::table_status::kLoaded);
    }
    const bool want = cpp_accepts({bad.begin(), bad.begin() + std::min<size_t>(length, bad.size())},
                                  node, nodes) && length <= bad.size();
    const uint32_t status = t.load(bad, length);
    EXPECT_EQ(status, want ? format::table_status::kLoaded : format::table_status::kError)
        << "error_cause_o " << static_cast<int>(t.dut()->error_cause_o);
    if (want) {
      expect_table(t, decode_image(bad).table, "accepted image");
    } else {
      EXPECT_NE(t.dut()->error_cause_o, 0u);
      if (good_fits) expect_table(t, decode_image(good_).table, "previous table");
    }
  }
  std::vector<uint8_t> good_;
};

TEST_F(BadImage, HeaderFieldsTheDecoderRejectsAreRejected) {
  namespace hf = format::image::field;
  const struct { format::ByteField field; uint64_t value; } cases[] = {
      {hf::kMagic, 0x5453544e},  {hf::kVersion, 2},       {hf::kHeaderBytes, 64},
      {hf::kNodeId, 6},          {hf::kNodes, 17},        {hf::kFlows, 17},
      {hf::kStepsPerPhase, 9},   {hf::kChildrenSlots, 3}, {hf::kOpBits, 3},
      {hf::kFlowBits, 5},        {hf::kNodeBits, 4},      {hf::kStepBits, 3},
      {hf::kAddrBits, 31},       {hf::kSizeBits, 0},      {hf::kDtype, 2},
      {hf::kEntryBits, 100},     {hf::kEntryBytes, 14},   {hf::kBytes, 1},
      {hf::kBaseAddr, 0xFFFFFFFFFFFFFF00ull}, {hf::kEntries, 24},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.field.name);
    std::vector<uint8_t> bad = good_;
    put(bad, c.field, c.value);
    fix_crc(bad);
    expect_verdict(bad, static_cast<uint32_t>(bad.size()));
  }
}

TEST_F(BadImage, WrongCrcLengthAndNodeAreRejected) {
  std::vector<uint8_t> bad = good_;
  bad[70] ^= 0x10;  // CRC left as it was
  expect_verdict(bad, static_cast<uint32_t>(bad.size()));
  expect_verdict(good_, static_cast<uint32_t>(good_.size()) - 1);  // truncated
  std::vector<uint8_t> longer = good_;
  longer.push_back(0);
  expect_verdict(longer, static_cast<uint32_t>(longer.size()));  // a trailing byte
  expect_verdict(good_, static_cast<uint32_t>(good_.size()), 6, 16);  // another node's NI
  expect_verdict(good_, static_cast<uint32_t>(good_.size()), 5, 15);  // another network
  expect_verdict(std::vector<uint8_t>(good_.begin(), good_.begin() + 40), 40);  // no header
}

TEST_F(BadImage, RandomCorruptionsAreJudgedAsTheCppDecoderJudgesThem) {
  std::mt19937 rng(2021);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> bad = good_;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const size_t at = rng() % bad.size();
      if (at >= 56 && at < 60) continue;  // the CRC is made right below
      bad[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    fix_crc(bad);
    SCOPED_TRACE(trial);
    expect_verdict(bad, static_cast<uint32_t>(bad.size()));
    (cpp_accepts(bad, 5, 16) ? accepted : rejected)++;
  }
  // Both verdicts occur (a flipped address or size bit often still makes a valid entry).
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 100);
  RecordProperty("accepted", accepted);
  RecordProperty("rejected", rejected);
}

TEST(ScheduleTableBus, AnswersTheRegisterMapAsTheSystemCTarget) {
  Table t(0, 4);
  EXPECT_EQ(t.read(cfg::kRegStatus).data, format::table_status::kEmpty);
  EXPECT_EQ(t.read(cfg::kRegEntries).data, 0u);
  EXPECT_TRUE(t.read(cfg::kRegLength).error);   // write-only
  EXPECT_TRUE(t.read(cfg::kRegLoad).error);
  EXPECT_TRUE(t.write(cfg::kRegStatus, 1).error);  // read-only
  EXPECT_TRUE(t.write(cfg::kRegEntries, 1).error);
  EXPECT_TRUE(t.write(cfg::kRegLength, cfg::kImageWindow + 1).error);
  EXPECT_FALSE(t.write(cfg::kRegLength, cfg::kImageWindow).error);
  EXPECT_TRUE(t.write(cfg::kRegLoad, 2).error);
  EXPECT_TRUE(t.write(cfg::kRegEntries + 4, 0).error);  // no register there
  EXPECT_TRUE(t.read(cfg::kImageBase).error);  // the RTL's window is write-only
  // LOAD with nothing streamed: an error, nothing installed.
  EXPECT_FALSE(t.write(cfg::kRegLoad, 1).error);
  EXPECT_EQ(t.read(cfg::kRegStatus).data, format::table_status::kError);
}

TEST(ScheduleTableBus, AWindowWriteOutOfOrderSpoilsTheImage) {
  const std::vector<uint8_t> image =
      read_bytes(fs::path(MT_SOURCE_DIR) / "schedules/multitree_mesh2x2/node_01.bin");
  Table t(1, 4);
  // Words 0, 2, 1, 3, ...: every byte arrives, but not in order.
  auto word = [&](size_t at) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4 && at + b < image.size(); ++b) w |= uint32_t{image[at + b]} << (8 * b);
    return w;
  };
  t.write(0, word(0));
  t.write(8, word(8));
  t.write(4, word(4));
  for (size_t at = 12; at < image.size(); at += 4) t.write(static_cast<uint32_t>(at), word(at));
  t.write(cfg::kRegLength, static_cast<uint32_t>(image.size()));
  t.write(cfg::kRegLoad, 1);
  EXPECT_EQ(t.read(cfg::kRegStatus).data, format::table_status::kError);
  // The same image in order loads.
  EXPECT_EQ(t.load(image), format::table_status::kLoaded);
}

}  // namespace
}  // namespace mt::tb
