#include "allreduce/data_sample.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {

DataMode parse_data_mode(const std::string& text) {
  if (text == "full") return DataMode::kFull;
  if (text == "sampled") return DataMode::kSampled;
  throw InputError(fmt::format("--data {}: must be full or sampled", text));
}

const char* data_mode_name(DataMode mode) { return mode == DataMode::kFull ? "full" : "sampled"; }

namespace {

uint64_t mix(uint64_t x) {  // splitmix64 finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

DataSample::DataSample(const TableSet& set, uint64_t seed) {
  const uint64_t bytes = set.bytes;
  if (bytes == 0) return;
  auto line_of = [](uint64_t offset) { return offset - offset % kLineBytes; };
  constexpr uint64_t kLinesPerStride = kStrideBytes / kLineBytes;
  for (uint64_t s = 0; s * kStrideBytes < bytes; ++s) {
    const uint64_t at = s * kStrideBytes + kLineBytes * (mix(seed ^ mix(s)) % kLinesPerStride);
    if (at < bytes) lines_.push_back(at);
  }
  lines_.push_back(0);
  lines_.push_back(line_of(bytes - 1));
  for (const ScheduleTable& t : set.tables) {
    for (const TableEntry& e : t.entries) {
      if (e.op == Op::kNop || e.size == 0 || e.start_addr < set.base_addr) continue;
      const uint64_t first = e.start_addr - set.base_addr;
      if (first >= bytes) continue;
      lines_.push_back(line_of(first));
      lines_.push_back(line_of(std::min(bytes, first + e.size) - 1));
    }
  }
  std::sort(lines_.begin(), lines_.end());
  lines_.erase(std::unique(lines_.begin(), lines_.end()), lines_.end());
}

}  // namespace mt::noc
