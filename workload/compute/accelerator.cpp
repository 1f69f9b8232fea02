#include "compute/accelerator.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/error.hpp"
#include "spec/checked_math.hpp"

namespace mt::workload {

void validate(const AcceleratorConfig& cfg) {
  const std::pair<const char*, uint64_t> counts[] = {{"array rows", cfg.array_rows},
                                                     {"array columns", cfg.array_cols},
                                                     {"PEs", cfg.pes},
                                                     {"batch per accelerator", cfg.batch},
                                                     {"element bytes", cfg.element_bytes}};
  for (const auto& [what, value] : counts) {
    if (value == 0)
      throw InputError(fmt::format("accelerator: {} is 0; it must be positive", what));
  }
  if (!std::isfinite(cfg.clock_hz) || cfg.clock_hz <= 0) {
    throw InputError(
        fmt::format("accelerator: the clock {} Hz is not a positive frequency", cfg.clock_hz));
  }
}

uint64_t samples_per_pe(const AcceleratorConfig& cfg) {
  return ceil_div(cfg.batch, cfg.pes);
}

double seconds(uint64_t cycles, const AcceleratorConfig& cfg) {
  return static_cast<double>(cycles) / cfg.clock_hz;
}

}  // namespace mt::workload
