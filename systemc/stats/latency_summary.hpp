// Summary of latency samples in cycles: count, min, mean, exact 99th percentile, max.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace mt::noc {

struct LatencySummary {
  uint64_t count = 0;
  uint64_t min = 0;
  double mean = 0.0;
  uint64_t p99 = 0;
  uint64_t max = 0;
};

// Nearest-rank percentile of sorted samples: the smallest sample with at least q * n samples
// at or below it (q in (0, 1]); an actual sample, never an interpolation. 0 when empty.
uint64_t percentile(const std::vector<uint64_t>& sorted, double q);

// Sorts `samples` (taken by value) and summarises them; all zero when empty.
LatencySummary summarize(std::vector<uint64_t> samples);

// {count, min, mean, p99, max}; the statistics are null when there are no samples.
nlohmann::json to_json(const LatencySummary& s);
LatencySummary latency_summary_from_json(const nlohmann::json& j);

}  // namespace mt::noc
