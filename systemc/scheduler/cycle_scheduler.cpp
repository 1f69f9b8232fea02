#include "scheduler/cycle_scheduler.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mt::noc {

CycleScheduler::CycleScheduler(sc_core::sc_module_name name, uint64_t clock_ps)
    : sc_module(name),
      clock_(clock_ps) {
  SC_METHOD(tick);
  sensitive << tick_event_;
  dont_initialize();
}

uint32_t CycleScheduler::add(Run run, uint64_t group) {
  // A group's run holds its clients by reference (run_pair), so none is added meanwhile.
  if (running_) {
    SC_REPORT_ERROR("mt/noc/scheduler",
                    fmt::format("{}: a component added while a group runs", name()).c_str());
  }
  uint32_t g = static_cast<uint32_t>(groups_.size());
  if (group != kOwnGroup) {
    const auto [it, fresh] = group_of_key_.try_emplace(group, g);
    g = it->second;
  }
  if (g == groups_.size()) groups_.emplace_back();
  const uint32_t id = static_cast<uint32_t>(clients_.size());
  clients_.push_back({std::move(run), kNever, g});
  groups_[g].clients.push_back(id);
  return id;
}

void CycleScheduler::set_lookahead(uint64_t cycles) {
  if (cycles == 0) {
    SC_REPORT_ERROR("mt/noc/scheduler", fmt::format("{}: a lookahead of 0 cycles", name()).c_str());
  }
  if (!requests_.empty() || running_) {
    SC_REPORT_ERROR("mt/noc/scheduler",
                    fmt::format("{}: the lookahead changes while components wait to run",
                                name()).c_str());
  }
  lookahead_ = cycles;
}

void CycleScheduler::refuse(uint64_t cycle, const char* why) const {
  SC_REPORT_ERROR("mt/noc/scheduler",
                  fmt::format("{}: a run asked for cycle {}, {} (current cycle {}, window up to "
                              "cycle {})", name(), cycle, why, now(), window_end_).c_str());
  throw std::logic_error(why);  // not reached: SC_REPORT_ERROR throws
}

void CycleScheduler::request(uint32_t id, uint64_t cycle) {
  // notify() took a later cycle of the running group's own run, so what is left is a request
  // for the current cycle or earlier, or one from another group.
  Client& c = clients_[id];
  if (cycle <= now()) refuse(cycle, "not after the current cycle");
  // Its group's window may have been run already: only the group itself can still add to it.
  if (cycle < window_end_) {
    refuse(cycle, "inside a window its group has run (less than the lookahead ahead)");
  }
  c.pending = cycle;
  Group& g = groups_[c.group];
  if (cycle >= g.pending) return;
  g.pending = cycle;
  requests_.push(cycle, c.group);
  arm(cycle);
}

uint64_t CycleScheduler::next_request() const {
  uint64_t next = kNever;
  for (const Group& g : groups_) next = std::min(next, g.pending);
  return next;
}

void CycleScheduler::arm(uint64_t cycle) {
  if (cycle >= armed_) return;
  armed_ = cycle;
  tick_event_.notify(clock_.time_of(cycle) - sc_core::sc_time_stamp());
}

// One window, [now, now + lookahead): every group with a request in it runs through it, one
// after the other.
void CycleScheduler::tick() {
  const uint64_t end = clock_.now() + lookahead_;
  armed_ = kNever;
  window_end_ = end;
  window_groups_.clear();
  uint32_t g = 0;
  while (requests_.pop_due(end - 1, g)) {
    Group& group = groups_[g];
    if (group.pending >= end || group.listed) continue;  // superseded, or listed already
    group.listed = true;
    window_groups_.push_back(g);
  }
  for (const uint32_t w : window_groups_) run_group(w, end);
  if (!requests_.empty()) arm(requests_.front_cycle());
}

// Runs group g's components in cycle order, each cycle in the order they were added, until
// none has a request before `end`.
void CycleScheduler::run_group(uint32_t g, uint64_t end) {
  Group& group = groups_[g];
  running_ = true;
  running_group_ = g;
  if (group.clients.size() == 2) {
    run_pair(group, end);
  } else {
    run_clients(group, end);
  }
  running_ = false;
  group.listed = false;
  if (group.pending != kNever) requests_.push(group.pending, g);
}

// A node's router and NI: run_clients for two, with the pair held in registers.
void CycleScheduler::run_pair(Group& group, uint64_t end) {
  Client& a = clients_[group.clients[0]];
  Client& b = clients_[group.clients[1]];
  for (;;) {
    const uint64_t cycle = std::min(a.pending, b.pending);
    if (cycle >= end) {
      group.pending = cycle;
      return;
    }
    current_ = cycle;
    if (a.pending == cycle) {
      a.pending = kNever;
      ++runs_;
      a.run(cycle);
    }
    if (b.pending == cycle) {
      b.pending = kNever;
      ++runs_;
      b.run(cycle);
    }
  }
}

void CycleScheduler::run_clients(Group& group, uint64_t end) {
  for (;;) {
    uint64_t cycle = kNever;
    for (const uint32_t id : group.clients) cycle = std::min(cycle, clients_[id].pending);
    if (cycle >= end) {
      group.pending = cycle;
      break;
    }
    current_ = cycle;
    for (const uint32_t id : group.clients) {
      Client& c = clients_[id];
      if (c.pending != cycle) continue;
      c.pending = kNever;
      ++runs_;
      c.run(cycle);
    }
  }
}

}  // namespace mt::noc
