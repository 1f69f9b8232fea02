#include "scheduler/cycle_scheduler.hpp"

#include <fmt/format.h>

namespace mt::noc {

CycleScheduler::CycleScheduler(sc_core::sc_module_name name, uint64_t clock_ps)
    : sc_module(name),
      clock_(clock_ps) {
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
  requests_.push(cycle, id);
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
  // Runs ask for later cycles only, so this takes exactly the requests for this cycle.
  uint32_t id = 0;
  while (requests_.pop_due(now, id)) {
    Client& c = clients_[id];
    if (c.pending != now) continue;  // superseded by an earlier request, or already run
    c.pending = kNever;
    ++runs_;
    c.run(now);
  }
  if (!requests_.empty()) arm(requests_.front_cycle());
}

}  // namespace mt::noc
