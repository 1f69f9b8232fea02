// Items due in clock cycles, taken in cycle order and, within a cycle, in the order they were
// put in: the order of a priority queue keyed by (cycle, insertion number), at a constant cost
// per item instead of a heap's logarithmic one.
//
// A bucket per cycle for the next `horizon` cycles after the floor (the cycle last taken
// from), in a ring; items further ahead wait in a heap and move into their bucket when the
// floor comes within the horizon, before any item put in later can join it. Items must be due
// no earlier than the floor: a simulation puts in only what falls due now or later.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mt::noc {

template <typename T>
class CycleQueue {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  // horizon: buckets in the ring, a power of two of at least 64.
  explicit CycleQueue(uint64_t horizon = 1024)
      : buckets_(horizon), occupied_(horizon / 64, 0), mask_(horizon - 1) {
    if (horizon < 64 || (horizon & mask_) != 0) {
      throw std::invalid_argument("CycleQueue: the horizon must be a power of two of at least 64");
    }
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  // Puts in `item`, due in `cycle` (not before the floor: the cycle last taken from).
  void push(uint64_t cycle, T item) {
    if (cycle < floor_) throw std::logic_error("CycleQueue: an item due before the floor");
    ++size_;
    if (cycle - floor_ <= mask_) {
      put(cycle, std::move(item));
    } else {
      far_.push({cycle, seq_++, std::move(item)});
    }
  }

  // The earliest cycle an item is due in; kNever if none.
  uint64_t front_cycle() const {
    const uint64_t near = first_bucket_cycle();
    return far_.empty() ? near : std::min(near, far_.top().cycle);
  }

  // Takes the first item due in or before `now` into `out`; false if there is none.
  // (A bucket is released when its last item is taken, so an occupied one has one left.)
  bool pop_due(uint64_t now, T& out) {
    const uint64_t c = front_cycle();
    if (c == kNever || c > now) return false;
    if (c != floor_) advance(c);
    std::vector<T>& b = buckets_[c & mask_];
    out = std::move(b[head_++]);
    --size_;
    if (head_ == b.size()) release(c);
    return true;
  }

 private:
  struct Far {
    uint64_t cycle;
    uint64_t seq;  // keeps far items of one cycle in the order they were put in
    T item;
    bool operator>(const Far& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };

  void put(uint64_t cycle, T item) {
    const uint64_t b = cycle & mask_;
    buckets_[b].push_back(std::move(item));
    occupied_[b / 64] |= uint64_t{1} << (b % 64);
  }
  // The floor moves to `c` (the floor's bucket is empty by now); far items within the horizon
  // go to their buckets before anything put in later.
  void advance(uint64_t c) {
    floor_ = c;
    head_ = 0;
    while (!far_.empty() && far_.top().cycle - floor_ <= mask_) {
      Far f = far_.top();
      far_.pop();
      put(f.cycle, std::move(f.item));
    }
  }
  void release(uint64_t c) {
    const uint64_t b = c & mask_;
    buckets_[b].clear();
    occupied_[b / 64] &= ~(uint64_t{1} << (b % 64));
    head_ = 0;
  }
  // The cycle of the first occupied bucket from the floor on; kNever if none.
  uint64_t first_bucket_cycle() const {
    const uint64_t horizon = mask_ + 1;
    const uint64_t start = floor_ & mask_;
    for (uint64_t k = 0; k < horizon;) {
      const uint64_t b = (start + k) & mask_;
      const uint64_t word = occupied_[b / 64] >> (b % 64);
      if (word != 0) {
        const uint64_t at = k + static_cast<uint64_t>(__builtin_ctzll(word));
        if (at < horizon) return floor_ + at;
      }
      k += 64 - b % 64;
    }
    return kNever;
  }

  std::vector<std::vector<T>> buckets_;
  std::vector<uint64_t> occupied_;  // bit per bucket: holds items not yet taken
  uint64_t mask_;
  uint64_t floor_ = 0;  // the cycle last taken from; buckets hold [floor_, floor_ + horizon)
  size_t head_ = 0;     // items already taken from the floor's bucket
  size_t size_ = 0;
  uint64_t seq_ = 0;
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
};

}  // namespace mt::noc
