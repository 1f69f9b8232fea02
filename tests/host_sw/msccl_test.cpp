// MSCCL interop: plans exported as MSCCL XML and imported back, a hand-written MSCCL ring, and
// the errors for what does not import.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "common/input_file.hpp"
#include "interop/msccl.hpp"
#include "support/run_command.hpp"
#include "support/verify_errors.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

const std::string kRing8 = std::string(MT_SOURCE_DIR) + "/tests/host_sw/data/msccl_ring8_allreduce.xml";

PlanOptions options(uint64_t bytes) {
  PlanOptions opt;
  opt.bytes = bytes;
  return opt;
}

// The transfers as (src, dst, first byte, end, op), counted: what a plan moves, step-free.
std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t, Op>, int> moves(const Plan& p) {
  std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t, Op>, int> m;
  for (const Transfer& t : p.transfers) {
    const ByteRange& r = p.ranges[t.range];
    ++m[{t.src, t.dst, r.offset, r.end(), t.op}];
  }
  return m;
}

using test::errors_of;

Plan import_text(const std::string& xml, const Topology& topo, uint64_t bytes) {
  return msccl_to_plan(msccl::parse_xml(xml, "test.xml"), topo, options(bytes), "test.xml");
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

void expect_refused(const std::string& xml, const std::string& message, const char* topology = "ring:8") {
  try {
    import_text(xml, parse_topology(topology), 1 << 20);
    ADD_FAILURE() << "imported: " << message;
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(message));
  }
}

struct RoundTrip {
  const char* topology;
  const char* algorithm;
  bool same_steps;  // the plan sends every transfer as early as its data allow
};

class MscclRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(MscclRoundTrip, ExportedPlanImportsAndVerifiesWithTheSameTransfers) {
  const RoundTrip c = GetParam();
  const Topology topo = parse_topology(c.topology);
  const Plan plan = build_plan(topo, c.algorithm, options(64 << 10));
  ASSERT_TRUE(verify_plan(plan, topo).ok());
  const std::string xml = export_msccl(plan);
  const Plan back = import_text(xml, topo, plan.bytes);
  const VerifyReport r = verify_plan(back, topo);
  EXPECT_TRUE(r.ok()) << errors_of(r);
  EXPECT_EQ(moves(back), moves(plan));
  EXPECT_LE(back.steps_per_phase, plan.steps_per_phase);
  if (c.same_steps) {
    EXPECT_EQ(back.steps_per_phase, plan.steps_per_phase);
  }
  // A one-hop plan's link per step stays with one threadblock, so the import keeps the promise.
  EXPECT_EQ(back.contention_free, plan.contention_free && plan.neighbour_only);
  // The import exports again to a document with as many steps of each type.
  const std::string again = export_msccl(back);
  for (const char* type : {"type=\"s\"", "type=\"r\"", "type=\"rrc\""}) {
    size_t a = 0, b = 0;
    for (size_t at = xml.find(type); at != std::string::npos; at = xml.find(type, at + 1)) ++a;
    for (size_t at = again.find(type); at != std::string::npos; at = again.find(type, at + 1)) ++b;
    EXPECT_EQ(a, b) << type;
    EXPECT_GT(a, 0u) << type;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Plans, MscclRoundTrip,
    ::testing::Values(RoundTrip{"ring:8", "ring", true}, RoundTrip{"torus:4x4", "ring", true},
                      RoundTrip{"torus:4x4", "multitree", true},
                      RoundTrip{"mesh:3x3", "multitree", true},
                      RoundTrip{"torus:4x4", "multitree-opt", true},
                      RoundTrip{"torus:4x4", "ring-bi", true},
                      RoundTrip{"torus:4x4", "ring2d-paper", true}));

// ring2d-paper's line sums spread with Puts (write without adding): exported as r (receive
// over the chunk), they come back as Puts, not Gathers, in the reduce-scatter's steps, and a
// chunk that two all-reduces move (the line's, then the other dimension's) comes back as a
// flow per tree, as many as the plan has.
TEST(Msccl, Ring2dPaperPutsComeBackAsPutsInFlowsOfTheirOwn) {
  const Topology topo = parse_topology("torus:4x4");
  const Plan plan = build_plan(topo, "ring2d-paper", options(64 << 10));
  const Plan back = import_text(export_msccl(plan), topo, plan.bytes);
  ASSERT_TRUE(verify_plan(back, topo).ok()) << errors_of(verify_plan(back, topo));
  auto count = [](const Plan& p, Op op) {
    return std::count_if(p.transfers.begin(), p.transfers.end(),
                         [op](const Transfer& t) { return t.op == op; });
  };
  EXPECT_GT(count(plan, Op::kPut), 0);
  EXPECT_EQ(count(back, Op::kPut), count(plan, Op::kPut));
  for (const Transfer& t : back.transfers) {
    if (t.op == Op::kPut) {
      EXPECT_LE(t.step, back.steps_per_phase) << "a Put of the reduce-scatter";
    }
  }
  EXPECT_EQ(back.flows.size(), plan.flows.size());
  EXPECT_EQ(verify_plan(back, topo).unordered_puts, verify_plan(plan, topo).unordered_puts);
}

TEST(Msccl, ExportedMultiTreeNamesEveryTransferOnce) {
  const Topology topo = parse_topology("torus:4x4");
  const Plan plan = build_plan(topo, "multitree", options(1 << 20));
  const msccl::Algo algo = plan_to_msccl(plan);
  EXPECT_EQ(algo.ngpus, 16u);
  EXPECT_EQ(algo.nchunksperloop, plan.flows.size());
  size_t sends = 0, receives = 0, reduces = 0;
  for (const msccl::Gpu& g : algo.gpus) {
    for (const msccl::Threadblock& tb : g.tbs) {
      EXPECT_TRUE((tb.send < 0) != (tb.recv < 0)) << "gpu " << g.id << " tb " << tb.id;
      for (const msccl::Step& s : tb.steps) {
        sends += s.type == msccl::StepType::kSend;
        receives += msccl::receives(s.type);
        reduces += s.type == msccl::StepType::kRecvReduceCopy;
      }
    }
  }
  EXPECT_EQ(sends, plan.transfers.size());
  EXPECT_EQ(receives, plan.transfers.size());
  EXPECT_EQ(reduces, static_cast<size_t>(std::count_if(
                         plan.transfers.begin(), plan.transfers.end(),
                         [](const Transfer& t) { return t.op == Op::kReduce; })));
}

TEST(Msccl, HandWrittenRing8VerifiesOnARing) {
  const Topology topo = parse_topology("ring:8");
  const Plan plan = import_msccl("msccl:" + kRing8, topo, options(1 << 20));
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_TRUE(r.ok()) << errors_of(r);
  const uint32_t n = 8;
  EXPECT_EQ(plan.steps_per_phase, n - 1);
  EXPECT_EQ(plan.transfers.size(), 2u * (n - 1) * n);
  EXPECT_TRUE(plan.neighbour_only);
  EXPECT_TRUE(plan.contention_free);
  for (const Transfer& t : plan.transfers) {
    EXPECT_EQ(t.dst, (t.src + 1) % n);
    EXPECT_EQ(t.op == Op::kReduce, t.step <= n - 1);
  }
  // Chunk c's sum ends on the rank before it (its rrcs), which sends the first Gather.
  for (uint32_t c = 0; c < n; ++c) EXPECT_EQ(plan.flows[c].root, (c + n - 1) % n);
}

// Two ranks, two chunks: each reduces one chunk (rrc) and sends its sum back (r).
std::string two_ranks(const char* rank1_receives) {
  auto step = [](int s, const char* type, int chunk, int depid, int deps) {
    return fmt::format("<step s=\"{}\" type=\"{}\" srcbuf=\"i\" srcoff=\"{}\" dstbuf=\"i\" "
                       "dstoff=\"{}\" cnt=\"1\" depid=\"{}\" deps=\"{}\" hasdep=\"0\"/>",
                       s, type, chunk, chunk, depid, deps);
  };
  std::string xml = "<algo name=\"two\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" "
                    "coll=\"allreduce\" inplace=\"1\">";
  for (int r = 0; r < 2; ++r) {
    const int own = 1 - r, other = r;  // rank r sums chunk 1 - r and sends chunk r away
    xml += fmt::format("<gpu id=\"{}\"><tb id=\"0\" send=\"{}\" recv=\"-1\" chan=\"0\">", r, 1 - r);
    xml += step(0, "s", other, -1, -1) + step(1, "s", own, 1, 0) + "</tb>";
    xml += fmt::format("<tb id=\"1\" send=\"-1\" recv=\"{}\" chan=\"0\">", 1 - r);
    xml += step(0, r == 1 ? rank1_receives : "rrc", own, -1, -1) + step(1, "r", other, -1, -1);
    xml += "</tb></gpu>";
  }
  return xml + "</algo>";
}

TEST(Msccl, VerifierProvesOrRefusesAnImportedProgram) {
  const Topology topo = parse_topology("ring:2");
  const Plan good = import_text(two_ranks("rrc"), topo, 4096);
  EXPECT_TRUE(verify_plan(good, topo).ok()) << errors_of(verify_plan(good, topo));
  // Rank 1 stores rank 0's chunk 0 over its own instead of adding it: the sum it sends back
  // lacks rank 1, and the verifier names the first wrong step.
  const Plan bad = import_text(two_ranks("r"), topo, 4096);
  const VerifyReport r = verify_plan(bad, topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr("flow 0"));
  EXPECT_THROW(require_valid(bad, topo), InputError);
}

TEST(Msccl, AStoreBeforeAReduceIsAPutWhichTheVerifierJudges) {
  // gpu 3's rrcs (chunk 4) turned into rcs: it stores the partial sum it receives over its own
  // chunk and forwards it, and gpu 4 adds to it. A store with a Reduce after it is a Put of
  // the reduce-scatter; the sum then lacks gpu 3's data, and the verifier says so.
  const std::string ring = read_input_file(kRing8);
  const size_t gpu3 = ring.find("<gpu id=\"3\"");
  const std::string stored =
      ring.substr(0, gpu3) + replace_once(ring.substr(gpu3), "type=\"rrcs\"", "type=\"rcs\"");
  const Topology topo = parse_topology("ring:8");
  const Plan plan = import_text(stored, topo, 1 << 20);
  const auto put = std::find_if(plan.transfers.begin(), plan.transfers.end(),
                                [](const Transfer& t) { return t.op == Op::kPut; });
  ASSERT_NE(put, plan.transfers.end());
  EXPECT_EQ(put->dst, 3u);
  EXPECT_LE(put->step, plan.steps_per_phase);
  const VerifyReport r = verify_plan(plan, topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(errors_of(r), HasSubstr("a partial sum without node 3's contribution"));
}

TEST(Msccl, MalformedOrInexpressibleProgramsAreRefusedByName) {
  const std::string ring = read_input_file(kRing8);
  expect_refused(ring.substr(0, ring.size() / 2), "test.xml: line ");
  expect_refused(replace_once(ring, "nchunksperloop=\"8\" ", ""), "attribute \"nchunksperloop\" is missing");
  expect_refused(replace_once(ring, "type=\"rrs\"", "type=\"xyz\""), "gpu 0, tb 0, step 1: unknown step type \"xyz\"");
  expect_refused(replace_once(ring, "s=\"3\" type", "s=\"4\" type"), "gpu 0, tb 0, step 3: s=\"4\"");
  expect_refused(replace_once(ring, "coll=\"allreduce\"", "coll=\"allgather\""), "only an allreduce");
  expect_refused(ring, "the algorithm has 8 ranks (ngpus), topology ring:4 has 4 nodes", "ring:4");
  expect_refused(replace_once(ring, "srcbuf=\"i\" srcoff=\"0\"", "srcbuf=\"s\" srcoff=\"0\""),
                 "gpu 0, tb 0, step 0 (s): uses the scratch buffer");
  expect_refused(replace_once(ring, "cnt=\"1\"", "cnt=\"9\""), "chunks [0, 9) are outside the 8 chunks");
  // The last step of gpu 0 (its r) gone: gpu 7 sends one message more than gpu 0 receives.
  const size_t last = ring.find("<step s=\"14\"");
  expect_refused(ring.substr(0, last) + ring.substr(ring.find('\n', last) + 1),
                 "gpu 7 sends 14 message(s) to gpu 0 on channel 0 and gpu 0 receives 13");
  // gpu 0 first waits for its own last step.
  expect_refused(replace_once(ring, "depid=\"-1\" deps=\"-1\"", "depid=\"0\" deps=\"14\""),
                 "the program deadlocks: test.xml: gpu 0, tb 0, step 0 (s) never runs");
  expect_refused(replace_once(ring, "depid=\"-1\" deps=\"-1\"", "depid=\"5\" deps=\"0\""),
                 "gpu 0, tb 0, step 0: depends on step 0 of tb 5, which gpu 0 does not have");
}

TEST(Msccl, ImportedPlansOfOtherSizesCutTheSameChunks) {
  // 8 chunks of 100 bytes' worth: the verifier refuses chunks that do not start at 16 bytes.
  const Topology topo = parse_topology("ring:8");
  const Plan small = import_msccl("msccl:" + kRing8, topo, options(64));
  EXPECT_TRUE(verify_plan(small, topo).ok()) << errors_of(verify_plan(small, topo));
  for (const Transfer& t : small.transfers) EXPECT_GT(small.ranges[t.range].size, 0u);
  EXPECT_LT(small.transfers.size(), 2u * 7 * 8);  // 64 bytes: 4 grains for 8 chunks
}

// MultiTree, and ring2d-paper with its Puts: each document holds s, r, rrc and nop steps only
// and plans back to a verified plan.
TEST(MtcMsccl, FormatMscclPrintsTheDocumentAndMscclPathPlansIt) {
  const std::string mtc = MTC_EXE;
  for (const std::string algorithm : {"multitree", "ring2d-paper"}) {
    SCOPED_TRACE(algorithm);
    const std::string xml_path = ::testing::TempDir() + "mtc_msccl_" + algorithm + ".xml";
    const test::CommandResult exported = test::run_command(
        mtc + " plan -t torus:4x4 -a " + algorithm + " -b 1MiB --format msccl > " + xml_path);
    ASSERT_EQ(exported.code, 0) << exported.out;
    const msccl::Algo algo = msccl::parse_xml(read_input_file(xml_path), xml_path);
    EXPECT_EQ(algo.ngpus, 16u);
    for (const msccl::Gpu& g : algo.gpus) {
      for (const msccl::Threadblock& tb : g.tbs) {
        for (const msccl::Step& s : tb.steps) {
          using msccl::StepType;
          EXPECT_TRUE(s.type == StepType::kSend || s.type == StepType::kRecv ||
                      s.type == StepType::kRecvReduceCopy || s.type == StepType::kNop)
              << msccl::step_type_name(s.type);
        }
      }
    }
    const test::CommandResult imported =
        test::run_command(mtc + " plan -t torus:4x4 -a msccl:" + xml_path + " -b 1MiB -q");
    EXPECT_EQ(imported.code, 0) << imported.out;
    EXPECT_THAT(imported.out, HasSubstr("verified: every node ends with every byte summed"));
  }
  const test::CommandResult quiet =
      test::run_command(mtc + " plan -t torus:4x4 -a multitree --format msccl -q");
  EXPECT_EQ(quiet.code, 1);
}

TEST(MtcMsccl, MalformedXmlExitsOneWithoutOutput) {
  const std::string mtc = MTC_EXE;
  const std::string bad = ::testing::TempDir() + "mtc_msccl_bad.xml";
  std::ofstream(bad) << "<algo ngpus=\"8\" coll=\"allreduce\" nchunksperloop=\"8\"><gpu id=\"0\">";
  const test::CommandResult r =
      test::run_command(mtc + " plan -t ring:8 -a msccl:" + bad + " --format msccl");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.out, HasSubstr("mtc: error: " + bad + ": line "));
  EXPECT_THAT(r.out, HasSubstr("malformed XML"));
  EXPECT_EQ(r.out.find("<algo"), std::string::npos);
}

}  // namespace
}  // namespace mt
