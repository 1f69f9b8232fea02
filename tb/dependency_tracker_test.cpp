// rtl/dependency_tracker.sv against the SystemC DependencyTracker
// (systemc/ni/dependency_tracker.hpp): the same arrivals and issued entries every cycle, the
// same verdict on the head entry (ready, or the first message it waits for), the same
// overflow when a row is full. The RTL makes the wait check a cycle ahead, so the bench gives
// it, with each cycle's head, the next entry (the head after an issue); without an issue the
// head stays, and it changes otherwise only at a start.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "Vdependency_tracker.h"
#include "ni/dependency_tracker.hpp"
#include "ni_formats.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kNodeW = 8, kK = 4, kFlows = 64, kSlots = 4;
constexpr uint32_t kNil = (1u << kNodeW) - 1;

struct Arrival {
  Op op;
  uint32_t flow, sender;
};

class Tracker {
 public:
  Tracker() : golden_("dependencies", kSlots, kFlows) {
    dut_.reset();
    golden_.reset();
  }
  // One cycle: `head` is the table's head, `arrivals` (at most one) complete this cycle, and
  // the head issues when `issue` and it is ready; the next cycle's head is `next` if it
  // issues, else `head`. Compares the verdicts; returns ready.
  bool cycle(const TableEntry& head, const TableEntry& next, const Arrival* arrival,
             bool issue) {
    dut_->arrive_i = arrival != nullptr;
    if (arrival != nullptr) {
      dut_->arrive_op_i = static_cast<uint8_t>(arrival->op);
      dut_->arrive_flow_i = static_cast<uint8_t>(arrival->flow);
      dut_->arrive_sender_i = static_cast<uint8_t>(arrival->sender);
      golden_.arrive(arrival->op, arrival->flow, arrival->sender);
    }
    dut_->op_i = static_cast<uint8_t>(head.op);
    dut_->flow_i = static_cast<uint8_t>(head.flow);
    dut_->parent_i = node(head.parent);
    dut_->children_i = children(head);
    dut_->next_op_i = static_cast<uint8_t>(next.op);
    dut_->next_flow_i = static_cast<uint8_t>(next.flow);
    dut_->next_parent_i = node(next.parent);
    dut_->next_children_i = children(next);
    Op op;
    uint32_t from;
    const bool waits = golden_.first_missing(head, op, from);
    dut_->issue_i = issue && !waits;
    dut_.settle();
    EXPECT_EQ(dut_->ready_o, !waits) << "cycle " << dut_.cycle();
    if (waits) {
      EXPECT_EQ(dut_->wait_op_o, static_cast<uint32_t>(op)) << "cycle " << dut_.cycle();
      EXPECT_EQ(dut_->wait_node_o, from) << "cycle " << dut_.cycle();
    }
    if (dut_->issue_i) golden_.issue(head);
    dut_.tick();
    return !waits;
  }
  // A cycle whose head is the last entry of the table (or stays the head).
  bool cycle(const TableEntry& head, const Arrival* arrival, bool issue) {
    return cycle(head, head, arrival, issue);
  }
  // start_i: a new all-reduce, every row empty; the head of the next cycle is any entry.
  void start() {
    dut_->arrive_i = 0;
    dut_->issue_i = 0;
    dut_->start_i = 1;
    dut_.tick();
    dut_->start_i = 0;
    golden_.reset();
  }
  Clocked<Vdependency_tracker>& dut() { return dut_; }
  noc::DependencyTracker& golden() { return golden_; }

 private:
  static uint8_t node(uint32_t n) { return static_cast<uint8_t>(n == mt::kNil ? kNil : n); }
  static uint32_t children(const TableEntry& e) {
    uint32_t c = 0;
    for (uint32_t k = 0; k < kK; ++k) {
      c |= (k < e.children.size() ? e.children[k] : kNil) << (kNodeW * k);
    }
    return c;
  }

  Clocked<Vdependency_tracker> dut_;
  noc::DependencyTracker golden_;
};

TableEntry entry(Op op, uint32_t flow, uint32_t parent, std::vector<uint32_t> children) {
  TableEntry e;
  e.op = op;
  e.flow = flow;
  e.parent = parent;
  e.children = std::move(children);
  return e;
}

