// The verifier accepts correct plans and rejects broken ones with a message that names the
// node, flow and step.
#include <functional>
#include <stdexcept>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "support/swapped_steps_set.hpp"
#include "table/schedule_table.hpp"
#include "verifier/table_check.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

Plan mesh2x2() { return build_multitree(make_mesh(2, 2), PlanOptions{}); }

std::string all_errors(const Plan& plan, const Topology& topo) {
  std::string s;
  for (const std::string& e : verify_plan(plan, topo).errors) s += e + "\n";
  return s;
}

std::string first_error(const Plan& plan, const Topology& topo) {
  const VerifyReport r = verify_plan(plan, topo);
  return r.ok() ? "verified" : r.errors.front();
}

// Index of the transfer with these fields (tests edit the Fig. 5 plan by hand).
size_t find(const Plan& p, Op op, uint32_t flow, uint32_t src, uint32_t dst) {
  for (size_t i = 0; i < p.transfers.size(); ++i) {
    const Transfer& t = p.transfers[i];
    if (t.op == op && t.flow == flow && t.src == src && t.dst == dst) return i;
  }
  ADD_FAILURE() << "no such transfer";
  return 0;
}

TEST(Verifier, AcceptsTheFig5PlanAndReportsItsShape) {
  const VerifyReport r = verify_plan(mesh2x2(), make_mesh(2, 2));
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.steps_per_phase, 2u);
  EXPECT_EQ(r.step_bound, 2u);  // max(diameter 2, ceil(3/2))
  EXPECT_EQ(r.transfers, 24u);
  EXPECT_EQ(r.max_step_link_load, 1u);
  // 24 transfers of a 256 KiB chunk over 8 directed links.
  uint64_t total = 0;
  for (uint64_t b : r.link_bytes) total += b;
  EXPECT_EQ(total, 24u * (1 << 18));
  EXPECT_EQ(r.link_bytes.size(), 8u);
  EXPECT_GE(r.max_link_bytes, 3u * (1 << 18));
}

TEST(Verifier, RejectsAMissingEdge) {
  Plan p = mesh2x2();
  // Tree 0: node 3 never receives the final sum of chunk 0.
  p.transfers.erase(p.transfers.begin() + static_cast<long>(find(p, Op::kGather, 0, 2, 3)));
  EXPECT_THAT(first_error(p, make_mesh(2, 2)),
              HasSubstr("node 3, flow 0, bytes [0, 262144): ends the all-reduce without"));
}

TEST(Verifier, RejectsADoubledContribution) {
  Plan p = mesh2x2();
  // Node 3 sends its Reduce of flow 0 to node 2 again in a step of its own.
  Transfer again = p.transfers[find(p, Op::kReduce, 0, 3, 2)];
  again.step = 2;
  p.transfers.push_back(again);
  const std::string errors = all_errors(p, make_mesh(2, 2));
  EXPECT_THAT(errors, HasSubstr("node 3, flow 0, step 2: sends its Reduce of flow 0 a second time"));
  // Symbolic execution sees node 3's contribution arrive at node 2 twice.
  EXPECT_THAT(errors, HasSubstr("node 2, flow 0, step 2, bytes [0, 262144): the Reduce from node 3 "
                                "counts node 3's contribution a second time"));
}

TEST(Verifier, RejectsAStepClashOnALink) {
  Plan p = mesh2x2();
  // Move tree 1's step-1 gather 1 -> 3 onto link 0 -> 1's... rather: a second transfer on 2->0
  // in the step where tree 2 already uses it.
  const size_t i = find(p, Op::kGather, 2, 2, 0);
  Transfer clash = p.transfers[i];
  clash.flow = 1;
  clash.range = 1;
  p.transfers.push_back(clash);
  EXPECT_THAT(first_error(p, make_mesh(2, 2)),
              HasSubstr("step 3: link 2 -> 0 carries more than 1 transfer(s)"));
}

TEST(Verifier, RejectsASendBeforeItsDataArrived) {
  Plan p = mesh2x2();
  // Node 0 forwards chunk 2's partial sum to node 2 in step 1, before node 1's Reduce lands.
  p.transfers[find(p, Op::kReduce, 2, 0, 2)].step = 1;
  const std::string errors = all_errors(p, make_mesh(2, 2));
  // Node 0 never waits for node 1's contribution, so the root's sum lacks it.
  EXPECT_THAT(errors, HasSubstr("before waiting for the reduce of flow 2 from node 1 (step 1)"));
  EXPECT_THAT(errors, HasSubstr("the Gather from node 2 carries a partial sum without node 1's"));
}

