// The window of one aggregation flow in a switch (the NetReduce appendix, seed 002, Figs.
// 20-21: the state manager's arrival bitmap and the aggregation values): the sequence
// numbers in flight, for each an arrival bitmap over the flow's children and the partial sum
// of what has arrived.
//
// A sequence number is a data flit's place in its message (0 for the first payload flit after
// the head). The window holds `slots` consecutive numbers from base(): child c's flit s is
// accepted when base() <= s < base() + slots and c has not delivered s yet, in any order
// across children (out-of-order arrival); a flit outside the window waits where it is (the
// switch does not take it, so its credit does not go back: back-pressure, never a drop).
// When every child has delivered base(), the front slot is complete; pop_front() returns its
// sum and moves the window on by one.
//
// Arithmetic: the NI reduction unit's (ni/reduction_unit.hpp): little-endian 32-bit elements,
// int32 wrapping, fp32 one IEEE addition per element with every NaN sum the canonical NaN.
// The first arrival of a slot is copied, every later one added, in arrival order.
#pragma once

#include <cstdint>
#include <vector>

#include "flit/flit.hpp"
#include "plan/plan.hpp"

namespace mt::noc {

// Element-wise sum of one flit's payload into `acc`, as the NI's reduction unit adds.
void aggregate_flit(DType dtype, FlitData& acc, const FlitData& src);

class AggregationWindow {
 public:
  // `children` (1..64) deliver each sequence number once; `slots` >= 1 numbers are in flight.
  // mt::InputError naming the bad value otherwise.
  AggregationWindow(uint32_t children, uint32_t slots, DType dtype);

  uint64_t base() const { return base_; }
  uint32_t slots() const { return static_cast<uint32_t>(slot_.size()); }
  uint32_t children() const { return children_; }
  // Whether child `c`'s flit `seq` can be taken now (inside the window, not yet delivered).
  bool can_accept(uint32_t c, uint64_t seq) const;
  // Takes it (can_accept must hold: std::logic_error otherwise).
  void accept(uint32_t c, uint64_t seq, const FlitData& data);
  // The arrival bitmap of sequence number `seq` (0 outside the window).
  uint64_t arrivals(uint64_t seq) const;
  // Whether every child has delivered `seq` (a number in the window).
  bool complete(uint64_t seq) const { return arrivals(seq) == all_; }
  // Whether every child has delivered base().
  bool front_complete() const;
  // The sum of base(); moves the window on (front_complete must hold: std::logic_error).
  FlitData pop_front();
  // Sequence numbers in the window with at least one arrival.
  uint32_t occupied() const { return occupied_; }

 private:
  struct Slot {
    uint64_t bitmap = 0;
    FlitData sum{};
  };
  Slot& slot_of(uint64_t seq) { return slot_[seq % slot_.size()]; }
  const Slot& slot_of(uint64_t seq) const { return slot_[seq % slot_.size()]; }

  uint32_t children_;
  uint64_t all_;  // the bitmap of a complete slot
  DType dtype_;
  uint64_t base_ = 0;
  uint32_t occupied_ = 0;
  std::vector<Slot> slot_;
};

}  // namespace mt::noc
