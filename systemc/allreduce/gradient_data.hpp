// The data an all-reduce run starts with and the exact result it must end with. Every node's
// buffer holds distinct seeded values, a function of (seed, node, element index); fp32 values
// are small integers, so every partial sum is exact in any summation order and the check needs
// no tolerance. With a sample (mtsim --data sampled, data_sample.hpp) only the sampled lines
// are written, summed and checked, in the layout of a sampled AccelMemory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "allreduce/fast_modulo.hpp"
#include "memory/sampled_lines.hpp"
#include "plan/plan.hpp"

namespace mt::noc {

class GradientData {
 public:
  // `sample`: the offsets of the 16-byte lines a sampled AccelMemory stores; null: every
  // element is stored and checked.
  GradientData(uint32_t nodes, uint64_t bytes, DType dtype, uint64_t seed,
               std::shared_ptr<const SampledLines> sample = nullptr);

  // Writes node n's initial data into `stored` (AccelMemory::data(): the buffer, or its
  // sampled lines; little-endian elements) and adds it to the expected sum. Call once per
  // node before check().
  void fill(uint32_t node, uint8_t* stored);
  // Empty if `stored` holds the sum of every node's initial data in every checked element;
  // otherwise names the first wrong element, its value and the expected one.
  std::string check(uint32_t node, const uint8_t* stored) const;

  // Elements checked per node: all of them, or those of the sampled lines.
  uint64_t checked_elements() const { return checked_; }
  // Bytes this object holds for the expected sums.
  uint64_t sum_bytes() const { return sum_.size() * sizeof(int64_t); }

  // Test hook (mtsim --inject-fault): adds 1 to `element` of one node's initial data in
  // `stored`, after fill() and unknown to the expected sum, so the all-reduce must end with a
  // wrong sum there. False, and nothing changes, if the element is not checked.
  bool add_one(uint8_t* stored, uint64_t element) const;

 private:
  // Node n's values: the raw bits of an element and what it adds to the exact sum.
  struct Values {
    uint64_t seed;
    uint64_t node_bits;  // the node, shifted above any element index
    bool int32;
    int64_t range;       // fp32: values lie in [-range, range]
    FastModulo modulo;   // fp32: % (2 range + 1)
    VectorModulo vector_modulo;  // the same, for the vectorised full-buffer fill
    // With kInt32 == int32 and `Modulo` either of the two (the same values): a loop over
    // elements then has no branch and vectorises.
    template <bool kInt32, typename Modulo>
    uint32_t of(uint64_t element, const Modulo& mod, int64_t& addend) const;
    uint32_t operator()(uint64_t element, int64_t& addend) const {
      return int32 ? of<true>(element, modulo, addend) : of<false>(element, modulo, addend);
    }
  };
  Values values_of(uint32_t node) const;
  // Calls f(k, e) for every checked element e, stored at byte 4k of the storage.
  template <typename F>
  void for_each_checked(F f) const;

  uint32_t nodes_;
  DType dtype_;
  uint64_t seed_;
  uint64_t elements_;  // in the buffer (a tail shorter than an element is not one)
  std::shared_ptr<const SampledLines> sample_;
  uint64_t checked_ = 0;
  uint32_t filled_ = 0;
  // Per stored element, the exact sum of the values filled so far: int32 takes its low 32
  // bits (the NI's adder wraps), fp32 is exact since every value is a small integer.
  std::vector<int64_t> sum_;
};

}  // namespace mt::noc
