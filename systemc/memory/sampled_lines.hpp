// The 16-byte lines a sampled AccelMemory stores (mtsim --data sampled,
// allreduce/data_sample.hpp): their offsets from the buffer's first byte, ascending and
// distinct, with an index by KiB. A DMA burst or a reduced block finds the first line it meets
// by one lookup in the index and a scan within that KiB (a sample holds one line per KiB and
// the few at table entries' ends), not by a binary search over all the lines; see
// docs/performance.md, "Sampled lines by KiB".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt::noc {

class SampledLines {
 public:
  static constexpr uint64_t kLineBytes = 16;
  static constexpr uint64_t kIndexBytes = 1024;  // the stride of the index

  // `offsets`: multiples of kLineBytes, ascending, distinct; else mt::InputError naming the
  // first bad one.
  explicit SampledLines(std::vector<uint64_t> offsets);

  size_t size() const { return offsets_.size(); }
  uint64_t operator[](size_t i) const { return offsets_[i]; }
  std::vector<uint64_t>::const_iterator begin() const { return offsets_.begin(); }
  std::vector<uint64_t>::const_iterator end() const { return offsets_.end(); }

  // The index of the first line holding a byte at or after `offset`; size() if none does.
  size_t first_from(uint64_t offset) const {
    const uint64_t k = offset / kIndexBytes;
    if (k >= by_kib_.size()) return offsets_.size();
    const uint64_t line = offset - offset % kLineBytes;
    size_t i = by_kib_[k];
    while (i < offsets_.size() && offsets_[i] < line) ++i;
    return i;
  }

 private:
  std::vector<uint64_t> offsets_;
  std::vector<size_t> by_kib_;  // by_kib_[k]: the first line at or after k KiB
};

}  // namespace mt::noc
