// The credits on their way back over one link, each usable from its cycle on, in the order
// they were sent. A receiver returns at most one credit per cycle on a link, and a stream of
// flits through one VC returns one every cycle, so credits of one VC in consecutive cycles are
// kept as one run (first cycle, count): a stream's credits take one entry, not one per flit.
// Taking the credits usable by a cycle gives the same counts as a FIFO of single credits.
#pragma once

#include <algorithm>
#include <cstdint>

#include "router/ring_buffer.hpp"

namespace mt::noc {

class CreditQueue {
 public:
  bool empty() const { return runs_.empty(); }
  // The cycle from which the oldest credit not yet taken counts (not empty()).
  uint64_t next_usable() const { return runs_.front().first; }

  // A credit for `vc`, usable from cycle `usable` on. Credits are taken in the order they are
  // added, so `usable` should not be earlier than the last one's (a link's delay is fixed).
  void push(uint8_t vc, uint64_t usable) {
    if (!runs_.empty()) {
      Run& last = runs_.back();
      if (last.vc == vc && last.first + last.count == usable && last.count != kMaxRun) {
        ++last.count;
        return;
      }
    }
    Run& run = runs_.push_slot();
    run.first = usable;
    run.count = 1;
    run.vc = vc;
  }

  // Credits for `vc` usable by cycle `now` and not yet taken.
  uint32_t usable(uint8_t vc, uint64_t now) const {
    uint32_t n = 0;
    for (size_t i = 0; i < runs_.size() && runs_.at(i).first <= now; ++i) {
      const Run& run = runs_.at(i);
      if (run.vc == vc) {
        n += static_cast<uint32_t>(std::min<uint64_t>(run.count, now - run.first + 1));
      }
    }
    return n;
  }

  // The first cycle by which `n` (> 0) of the credits for `vc` not yet taken are usable, or
  // ~0 if fewer are on their way.
  uint64_t cycle_reaching(uint8_t vc, uint32_t n) const {
    for (size_t i = 0; i < runs_.size(); ++i) {
      const Run& run = runs_.at(i);
      if (run.vc != vc) continue;
      if (run.count >= n) return run.first + n - 1;
      n -= run.count;
    }
    return ~uint64_t{0};
  }

  // Takes, oldest first, every credit usable by cycle `now`: add(vc, n) for each run of n.
  template <typename Add>
  void take(uint64_t now, Add&& add) {
    while (!runs_.empty()) {
      Run& run = runs_.front();
      if (run.first > now) return;
      const uint64_t usable = now - run.first + 1;  // of this run's credits
      if (usable < run.count) {
        add(run.vc, static_cast<uint32_t>(usable));
        run.first += usable;
        run.count -= static_cast<uint32_t>(usable);
        return;
      }
      add(run.vc, run.count);
      runs_.pop_front();
    }
  }

 private:
  static constexpr uint32_t kMaxRun = ~uint32_t{0};  // a longer stream starts a new run
  struct Run {
    uint64_t first = 0;  // the cycle the run's first credit counts from
    uint32_t count = 0;  // credits, one per cycle from `first` on
    uint8_t vc = 0;
  };
  RingBuffer<Run> runs_{4};
};

}  // namespace mt::noc
