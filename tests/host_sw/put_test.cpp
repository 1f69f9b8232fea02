// The Put op (write a partial sum without adding the receiver's own value) through the host
// stack: the verifier's symbolic sums and phases, the table compiler's entries and terminal
// Puts, the image codec, and the tables read back.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "image/image.hpp"
#include "table/schedule_table.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kBytes = 4096;

// A plan on ring:3 (every pair adjacent) with T = 3 and two flows over the whole buffer:
// node 0 Reduces into node 1 (flow 0), node 1 Puts the partial sum {0, 1} back to node 0,
// which Reduces it into node 2 (flow 1: complete); node 2 Gathers the sum to node 1, node 1
// to node 0.
Plan put_plan(Op back = Op::kPut) {
  Plan p;
  p.algorithm = "hand";
  p.topology = "ring:3";
  p.nodes = 3;
  p.steps_per_phase = 3;
  p.bytes = kBytes;
  p.flows = {{1, {0, kBytes}}, {2, {0, kBytes}}};
  p.ranges = {{0, kBytes}, {0, kBytes}};
  p.transfers = {{0, 0, 1, 0, 1, Op::kReduce}, {0, 1, 0, 0, 2, back},
                 {1, 0, 2, 1, 3, Op::kReduce}, {1, 2, 1, 1, 4, Op::kGather},
                 {1, 1, 0, 1, 5, Op::kGather}};
  return p;
}

std::string errors_of(const Plan& plan) {
  std::string s;
  for (const std::string& e : verify_plan(plan, make_ring(3)).errors) s += e + "\n";
  return s.empty() ? "verified" : s;
}

TEST(PutVerifier, APutOfAPartialSumReplacesTheReceiversValue) {
  EXPECT_EQ(errors_of(put_plan()), "verified");
}

TEST(PutVerifier, AGatherCannotCarryThatPartialSum) {
  EXPECT_THAT(errors_of(put_plan(Op::kGather)),
              HasSubstr("a Gather must be in all-gather steps 4..6"));
  Plan p = put_plan(Op::kGather);
  p.steps_per_phase = 1;  // the Gather in the all-gather phase: its sum lacks node 2
  p.transfers = {{0, 0, 1, 0, 1, Op::kReduce}, {0, 1, 0, 0, 2, Op::kGather}};
  EXPECT_THAT(errors_of(p), HasSubstr("node 0, flow 0, step 2, bytes [0, 4096): the Gather from "
                                      "node 1 carries a partial sum without node 2's contribution"));
}

// The Put gives node 0 the set {0, 1}; Reducing it back into node 1, which holds {0, 1}
// already, counts both a second time: refused naming the node, step, range and contribution.
TEST(PutVerifier, APlanThatDoubleCountsThroughAPutIsRefusedByName) {
  Plan p = put_plan();
  p.transfers[2].dst = 1;
  const std::string e = errors_of(p);
  EXPECT_THAT(e, HasSubstr("node 1, flow 1, step 3, bytes [0, 4096): the Reduce from node 0 counts "
                           "node 0's contribution a second time"));
}

// A Put overwrites: node 0's own value, never sent anywhere, is lost.
TEST(PutVerifier, APutOverAValueNoOneHoldsLosesIt) {
  Plan p = put_plan();
  p.transfers.erase(p.transfers.begin());     // node 0 no longer Reduces into node 1
  p.transfers[0] = {0, 1, 0, 0, 1, Op::kPut};  // node 0 := {1}
  EXPECT_THAT(errors_of(p), HasSubstr("without node 0's contribution"));
  EXPECT_THAT(errors_of(p), HasSubstr("ends the all-reduce without node 0's contribution"));
}

TEST(PutVerifier, APutMayBeInAnyStepButNotOutsideThem) {
  Plan p = put_plan();
  p.transfers[1].step = 7;
  EXPECT_THAT(errors_of(p), HasSubstr("a Put must be in steps 1..6"));
  p.transfers[1].step = 0;
  EXPECT_THAT(errors_of(p), HasSubstr("a Put must be in steps 1..6"));
}