TEST(Verifier, RejectsNonNeighboursInAOneHopPlan) {
  Plan p = mesh2x2();
  Transfer& t = p.transfers[find(p, Op::kReduce, 3, 0, 1)];
  t.dst = 3;  // 0 and 3 are diagonal
  EXPECT_THAT(first_error(p, make_mesh(2, 2)), HasSubstr("nodes 0 and 3 are not neighbours"));
}

TEST(Verifier, RejectsOpsInTheWrongPhaseAndBadIds) {
  Plan p = mesh2x2();
  p.transfers[0].step = 3;
  EXPECT_THAT(first_error(p, make_mesh(2, 2)), HasSubstr("a Reduce must be in reduce-scatter steps 1..2"));
  p = mesh2x2();
  p.transfers[0].flow = 9;
  EXPECT_THAT(first_error(p, make_mesh(2, 2)), HasSubstr("flow 9 does not exist"));
  p = mesh2x2();
  p.transfers[0].dst = p.transfers[0].src;
  EXPECT_THAT(first_error(p, make_mesh(2, 2)), HasSubstr("two different nodes"));
  EXPECT_THAT(first_error(mesh2x2(), make_mesh(4, 4)), HasSubstr("plan is for 4 nodes"));
}

// Chunks start at multiples of a flit's 16 payload bytes, which the NI's blocks are cut in: a
// plan whose chunk boundary is only element-aligned is refused by name.
TEST(Verifier, RejectsAChunkThatDoesNotStartAtASixteenByteGrain) {
  Plan p = mesh2x2();
  EXPECT_EQ(first_error(p, make_mesh(2, 2)), "verified");
  p.ranges[0].size -= kElementBytes;
  p.ranges[1].offset -= kElementBytes;
  p.ranges[1].size += kElementBytes;
  for (Flow& f : p.flows) f.chunk = p.ranges[&f - p.flows.data()];
  EXPECT_THAT(all_errors(p, make_mesh(2, 2)),
              HasSubstr("range 1 = bytes [262140, 524288) does not start at a multiple of 16 "
                        "bytes"));
}

TEST(Verifier, RequireValidThrowsWithTheErrors) {
  Plan p = mesh2x2();
  p.transfers.pop_back();
  try {
    require_valid(p, make_mesh(2, 2));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("does not verify"));
    EXPECT_THAT(e.what(), HasSubstr("ends the all-reduce without"));
  }
}

TEST(VerifyTables, AcceptsCompiledTablesAndRejectsAWaitThatNeverEnds) {
  const Topology topo = make_torus(4, 4);
  TableSet set = compile_tables(build_multitree(topo, PlanOptions{}), TableOptions{});
  VerifyReport r = verify_tables(set, topo);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  // Make node 5's first Reduce with children wait for a node that never sends it that flow.
  for (TableEntry& e : set.tables[5].entries) {
    if (e.op == Op::kReduce && !e.children.empty()) {
      e.children[0] = e.parent;
      break;
    }
  }
  r = verify_tables(set, topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr("that no node sends it"));
}

// Issue 36: a table whose steps go backwards was proved, though no NI can run it (the head
// issues only in its step, and the step only advances).
TEST(VerifyTables, RejectsStepsThatGoBackwards) {
  const TableSet set = test::swapped_steps_tables();
  ASSERT_EQ(set.tables[5].entries[0].step, 2u);
  ASSERT_EQ(set.tables[5].entries[1].step, 1u);
  const VerifyReport r = verify_tables(set, make_torus(4, 4));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr("node 5, table entry 1: step 1 after step 2 in entry 0"));
  EXPECT_THAT(r.errors.front(), HasSubstr("steps must not decrease"));
}

// ... and a table that names its own node, with or without the rest of the verifier.
TEST(VerifyTables, RejectsAnEntryThatNamesItsOwnNode) {
  const Topology topo = make_mesh(2, 2);
  TableSet set = compile_tables(mesh2x2(), TableOptions{});
  for (TableEntry& e : set.tables[0].entries) {
    if (e.op == Op::kReduce && !e.children.empty()) e.children.back() = 0;
  }
  const VerifyReport r = verify_tables(set, topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr("node 0, table entry"));
  EXPECT_THAT(r.errors.front(), HasSubstr("node 0 is the table's own node"));
  EXPECT_EQ(table_rule_error(set.tables[1]), "");
}

TEST(VerifyTables, RejectsADroppedWait) {
  const Topology topo = make_mesh(2, 2);
  TableSet set = compile_tables(mesh2x2(), TableOptions{});
  // Node 0's Reduce of flow 2 forgets to wait for node 1.
  for (TableEntry& e : set.tables[0].entries) {
    if (e.op == Op::kReduce && e.flow == 2) e.children.clear();
  }
  const VerifyReport r = verify_tables(set, topo);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors.front(), HasSubstr("node 0, flow 2, step 2: sends bytes"));
  EXPECT_THAT(r.errors.front(), HasSubstr("before waiting for the reduce of flow 2 from node 1"));
}

