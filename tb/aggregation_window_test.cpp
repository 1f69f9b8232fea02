// rtl/aggregation_window.sv against the SystemC AggregationWindow
// (systemc/aggregation/aggregation_window.hpp), every cycle: the same random stimulus offered
// to both (children delivering at their own random rates, so sequence numbers arrive out of
// order across children; probes of numbers already delivered, below the window, beyond it and
// of no child; phases where the front is seldom popped, so the window fills and holds the
// children back), in int32 and in fp32 (random bit patterns with NaNs, infinities and
// subnormals, and values that cancel). Each cycle the RTL's outputs must be the SystemC
// block's: whether the offered flit is acceptable, its slot's arrivals, whether taking it
// completes the slot, whether the front is complete, the base, the occupied slots, and every
// popped sum bit for bit. The first difference stops the test with the cycle, the signal and
// both values.
//
// Two builds (tb/CMakeLists.txt): the defaults (4 children, 256 slots, 32-bit sequence
// numbers), and 5 children with 4 slots and 4-bit sequence numbers (the window fills within a
// few cycles and the numbers wrap).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

// Verilator's headers before SystemC's (verilated_funcs.h).
#include "Vaggregation_window.h"
#include "Vaggregation_window_small.h"
#include "support/clocked.hpp"

#include "aggregation/aggregation_window.hpp"
#include "plan/plan.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kDtypeInt32 = 0, kDtypeFp32 = 1;  // format/ni_formats.json
static_assert(kDtypeInt32 == static_cast<uint32_t>(DType::kInt32));
static_assert(kDtypeFp32 == static_cast<uint32_t>(DType::kFp32));

// Bits of a child index on the ports (CHILD_W of the RTL).
constexpr uint32_t child_bits(uint32_t children) {
  uint32_t b = 1;
  while ((uint32_t{1} << b) < children) ++b;
  return b;
}

template <class M, uint32_t C, uint32_t S, uint32_t W>
struct Params {
  using Model = M;
  static constexpr uint32_t kChildren = C, kSlots = S, kSeqW = W;
  // Every child index child_i carries, the children's and beyond.
  static constexpr uint32_t kChildIndices = uint32_t{1} << child_bits(C);
};
// tb/CMakeLists.txt builds the models with these.
using Default = Params<Vaggregation_window, 4, 256, 32>;
using Small = Params<Vaggregation_window_small, 5, 4, 4>;

// What a run went through: each must happen for the run to test anything.
struct Coverage {
  uint64_t copies = 0, adds = 0, pops = 0;
  uint64_t held_back = 0;     // a child's next flit outside the full window
  uint64_t out_of_order = 0;  // a flit taken while an older number of another child was open
  uint64_t duplicates = 0;    // a probe of a number its child had delivered, refused
};

// One random element of `dtype`: for fp32, random bit patterns (NaNs, infinities,
// subnormals), small integers and values near the others' (sums that cancel).
uint32_t random_element(std::mt19937_64& rng, uint32_t dtype) {
  const uint32_t bits = static_cast<uint32_t>(rng());
  if (dtype == kDtypeInt32) return bits;
  switch (rng() % 4) {
    case 0: return bits;
    case 1: {
      const float f = static_cast<float>(static_cast<int32_t>(rng() % 2001) - 1000);
      uint32_t b = 0;
      std::memcpy(&b, &f, 4);
      return b;
    }
    case 2: return (bits & 0x807FFFFFu) | ((126u + (bits >> 23) % 4) << 23);  // 0.5 to 8
    default: return bits & 0x80FFFFFFu;  // exponent 0 or 1: subnormals and the smallest normals
  }
}

template <class P>
class Bench {
 public:
  Bench(uint32_t dtype, uint64_t seed)
      : golden_(P::kChildren, P::kSlots, static_cast<DType>(dtype)),
        dtype_(dtype), rng_(seed), next_(P::kChildren, 0), rate_(P::kChildren) {
    dut_->dtype_i = static_cast<uint8_t>(dtype);
    dut_->accept_i = 0;
    dut_->pop_i = 0;
    dut_.reset();
    for (double& r : rate_) r = 0.2 + 0.8 * std::uniform_real_distribution<double>()(rng_);
  }

