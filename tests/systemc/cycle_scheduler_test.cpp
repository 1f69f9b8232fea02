// CycleScheduler: a component runs in the cycle it asked for, at most once a cycle; of its
// pending requests the earliest wins (the contract of the sc_event it replaced); requests
// beyond the bucket horizon and across idle stretches arrive on time; a request for the
// current cycle is an error. With groups and a lookahead of L cycles, each group runs alone
// through a window of L cycles, in cycle order, each run told its own cycle; a request from
// another group that would land inside the window is an error; lookahead 1 is lockstep. With
// two colours the colour behind runs to a lookahead past the other, SystemC's time at its
// start; a request to a group of the running colour inside its run, or a group without a
// colour, is an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "scheduler/cycle_scheduler.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using CycleSchedulerSim = test::SimTest;
constexpr uint64_t kClockPs = 1000;

// A component that records the cycles it ran in and, when it runs, makes the requests a test
// scripted for that cycle.
struct Recorder {
  explicit Recorder(CycleScheduler& s) : scheduler(s) {
    event = CycleEvent(s, [this](uint64_t now) { run(now); });
  }
  void run(uint64_t now) {
    EXPECT_EQ(now, scheduler.now());
    ran.push_back(now);
    times.push_back(sc_core::sc_time_stamp());
    for (const auto& [at, cycle] : script) {
      if (at == now) event.notify_at(cycle);
    }
  }
  CycleScheduler& scheduler;
  CycleEvent event;
  std::vector<uint64_t> ran;
  std::vector<sc_core::sc_time> times;
  std::vector<std::pair<uint64_t, uint64_t>> script;  // (when running in cycle a, ask for c)
};

// A component in group `group` that appends (name, cycle) to a log shared by the test's
// components, and makes the requests scripted for the cycle it runs in: (a, target, c) asks
// for target's run in cycle c when running in cycle a.
struct Member {
  struct Ask {
    uint64_t at;
    Member* target;
    uint64_t cycle;
  };
  Member(CycleScheduler& s, uint64_t group, char member_name,
         std::vector<std::pair<char, uint64_t>>& shared_log)
      : scheduler(s), name(member_name), log(shared_log) {
    event = CycleEvent(s, [this](uint64_t now) { run(now); }, group);
  }
  void run(uint64_t now) {
    EXPECT_EQ(now, scheduler.now());
    log.emplace_back(name, now);
    times.push_back(sc_core::sc_time_stamp());
    for (const Ask& a : script) {
      if (a.at == now) a.target->event.notify_at(a.cycle);
    }
  }
  CycleScheduler& scheduler;
  char name;
  std::vector<std::pair<char, uint64_t>>& log;
  CycleEvent event;
  std::vector<sc_core::sc_time> times;
  std::vector<Ask> script;
};
using Log = std::vector<std::pair<char, uint64_t>>;

void run_cycles(uint64_t n) {
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(n * kClockPs), sc_core::SC_PS));
}

TEST_F(CycleSchedulerSim, RunsAComponentInTheCycleItAskedFor) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s), b(s);
  a.event.notify_at(3);
  b.event.notify_at(5);
  a.script = {{3, 4}, {4, 9}};
  run_cycles(20);
  EXPECT_EQ(a.ran, (std::vector<uint64_t>{3, 4, 9}));
  EXPECT_EQ(b.ran, (std::vector<uint64_t>{5}));
  EXPECT_EQ(s.runs(), 4u);
}

TEST_F(CycleSchedulerSim, TheEarliestRequestWinsAndLaterOnesAreDropped) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s);
  a.event.notify_at(8);
  a.event.notify_at(4);   // supersedes 8, as an earlier sc_event notification does
  a.event.notify_at(6);   // later than the pending 4: dropped
  a.script = {{4, 8}};    // asks for 8 again: runs there once, not twice
  run_cycles(20);
  EXPECT_EQ(a.ran, (std::vector<uint64_t>{4, 8}));
}

TEST_F(CycleSchedulerSim, RequestsBeyondTheHorizonAndAfterIdleStretchesRunOnTime) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s), b(s);
  a.event.notify_at(1);
  a.script = {{1, 1 + 1024}, {1025, 1025 + 5000}};
  b.event.notify_at(1023);
  b.script = {{1023, 1023 + 1024 + 1}};
  run_cycles(7000);
  EXPECT_EQ(a.ran, (std::vector<uint64_t>{1, 1025, 6025}));
  EXPECT_EQ(b.ran, (std::vector<uint64_t>{1023, 2048}));
}

