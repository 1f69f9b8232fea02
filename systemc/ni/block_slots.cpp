#include "ni/block_slots.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "ni/ni_config.hpp"

namespace mt::noc {

BlockSlots::BlockSlots(sc_core::sc_module_name name, uint32_t slots, uint32_t open_messages)
    : sc_module(name), places_(slots), free_(slots), key_(slots), open_bound_(open_messages) {
  std::iota(places_.begin(), places_.end(), 0u);
}

uint32_t BlockSlots::take(uint64_t now, uint64_t key) {
  if (free_ == 0) {
    throw NiRunError(fmt::format(
        "{}: {} received blocks at once, more than the RTL's {} (NiConfig::block_slots)",
        name(), live_ + 1, places_.size()));
  }
  const auto found = messages_.find(key);
  if (found == messages_.end() && messages_.size() == open_bound_) {
    throw NiRunError(fmt::format(
        "{}: {} messages open at once, more than the RTL's {} (NiConfig::open_messages)", name(),
        open_bound_ + 1, open_bound_));
  }
  const uint32_t slot = places_[head_];
  head_ = head_ + 1 == places_.size() ? 0 : head_ + 1;
  --free_;
  if (take_cycle_ != now) {
    take_cycle_ = now;
    taken_now_ = 0;
  }
  ++taken_now_;
  peak_live_ = std::max(peak_live_, ++live_);
  key_.at(slot) = key;
  Message& m = found == messages_.end() ? messages_[key] : found->second;
  peak_open_ = std::max(peak_open_, messages_.size());
  ++m.live;
  return slot;
}

void BlockSlots::record(uint32_t slot, bool last) {
  if (last) messages_.at(key_.at(slot)).last = true;
}

void BlockSlots::release(uint32_t slot) {
  if (live_ == 0) {
    throw std::logic_error(fmt::format("{}: block slot {} completes with no slot live", name(),
                                       slot));
  }
  places_[(head_ + free_) % places_.size()] = slot;
  ++free_;
  --live_;
}

bool BlockSlots::count(uint32_t slot) {
  const auto it = messages_.find(key_.at(slot));
  if (it == messages_.end() || it->second.live == 0) {
    throw std::logic_error(fmt::format("{}: block slot {} counted twice", name(), slot));
  }
  if (--it->second.live != 0 || !it->second.last) return false;
  messages_.erase(it);
  return true;
}

}  // namespace mt::noc
