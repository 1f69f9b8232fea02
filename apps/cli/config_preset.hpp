// Named configurations of the all-reduce simulation (mtsim and mttrain --config): the realistic
// default, and the assumptions of the paper's evaluation (§V), so results can be reported both
// ways.
#pragma once

#include <string>
#include <vector>

#include "allreduce/allreduce_sim.hpp"

namespace mt::noc {

// Names --config accepts, in the order --help lists them.
const std::vector<std::string>& config_preset_names();

// One line per preset for --help: its name and what it sets.
std::string config_preset_help();

// Sets the fields preset `name` fixes, except those the user gave explicitly
// (`mem_latency_given`, `reduce_latency_given`). InputError for an unknown name.
void apply_config_preset(const std::string& name, AllReduceOptions& o, bool mem_latency_given,
                         bool reduce_latency_given);

}  // namespace mt::noc