TEST_F(CycleSchedulerSim, ARequestMadeBetweenClockEdgesRunsOnTheEdgeOfItsCycle) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s);
  run_cycles(3);  // idle: the scheduler has no request
  sc_core::sc_start(sc_core::sc_time(kClockPs / 2, sc_core::SC_PS));  // half-way into cycle 3
  a.event.notify_at(7);
  run_cycles(10);
  EXPECT_EQ(a.ran, (std::vector<uint64_t>{7}));
  EXPECT_EQ(a.times, (std::vector<sc_core::sc_time>{sc_core::sc_time(7000, sc_core::SC_PS)}));
}

// What the all-reduce monitor asks before it declares a deadlock: whether anything waits to
// run, and when. A superseded request does not count; a group's next request after its window
// does.
TEST_F(CycleSchedulerSim, NextRequestIsTheEarliestCycleAComponentWaitsFor) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s), b(s);
  EXPECT_EQ(s.next_request(), CycleScheduler::kNever);
  a.event.notify_at(30);
  a.event.notify_at(20);  // supersedes 30
  b.event.notify_at(25);
  EXPECT_EQ(s.next_request(), 20u);
  a.script = {{20, 40000}};  // far beyond the bucket horizon
  run_cycles(21);
  EXPECT_EQ(s.next_request(), 25u);
  run_cycles(10);
  EXPECT_EQ(s.next_request(), 40000u);
  run_cycles(49969);  // to cycle 50000
  EXPECT_EQ(s.next_request(), CycleScheduler::kNever);
  EXPECT_EQ(a.ran, (std::vector<uint64_t>{20, 40000}));
  s.set_lookahead(8);
  a.event.notify_at(50010);
  a.script = {{50010, 50013}, {50013, 50100}};  // 50013 runs in 50010's window
  run_cycles(11);
  EXPECT_EQ(a.ran, (std::vector<uint64_t>{20, 40000, 50010, 50013}));
  EXPECT_EQ(s.next_request(), 50100u);
}

TEST_F(CycleSchedulerSim, ARequestForTheCurrentCycleIsAnError) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s);
  a.event.notify_at(2);
  a.script = {{2, 2}};
  EXPECT_THROW(run_cycles(5), sc_core::sc_report);
}

TEST_F(CycleSchedulerSim, EachGroupRunsAloneThroughAWindowOfTheLookahead) {
  CycleScheduler s("scheduler", kClockPs);
  s.set_lookahead(4);
  Log log;
  // a and b share group 1; c and d group 2. Windows: [1, 5), then [6, 10) from a's 6.
  Member a(s, 1, 'a', log), b(s, 1, 'b', log), c(s, 2, 'c', log), d(s, 2, 'd', log);
  a.event.notify_at(1);
  c.event.notify_at(1);
  a.script = {{1, &a, 2}, {2, &b, 3}};
  b.script = {{3, &b, 4}, {3, &d, 7}, {4, &a, 6}};  // d's run lands in the next window
  c.script = {{1, &c, 3}, {3, &b, 8}};              // so does b's, in its group's window
  run_cycles(12);
  // Group 1 asked first: it runs through its window, then group 2 through the same cycles;
  // in the next window group 1 (its 6 is the earliest) before group 2; a group's members in
  // cycle order, within a cycle in the order they were added.
  EXPECT_EQ(log, (Log{{'a', 1}, {'a', 2}, {'b', 3}, {'b', 4}, {'c', 1}, {'c', 3},
                      {'a', 6}, {'b', 8}, {'d', 7}}));
  // SystemC's time stands at the window's first cycle while a group runs through it.
  EXPECT_EQ(a.times, (std::vector<sc_core::sc_time>{sc_core::sc_time(1000, sc_core::SC_PS),
                                                    sc_core::sc_time(1000, sc_core::SC_PS),
                                                    sc_core::sc_time(6000, sc_core::SC_PS)}));
  EXPECT_EQ(c.times[1], sc_core::sc_time(1000, sc_core::SC_PS));
  EXPECT_EQ(d.times[0], sc_core::sc_time(6000, sc_core::SC_PS));
  EXPECT_EQ(s.runs(), 9u);
}

