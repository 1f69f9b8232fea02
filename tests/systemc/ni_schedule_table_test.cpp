// The NI's schedule table: loaded through its TLM-2.0 configuration target and from files,
// bad images rejected with the decoder's message.
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "image/image.hpp"
#include "ni/ni_config.hpp"
#include "memory/plain_access.hpp"
#include "ni/schedule_table.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using ::testing::HasSubstr;

// The host side of the configuration port.
struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> socket{"socket"};
  explicit Host(sc_core::sc_module_name name) : sc_core::sc_module(name) {}

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                                  uint32_t len) {
    tlm::tlm_generic_payload t;
    set_plain_access(t, cmd, addr, data, len);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    return t.get_response_status();
  }
  tlm::tlm_response_status write32(uint64_t addr, uint32_t v) {
    return access(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t*>(&v), 4);
  }
  uint32_t read32(uint64_t addr) {
    uint32_t v = 0xdeadbeef;
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t*>(&v), 4),
              tlm::TLM_OK_RESPONSE);
    return v;
  }
  // Writes the image in 256-byte bursts, its length, then LOAD.
  void load(std::vector<uint8_t> image) {
    for (size_t at = 0; at < image.size(); at += 256) {
      const uint32_t n = static_cast<uint32_t>(std::min<size_t>(256, image.size() - at));
      ASSERT_EQ(access(tlm::TLM_WRITE_COMMAND, NiScheduleTable::kImageBase + at, image.data() + at, n),
                tlm::TLM_OK_RESPONSE);
    }
    ASSERT_EQ(write32(NiScheduleTable::kRegLength, static_cast<uint32_t>(image.size())),
              tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(write32(NiScheduleTable::kRegLoad, 1), tlm::TLM_OK_RESPONSE);
  }
};

TableSet torus_tables() {
  return compile_tables(build_multitree(make_torus(4, 4), PlanOptions{}), TableOptions{});
}

class NiScheduleTableTest : public test::SimTest {
 protected:
  NiScheduleTable table{"table", 5, 16, NiConfig{}.table_entries};
  Host host{"host"};
  NiScheduleTableTest() {
    host.socket.bind(table.config);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end elaboration: sockets are bound
  }
};

TEST_F(NiScheduleTableTest, LoadsThroughTheConfigurationTarget) {
  const TableSet set = torus_tables();
  EXPECT_EQ(host.read32(NiScheduleTable::kRegStatus), NiScheduleTable::kStatusEmpty);
  host.load(encode_image(set, 5));
  EXPECT_EQ(host.read32(NiScheduleTable::kRegStatus), NiScheduleTable::kStatusLoaded);
  EXPECT_EQ(host.read32(NiScheduleTable::kRegEntries), set.tables[5].entries.size());
  EXPECT_EQ(table.entries(), set.tables[5].entries);
  EXPECT_EQ(table.steps_per_phase(), set.steps_per_phase);
  EXPECT_EQ(table.children_slots(), 4u);
}

TEST_F(NiScheduleTableTest, RejectsACorruptImageAndKeepsTheLoadedTable) {
  const TableSet set = torus_tables();
  host.load(encode_image(set, 5));
  std::vector<uint8_t> bad = encode_image(set, 5);
  bad[bad.size() - 3] ^= 0x40;  // an entry byte: the CRC no longer matches
  host.load(bad);
  EXPECT_EQ(host.read32(NiScheduleTable::kRegStatus), NiScheduleTable::kStatusError);
  EXPECT_THAT(table.error(), HasSubstr("CRC"));
  EXPECT_EQ(table.entries(), set.tables[5].entries) << "the previous table stays";
}

TEST_F(NiScheduleTableTest, RejectsAnotherNodesImageAndAWrongVersion) {
  const TableSet set = torus_tables();
  host.load(encode_image(set, 6));
  EXPECT_EQ(host.read32(NiScheduleTable::kRegStatus), NiScheduleTable::kStatusError);
  EXPECT_THAT(table.error(), HasSubstr("node"));
  std::vector<uint8_t> v2 = encode_image(set, 5);
  v2[4] = 2;  // version field
  host.load(v2);
  EXPECT_THAT(table.error(), HasSubstr("version"));
  host.load(encode_image(set, 5));
  EXPECT_EQ(host.read32(NiScheduleTable::kRegStatus), NiScheduleTable::kStatusLoaded);
  EXPECT_TRUE(table.error().empty());
}