// The compiler turns the Put into a root Put entry that waits for node 0's Reduce (its one
// child is the node it heard from, as a Fig. 5 root Gather), and gives node 0 a terminal Put
// (it forwards nothing of flow 0) before its Reduce of those bytes in flow 1; the image
// carries op code 3 and decodes back to the same tables, which verify.
TEST(PutTables, CompileEncodeDecodeAndVerify) {
  const Plan plan = put_plan();
  const TableSet set = compile_tables(plan, TableOptions{});
  std::vector<TableEntry> sends;  // node 1's entries but NOPs
  for (const TableEntry& e : set.tables[1].entries) {
    if (e.op != Op::kNop) sends.push_back(e);
  }
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_EQ(sends[0].op, Op::kPut);
  EXPECT_EQ(sends[0].parent, kNil);
  EXPECT_EQ(sends[0].children, std::vector<uint32_t>{0});
  EXPECT_EQ(sends[0].step, 2u);
  EXPECT_EQ(sends[1].op, Op::kGather);
  EXPECT_EQ(sends[1].parent, 2u);
  const std::vector<TableEntry>& node0 = set.tables[0].entries;
  ASSERT_EQ(node0.size(), 4u);  // Reduce (step 1), NOP (2), terminal Put and Reduce (3)
  EXPECT_EQ(node0[2].op, Op::kPut);
  EXPECT_EQ(node0[2].parent, 1u);
  EXPECT_TRUE(node0[2].children.empty());
  EXPECT_EQ(node0[2].step, 3u);
  EXPECT_EQ(node0[3].op, Op::kReduce);
  const std::vector<uint8_t> image = encode_image(set, 0);
  const uint32_t op = image[kImageHeaderBytes + 2 * image_layout(set).entry_bytes] & 3u;
  EXPECT_EQ(op, 3u);  // entry 2's op field, bits [1:0] of its first byte
  TableSet back = set;
  for (uint32_t n = 0; n < 3; ++n) back.tables[n] = decode_image(encode_image(set, n)).table;
  EXPECT_EQ(back.tables[0].entries, node0);
  const VerifyReport r = verify_tables(back, make_ring(3));
  EXPECT_TRUE(r.ok()) << r.errors.front();
  back.tables[0].entries.erase(back.tables[0].entries.begin() + 2);  // without the wait
  const VerifyReport dropped = verify_tables(back, make_ring(3));
  ASSERT_FALSE(dropped.ok());
  EXPECT_THAT(dropped.errors.front(), HasSubstr("node 0, flow 1, step 3: sends bytes [0, 4096) "
                                                "before waiting for the put of flow 0 from node 1"));
}

// ring2d-paper's last node of each line's Put chain gets a terminal Put (no children) before
// it sends those bytes on; without it the tables send bytes before waiting for them.
TEST(PutTables, TerminalPutsWaitForUnforwardedPuts) {
  const Topology topo = make_torus(4, 4);
  PlanOptions opt;
  opt.bytes = 64 << 10;
  TableSet set = compile_tables(build_ring2d_paper(topo, opt), TableOptions{});
  size_t terminal = 0, where = 0;
  std::vector<TableEntry>& entries = set.tables[5].entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].op != Op::kPut || !entries[i].children.empty()) continue;
    ++terminal;
    where = i;
    EXPECT_NE(entries[i].parent, kNil);
  }
  EXPECT_EQ(terminal, 4u);  // one per share: the piece after its own in each of its rings
  ASSERT_TRUE(verify_tables(set, topo).ok());
  const uint32_t flow = entries[where].flow;
  entries.erase(entries.begin() + static_cast<long>(where));
  const VerifyReport r = verify_tables(set, topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr(fmt::format("before waiting for the put of flow {}", flow)));
}

}  // namespace
}  // namespace mt
