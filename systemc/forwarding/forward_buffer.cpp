#include "forwarding/forward_buffer.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace mt::noc {

template <typename F>
void ForwardBuffer::pieces(uint64_t addr, uint64_t len, F f) {
  for (uint64_t done = 0; done < len;) {
    const uint64_t a = addr + done;  // < addr + len <= 2^64
    const uint64_t off = a % kPage;
    const uint64_t n = std::min(kPage - off, len - done);
    f(a - off, off, n, done);
    done += n;
  }
}

void ForwardBuffer::put(uint64_t addr, const uint8_t* data, uint64_t len) {
  pieces(addr, len, [&](uint64_t base, uint64_t off, uint64_t n, uint64_t at) {
    Page& p = pages_[base];
    std::copy(data + at, data + at + n, p.data.begin() + static_cast<std::ptrdiff_t>(off));
    for (uint64_t i = off; i < off + n; ++i) {
      if (!p.valid[i]) ++held_;
      p.valid[i] = true;
    }
  });
  peak_ = std::max(peak_, held_);
}

void ForwardBuffer::erase(uint64_t addr, uint64_t len) {
  pieces(addr, len, [&](uint64_t base, uint64_t off, uint64_t n, uint64_t) {
    auto it = pages_.find(base);
    if (it == pages_.end()) return;
    for (uint64_t i = off; i < off + n; ++i) {
      if (it->second.valid[i]) --held_;
      it->second.valid[i] = false;
    }
    if (it->second.valid.none()) pages_.erase(it);
  });
}

bool ForwardBuffer::holds(uint64_t addr, uint64_t len) const {
  bool all = true;
  pieces(addr, len, [&](uint64_t base, uint64_t off, uint64_t n, uint64_t) {
    auto it = pages_.find(base);
    for (uint64_t i = off; all && i < off + n; ++i) {
      all = it != pages_.end() && it->second.valid[i];
    }
  });
  return all;
}

void ForwardBuffer::read(uint64_t addr, uint8_t* data, uint64_t len) const {
  if (!holds(addr, len)) {
    throw std::logic_error(
        fmt::format("forward buffer: read of {} bytes at {:#x} it does not hold", len, addr));
  }
  pieces(addr, len, [&](uint64_t base, uint64_t off, uint64_t n, uint64_t at) {
    const Page& p = pages_.at(base);
    std::copy_n(p.data.begin() + static_cast<std::ptrdiff_t>(off), n, data + at);
  });
}

}  // namespace mt::noc