  // Waits out the clearing of the rows: ready_o must rise after exactly SLOTS cycles.
  void clear() {
    for (uint32_t c = 0; c < P::kSlots; ++c) {
      dut_.settle();
      ASSERT_FALSE(dut_->ready_o) << "ready_o before the rows are cleared, cycle " << c;
      ASSERT_FALSE(dut_->can_accept_o) << "a flit acceptable while clearing, cycle " << c;
      ASSERT_FALSE(dut_->front_complete_o) << "a complete front while clearing, cycle " << c;
      dut_.edge();
    }
    dut_.settle();
    ASSERT_TRUE(dut_->ready_o) << "ready_o not set after " << P::kSlots << " cycles";
  }

  // Runs `cycles` cycles, popping a complete front with probability `pop_rate`; stops at the
  // first difference (a test failure naming it).
  void run(uint64_t cycles, double pop_rate) {
    for (uint64_t i = 0; i < cycles && diff_.empty(); ++i) cycle(pop_rate);
    ASSERT_EQ(diff_, "");
  }

  const Coverage& coverage() const { return cov_; }
  uint64_t base() const { return golden_.base(); }

 private:
  template <class T>
  void check(const char* signal, T rtl, T sc) {
    if (diff_.empty() && rtl != sc) {
      diff_ = fmt::format("cycle {}: {} (RTL vs SystemC): {} vs {}", dut_.cycle(), signal, rtl,
                          sc);
    }
  }

  // The flit offered this cycle: mostly a child's next number, picked by the children's
  // rates; sometimes a probe anywhere around the window, of any child index the port carries.
  void offer(uint32_t& child, uint64_t& seq) {
    std::uniform_real_distribution<double> u;
    if (u(rng_) < 0.1) {
      child = static_cast<uint32_t>(rng_() % P::kChildIndices);
      const uint64_t lo = golden_.base() > 2 ? golden_.base() - 2 : 0;
      seq = lo + rng_() % (P::kSlots + 5);
      return;
    }
    double total = 0;
    for (double r : rate_) total += r;
    double pick = u(rng_) * total;
    child = 0;
    while (child + 1 < P::kChildren && pick >= rate_[child]) pick -= rate_[child++];
    // A probe may have delivered the child's next numbers: it goes on after them.
    uint64_t& next = next_[child];
    while (next < golden_.base() || (golden_.arrivals(next) >> child & 1u) != 0) ++next;
    seq = next;
  }

