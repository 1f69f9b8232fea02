// tb/table_hex_loader.sv, the simulation-only Verilog host that loads a table from the .hex
// form of an image ($readmemh of the entries, the header from the file's comments): every
// golden .hex in schedules/ must load into rtl/schedule_table.sv and read back as the C++
// decoder reads the .bin beside it, with each send slot's route as the loader stored it; a .hex
// with a wrong header value is refused by the table, a missing file by the loader.
#include <gtest/gtest.h>

#include "Vtable_hex_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "image/image.hpp"
#include "ni_formats.hpp"
#include "support/clocked.hpp"
#include "support/files.hpp"
#include "support/table_port.hpp"

namespace mt::tb {
namespace {

namespace fs = std::filesystem;

// The instance's parameters (tb/table_hex_loader.sv defaults).
constexpr uint32_t kNodeW = 8, kK = 4;

// The route tb/table_hex_loader.sv's stand-in first hop gives a send to `node`.
// A route is a port code and a neighbour bit (rtl/schedule_table.sv).
constexpr uint32_t kRouteW = format::flit::kPortBits + 1;
uint32_t route_of(uint32_t node) { return (node * 7 + 1) & ((1u << kRouteW) - 1); }

// The routes the table must hold for entry `e`'s send slots (0 where a slot sends nothing):
// slot 0 a Reduce's parent, slot k a Gather's child k.
uint32_t routes_of(const TableEntry& e) {
  uint32_t routes = 0;
  if (e.op == Op::kReduce && e.parent != mt::kNil) routes = route_of(e.parent);
  if (e.op == Op::kGather) {
    for (size_t k = 0; k < e.children.size(); ++k) {
      routes |= route_of(e.children[k]) << (kRouteW * k);
    }
  }
  return routes;
}

// Loads `hex` as node `node` of `nodes`; returns the table's status once the load is over.
uint32_t load(Clocked<Vtable_hex_loader>& dut, uint32_t node, uint32_t nodes) {
  dut->node_id_i = static_cast<uint8_t>(node);
  dut->nodes_i = static_cast<uint8_t>(nodes);
  dut->rd_en_i = 1;  // the head read port reads every cycle
  dut.reset();
  for (int c = 0; c < 1000000 && !dut->done_o && !dut->bad_file_o; ++c) dut.tick();
  dut.settle();
  EXPECT_FALSE(dut->write_error_o);
  return dut->status_o;
}

TEST(TableHexLoader, LoadsEveryGoldenHexAsTheCppDecoderReadsTheBin) {
  size_t images = 0;
  for (const auto& d : fs::directory_iterator(fs::path(MT_SOURCE_DIR) / "schedules")) {
    if (!d.is_directory()) continue;
    const TableSet tables = read_image_set(d.path().string());
    for (uint32_t n = 0; n < tables.nodes; ++n) {
      const fs::path stem = d.path() / image_stem(n, tables.nodes);
      Clocked<Vtable_hex_loader> dut("", {"+hex=" + stem.string() + ".hex"});
      ASSERT_EQ(load(dut, n, tables.nodes), format::table_status::kLoaded) << stem;
      const ScheduleTable want = decode_image(read_bytes(stem.string() + ".bin")).table;
      ASSERT_EQ(dut->entries_o, want.entries.size()) << stem;
      for (uint32_t i = 0; i < want.entries.size(); ++i) {
        ASSERT_EQ((read_entry<kNodeW, kK>(dut, i)), want.entries[i]) << stem << ", entry " << i;
        ASSERT_EQ(dut->rd_routes_o, routes_of(want.entries[i])) << stem << ", entry " << i;
        if (i + 1 < want.entries.size()) {
          ASSERT_EQ((next_wait_fields<kNodeW, kK>(dut)), wait_fields(want.entries[i + 1]))
              << stem << ", entry " << i + 1 << " read as the next";
        }
      }
      ++images;
    }
  }
  EXPECT_EQ(images, 4u + 16u + 16u + 64u);
}

TEST(TableHexLoader, AWrongHeaderValueIsRefusedByTheTable) {
  const fs::path good = fs::path(MT_SOURCE_DIR) / "schedules/multitree_mesh2x2/node_01.hex";
  std::ifstream in(good);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string field = "// node_id 1\n";
  ASSERT_NE(text.find(field), std::string::npos);
  text.replace(text.find(field), field.size(), "// node_id 2\n");  // for another node
  const fs::path bad = fs::temp_directory_path() / "mt_table_hex_loader_bad.hex";
  std::ofstream(bad) << text;
  Clocked<Vtable_hex_loader> dut("", {"+hex=" + bad.string()});
  EXPECT_EQ(load(dut, 1, 4), format::table_status::kError);
  fs::remove(bad);
}

TEST(TableHexLoader, AMissingFileIsReported) {
  Clocked<Vtable_hex_loader> dut("", {"+hex=/nonexistent/node_00.hex"});
  load(dut, 0, 4);
  EXPECT_TRUE(dut->bad_file_o);
  EXPECT_FALSE(dut->done_o);
}

}  // namespace
}  // namespace mt::tb