// A scripted cycle: its head, its arrival (if any), whether the head is to issue, and the
// verdict expected. The head changes only where it issues: a table's entries in order.
struct Step {
  TableEntry head;
  const Arrival* arrival;
  bool issue, ready;
};

void play(Tracker& t, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const TableEntry& next = i + 1 < steps.size() ? steps[i + 1].head : s.head;
    if (i + 1 < steps.size() && !s.issue) {
      ASSERT_EQ(next, s.head) << "step " << i;
    }
    EXPECT_EQ(t.cycle(s.head, next, s.arrival, s.issue), s.ready) << "step " << i;
  }
}

TEST(DependencyTracker, WaitRulesOfFig5) {
  Tracker t;
  const TableEntry reduce = entry(Op::kReduce, 3, 1, {2, 5});
  const TableEntry root_gather = entry(Op::kGather, 7, mt::kNil, {2, 5});
  const TableEntry gather = entry(Op::kGather, 3, 1, {2, 5});
  const TableEntry reduce7 = entry(Op::kReduce, 7, mt::kNil, {});
  const Arrival from2{Op::kReduce, 3, 2}, from5{Op::kReduce, 3, 5}, parent{Op::kGather, 3, 1};
  play(t, {
      {reduce, nullptr, false, false},  // waits for the Reduce of flow 3 from 2
      {reduce, &from2, false, false},   // now from 5
      {reduce, &from5, true, true},     // an arrival counts in its own cycle
      {gather, nullptr, false, false},  // the parent's Gather
      {gather, &parent, true, true},
      {reduce7, nullptr, true, true},      // a terminal Reduce with no children
      {root_gather, nullptr, true, true},  // its flow is reduced: no more waiting
      {entry(Op::kNop, 0, mt::kNil, {}), nullptr, true, true},
  });
  // In a new all-reduce a root Gather of a flow no Reduce issued for waits for its children's
  // Reduces.
  t.start();
  play(t, {{root_gather, nullptr, false, false}, {root_gather, &from2, false, false}});
}

// A Put waits as a Gather does, and its arrival is recorded in the flow's Gather row, so it
// answers a Gather's wait as well as a Put's (both are written, not added).
TEST(DependencyTracker, APutWaitsAsAGatherAndShareItsRow) {
  Tracker t;
  const TableEntry put = entry(Op::kPut, 2, 4, {6});
  const TableEntry terminal = entry(Op::kPut, 2, 4, {});  // waits only: already there
  const TableEntry gather = entry(Op::kGather, 3, 6, {1});
  const TableEntry root = entry(Op::kPut, 5, mt::kNil, {1});
  const Arrival from4{Op::kPut, 2, 4}, put_from6{Op::kPut, 3, 6}, reduce_from1{Op::kReduce, 5, 1};
  play(t, {
      {put, nullptr, false, false},  // the parent's Put (or Gather)
      {put, &from4, true, true},
      {terminal, nullptr, true, true},
      {gather, nullptr, false, false},
      {gather, &put_from6, true, true},
      // A root Put of a flow no Reduce issued for waits for its children's Reduces.
      {root, nullptr, false, false},
      {root, &reduce_from1, true, true},
  });
}

TEST(DependencyTracker, AFullRowOverflowsOnBothSides) {
  Tracker t;
  for (uint32_t s = 0; s < kSlots; ++s) {
    const Arrival a{Op::kReduce, 9, 10 + s};
    t.cycle(entry(Op::kNop, 0, mt::kNil, {}), &a, false);
  }
  EXPECT_FALSE(t.dut()->overflow_o);
  EXPECT_THROW(t.golden().arrive(Op::kReduce, 9, 20), std::runtime_error);
  t.dut()->arrive_i = 1;
  t.dut()->arrive_op_i = static_cast<uint8_t>(Op::kReduce);
  t.dut()->arrive_flow_i = 9;
  t.dut()->arrive_sender_i = 20;
  t.dut().tick();
  t.dut()->arrive_i = 0;
  t.dut().settle();
  EXPECT_TRUE(t.dut()->overflow_o);
  t.dut()->start_i = 1;  // the next all-reduce starts clean
  t.dut().tick();
  t.dut()->start_i = 0;
  t.dut().settle();
  EXPECT_FALSE(t.dut()->overflow_o);
}

