// A FIFO on a power-of-two ring. It grows by doubling, so a buffer reaches its working size
// after a few pushes and then never allocates again (no heap traffic per flit).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace mt::noc {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(size_t initial_capacity = 4) {
    size_t cap = 1;
    while (cap < initial_capacity) cap <<= 1;
    buf_.resize(cap);
  }

  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  // i-th element from the front.
  const T& at(size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }

  // Appends a slot and returns it for the caller to fill (saves a copy of large entries).
  T& push_slot() {
    if (count_ == buf_.size()) grow();
    const size_t mask = buf_.size() - 1;
    T& slot = buf_[(head_ + count_) & mask];
    ++count_;
    prefetch(&buf_[(head_ + count_) & mask], 1);
    return slot;
  }
  void push_back(const T& v) { push_slot() = v; }
  void pop_front() {
    const size_t mask = buf_.size() - 1;
    head_ = (head_ + 1) & mask;
    --count_;
    prefetch(&buf_[(head_ + 1) & mask], 0);
  }

 private:
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(buf_[(head_ + i) & (buf_.size() - 1)]);
    buf_.swap(bigger);
    head_ = 0;
  }

  // A long FIFO's slots are touched once per lap, long after the last time, so they are
  // rarely in cache: fetch the next slot to be written or read ahead of its use (a hint, it
  // changes no state).
  static void prefetch(const T* p, int write) {
    const char* c = reinterpret_cast<const char*>(p);
    for (size_t b = 0; b < sizeof(T); b += 64) {
      if (write) {
        __builtin_prefetch(c + b, 1);
      } else {
        __builtin_prefetch(c + b, 0);
      }
    }
  }

  std::vector<T> buf_;
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace mt::noc
