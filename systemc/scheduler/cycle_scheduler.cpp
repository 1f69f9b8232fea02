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
  if (!requests_[0].empty() || !requests_[1].empty() || running_) {
    SC_REPORT_ERROR("mt/noc/scheduler",
                    fmt::format("{}: the lookahead changes while components wait to run",
                                name()).c_str());
  }
  lookahead_ = cycles;
}

void CycleScheduler::set_colours(const std::vector<uint8_t>& colour) {
  if (!requests_[0].empty() || !requests_[1].empty() || running_) {
    SC_REPORT_ERROR("mt/noc/scheduler",
                    fmt::format("{}: colours set while components wait to run", name()).c_str());
  }
  std::vector<uint8_t> of_group(groups_.size(), 2);
  for (const auto& [key, g] : group_of_key_) {
    if (key < colour.size() && colour[key] < 2) of_group[g] = colour[key];
  }
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    if (of_group[g] == 2) {
      SC_REPORT_ERROR("mt/noc/scheduler",
                      fmt::format("{}: group {} has no colour (0 or 1)", name(), g).c_str());
    }
    groups_[g].colour = of_group[g];
  }
  colours_ = 2;
  const uint64_t now = clock_.now();
  ran_until_ = {now, now};
}

void CycleScheduler::refuse(uint64_t cycle, const char* why) const {
  SC_REPORT_ERROR("mt/noc/scheduler",
                  fmt::format("{}: a run asked for cycle {}, {} (current cycle {}, window up to "
                              "cycle {})", name(), cycle, why, now(),
                              std::max(ran_until_[0], ran_until_[1])).c_str());
  throw std::logic_error(why);  // not reached: SC_REPORT_ERROR throws
}

void CycleScheduler::request(uint32_t id, uint64_t cycle) {
  // notify() took a later cycle of the running group's own run, so what is left is a request
  // for the current cycle or earlier, or one from another group.
  Client& c = clients_[id];
  if (cycle <= now()) refuse(cycle, "not after the current cycle");
  // Its group's window may have been run already: only the group itself can still add to it.
  Group& g = groups_[c.group];
  if (cycle < ran_until_[g.colour]) {
    refuse(cycle, "inside a window its group has run (less than the lookahead ahead)");
  }
  c.pending = cycle;
  if (cycle >= g.pending) return;
  g.pending = cycle;
  requests_[g.colour].push(cycle, c.group);
  if (colours_ == 1) {
    arm(cycle);
  } else if (!running_) {  // a run's tick arms the next turn when its runs are over
    arm(next_turn());
  }
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
  armed_ = kNever;
  if (colours_ == 2) {
    tick_coloured(clock_.now());
    return;
  }
  const uint64_t end = clock_.now() + lookahead_;
  run_window(0, end);
  if (!requests_[0].empty()) arm(requests_[0].front_cycle());
}

// The colour behind runs to a lookahead past the other (see the header); a colour with no
// request in its turn passes it without running, and when no group has a request before
// where both colours have run, both start again from the first request.
void CycleScheduler::tick_coloured(uint64_t now) {
  for (;;) {
    const uint64_t next = next_turn();
    if (next == kNever) return;
    if (next > now) {
      arm(next);
      return;
    }
    // The first request past where both colours have run: both start again from it.
    if (next >= std::max(ran_until_[0], ran_until_[1])) ran_until_ = {next, next};
    const uint8_t behind = ran_until_[0] <= ran_until_[1] ? 0 : 1;
    run_window(behind, ran_until_[1 - behind] + lookahead_);
  }
}

uint64_t CycleScheduler::next_turn() const {
  const uint64_t first = std::min(requests_[0].front_cycle(), requests_[1].front_cycle());
  if (first == kNever) return kNever;
  if (first >= std::max(ran_until_[0], ran_until_[1])) return first;
  return std::min(ran_until_[0], ran_until_[1]);
}

void CycleScheduler::run_window(uint8_t colour, uint64_t end) {
  ran_until_[colour] = end;
  window_groups_.clear();
  uint32_t g = 0;
  while (requests_[colour].pop_due(end - 1, g)) {
    Group& group = groups_[g];
    if (group.pending >= end || group.listed) continue;  // superseded, or listed already
    group.listed = true;
    window_groups_.push_back(g);
  }
  for (const uint32_t w : window_groups_) run_group(w, end);
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
  if (group.pending != kNever) requests_[group.colour].push(group.pending, g);
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
