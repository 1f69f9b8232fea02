// CycleQueue against the priority queue it replaces: items come out by cycle and, within a
// cycle, in the order they went in, including items put in while a cycle is being taken,
// items beyond the horizon and after idle stretches; an item due before the floor is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "scheduler/cycle_queue.hpp"

namespace mt::noc {
namespace {

// The reference: a heap ordered by (cycle, insertion number).
class Reference {
 public:
  void push(uint64_t cycle, int item) { heap_.push({cycle, seq_++, item}); }
  bool pop_due(uint64_t now, int& out) {
    if (heap_.empty() || std::get<0>(heap_.top()) > now) return false;
    out = std::get<2>(heap_.top());
    heap_.pop();
    return true;
  }
  uint64_t front_cycle() const {
    return heap_.empty() ? CycleQueue<int>::kNever : std::get<0>(heap_.top());
  }

 private:
  using Entry = std::tuple<uint64_t, uint64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  uint64_t seq_ = 0;
};

TEST(CycleQueue, TakesItemsByCycleThenInTheOrderTheyWentIn) {
  CycleQueue<int> q(64);
  q.push(5, 1);
  q.push(3, 2);
  q.push(5, 3);
  q.push(3, 4);
  q.push(200, 5);  // beyond the horizon
  q.push(70, 6);   // beyond the horizon too, nearer
  EXPECT_EQ(q.front_cycle(), 3u);
  std::vector<int> got;
  int x = 0;
  while (q.pop_due(4, x)) got.push_back(x);
  EXPECT_EQ(got, (std::vector<int>{2, 4}));
  q.push(4, 7);  // due now, put in while taking: comes out before the later cycles
  while (q.pop_due(1000, x)) got.push_back(x);
  EXPECT_EQ(got, (std::vector<int>{2, 4, 7, 1, 3, 6, 5}));
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.front_cycle(), CycleQueue<int>::kNever);
}

TEST(CycleQueue, AnItemDueBeforeTheFloorIsRefused) {
  CycleQueue<int> q(64);
  q.push(10, 1);
  int x = 0;
  ASSERT_TRUE(q.pop_due(10, x));
  EXPECT_THROW(q.push(9, 2), std::logic_error);
  EXPECT_NO_THROW(q.push(10, 3));  // the floor's own cycle still may
  EXPECT_THROW(CycleQueue<int>(100), std::invalid_argument);
}

// A simulation's use: each step takes what is due by `now`, and every item taken may put in
// new ones due from now on, near or far; both queues must give the same items in the same
// order, and the same front cycle.
TEST(CycleQueue, MatchesAPriorityQueueOnRandomWork) {
  std::mt19937_64 rng(7);
  for (const uint64_t horizon : {64u, 256u}) {
    CycleQueue<int> q(horizon);
    Reference ref;
    int next_item = 0;
    int taken = 0;
    uint64_t now = 0;
    auto put = [&](uint64_t earliest) {
      // Mostly near, sometimes just past the horizon, sometimes far.
      const uint64_t kind = rng() % 10;
      const uint64_t ahead = kind < 7 ? rng() % 8 : kind < 9 ? horizon - 2 + rng() % 4
                                                             : rng() % (4 * horizon);
      q.push(earliest + ahead, next_item);
      ref.push(earliest + ahead, next_item);
      ++next_item;
    };
    for (int i = 0; i < 20; ++i) put(0);
    for (int step = 0; step < 20000; ++step) {
      int a = 0, b = 0;
      for (;;) {
        const bool got_a = q.pop_due(now, a), got_b = ref.pop_due(now, b);
        ASSERT_EQ(got_a, got_b) << "step " << step;
        if (!got_a) break;
        ASSERT_EQ(a, b) << "step " << step;
        ++taken;
        put(now);  // due now or later: taken in this step if due now
      }
      ASSERT_EQ(q.front_cycle(), ref.front_cycle()) << "step " << step;
      ASSERT_EQ(q.size() == 0, q.empty());
      // Jump to the next due cycle sometimes (an idle stretch), else step one cycle.
      const uint64_t front = q.front_cycle();
      now = (rng() % 5 == 0 && front != CycleQueue<int>::kNever) ? front : now + 1;
    }
    EXPECT_GT(taken, 5000) << "horizon " << horizon;  // the work did not die out
  }
}

}  // namespace
}  // namespace mt::noc