// An NI built with a 4-entry table (NiConfig::table_entries = 4).
class NiSmallTableTest : public test::SimTest {
 protected:
  NiScheduleTable table{"table", 5, 16, 4};
  Host host{"host"};
  NiSmallTableTest() {
    host.socket.bind(table.config);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
};

TEST_F(NiSmallTableTest, AnImageOfMoreEntriesThanTheTableHoldsIsRefusedNamingTheBound) {
  const TableSet set = torus_tables();
  ASSERT_GT(set.tables[5].entries.size(), 4u);
  host.load(encode_image(set, 5));
  EXPECT_EQ(host.read32(NiScheduleTable::kRegStatus), NiScheduleTable::kStatusError);
  EXPECT_THAT(table.error(), HasSubstr("NiConfig::table_entries"));
  EXPECT_TRUE(table.entries().empty());
}

TEST_F(NiScheduleTableTest, BadAccessesAreAddressErrors) {
  uint16_t half = 0;
  EXPECT_EQ(host.access(tlm::TLM_READ_COMMAND, NiScheduleTable::kRegStatus,
                        reinterpret_cast<uint8_t*>(&half), 2),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(host.write32(NiScheduleTable::kRegStatus, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(host.write32(NiScheduleTable::kRegLoad, 7), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(host.write32(NiScheduleTable::kRegLength, NiScheduleTable::kImageWindow + 1),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(host.write32(0x200000, 0), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  std::vector<uint8_t> big(16);
  EXPECT_EQ(host.access(tlm::TLM_WRITE_COMMAND, NiScheduleTable::kImageWindow - 8, big.data(), 16),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// The window behaves as 1 MiB of zeroed memory, whatever the model holds of it (only the bytes
// up to the last one written): reads return what was written and zeros elsewhere, its last
// bytes are usable, and LOAD with a LENGTH past the image written rejects it (the bytes past
// it are the window's, not the image's).
TEST_F(NiScheduleTableTest, TheWindowReadsBackWritesAndZerosElsewhere) {
  const uint64_t base = NiScheduleTable::kImageBase, end = base + NiScheduleTable::kImageWindow;
  EXPECT_EQ(host.read32(base + 64), 0u);
  EXPECT_EQ(host.write32(base + 100, 0x11223344u), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(host.read32(base + 100), 0x11223344u);
  std::vector<uint8_t> straddle(8, 0xff);  // 4 written bytes, then 4 never written
  ASSERT_EQ(host.access(tlm::TLM_READ_COMMAND, base + 100, straddle.data(), 8),
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(straddle, (std::vector<uint8_t>{0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0}));
  EXPECT_EQ(host.read32(end - 4), 0u);
  EXPECT_EQ(host.write32(end - 4, 0xa5a5a5a5u), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(host.read32(end - 4), 0xa5a5a5a5u);
  EXPECT_EQ(host.read32(base + 100), 0x11223344u);
  EXPECT_EQ(host.read32(end - 8), 0u);

  std::vector<uint8_t> image = encode_image(torus_tables(), 5);
  image.resize(image.size() / 2);  // the host writes half the image, then names all of it
  for (size_t at = 0; at < image.size(); at += 4) {
    ASSERT_EQ(host.access(tlm::TLM_WRITE_COMMAND, base + at, image.data() + at,
                          static_cast<uint32_t>(std::min<size_t>(4, image.size() - at))),
              tlm::TLM_OK_RESPONSE);
  }
  ASSERT_EQ(host.write32(NiScheduleTable::kRegLength, static_cast<uint32_t>(2 * image.size())),
            tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(host.write32(NiScheduleTable::kRegLoad, 1), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(table.status(), NiScheduleTable::kStatusError);
}

TEST_F(NiScheduleTableTest, LoadsTheSameBinFromAFile) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "ni_schedule_table_test";
  std::filesystem::remove_all(dir);
  const TableSet set = torus_tables();
  write_image_set(set, dir.string());
  table.load_file((dir / "node_05.bin").string());
  EXPECT_EQ(table.entries(), set.tables[5].entries);
  try {
    table.load_file((dir / "node_06.bin").string());
    FAIL() << "expected an error for node 6's image";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("node_06.bin"));
  }
  EXPECT_THROW(table.load_file((dir / "missing.bin").string()), InputError);
}

}  // namespace
}  // namespace mt::noc
