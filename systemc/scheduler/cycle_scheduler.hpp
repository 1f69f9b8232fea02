// One SystemC process that runs, in each clock cycle, every component that asked to run in
// that cycle: the routers and the NIs, which act on whole cycles only.
//
// Why: with an sc_event and an SC_METHOD per component, every wake-up is a timed notification
// in the kernel's priority queue, a trigger and a process dispatch; on a torus:8x8 all-reduce
// that was about a sixth of all instructions (cachegrind), for about five million wake-ups.
// Here a wake-up is an entry in the bucket of its cycle, and the kernel sees one process.
//
// Contract, that of the sc_event each component had (one pending notification): a component
// asks to run in cycle c > the current cycle; of its requests the earliest wins, a later one
// is dropped (the component's run recomputes what it still needs), and the request is used up
// when the component runs. A component runs at most once per cycle. Within a cycle the order
// of components is unspecified, as it was among SC_METHODs: whatever a component sends in
// cycle t becomes usable at t+1 or later (systemc/README.md "Timing contract").
//
// Groups and lookahead (temporal decoupling, as TLM-2.0's loosely-timed initiators do it):
// components that act on each other within a cycle or a few share a group (a node's router
// and its NI); between groups everything travels over a link. If whatever a component does to
// another group takes effect `lookahead` cycles later or more (a flit's link delay, a credit's
// latency), the scheduler runs each group alone through a window of `lookahead` cycles before
// the next group: nothing another group does in the window can reach it before the window
// ends, so each group sees exactly the cycles it would see in lockstep, and its state stays in
// the cache for the whole window. A run is told its own cycle (now()); SystemC's time stands
// at the window's first cycle meanwhile. With lookahead 1 (the default) every group advances
// one cycle at a time: lockstep. A request from another group that would land inside a
// window already run is an error: it would break that contract, never silently.
//
// Two colours (set_colours): when no group acts directly on a group of its own colour (a
// router network whose graph is bipartite, as a torus of even sides), the two colours take
// turns, each running to a lookahead past where the other has run: colour A runs [s, s+L),
// then B [s, s+2L), A [s+L, s+3L), ... Each run of a group spans two lookaheads, and each is
// still exact: what B receives before s+2L was sent before s+L, which A has run, and what B
// sends from s on lands at s+L or later, where A has not run yet. A group then fetches its
// state once per two lookaheads instead of one. SystemC's time stands at the start of the
// run of the colour behind.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "scheduler/cycle_clock.hpp"
#include "scheduler/cycle_queue.hpp"

namespace mt::noc {

class CycleScheduler : public sc_core::sc_module {
 public:
  static constexpr uint64_t kNever = ~0ull;
  // add(): the component is a group of its own.
  static constexpr uint64_t kOwnGroup = ~0ull;

  // clock_ps: the clock period all components share.
  CycleScheduler(sc_core::sc_module_name name, uint64_t clock_ps);

  // A component's work for one cycle, given the cycle.
  using Run = std::function<void(uint64_t now)>;

  // Registers a component's run in group `group` (any key; components with the same key
  // share the group); returns its id for notify(). Not from within a run (an error).
  uint32_t add(Run run, uint64_t group = kOwnGroup);
  // Asks for run(id) in cycle `cycle`, which must lie after the current cycle. Inline: a
  // component's request from its own group's run (the common one) only records the cycle.
  void notify(uint32_t id, uint64_t cycle) {
    Client& c = clients_[id];
    if (cycle >= c.pending) return;  // an earlier request stands
    if (running_ && c.group == running_group_ && cycle > current_) {
      c.pending = cycle;  // run_group() takes it
      return;
    }
    request(id, cycle);
  }
  // Whatever a component does to another group takes effect `cycles` (>= 1) after the cycle
  // it does it in, or later: groups run windows of that many cycles each (see above). Set it
  // before the simulation runs, or while no component has a request.
  void set_lookahead(uint64_t cycles);
  // Two-coloured windows (see above): colour[key] (0 or 1) for every group key, and no
  // component acts on a group of its own colour but its own group (the caller's promise, as
  // for the lookahead). An error if a group has no key below colour.size(); set it with the
  // lookahead, while no component has a request.
  void set_colours(const std::vector<uint8_t>& colour);
  // The clock the components share.
  const CycleClock& clock() const { return clock_; }
  // The current cycle: in a run, the cycle it runs in; otherwise that of SystemC's time.
  uint64_t now() const { return running_ ? current_ : clock_.now(); }
  // Component runs so far (simulation effort, not model state).
  uint64_t runs() const { return runs_; }
  // Outside a run: the earliest cycle some component asked to run in and has not run yet, or
  // kNever when none waits to run (nothing on this scheduler will happen unless something
  // else asks).
  uint64_t next_request() const;

