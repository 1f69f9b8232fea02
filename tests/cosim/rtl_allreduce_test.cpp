// Co-simulation (ctest label cosim): whole all-reduces with the Verilated RTL NI
// (cosim/rtl_network_interface.hpp) at every node, or at some, of the SystemC router mesh must
// finish with every node's exact sum and EXACTLY the cycles, the per-step timeline, the link
// loads, the flit counts and the table-entry issue cycles of the all-SystemC run of the same
// options (compare_runs.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cosim/compare_runs.hpp"

namespace mt::noc {
namespace {

namespace fs = std::filesystem;
using namespace cosim_test;

constexpr uint64_t kKiB = 1024;

TEST(RtlAllReduce, Torus4x4MultiTreeMessage1MiB) {
  compare(options("torus:4x4", "multitree", FlowControl::kMessage, 1024 * kKiB));
}

TEST(RtlAllReduce, Torus4x4MultiTreePacket) {
  compare(options("torus:4x4", "multitree", FlowControl::kPacket, 256 * kKiB));
}

TEST(RtlAllReduce, Torus4x4Ring) {
  compare(options("torus:4x4", "ring", FlowControl::kPacket, 256 * kKiB));
}

// Multi-hop normal packets: the RTL's dimension-order first hop, the routers the rest.
TEST(RtlAllReduce, Mesh3x3Ring2d) {
  compare(options("mesh:3x3", "ring2d", FlowControl::kPacket, 64 * kKiB));
}

TEST(RtlAllReduce, Mesh3x3Dbtree) {
  compare(options("mesh:3x3", "dbtree", FlowControl::kPacket, 64 * kKiB));
}

TEST(RtlAllReduce, Mesh3x3MultiTreeInt32) {
  AllReduceOptions o = options("mesh:3x3", "multitree", FlowControl::kMessage, 96 * kKiB);
  o.dtype = DType::kInt32;
  compare(o);
}

// Put entries (ring2d-paper: each row's partial sums spread with Puts, each chain ended by a
// terminal Put), message- and packet-based.
TEST(RtlAllReduce, Torus4x2Ring2dPaperPuts) {
  compare(options("torus:4x2", "ring2d-paper", FlowControl::kMessage, 96 * kKiB));
}

// 128 flows: more than the SystemC NI's default scoreboard, as many as the RTL NI is built for.
TEST(RtlAllReduce, Torus4x4Ring2dPaper128Flows) {
  compare(options("torus:4x4", "ring2d-paper", FlowControl::kMessage, 64 * kKiB));
}

TEST(RtlAllReduce, Torus3x2Ring2dPaperPutsPacket) {
  compare(options("torus:3x2", "ring2d-paper", FlowControl::kPacket, 48 * kKiB));
}

// RTL and SystemC NIs side by side: flits, credits and sums cross between the two models.
TEST(RtlAllReduce, MixedNodesMesh3x3Dbtree) {
  compare(options("mesh:3x3", "dbtree", FlowControl::kPacket, 64 * kKiB), {0, 5});
}

TEST(RtlAllReduce, MixedNodesTorus4x2Ring2dPaper) {
  compare(options("torus:4x2", "ring2d-paper", FlowControl::kPacket, 64 * kKiB), {1, 6});
}

TEST(RtlAllReduce, MixedNodesTorus4x4MultiTree) {
  compare(options("torus:4x4", "multitree", FlowControl::kMessage, 128 * kKiB), {1, 6, 11, 12});
}

// A run the RTL instance was not built for fails up front, naming the setting.
TEST(RtlAllReduce, RefusesWhatTheRtlWasNotBuiltFor) {
  struct Bad {
    AllReduceOptions o;
    const char* says;
  };
  std::vector<Bad> bad;
  AllReduceOptions o = with_rtl(options("torus:4x4", "multitree", FlowControl::kMessage, 64 * kKiB));
  bad.push_back({o, "virtual channels"});
  bad.back().o.noc.vcs = 2;
  bad.push_back({o, "NI buffer flits"});
  bad.back().o.ni.buffer_flits = 100;
  bad.push_back({o, "reduction latency"});
  bad.back().o.reduction.latency = 0;
  bad.push_back({o, "forwarding of reduced data"});
  bad.back().o.ni.forward = true;
  bad.push_back({o, "at most 255 nodes"});
  bad.back().o.topology = "torus:16x16";
  bad.back().o.bytes = 256 * kKiB;
  bad.push_back({with_rtl(o, {16}), "RTL node 16 does not exist"});
  // 144 flows for a scoreboard of 128 flows' rows; packet mode's tables open messages per port.
  bad.push_back({o, "scoreboard rows for 128 flows; this run's tables use 144"});
  bad.back().o.topology = "torus:12x12";
  bad.back().o.bytes = 144 * kKiB;
  bad.push_back({o, "open packet-mode messages per ejection port"});
  bad.back().o.ni.packet_messages = 8;
  std::vector<std::function<std::string()>> jobs;
  for (const Bad& b : bad) jobs.push_back([o = b.o] { return run_json(o); });
  const std::vector<ChildResult> r = run_in_children(jobs, 2);
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_EQ(r[i].status, ChildResult::Status::kInputError) << bad[i].says << ": " << r[i].text;
    EXPECT_NE(r[i].text.find(bad[i].says), std::string::npos) << r[i].text;
  }
}

// --trace: the SystemC trace has the RTL nodes' state, and each traced RTL node writes its
// own FST of every RTL signal.
TEST(RtlAllReduce, TracesRtlSignals) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("mt_cosim_trace_{}", ::getpid());
  fs::create_directories(dir);
  AllReduceOptions o = with_rtl(options("mesh:2x2", "multitree", FlowControl::kMessage, 4 * kKiB),
                                {0, 3});
  o.trace = (dir / "run.vcd").string();
  o.rtl_waves = (dir / "run").string();
  o.trace_nodes = {0, 1};
  const std::vector<nlohmann::json> r = run({o});
  EXPECT_TRUE(r[0].value("verified", false));
  std::ifstream vcd(o.trace);
  const std::string text{std::istreambuf_iterator<char>(vcd), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("ni_0"), std::string::npos);
  EXPECT_NE(text.find("ni_1"), std::string::npos);
  EXPECT_GT(fs::file_size(dir / "run.rtl_node_0.fst"), 1000u);
  EXPECT_FALSE(fs::exists(dir / "run.rtl_node_1.fst")) << "node 1 runs the SystemC NI";
  EXPECT_FALSE(fs::exists(dir / "run.rtl_node_3.fst")) << "node 3 is not traced";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mt::noc