TEST(DependencyTracker, AFlowWithoutARowIsAnErrorOnBothSidesNamingTheBound) {
  Tracker t;
  // The SystemC tracker names NiConfig::flows, for a message and for an entry.
  try {
    t.golden().arrive(Op::kReduce, kFlows, 3);
    FAIL() << "a message of flow " << kFlows << " passed " << kFlows << " rows";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("NiConfig::flows"), std::string::npos) << e.what();
  }
  EXPECT_THROW(t.golden().issue(entry(Op::kGather, kFlows, 3, {})), std::runtime_error);
  // The RTL raises overflow_o for the message.
  t.dut()->arrive_i = 1;
  t.dut()->arrive_op_i = static_cast<uint8_t>(Op::kReduce);
  t.dut()->arrive_flow_i = kFlows;
  t.dut()->arrive_sender_i = 3;
  t.dut().tick();
  t.dut()->arrive_i = 0;
  t.dut().settle();
  EXPECT_TRUE(t.dut()->overflow_o);
}

TEST(DependencyTracker, RandomTablesAndArrivalsGiveTheSameVerdicts) {
  std::mt19937 rng(9);
  // An entry over a few flows and nodes.
  auto random_entry = [&] {
    const Op op = static_cast<Op>(rng() % 4);  // NOP, Reduce, Gather, Put
    const uint32_t parent = rng() % 3 == 0 ? mt::kNil : static_cast<uint32_t>(rng() % 12);
    std::vector<uint32_t> children;
    for (uint32_t k = 0, n = static_cast<uint32_t>(rng() % (kK + 1)); k < n; ++k) {
      children.push_back(static_cast<uint32_t>(rng() % 12));
    }
    return entry(op, static_cast<uint32_t>(rng() % 6), op == Op::kNop ? mt::kNil : parent,
                 children);
  };
  uint64_t issued = 0, starts = 0;
  for (int run = 0; run < 20; ++run) {
    Tracker t;
    std::set<std::tuple<int, uint32_t, uint32_t>> sent;  // messages never repeat
    std::vector<uint32_t> per_row(2 * kFlows, 0);
    TableEntry head = entry(Op::kNop, 0, mt::kNil, {});
    TableEntry next = random_entry();  // the table's next entry
    int waited = 0;
    for (int c = 0; c < 3000; ++c) {
      const uint32_t kind = static_cast<uint32_t>(rng() % 3);
      Arrival a{kind == 0 ? Op::kReduce : kind == 1 ? Op::kGather : Op::kPut,
                static_cast<uint32_t>(rng() % 6), static_cast<uint32_t>(rng() % 12)};
      Op op;
      uint32_t from;
      if (waited > 6 && t.golden().first_missing(head, op, from)) {
        // A head that waits long gets what it waits for next (or, if its row is full, a new
        // all-reduce starts), so that tables move on.
        a = Arrival{op, head.flow, from};
      }
      // A Put's arrival goes to its flow's Gather row; the same sender's Gather and Put of a
      // flow are one message there.
      const uint32_t row = (writes(a.op) ? kFlows : 0) + a.flow;
      const int key = writes(a.op) ? 2 : 1;
      const bool arrive = (waited > 6 || rng() % 3 == 0) && per_row[row] < kSlots &&
                          sent.insert({key, a.flow, a.sender}).second;
      if (arrive) ++per_row[row];
      if (waited > 12) {
        t.start();
        sent.clear();
        std::fill(per_row.begin(), per_row.end(), 0);
        head = random_entry();
        next = random_entry();
        waited = 0;
        ++starts;
        continue;
      }
      const bool issue = rng() % 2 == 0;
      const bool ready = t.cycle(head, next, arrive ? &a : nullptr, issue);
      ASSERT_FALSE(HasFailure()) << "run " << run << ", cycle " << c;
      ASSERT_FALSE(t.dut()->overflow_o);
      if (issue && ready) {
        head = next;
        next = random_entry();
        waited = 0;
        ++issued;
      } else {
        waited += !ready;
      }
    }
  }
  std::cout << issued << " entries issued, " << starts << " starts\n";
  // Most entries issue in a table; some runs restart, which checks the heads after a start.
  EXPECT_GT(issued, 20u * 300);
  EXPECT_GT(starts, 20u * 5);
}

}  // namespace
}  // namespace mt::tb
