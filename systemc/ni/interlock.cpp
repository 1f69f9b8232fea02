#include "ni/interlock.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ni/ni_config.hpp"
#include "ni_formats.hpp"

namespace mt::noc {

Interlock::Interlock(sc_core::sc_module_name name, uint32_t reducing_blocks)
    : sc_module(name), reducing_blocks_(reducing_blocks) {}

void Interlock::start_reducing(const Entry& e) {
  reducing_.push_back(e);
  peak_reducing_ = std::max(peak_reducing_, reducing_.size());
  if (reducing_.size() > reducing_blocks_) {
    throw NiRunError(fmt::format(
        "{}: {} Reduce blocks between their read and their write-back, more than the RTL's {} "
        "(NiConfig::reducing_blocks)", name(), reducing_.size(), reducing_blocks_));
  }
}

void Interlock::arrive(uint32_t slot, uint64_t addr, uint64_t bytes) {
  constexpr uint64_t kLine = format::flit::kLineBytes;
  if (bytes == 0 || addr / kLine != (addr + bytes - 1) / kLine) {
    throw std::logic_error(fmt::format("{}: block {} [{:#x}, +{}) is not within one line",
                                       name(), slot, addr, bytes));
  }
  queue_.push_back({slot, addr / kLine});
  ++joined_;
}

std::optional<uint32_t> Interlock::take() {
  const bool ready = queue_.size() > joined_;
  joined_ = 0;  // the cycle's arrivals are queued from the next cycle on
  if (!ready) return std::nullopt;
  const Queued q = queue_.front();
  queue_.pop_front();
  const auto hit = std::find_if(reducing_.begin(), reducing_.end(),
                                [&](const Entry& e) { return e.line == q.line; });
  if (hit != reducing_.end()) {
    successor_[hit->last] = q.slot;
    hit->last = q.slot;
    ++waiting_;
    return std::nullopt;
  }
  start_reducing({q.slot, q.line, q.slot});
  return q.slot;
}

void Interlock::write_back(uint32_t slot) {
  if (reducing_.empty() || reducing_.front().slot != slot) {
    throw std::logic_error(fmt::format("{}: write-back of block {}, which is not the oldest "
                                       "being reduced", name(), slot));
  }
  const Entry head = reducing_.front();
  reducing_.pop_front();
  if (head.last == slot) return;  // its line's chain ends
  const auto next = successor_.find(slot);
  released_ = Entry{next->second, head.line, head.last};
  successor_.erase(next);
}

uint32_t Interlock::release_successor() {
  start_reducing(*released_);
  const uint32_t slot = released_->slot;
  released_.reset();
  --waiting_;
  peak_waiting_ = std::max(peak_waiting_, waiting_);
  return slot;
}

}  // namespace mt::noc
