#include "cli/config_preset.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {

// default: the NI on an HBM-like accelerator memory (100-cycle latency, 256 bytes/cycle) and
//   a 4-cycle reduction pipeline; every dependent step pays the memory latency a few times
//   (read to send; read, add and write back to reduce).
// paper: the paper's simulator (BookSim with SCALE-Sim, §V-A) assumes sufficient memory
//   bandwidth and models no memory or adder latency; the network is Table III in both.
const std::vector<std::string>& config_preset_names() {
  static const std::vector<std::string> names{"default", "paper"};
  return names;
}

std::string config_preset_help() {
  return "named configuration: default (HBM-like accelerator memory, 100-cycle latency; "
         "4-cycle reduction unit) or paper (the paper's evaluation, §V: no memory and no "
         "reduction latency; same Table III network). Explicit --mem-latency and "
         "--reduce-latency still win";
}

void apply_config_preset(const std::string& name, AllReduceOptions& o, bool mem_latency_given,
                         bool reduce_latency_given) {
  if (name == "default") return;
  if (name != "paper") {
    throw InputError(fmt::format("--config {}: unknown configuration (default or paper)", name));
  }
  if (!mem_latency_given) o.memory.latency = 0;
  if (!reduce_latency_given) o.reduction.latency = 0;
}

}  // namespace mt::noc
