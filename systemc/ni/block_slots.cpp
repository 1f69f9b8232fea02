#include "ni/block_slots.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "ni/ni_config.hpp"

namespace mt::noc {

BlockSlots::BlockSlots(sc_core::sc_module_name name, uint32_t slots, uint32_t ports,
                       uint32_t open_messages)
    : sc_module(name), fifos_(ports), per_port_(slots), key_(size_t{slots} * ports),
      open_bound_(open_messages) {
  for (uint32_t p = 0; p < ports; ++p) {
    fifos_[p].places.resize(per_port_);
    std::iota(fifos_[p].places.begin(), fifos_[p].places.end(), p * per_port_);
    fifos_[p].free = per_port_;
  }
}

uint32_t BlockSlots::take(uint64_t now, uint32_t port, uint64_t key) {
  Fifo& f = fifos_.at(port);
  if (f.free == 0) {
    throw NiRunError(fmt::format(
        "{}: {} received blocks at once on port {}, more than the RTL's {} of a port "
        "(NiConfig::block_slots)",
        name(), per_port_ + 1, port, per_port_));
  }
  const auto found = messages_.find(key);
  if (found == messages_.end() && messages_.size() == open_bound_) {
    throw NiRunError(fmt::format(
        "{}: {} messages open at once, more than the RTL's {} (NiConfig::open_messages)", name(),
        open_bound_ + 1, open_bound_));
  }
  const uint32_t slot = f.places[f.head];
  f.head = f.head + 1 == f.places.size() ? 0 : f.head + 1;
  --f.free;
  peak_port_live_ = std::max(peak_port_live_, per_port_ - f.free);
  if (take_cycle_ != now) {
    take_cycle_ = now;
    taken_now_ = 0;
  }
  ++taken_now_;
  ++live_;
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
  Fifo& f = fifos_.at(slot / per_port_);
  f.places[(f.head + f.free) % f.places.size()] = slot;
  ++f.free;
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