  void cycle(double pop_rate) {
    uint32_t child = 0;
    uint64_t seq = 0;
    offer(child, seq);
    noc::FlitData data{};
    for (uint32_t& e : data) e = random_element(rng_, dtype_);
    constexpr uint64_t kSeqMask = P::kSeqW >= 64 ? ~uint64_t{0} : (uint64_t{1} << P::kSeqW) - 1;
    dut_->child_i = static_cast<uint8_t>(child);
    dut_->seq_i = static_cast<std::remove_reference_t<decltype(dut_->seq_i)>>(seq & kSeqMask);
    for (size_t e = 0; e < data.size(); ++e) dut_->data_i[e] = data[e];
    dut_->accept_i = 0;
    dut_->pop_i = 0;
    dut_.settle();

    const bool can = golden_.can_accept(child, seq);
    const uint64_t arrivals = golden_.arrivals(seq);
    const bool front = golden_.front_complete();
    check("ready_o", static_cast<bool>(dut_->ready_o), true);
    check("can_accept_o", static_cast<bool>(dut_->can_accept_o), can);
    check("arrivals_o", static_cast<uint64_t>(dut_->arrivals_o), arrivals);
    check("front_complete_o", static_cast<bool>(dut_->front_complete_o), front);
    check("base_o", static_cast<uint64_t>(dut_->base_o), golden_.base() & kSeqMask);
    check("occupied_o", static_cast<uint32_t>(dut_->occupied_o), golden_.occupied());
    if (!diff_.empty()) return;

    std::uniform_real_distribution<double> u;
    const bool take = can && u(rng_) < 0.85;
    const bool pop = front && u(rng_) < pop_rate;
    if (child < P::kChildren && (arrivals >> child & 1u) != 0) ++cov_.duplicates;
    if (!can && child < P::kChildren && seq == next_[child] &&
        seq >= golden_.base() + P::kSlots) {
      ++cov_.held_back;
    }
    // The SystemC unit takes, then pops, in one cycle: the front complete at the cycle's start
    // is never the number taken, so the RTL's pop of that front agrees.
    if (take) {
      golden_.accept(child, seq, data);
      check("completes_o", static_cast<bool>(dut_->completes_o), golden_.complete(seq));
    }
    if (pop) {
      const noc::FlitData sum = golden_.pop_front();
      for (size_t e = 0; e < sum.size(); ++e) {
        check(fmt::format("front_sum_o[{}]", e).c_str(), dut_->front_sum_o[e], sum[e]);
      }
    }
    record(take, pop, child, seq, arrivals);
    dut_->accept_i = take;
    dut_->pop_i = pop;
    dut_.edge();
  }

  void record(bool take, bool pop, uint32_t child, uint64_t seq, uint64_t arrivals) {
    if (take) {
      ++(arrivals == 0 ? cov_.copies : cov_.adds);
      if (seq == next_[child]) ++next_[child];
      const uint64_t oldest = *std::min_element(next_.begin(), next_.end());
      if (seq > oldest) ++cov_.out_of_order;
    }
    if (pop) ++cov_.pops;
  }

  Clocked<typename P::Model> dut_;
  noc::AggregationWindow golden_;
  uint32_t dtype_;
  std::mt19937_64 rng_;
  std::vector<uint64_t> next_;  // per child: the next number it delivers
  std::vector<double> rate_;    // per child: its share of the offers
  Coverage cov_;
  std::string diff_;
};

// Both dtypes, several seeds; each run alternates phases of frequent pops with phases of rare
// ones (the window fills, the children are held back).
template <class P>
void random_arrivals_both_types() {
  for (uint32_t dtype : {kDtypeInt32, kDtypeFp32}) {
    Coverage total;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(fmt::format("dtype {}, seed {}", dtype, seed));
      Bench<P> bench(dtype, seed * 977 + dtype);
      bench.clear();
      if (::testing::Test::HasFatalFailure()) return;
      for (int phase = 0; phase < 6; ++phase) {
        bench.run(std::max(P::kSlots * 12, 4000u), phase % 2 == 0 ? 0.9 : 0.02);
        if (::testing::Test::HasFatalFailure()) return;
      }
      const Coverage& c = bench.coverage();
      total.copies += c.copies;
      total.adds += c.adds;
      total.pops += c.pops;
      total.held_back += c.held_back;
      total.out_of_order += c.out_of_order;
      total.duplicates += c.duplicates;
      // The window moved on past its size several times: the lap bits were exercised.
      EXPECT_GT(bench.base(), uint64_t{2} * P::kSlots);
    }
    EXPECT_GT(total.copies, 0u);
    EXPECT_GT(total.adds, total.copies);
    EXPECT_GT(total.pops, 0u);
    EXPECT_GT(total.held_back, 0u) << "the window never filled";
    EXPECT_GT(total.out_of_order, 0u);
    EXPECT_GT(total.duplicates, 0u);
  }
}

TEST(AggregationWindowLockstep, DefaultsRandomArrivalsBothTypes) {
  random_arrivals_both_types<Default>();
}

TEST(AggregationWindowLockstep, FourSlotsWrappingRandomArrivalsBothTypes) {
  random_arrivals_both_types<Small>();
}

}  // namespace
}  // namespace mt::tb