TEST_F(CycleSchedulerSim, AGroupsMembersRunInTheOrderTheyWereAddedWhateverTheirNumber) {
  // A group of two (a node's router and NI) has a loop of its own; any other size the general
  // one. Both run a cycle's members in the order they were added, not the order they asked.
  CycleScheduler s("scheduler", kClockPs);
  s.set_lookahead(8);
  Log log;
  Member x(s, 1, 'x', log), y(s, 1, 'y', log);
  Member p(s, 2, 'p', log), q(s, 2, 'q', log), r(s, 2, 'r', log);
  y.event.notify_at(1);
  x.event.notify_at(1);
  r.event.notify_at(1);
  p.event.notify_at(1);
  x.script = {{2, &x, 3}};
  y.script = {{1, &y, 3}, {1, &x, 2}};  // a request for a later cycle made after x ran
  p.script = {{1, &q, 2}};
  r.script = {{1, &p, 2}};
  run_cycles(12);
  EXPECT_EQ(log, (Log{{'x', 1}, {'y', 1}, {'x', 2}, {'x', 3}, {'y', 3},
                      {'p', 1}, {'r', 1}, {'p', 2}, {'q', 2}}));
  EXPECT_EQ(s.runs(), 9u);
}

TEST_F(CycleSchedulerSim, AComponentAddedWhileAGroupRunsIsAnError) {
  CycleScheduler s("scheduler", kClockPs);
  CycleEvent late;
  CycleEvent adder(s, [&](uint64_t) { late = CycleEvent(s, [](uint64_t) {}); }, 1);
  adder.notify_at(1);
  EXPECT_THROW(run_cycles(4), sc_core::sc_report);
}

TEST_F(CycleSchedulerSim, WithLookaheadOneGroupsAdvanceInLockstep) {
  CycleScheduler s("scheduler", kClockPs);
  Log log;
  Member a(s, 1, 'a', log), b(s, 2, 'b', log);
  a.event.notify_at(1);
  b.event.notify_at(1);
  a.script = {{1, &a, 2}, {2, &a, 3}};
  b.script = {{1, &b, 2}, {2, &b, 4}};
  run_cycles(8);
  EXPECT_EQ(log, (Log{{'a', 1}, {'b', 1}, {'a', 2}, {'b', 2}, {'a', 3}, {'b', 4}}));
}

TEST_F(CycleSchedulerSim, ARequestFromAnotherGroupInsideTheWindowIsAnError) {
  CycleScheduler s("scheduler", kClockPs);
  s.set_lookahead(4);
  Log log;
  Member a(s, 1, 'a', log), c(s, 2, 'c', log);
  a.event.notify_at(1);
  a.script = {{1, &c, 4}};  // window [1, 5): c's group may have run through cycle 4 already
  EXPECT_THROW(run_cycles(8), sc_core::sc_report);
}

TEST_F(CycleSchedulerSim, ALookaheadOfZeroOrSetWhileRequestsWaitIsAnError) {
  CycleScheduler s("scheduler", kClockPs);
  EXPECT_THROW(s.set_lookahead(0), sc_core::sc_report);
  Log log;
  Member a(s, 1, 'a', log);
  a.event.notify_at(3);
  EXPECT_THROW(s.set_lookahead(2), sc_core::sc_report);
}

TEST_F(CycleSchedulerSim, TwoColoursTakeTurnsEachRunningTwoLookaheads) {
  CycleScheduler s("scheduler", kClockPs);
  s.set_lookahead(4);
  Log log;
  Member a(s, 1, 'a', log), c(s, 2, 'c', log);
  s.set_colours({0, 0, 1});  // group keys 1 and 2: colours 0 and 1
  a.event.notify_at(1);
  a.script = {{1, &c, 5}, {1, &a, 2}};
  c.script = {{5, &a, 9}, {5, &c, 12}};
  a.script.push_back({9, &a, 10});
  run_cycles(20);
  // Colour 0 runs [1, 5); nothing waits before 5, so both colours start again there: colour 0
  // passes [5, 9) with nothing to run, colour 1 runs [5, 13) (c's 12 before a's 9), colour
  // 0 [9, 17).
  EXPECT_EQ(log, (Log{{'a', 1}, {'a', 2}, {'c', 5}, {'c', 12}, {'a', 9}, {'a', 10}}));
  // SystemC's time stands at the start of the run of the colour behind.
  const auto at = [](double cycle) { return sc_core::sc_time(cycle * kClockPs, sc_core::SC_PS); };
  EXPECT_EQ(a.times, (std::vector<sc_core::sc_time>{at(1), at(1), at(9), at(9)}));
  EXPECT_EQ(c.times, (std::vector<sc_core::sc_time>{at(5), at(5)}));
}

