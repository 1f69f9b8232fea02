#include "ni/send_channel.hpp"

#include <algorithm>

namespace mt::noc {

std::optional<BurstRead> SendChannel::next_burst(uint64_t now) {
  if (jobs_.empty()) return std::nullopt;
  if (lines_at(now) >= ni_->buffer_lines) return std::nullopt;
  const SendJob& job = jobs_.front();
  const uint64_t bytes = std::min<uint64_t>(ni_->dma_burst_bytes, job.request.bytes - fetched_);
  const uint64_t flits = encoder_->flits(job, fetched_, bytes);
  if (inflight_flits_ + port_->queued_flits_at(now) + flits > ni_->buffer_flits) {
    return std::nullopt;
  }
  const BurstRead b{job, job.request.addr + fetched_, fetched_, bytes, flits};
  lines_.push_back(b.flits);
  inflight_flits_ += b.flits;
  fetched_ += b.bytes;
  if (fetched_ >= job.request.bytes) {  // the whole send is read
    jobs_.pop_front();
    fetched_ = 0;
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
