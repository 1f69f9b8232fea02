// Stops the all-reduce system's simulation when every NI is done and every flit injected has
// been ejected, or when nothing can move any more (then it names what each unfinished NI
// waits for). Nothing can move when nothing has happened anywhere for the watchdog's time, no
// lockstep counter counts down, and nothing waits to run on the network's scheduler: a flit or
// credit on a link, a memory access, a sum in the adder or anything else under way wakes its
// router or SystemC NI in a later cycle, so however long a latency, a run that waits for one
// is not a deadlock. An RTL NI runs every cycle by itself, and what it waits for (its memory
// accesses, the flits on their way to it) is not on the scheduler: with RTL NIs the quiet time
// is also that much longer (`hidden_cycles`). It looks every 256 cycles; the result does not
// depend on it (NiModel::done_cycle says when each NI finished).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "network/network.hpp"
#include "ni/ni_model.hpp"

namespace mt::noc {

class Monitor : public sc_core::sc_module {
 public:
  // watchdog_cycles: the quiet time, 0 never to declare a deadlock; hidden_cycles: the longest
  // an NI not on the network's scheduler may wait for what is under way (0 for SystemC NIs).
  Monitor(sc_core::sc_module_name name, const std::vector<NiModel*>& nis, const Network& net,
          uint64_t clock_ps, uint64_t watchdog_cycles, uint64_t hidden_cycles, bool progress);
  // The deadlock report, empty unless the watchdog stopped the simulation.
  const std::string& stall() const { return stall_; }

 private:
  SC_HAS_PROCESS(Monitor);
  void watch();
  // Reports the deadlock and returns true when nothing can move any more (above).
  bool stalled(uint64_t now, uint64_t done, uint64_t activity, bool counting);
  void print_progress(uint64_t now, uint64_t done);

  std::vector<NiModel*> nis_;
  const Network& net_;
  uint64_t clock_ps_, watchdog_, hidden_;
  bool progress_;
  uint64_t last_activity_ = ~0ull, quiet_ = 0;
  std::chrono::steady_clock::time_point last_print_;
  std::string stall_;
};

}  // namespace mt::noc
