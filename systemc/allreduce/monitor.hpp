// Stops the all-reduce system's simulation when every NI is done and every flit injected has
// been ejected, or when nothing has happened anywhere for the watchdog's time (then it names
// what each unfinished NI waits for). It looks every 256 cycles; the result does not depend on
// it (NiModel::done_cycle says when each NI finished).
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
  Monitor(sc_core::sc_module_name name, const std::vector<NiModel*>& nis, const Network& net,
          uint64_t clock_ps, uint64_t watchdog_cycles, bool progress);
  // The deadlock report, empty unless the watchdog stopped the simulation.
  const std::string& stall() const { return stall_; }

 private:
  SC_HAS_PROCESS(Monitor);
  void watch();
  // Reports the deadlock and returns true when nothing moved for the watchdog's time.
  bool stalled(uint64_t now, uint64_t done, uint64_t activity, bool counting);
  void print_progress(uint64_t now, uint64_t done);

  std::vector<NiModel*> nis_;
  const Network& net_;
  uint64_t clock_ps_, watchdog_;
  bool progress_;
  uint64_t last_activity_ = ~0ull, quiet_ = 0;
  std::chrono::steady_clock::time_point last_print_;
  std::string stall_;
};

}  // namespace mt::noc
