#include "aggregation/aggregation_window.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"
#include "ni/reduction_unit.hpp"

namespace mt::noc {
namespace {

uint32_t fp32_add(uint32_t x, uint32_t y) {
  float a = 0, b = 0;
  std::memcpy(&a, &x, 4);
  std::memcpy(&b, &y, 4);
  const float sum = a + b;
  if (std::isnan(sum)) return kCanonicalNan;
  uint32_t bits = 0;
  std::memcpy(&bits, &sum, 4);
  return bits;
}

}  // namespace

void aggregate_flit(DType dtype, FlitData& acc, const FlitData& src) {
  for (size_t i = 0; i < acc.size(); ++i) {
    acc[i] = dtype == DType::kInt32 ? acc[i] + src[i] : fp32_add(acc[i], src[i]);
  }
}

AggregationWindow::AggregationWindow(uint32_t children, uint32_t slots, DType dtype)
    : children_(children), dtype_(dtype) {
  if (children == 0 || children > 64) {
    throw InputError(fmt::format("aggregation window: {} children: must be 1 to 64", children));
  }
  if (slots == 0) throw InputError("aggregation window of 0 slots: must be at least 1");
  all_ = children == 64 ? ~uint64_t{0} : (uint64_t{1} << children) - 1;
  slot_.resize(slots);
}

bool AggregationWindow::can_accept(uint32_t c, uint64_t seq) const {
  if (c >= children_ || seq < base_ || seq - base_ >= slot_.size()) return false;
  return (slot_of(seq).bitmap >> c & 1u) == 0;
}

void AggregationWindow::accept(uint32_t c, uint64_t seq, const FlitData& data) {
  if (!can_accept(c, seq)) {
    throw std::logic_error(fmt::format("aggregation window [{}, {}): child {} flit {} not "
                                       "acceptable", base_, base_ + slot_.size(), c, seq));
  }
  Slot& s = slot_of(seq);
  if (s.bitmap == 0) {
    s.sum = data;
    ++occupied_;
  } else {
    aggregate_flit(dtype_, s.sum, data);
  }
  s.bitmap |= uint64_t{1} << c;
}

uint64_t AggregationWindow::arrivals(uint64_t seq) const {
  if (seq < base_ || seq - base_ >= slot_.size()) return 0;
  return slot_of(seq).bitmap;
}

bool AggregationWindow::front_complete() const { return slot_of(base_).bitmap == all_; }

FlitData AggregationWindow::pop_front() {
  if (!front_complete()) {
    throw std::logic_error(fmt::format("aggregation window: flit {} is not complete", base_));
  }
  Slot& s = slot_of(base_);
  const FlitData sum = s.sum;
  s.bitmap = 0;
  --occupied_;
  ++base_;
  return sum;
}

}  // namespace mt::noc
