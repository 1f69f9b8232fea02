#include "stats/latency_summary.hpp"

#include <algorithm>
#include <cmath>

namespace mt::noc {

uint64_t percentile(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double n = static_cast<double>(sorted.size());
  // Rank ceil(q * n), 1-based; the small epsilon keeps 0.99 * 100 from rounding up to 100.
  auto rank = static_cast<size_t>(std::ceil(q * n - 1e-9));
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

LatencySummary summarize(std::vector<uint64_t> samples) {
  LatencySummary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  long double sum = 0;
  for (uint64_t v : samples) sum += static_cast<long double>(v);
  s.mean = static_cast<double>(sum / static_cast<long double>(samples.size()));
  s.p99 = percentile(samples, 0.99);
  return s;
}

nlohmann::json to_json(const LatencySummary& s) {
  if (s.count == 0) {
    return {{"count", 0}, {"min", nullptr}, {"mean", nullptr}, {"p99", nullptr}, {"max", nullptr}};
  }
  return {{"count", s.count}, {"min", s.min}, {"mean", s.mean}, {"p99", s.p99}, {"max", s.max}};
}

LatencySummary latency_summary_from_json(const nlohmann::json& j) {
  LatencySummary s;
  s.count = j.at("count").get<uint64_t>();
  if (s.count == 0) return s;
  s.min = j.at("min").get<uint64_t>();
  s.mean = j.at("mean").get<double>();
  s.p99 = j.at("p99").get<uint64_t>();
  s.max = j.at("max").get<uint64_t>();
  return s;
}

}  // namespace mt::noc
