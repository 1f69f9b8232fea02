#include "ni/interlock.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace mt::noc {

Interlock::Interlock(sc_core::sc_module_name name, uint32_t waiting_blocks)
    : sc_module(name), waiting_blocks_(waiting_blocks) {}

bool Interlock::overlaps(const Range& r, size_t waiting_before) const {
  // [addr, addr + bytes) may end exactly at 2^64: compare offsets, not ends.
  auto meet = [&](const Range& o) {
    return r.addr >= o.addr ? r.addr - o.addr < o.bytes : o.addr - r.addr < r.bytes;
  };
  if (std::any_of(reducing_.begin(), reducing_.end(), meet)) return true;
  return std::any_of(waiting_.begin(), waiting_.begin() + static_cast<long>(waiting_before), meet);
}

void Interlock::start_reducing(const Range& r) {
  reducing_.push_back(r);
  peak_reducing_ = std::max(peak_reducing_, reducing_.size());
}

bool Interlock::arrive(uint32_t slot, uint64_t addr, uint64_t bytes) {
  const Range r{slot, addr, bytes};
  if (overlaps(r, waiting_.size())) {
    waiting_.push_back(r);
    return false;
  }
  start_reducing(r);
  return true;
}

void Interlock::write_back(uint32_t slot) {
  const auto it = std::find_if(reducing_.begin(), reducing_.end(),
                               [&](const Range& r) { return r.slot == slot; });
  if (it == reducing_.end()) {
    throw std::logic_error(fmt::format("{}: write-back of block {}, which is not being reduced",
                                       name(), slot));
  }
  reducing_.erase(it);
  shrank_ = true;
}

const std::vector<uint32_t>& Interlock::release() {
  released_.clear();
  // Which blocks may go depends only on the blocks being reduced and those waiting before
  // them. After a pass none of those left can go, and a block joining either list keeps it
  // so (a block only waits behind others), so only a block leaving reducing_ can free one.
  for (size_t i = 0; shrank_ && i < waiting_.size();) {
    if (overlaps(waiting_[i], i)) {
      ++i;
      continue;
    }
    const Range r = waiting_[i];
    waiting_.erase(waiting_.begin() + static_cast<long>(i));
    start_reducing(r);
    released_.push_back(r.slot);
  }
  shrank_ = false;
  peak_waiting_ = std::max(peak_waiting_, waiting_.size());
  if (waiting_.size() > waiting_blocks_) {
    throw std::runtime_error(fmt::format(
        "{}: {} Reduce blocks wait behind the interlock, more than the RTL's {} "
        "(NiConfig::waiting_blocks)", name(), waiting_.size(), waiting_blocks_));
  }
  return released_;
}

}  // namespace mt::noc
