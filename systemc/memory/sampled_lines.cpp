#include "memory/sampled_lines.hpp"

#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {

SampledLines::SampledLines(std::vector<uint64_t> offsets) : offsets_(std::move(offsets)) {
  for (size_t i = 0; i < offsets_.size(); ++i) {
    if (offsets_[i] % kLineBytes != 0 || (i > 0 && offsets_[i] <= offsets_[i - 1])) {
      throw InputError(fmt::format(
          "sampled line {} at offset {}: lines must be {}-byte aligned, ascending and distinct",
          i, offsets_[i], kLineBytes));
    }
  }
  if (offsets_.empty()) return;
  by_kib_.resize(offsets_.back() / kIndexBytes + 1);
  size_t i = 0;
  for (uint64_t k = 0; k < by_kib_.size(); ++k) {
    while (offsets_[i] < k * kIndexBytes) ++i;  // the last line is at or after the last KiB
    by_kib_[k] = i;
  }
}

}  // namespace mt::noc