 private:
  SC_HAS_PROCESS(CycleScheduler);
  struct Client {
    Run run;
    uint64_t pending = kNever;  // the earliest requested cycle not yet run
    uint32_t group = 0;
  };
  struct Group {
    std::vector<uint32_t> clients;  // in the order they were added
    uint64_t pending = kNever;      // the earliest pending cycle of a client (outside runs)
    bool listed = false;            // in the window being run
    uint8_t colour = 0;             // set_colours; 0 without colours
  };

  void tick();
  // The two colours' turns (set_colours): runs the colour behind, when its turn is due now.
  void tick_coloured(uint64_t now);
  // The groups of `colour` with a request before `end`, run through [their request, end).
  void run_window(uint8_t colour, uint64_t end);
  // Two colours: the cycle the next turn is due in, kNever when no group waits to run.
  uint64_t next_turn() const;
  // notify() of any other request: checked, then queued for its group.
  void request(uint32_t id, uint64_t cycle);
  void run_group(uint32_t g, uint64_t end);
  void run_pair(Group& group, uint64_t end);
  void run_clients(Group& group, uint64_t end);
  void arm(uint64_t cycle);
  [[noreturn]] void refuse(uint64_t cycle, const char* why) const;

  CycleClock clock_;
  std::vector<Client> clients_;
  std::vector<Group> groups_;
  std::unordered_map<uint64_t, uint32_t> group_of_key_;
  // Every group's wake-up, by cycle, per colour; one superseded by an earlier wake-up stays
  // until its cycle and is skipped there.
  std::array<CycleQueue<uint32_t>, 2> requests_;
  uint8_t colours_ = 1;
  // Per colour, the first cycle its groups have not run (a group's request before it is an
  // error); without colours, [0] is the end of the last window.
  std::array<uint64_t, 2> ran_until_{};
  std::vector<uint32_t> window_groups_;  // the groups of the window being run, in wake order
  sc_core::sc_event tick_event_;
  uint64_t armed_ = kNever;  // the cycle tick_event_ is notified for
  uint64_t lookahead_ = 1;
  bool running_ = false;     // in a component's run
  uint64_t current_ = 0;     // the cycle of that run
  uint32_t running_group_ = 0;
  uint64_t runs_ = 0;
};

// A component's wake-up on a scheduler: what an sc_event was to its SC_METHOD.
class CycleEvent {
 public:
  CycleEvent() = default;
  CycleEvent(CycleScheduler& scheduler, CycleScheduler::Run run,
             uint64_t group = CycleScheduler::kOwnGroup)
      : scheduler_(&scheduler), id_(scheduler.add(std::move(run), group)) {}
  // Runs the component in `cycle` (after the current one), unless it runs earlier anyway.
  void notify_at(uint64_t cycle) const { scheduler_->notify(id_, cycle); }
  CycleScheduler& scheduler() const { return *scheduler_; }

 private:
  CycleScheduler* scheduler_ = nullptr;
  uint32_t id_ = 0;
};

}  // namespace mt::noc