// Four groups, colours 0, 0, 1, 1, each of two members: one runs every third cycle, the
// other passes a token around the groups 0, 2, 1, 3 (colours alternating), a lookahead per
// hop. With `coloured` the scheduler runs the colours' turns, otherwise lockstep.
struct TokenRing {
  static constexpr uint64_t kHop = 5;
  TokenRing(const char* name, bool coloured) : scheduler(name, kClockPs) {
    for (uint64_t g = 0; g < 4; ++g) {
      every.push_back(std::make_unique<Member>(scheduler, g, static_cast<char>('a' + g), log));
      token.push_back(std::make_unique<Member>(scheduler, g, static_cast<char>('A' + g), log));
      for (uint64_t t = 1 + g; t < 60; t += 3) {
        every[g]->script.push_back({t, every[g].get(), t + 3});
      }
    }
    const size_t ring[] = {0, 2, 1, 3};
    for (uint64_t k = 0, t = 1; t < 60; ++k, t += kHop) {
      token[ring[k % 4]]->script.push_back({t, token[ring[(k + 1) % 4]].get(), t + kHop});
    }
    if (coloured) {
      scheduler.set_lookahead(kHop);
      scheduler.set_colours({0, 0, 1, 1});
    }
    for (uint64_t g = 0; g < 4; ++g) every[g]->event.notify_at(1 + g);
    token[0]->event.notify_at(1);
  }
  Log sorted_log() const {
    Log sorted = log;
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }
  CycleScheduler scheduler;
  Log log;
  std::vector<std::unique_ptr<Member>> every, token;
};

TEST_F(CycleSchedulerSim, TwoColoursRunEveryComponentInTheCyclesOfLockstep) {
  TokenRing lockstep("lockstep", false), coloured("coloured", true);
  run_cycles(80);
  const Log expected = lockstep.sorted_log();
  EXPECT_EQ(expected.size(), 21u + 21 + 20 + 20 + 13);  // the periodic members, the token
  EXPECT_EQ(coloured.sorted_log(), expected);
  EXPECT_NE(coloured.log, lockstep.log);  // in another order: groups ran ahead of others
}

TEST_F(CycleSchedulerSim, TwoColoursRefuseARequestInsideTheRunOfItsColour) {
  CycleScheduler s("scheduler", kClockPs);
  s.set_lookahead(4);
  Log log;
  Member a(s, 1, 'a', log), b(s, 3, 'b', log), c(s, 2, 'c', log);
  s.set_colours({0, 0, 1, 0});  // a and b colour 0: neither may reach the other
  a.event.notify_at(1);
  c.event.notify_at(1);
  // Colour 0 runs [1, 5), colour 1 [1, 9), colour 0 [5, 13): a's request in cycle 5 for b's
  // 11 is a lookahead ahead, but inside the run of b's colour.
  a.script = {{1, &a, 5}, {5, &b, 11}};
  EXPECT_THROW(run_cycles(20), sc_core::sc_report);
  EXPECT_EQ(log, (Log{{'a', 1}, {'c', 1}, {'a', 5}}));
}

TEST_F(CycleSchedulerSim, ColoursForSomeGroupsOnlyAreAnError) {
  CycleScheduler s("scheduler", kClockPs);
  Log log;
  Member a(s, 1, 'a', log), c(s, 5, 'c', log);
  EXPECT_THROW(s.set_colours({0, 0, 1}), sc_core::sc_report);  // no colour for key 5
  EXPECT_THROW(s.set_colours({0, 0, 1, 1, 1, 2}), sc_core::sc_report);  // 2 is no colour
}

}  // namespace
}  // namespace mt::noc
