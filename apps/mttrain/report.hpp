// What mttrain prints and writes: the iteration's summary and timeline as text, and as JSON.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allreduce/allreduce_sim.hpp"
#include "compute/accelerator.hpp"
#include "compute/layer_costs.hpp"
#include "training/allreduce_times.hpp"
#include "training/iteration_schedule.hpp"

namespace mt::training {

// One mttrain run: what was asked, and (once simulated) what it gave.
struct TrainingReport {
  std::string workload;                      // the model's name
  std::vector<workload::LayerCost> costs;    // forward order
  workload::AcceleratorConfig accelerator;
  noc::AllReduceOptions network;             // every simulation's options but its size
  std::string config;                        // --config
  Overlap overlap = Overlap::kNone;
  uint64_t bucket_bytes = 0;
  std::vector<GradientGroup> groups;         // the all-reduces, in the order they become ready
  IterationSchedule schedule;
  std::map<uint64_t, SimulatedAllReduce> simulations;  // by buffer bytes
  double wall_seconds = 0;
};

// The lines said before the simulations: the run's inputs and the all-reduces it needs.
std::string header_text(const TrainingReport& r);

// The iteration's summary, the per-layer timeline and the all-reduces.
std::string result_text(const TrainingReport& r);

// The JSON of --json (docs/mttrain.md lists the keys).
nlohmann::json result_json(const TrainingReport& r);

}  // namespace mt::training
