// A FIFO on a power-of-two ring. It grows by doubling, so a buffer reaches its working size
// after a few pushes and then never allocates again (no heap traffic per flit). It keeps its
// index mask: a std::vector's size() divides by the entry size (72 bytes for a flit and its
// cycle), which cost every push and pop a multiply and shifts (3.6% of a run's instructions).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "common/prefetch.hpp"

namespace mt::noc {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(size_t initial_capacity = 4) {
    size_t cap = 1;
    while (cap < initial_capacity) cap <<= 1;
    buf_ = std::make_unique<T[]>(cap);
    mask_ = cap - 1;
  }

  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return buf_[(head_ + count_ - 1) & mask_]; }
  // i-th element from the front.
  T& at(size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& at(size_t i) const { return buf_[(head_ + i) & mask_]; }

  // Appends a slot and returns it for the caller to fill (saves a copy of large entries).
  T& push_slot() {
    if (count_ > mask_) grow();
    T& slot = buf_[(head_ + count_) & mask_];
    ++count_;
    // A long FIFO's slots are touched once per lap, long after the last time, so they are
    // rarely in cache: the next slot to be written, and below the next to be read, are
    // fetched ahead of their use.
    prefetch_write(&buf_[(head_ + count_) & mask_]);
    return slot;
  }
  void push_back(const T& v) { push_slot() = v; }
  // Removes the last n entries (n <= size()).
  void drop_back(size_t n) { count_ -= n; }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --count_;
    prefetch_read(&buf_[(head_ + 1) & mask_]);
  }

 private:
  void grow() {
    const size_t cap = mask_ + 1;
    auto bigger = std::make_unique<T[]>(cap * 2);
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(buf_[(head_ + i) & mask_]);
    buf_ = std::move(bigger);
    mask_ = cap * 2 - 1;
    head_ = 0;
  }

  std::unique_ptr<T[]> buf_;
  size_t mask_ = 0;  // capacity - 1
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace mt::noc
