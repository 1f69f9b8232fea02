#include "ni/interlock.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ni/ni_config.hpp"

namespace mt::noc {

Interlock::Interlock(sc_core::sc_module_name name, uint32_t reducing_blocks,
                     uint32_t waiting_blocks)
    : sc_module(name), reducing_blocks_(reducing_blocks), waiting_blocks_(waiting_blocks) {}

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
  if (reducing_.size() > reducing_blocks_) {
    throw NiRunError(fmt::format(
        "{}: {} Reduce blocks between their read and their write-back, more than the RTL's {} "
        "(NiConfig::reducing_blocks)", name(), reducing_.size(), reducing_blocks_));
  }
}

void Interlock::arrive(uint32_t slot, uint64_t addr, uint64_t bytes) {
  queue_.push_back({slot, addr, bytes});
}

std::optional<uint32_t> Interlock::take() {
  if (queue_.empty()) return std::nullopt;
  const Range r = queue_.front();
  queue_.pop_front();
  if (overlaps(r, waiting_.size())) {
    waiting_.push_back(r);
    return std::nullopt;
  }
  start_reducing(r);
  return r.slot;
}

void Interlock::write_back(uint32_t slot) {
  if (reducing_.empty() || reducing_.front().slot != slot) {
    throw std::logic_error(fmt::format("{}: write-back of block {}, which is not the oldest "
                                       "being reduced", name(), slot));
  }
  reducing_.pop_front();
  maybe_free_ = true;
}

std::optional<uint32_t> Interlock::release() {
  std::optional<uint32_t> out;
  // Which blocks may go depends only on the blocks being reduced and those waiting before
  // them; a block joining either list keeps a blocked one blocked (a block only waits behind
  // others), so after a pass that lets none go only a write-back can free one.
  for (size_t i = 0; maybe_free_ && i < waiting_.size(); ++i) {
    if (overlaps(waiting_[i], i)) continue;
    const Range r = waiting_[i];
    waiting_.erase(waiting_.begin() + static_cast<long>(i));
    start_reducing(r);
    out = r.slot;
    break;
  }
  maybe_free_ = out.has_value();
  peak_waiting_ = std::max(peak_waiting_, waiting_.size());
  if (waiting_.size() > waiting_blocks_) {
    throw NiRunError(fmt::format(
        "{}: {} Reduce blocks wait behind the interlock, more than the RTL's {} "
        "(NiConfig::waiting_blocks)", name(), waiting_.size(), waiting_blocks_));
  }
  return out;
}

}  // namespace mt::noc
