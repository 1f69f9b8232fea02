#include "ni/send_channel.hpp"

#include <algorithm>

namespace mt::noc {

std::optional<BurstRead> SendChannel::next_burst(uint64_t now) {
  if (!may_burst(now)) return std::nullopt;
  const SendJob& job = jobs_.front();
  const uint64_t bytes = std::min<uint64_t>(ni_->dma_burst_bytes, job.request.bytes - fetched_);
  const uint64_t flits = encoder_->flits(job, fetched_, bytes);
  const uint64_t queued = port_->queued_flits_at(now), lines = lines_at(now);
  const uint64_t held = inflight_flits_ + queued;
  if (lines >= ni_->buffer_lines || held + flits > ni_->buffer_flits) {
    // A flit or line freed in this cycle counts from the next (lines_at, queued_flits_at).
    const bool left_now = queued != port_->queued_flits();
    sends_short_ = static_cast<int64_t>(held + flits) - ni_->buffer_flits - left_now;
    lines_short_ = static_cast<int64_t>(lines) + 1 - ni_->buffer_lines - (last_line_freed_ == now);
    retry_ = sends_short_ <= 0 && lines_short_ <= 0 ? now + 1 : ~0ull;
    return std::nullopt;
  }
  retry_ = 0;
  const BurstRead b{job, job.request.addr + fetched_, fetched_, bytes, flits};
  lines_.push_back(b.flits);
  inflight_flits_ += b.flits;
  fetched_ += b.bytes;
  if (fetched_ >= job.request.bytes) {  // the whole send is read
    jobs_.pop_front();
    fetched_ = 0;
    last_done_ = now;
  }
  return b;
}

bool SendChannel::unread(uint64_t addr, uint64_t len) const {
  for (size_t i = 0; i < jobs_.size(); ++i) {
    const SendRequest& r = jobs_.at(i).request;
    const uint64_t done = i == 0 ? fetched_ : 0;
    const uint64_t from = r.addr + done, n = r.bytes - done;  // bytes not yet read
    if (n == 0) continue;
    if (addr >= from ? addr - from < n : from - addr < len) return true;
  }
  return false;
}

}  // namespace mt::noc
