// The cycles of an iteration's all-reduces, each from the cycle-accurate simulation of that
// all-reduce on the network (run_allreduce, the simulation mtsim runs). Each distinct buffer
// size is simulated once and its cycles reused: exact while the all-reduces of an iteration run
// one at a time on the network, as iteration_schedule.hpp runs them. SystemC elaborates once per
// process, so every simulation runs in a child process (traffic/child_process.hpp), as mtsim's.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "allreduce/allreduce_sim.hpp"
#include "training/simulation_cache.hpp"

namespace mt::training {

// A simulated all-reduce whose sum was wrong or that deadlocked (mtsim's exit code 3).
struct AllReduceFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SimulatedAllReduce {
  noc::AllReduceResult result;  // result.cycles: in the network's cycles
  double wall_seconds = 0;      // of the simulation (an earlier run's, if cached)
  bool cached = false;          // read from the SimulationCache, not simulated by this run
  std::string cache_note;       // why an entry of the cache was not used (empty: none)
};

// Called after each simulation ends: the run, how many have ended and how many there are.
using SimulationProgress =
    std::function<void(const SimulatedAllReduce& run, size_t done, size_t total)>;

class AllReduceTimes {
 public:
  // `base`: the options of every simulation but its size (`bytes`). `parallel` (>= 1):
  // simulations run at once. `cache` (may be null; it outlives this): simulations read from
  // it instead of run, and those run stored in it.
  AllReduceTimes(noc::AllReduceOptions base, unsigned parallel,
                 const SimulationCache* cache = nullptr);

  // Simulates the sizes among `sizes` not simulated yet (and not in the cache), smallest
  // first, `parallel` at a time.
  // InputError as run_allreduce (a bad topology or algorithm, a plan too large); AllReduceFailed
  // when a simulation ends with a wrong sum or a deadlock.
  void simulate(const std::vector<uint64_t>& sizes, const SimulationProgress& progress = {});

  // The network cycles of an all-reduce of `bytes`, simulated by simulate() (std::out_of_range
  // for a size it has not simulated).
  uint64_t network_cycles(uint64_t bytes) const { return runs_.at(bytes).result.cycles; }

  // Every simulated size and its run.
  const std::map<uint64_t, SimulatedAllReduce>& runs() const { return runs_; }

 private:
  // The run of `bytes` from the cache, or none (`why`: what was wrong with its entry).
  std::optional<SimulatedAllReduce> cached_run(uint64_t bytes, std::string& why) const;

  noc::AllReduceOptions base_;
  unsigned parallel_;
  const SimulationCache* cache_;
  std::map<uint64_t, SimulatedAllReduce> runs_;
};

// `network_cycles` of the network's clock (`network_clock_ps` picoseconds a cycle) as cycles of
// an accelerator clocked at `accelerator_hz`, rounded up (a fraction of a cycle is waited out):
// cycles * network_clock_ps * accelerator_hz / 10^12. With both clocks at 1 GHz, the same count.
uint64_t accelerator_cycles(uint64_t network_cycles, uint64_t network_clock_ps,
                            double accelerator_hz);

}  // namespace mt::training
