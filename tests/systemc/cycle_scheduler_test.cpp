// CycleScheduler: a component runs in the cycle it asked for, at most once a cycle; of its
// pending requests the earliest wins (the contract of the sc_event it replaced); requests
// beyond the bucket horizon and across idle stretches arrive on time; a request for the
// current cycle is an error.
#include <gtest/gtest.h>

#include <cstdint>
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

TEST_F(CycleSchedulerSim, ARequestForTheCurrentCycleIsAnError) {
  CycleScheduler s("scheduler", kClockPs);
  Recorder a(s);
  a.event.notify_at(2);
  a.script = {{2, 2}};
  EXPECT_THROW(run_cycles(5), sc_core::sc_report);
}

}  // namespace
}  // namespace mt::noc
