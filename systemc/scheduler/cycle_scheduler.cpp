#include "scheduler/cycle_scheduler.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace mt::noc {

CycleScheduler::CycleScheduler(sc_core::sc_module_name name, uint64_t clock_ps)
    : sc_module(name),
      clock_(clock_ps),
      buckets_(kHorizon),
      occupied_(kHorizon / 64, 0) {
  SC_METHOD(tick);
  sensitive << tick_event_;
  dont_initialize();
}

uint32_t CycleScheduler::add(Run run) {
  clients_.push_back({std::move(run), kNever});
  return static_cast<uint32_t>(clients_.size() - 1);
}

void CycleScheduler::notify(uint32_t id, uint64_t cycle) {
  Client& c = clients_[id];
  if (cycle >= c.pending) return;  // an earlier request stands
  const uint64_t now = this->now();
  if (cycle <= now) {
    SC_REPORT_ERROR("mt/noc/scheduler",
                    fmt::format("{}: a run asked for cycle {}, not after the current cycle {}",
                                name(), cycle, now).c_str());
  }
  c.pending = cycle;
  if (cycle - now < kHorizon) {
    const uint64_t b = cycle % kHorizon;
    buckets_[b].push_back(id);
    occupied_[b / 64] |= uint64_t{1} << (b % 64);
  } else {
    far_.push({cycle, id});
  }
  arm(cycle);
}

void CycleScheduler::arm(uint64_t cycle) {
  if (cycle >= armed_) return;
  armed_ = cycle;
  tick_event_.notify(clock_.time_of(cycle) - sc_core::sc_time_stamp());
}

void CycleScheduler::tick() {
  const uint64_t now = this->now();
  armed_ = kNever;
  ++ticks_;
  while (!far_.empty() && far_.top().cycle < now + kHorizon) {
    const Far f = far_.top();
    far_.pop();
    const uint64_t b = f.cycle % kHorizon;
    buckets_[b].push_back(f.id);
    occupied_[b / 64] |= uint64_t{1} << (b % 64);
  }
  // Runs ask for later cycles only, which lie in other buckets: this one does not change.
  const uint64_t b = now % kHorizon;
  std::vector<uint32_t>& bucket = buckets_[b];
  for (const uint32_t id : bucket) {
    Client& c = clients_[id];
    if (c.pending != now) continue;  // superseded by an earlier request, or already run
    c.pending = kNever;
    ++runs_;
    c.run(now);
  }
  bucket.clear();
  occupied_[b / 64] &= ~(uint64_t{1} << (b % 64));
  const uint64_t next = next_cycle(now);
  if (next != kNever) arm(next);
}

// The earliest cycle after `now` with a bucket entry or a far request.
uint64_t CycleScheduler::next_cycle(uint64_t now) const {
  uint64_t next = far_.empty() ? kNever : far_.top().cycle;
  const uint64_t start = (now + 1) % kHorizon;
  for (uint64_t k = 0; k < kHorizon;) {
    const uint64_t b = (start + k) % kHorizon;
    const uint64_t word = occupied_[b / 64] >> (b % 64);
    if (word != 0) {
      const uint64_t at = now + 1 + k + static_cast<uint64_t>(__builtin_ctzll(word));
      return std::min(next, at);
    }
    k += 64 - b % 64;  // the rest of this word is empty
  }
  return next;
}

}  // namespace mt::noc