// The errors TableChecker finds in `set`'s tables, checked one at a time against `plan`.
std::vector<std::string> check_one_by_one(const Plan& plan, const TableSet& set) {
  const PlanIndex index(plan);
  TableChecker checker(plan, index, set.base_addr, 5);
  for (const ScheduleTable& t : set.tables) checker.check(t);
  return checker.errors();
}

// Compiled tables pass the table-at-a-time check wherever they verify as a whole set: every
// algorithm, K from 1 up, an offset buffer.
TEST(TableChecker, AcceptsWhatVerifyTablesAccepts) {
  struct Case {
    const char* spec;
    const char* algorithm;
    uint32_t k;
  };
  for (const Case& c : {Case{"torus:4x4", "multitree", 4}, Case{"torus:4x4", "multitree", 1},
                        Case{"mesh:3x3", "ring2d", 2}, Case{"ring:5", "ring-bi", 4},
                        Case{"torus:4x4", "dbtree", 1}, Case{"bigraph:4x4", "hdrm", 4},
                        Case{"fattree:4x2", "multitree", 2}}) {
    const Topology topo = parse_topology(c.spec);
    PlanOptions po;
    po.bytes = 4096;
    const Plan plan = build_plan(topo, c.algorithm, po);
    TableOptions to;
    to.children_slots = c.k;
    to.base_addr = 0x40000;
    TableStream stream(plan, to);
    TableSet set = stream.header();
    for (uint32_t v = 0; v < plan.nodes; ++v) set.tables.push_back(stream.table(v));
    const VerifyReport r = verify_tables(set, topo);
    ASSERT_TRUE(r.ok()) << c.algorithm << " " << c.spec << ": " << r.errors.front();
    const std::vector<std::string> errors = check_one_by_one(plan, set);
    EXPECT_TRUE(errors.empty()) << c.algorithm << " " << c.spec << ": " << errors.front();
    const TableSet whole = compile_tables(plan, to);
    for (uint32_t v = 0; v < plan.nodes; ++v) {
      EXPECT_EQ(set.tables[v].entries, whole.tables[v].entries) << c.algorithm << " " << c.spec;
    }
  }
}

// A table that sends something else than its plan, or waits wrongly, is an error naming the
// node and entry.
TEST(TableChecker, RejectsTablesThatDoNotSendTheirPlanOrWaitWrongly) {
  const Plan plan = build_multitree(make_torus(4, 4), PlanOptions{});
  const TableSet good = compile_tables(plan, TableOptions{});
  auto first_error = [&](const std::function<void(TableSet&)>& edit) {
    TableSet set = good;
    edit(set);
    const std::vector<std::string> errors = check_one_by_one(plan, set);
    return errors.empty() ? std::string("accepted") : errors.front();
  };
  auto first_send = [](TableSet& set, uint32_t node, Op op) -> TableEntry& {
    for (TableEntry& e : set.tables[node].entries) {
      if (e.op == op && (op == Op::kGather || e.parent != kNil)) return e;
    }
    throw std::logic_error("no such entry");
  };
  EXPECT_THAT(first_error([&](TableSet& s) { first_send(s, 5, Op::kReduce).size -= 4; }),
              HasSubstr("node 5, table entry"));
  EXPECT_THAT(first_error([&](TableSet& s) { first_send(s, 5, Op::kReduce).step += 1; }),
              HasSubstr("where the plan sends reduce of flow"));
  EXPECT_THAT(first_error([&](TableSet& s) { first_send(s, 3, Op::kGather).children.pop_back(); }),
              HasSubstr("node 3"));
  EXPECT_THAT(first_error([&](TableSet& s) { s.tables[7].entries.pop_back(); }),
              HasSubstr("node 7: its table does not send the plan's gather"));
  EXPECT_THAT(first_error([&](TableSet& s) {
                TableEntry& e = first_send(s, 2, Op::kGather);
                s.tables[2].entries.push_back(e);
              }),
              HasSubstr("which the plan does not"));
  EXPECT_THAT(first_error([&](TableSet& s) {
                for (TableEntry& e : s.tables[5].entries) {
                  if (e.op == Op::kReduce && !e.children.empty()) {
                    e.children[0] = e.parent;
                    break;
                  }
                }
              }),
              HasSubstr("that no node sends it"));
}

}  // namespace
}  // namespace mt
