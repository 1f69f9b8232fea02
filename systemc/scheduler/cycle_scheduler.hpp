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
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "scheduler/cycle_clock.hpp"
#include "scheduler/cycle_queue.hpp"

namespace mt::noc {

class CycleScheduler : public sc_core::sc_module {
 public:
  static constexpr uint64_t kNever = ~0ull;

  // clock_ps: the clock period all components share.
  CycleScheduler(sc_core::sc_module_name name, uint64_t clock_ps);

  // A component's work for one cycle, given the cycle.
  using Run = std::function<void(uint64_t now)>;

  // Registers a component's run; returns its id for notify().
  uint32_t add(Run run);
  // Asks for run(id) in cycle `cycle`, which must lie after the current cycle.
  void notify(uint32_t id, uint64_t cycle);
  // The clock the components share.
  const CycleClock& clock() const { return clock_; }
  uint64_t now() const { return clock_.now(); }
  // Component runs so far (simulation effort, not model state).
  uint64_t runs() const { return runs_; }

 private:
  SC_HAS_PROCESS(CycleScheduler);
  struct Client {
    Run run;
    uint64_t pending = kNever;  // the earliest requested cycle not yet run
  };

  void tick();
  void arm(uint64_t cycle);

  CycleClock clock_;
  std::vector<Client> clients_;
  // Every request, by cycle; one superseded by an earlier request stays until its cycle and
  // is skipped there (a client runs only in its pending cycle).
  CycleQueue<uint32_t> requests_;
  sc_core::sc_event tick_event_;
  uint64_t armed_ = kNever;  // the cycle tick_event_ is notified for
  uint64_t runs_ = 0;
};

// A component's wake-up on a scheduler: what an sc_event was to its SC_METHOD.
class CycleEvent {
 public:
  CycleEvent() = default;
  CycleEvent(CycleScheduler& scheduler, CycleScheduler::Run run)
      : scheduler_(&scheduler), id_(scheduler.add(std::move(run))) {}
  // Runs the component in `cycle` (after the current one), unless it runs earlier anyway.
  void notify_at(uint64_t cycle) const { scheduler_->notify(id_, cycle); }
  CycleScheduler& scheduler() const { return *scheduler_; }

 private:
  CycleScheduler* scheduler_ = nullptr;
  uint32_t id_ = 0;
};

}  // namespace mt::noc
