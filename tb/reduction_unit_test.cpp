// rtl/reduction_unit.sv against the SystemC ReductionUnit (systemc/ni/reduction_unit.hpp):
// the same sums bit for bit (int32 wrap-around, fp32 with the canonical NaN), masked lanes
// zero, every output beat exactly LATENCY cycles after its input beat at one beat per cycle,
// and jobs fed as the NI feeds them complete in the cycle ReductionSequencer::admit returns
// (systemc/ni/reduction_sequencer.hpp).
// Four parameter sets, each its own Verilated model (tb/CMakeLists.txt): the default
// LANES = 16 / LATENCY = 4, the smallest LANES = 1 / LATENCY = 1, LANES = 3 / LATENCY = 2, and
// LANES = 2 / LATENCY = 3, the shortest pipeline with the two-stage fp32 adders.
#include <gtest/gtest.h>

#include "support/words.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

// Verilator's headers before SystemC's: once SYSTEMC_VERSION is defined they expect a
// SystemC-mode model, and these models are plain C++.
#include "Vreduction_unit.h"
#include "Vreduction_unit_l1.h"
#include "Vreduction_unit_l3.h"
#include "Vreduction_unit_split.h"
#include "support/clocked.hpp"

#include <systemc>

#include "common/error.hpp"
#include "ni/reduction_sequencer.hpp"
#include "ni/reduction_unit.hpp"
#include "systemc/sim_test_util.hpp"

namespace mt::tb {
namespace {

using mt::test::float_bits;
using mt::test::le_bytes;
using mt::test::le_words;

using noc::ReductionConfig;
using noc::ReductionSequencer;
using noc::ReductionUnit;

constexpr uint32_t kDtypeInt32 = 0, kDtypeFp32 = 1;  // format/ni_formats.json
static_assert(kDtypeInt32 == static_cast<uint32_t>(DType::kInt32));
static_assert(kDtypeFp32 == static_cast<uint32_t>(DType::kFp32));

// The Verilated ports of LANES x 32 bits: IData (LANES = 1), QData (2) or VlWide (more).
inline void set_lane(IData& w, unsigned /*lane*/, uint32_t v) { w = v; }
inline uint32_t get_lane(const IData& w, unsigned /*lane*/) { return w; }
inline void set_lane(QData& w, unsigned lane, uint32_t v) {
  w = (w & ~(QData{0xFFFFFFFFu} << (32 * lane))) | (QData{v} << (32 * lane));
}
inline uint32_t get_lane(const QData& w, unsigned lane) {
  return static_cast<uint32_t>(w >> (32 * lane));
}
template <std::size_t N>
void set_lane(VlWide<N>& w, unsigned lane, uint32_t v) {
  w.at(lane) = v;
}
template <std::size_t N>
uint32_t get_lane(const VlWide<N>& w, unsigned lane) {
  return w.at(lane);
}

template <class M, unsigned L, unsigned D>
struct Params {
  using Model = M;
  static constexpr unsigned kLanes = L;
  static constexpr unsigned kLatency = D;
};

// One beat: valid, dtype, mask and LANES pairs.
struct Beat {
  bool valid = false;
  uint32_t dtype = kDtypeInt32;
  uint32_t mask = 0;
  std::vector<uint32_t> acc, src;
};

// A beat as the unit gives it out.
struct OutBeat {
  uint32_t mask = 0;
  std::vector<uint32_t> sum;
};



template <class P>
class ReductionUnitBench : public noc::test::SimTest {
 protected:
  static constexpr unsigned kLanes = P::kLanes;
  static constexpr unsigned kLatency = P::kLatency;
  static constexpr uint32_t kFullMask =
      kLanes >= 32 ? 0xFFFFFFFFu : static_cast<uint32_t>((uint64_t{1} << kLanes) - 1);

  ReductionUnitBench() {
    // The golden model's data path: one unit per dtype (the timing is checked separately).
    golden_int_ = std::make_unique<ReductionUnit>("golden_int32", DType::kInt32);
    golden_fp_ = std::make_unique<ReductionUnit>("golden_fp32", DType::kFp32);
    dut_->valid_i = 0;
    dut_->dtype_i = 0;
    dut_->mask_i = 0;
    dut_.reset();
  }

  // The SystemC model's sums for a beat; masked-off lanes zero.
  OutBeat expected(const Beat& b) {
    std::vector<uint8_t> acc = le_bytes(b.acc);
    const std::vector<uint8_t> src = le_bytes(b.src);
    ReductionUnit& unit = b.dtype == kDtypeFp32 ? *golden_fp_ : *golden_int_;
    unit.add(acc.data(), src.data(), acc.size());
    OutBeat out{b.mask, le_words(acc)};
    for (unsigned l = 0; l < kLanes; ++l) {
      if (!(b.mask >> l & 1u)) out.sum[l] = 0;
    }
    return out;
  }

  // Puts a beat (or none) on the inputs for this cycle and remembers what must come out.
  void drive(const Beat& b) {
    dut_->valid_i = b.valid;
    dut_->dtype_i = static_cast<uint8_t>(b.dtype);
    dut_->mask_i = static_cast<std::remove_reference_t<decltype(dut_->mask_i)>>(b.mask);
    for (unsigned l = 0; l < kLanes; ++l) {
      set_lane(dut_->acc_i, l, b.valid ? b.acc[l] : 0xDEADBEEFu);
      set_lane(dut_->src_i, l, b.valid ? b.src[l] : 0xDEADBEEFu);
    }
    if (b.valid) pending_.push_back({dut_.cycle() + kLatency, expected(b)});
  }
  void drive_idle() { drive(Beat{}); }

  // The output of this cycle, checked against the beat due now (if any) and kept in outputs_;
  // returns whether a beat came out. Then the rising edge.
  bool check_and_tick() {
    dut_.settle();
    const uint64_t now = dut_.cycle();
    const bool due = !pending_.empty() && pending_.front().cycle == now;
    EXPECT_EQ(static_cast<bool>(dut_->valid_o), due) << "cycle " << now;
    if (due && dut_->valid_o) {
      const OutBeat& want = pending_.front().beat;
      EXPECT_EQ(static_cast<uint32_t>(dut_->mask_o), want.mask) << "cycle " << now;
      for (unsigned l = 0; l < kLanes; ++l) {
        const uint32_t got = get_lane(dut_->sum_o, l);
        if (got != want.sum[l] && ++mismatches_ <= 20) {  // the first few in full
          ADD_FAILURE() << fmt::format("cycle {} lane {}: RTL {:#010x}, SystemC {:#010x}", now, l,
                                       got, want.sum[l]);
        }
      }
    }
    if (due) pending_.pop_front();
    EXPECT_TRUE(pending_.empty() || pending_.front().cycle > now) << "a beat was lost";
    const bool out = dut_->valid_o;
    if (out) {
      OutBeat o{static_cast<uint32_t>(dut_->mask_o), {}};
      for (unsigned l = 0; l < kLanes; ++l) o.sum.push_back(get_lane(dut_->sum_o, l));
      outputs_.push_back(o);
    }
    dut_.tick();
    return out;
  }

  // Idle cycles until every beat has come out.
  void drain() {
    drive_idle();
    for (unsigned i = 0; i <= kLatency; ++i) check_and_tick();
    EXPECT_TRUE(pending_.empty());
  }

  Beat random_beat(std::mt19937_64& rng, uint32_t dtype, uint32_t mask) {
    Beat b;
    b.valid = true;
    b.dtype = dtype;
    b.mask = mask;
    for (unsigned l = 0; l < kLanes; ++l) {
      const auto [x, y] = random_pair(rng, dtype);
      b.acc.push_back(x);
      b.src.push_back(y);
    }
    return b;
  }

  // Operands: uniform bits, small values, near-cancellation and specials.
  static std::pair<uint32_t, uint32_t> random_pair(std::mt19937_64& rng, uint32_t dtype) {
    const auto x = static_cast<uint32_t>(rng()), y = static_cast<uint32_t>(rng());
    switch (rng() % 4) {
      case 0:
        return {x, y};
      case 1:  // small magnitudes: subnormal fp32, small int32
        return {x & 0x807FFFFFu, y & 0x807FFFFFu};
      case 2:  // x + (-x +- a little): cancellation (int32: sums near zero)
        return {x, dtype == kDtypeFp32 ? (x ^ 0x80000000u) + (y % 5) - 2 : 0u - x + (y % 5) - 2};
      default: {
        const uint32_t specials[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFF800001u,
                                     0x7F7FFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u};
        return {specials[x % 8], y % 2 ? specials[y / 2 % 8] : y};
      }
    }
  }

  // The test bodies, one TEST_F per parameter set each (the end of this file).
  void Int32WrapsAround();
  void Fp32MatchesSystemCWithCanonicalNan();
  void MaskedOffLanesOutputZero();
  void DtypeSwitchesBeatByBeat();
  void ExactlyLatencyCyclesLater();
  void ThroughputBackToBackAndGapped();
  void ResetDropsTheBeatsInFlight();
  void JobsFollowTheSystemCContract();

  struct Pending {
    uint64_t cycle;
    OutBeat beat;
  };

  mt::tb::Clocked<typename P::Model> dut_;
  std::unique_ptr<ReductionUnit> golden_int_, golden_fp_;
  std::deque<Pending> pending_;
  std::vector<OutBeat> outputs_;  // every beat that came out, in order
  uint64_t mismatches_ = 0;
};

template <class P>
void ReductionUnitBench<P>::Int32WrapsAround() {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  const struct {
    uint32_t a, b, sum;
  } cases[] = {{static_cast<uint32_t>(kMax), 1u, static_cast<uint32_t>(kMin)},
               {static_cast<uint32_t>(kMin), 0xFFFFFFFFu, static_cast<uint32_t>(kMax)},
               {0xFFFFFFFFu, 1u, 0u},
               {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFEu},
               {static_cast<uint32_t>(-5), 3u, static_cast<uint32_t>(-2)},
               {0x000000FFu, 1u, 0x00000100u},
               {0x7F800000u, 0xFF800000u, 0x7F000000u}};  // no fp32 meaning in int32 mode
  constexpr size_t n = sizeof cases / sizeof cases[0];
  // The cases spread over the lanes, as many beats as needed, back to back.
  const size_t beats = (n + this->kLanes - 1) / this->kLanes;
  std::vector<uint32_t> want;
  for (size_t i = 0; i < beats; ++i) {
    Beat b;
    b.valid = true;
    b.dtype = kDtypeInt32;
    b.mask = this->kFullMask;
    for (unsigned l = 0; l < this->kLanes; ++l) {
      const auto& c = cases[(i * this->kLanes + l) % n];
      b.acc.push_back(c.a);
      b.src.push_back(c.b);
      want.push_back(c.sum);
    }
    this->drive(b);
    this->check_and_tick();
  }
  this->drain();
  std::vector<uint32_t> got;
  for (const OutBeat& o : this->outputs_) got.insert(got.end(), o.sum.begin(), o.sum.end());
  EXPECT_EQ(got, want);
}

template <class P>
void ReductionUnitBench<P>::Fp32MatchesSystemCWithCanonicalNan() {
  // A few fixed sums, including NaNs that x86 would give as 0xFFC00000 or with a payload.
  const std::vector<std::pair<uint32_t, uint32_t>> fixed = {{float_bits(1.5f), float_bits(2.25f)},
                                                            {0x7F800000u, 0xFF800000u},
                                                            {0xFFC00000u, 0u},
                                                            {0x7FC12345u, float_bits(1.0f)},
                                                            {0x80000000u, 0x80000000u},
                                                            {0x00000001u, 0x00000001u},
                                                            {0x7F7FFFFFu, 0x7F7FFFFFu},
                                                            {float_bits(3.0f), float_bits(-3.0f)}};
  const std::vector<uint32_t> fixed_want = {float_bits(3.75f), 0x7FC00000u, 0x7FC00000u,
                                            0x7FC00000u,       0x80000000u, 0x00000002u,
                                            0x7F800000u,       0x00000000u};
  for (size_t i = 0; i < fixed.size(); i += this->kLanes) {
    Beat b;
    b.valid = true;
    b.dtype = kDtypeFp32;
    for (unsigned l = 0; l < this->kLanes; ++l) {
      const bool used = i + l < fixed.size();
      b.mask |= used ? 1u << l : 0u;
      b.acc.push_back(used ? fixed[i + l].first : 0u);
      b.src.push_back(used ? fixed[i + l].second : 0u);
    }
    this->drive(b);
    this->check_and_tick();
  }
  this->drain();
  // Random beats, back to back.
  std::mt19937_64 rng(42);
  for (int i = 0; i < 3000; ++i) {
    this->drive(this->random_beat(rng, kDtypeFp32, this->kFullMask));
    this->check_and_tick();
  }
  this->drain();
  EXPECT_EQ(this->mismatches_, 0u);
  // The fixed sums by value: the SystemC model the RTL matched above gives these.
  std::vector<uint32_t> a_words, b_words;
  for (const auto& [a, b] : fixed) {
    a_words.push_back(a);
    b_words.push_back(b);
  }
  std::vector<uint8_t> acc = le_bytes(a_words);
  const std::vector<uint8_t> src = le_bytes(b_words);
  this->golden_fp_->add(acc.data(), src.data(), acc.size());
  EXPECT_EQ(le_words(acc), fixed_want);
}

template <class P>
void ReductionUnitBench<P>::MaskedOffLanesOutputZero() {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t dtype = static_cast<uint32_t>(rng() % 2);
    // Every mask for a few lanes; random ones and the partial last beats of jobs otherwise.
    uint32_t mask = static_cast<uint32_t>(rng()) & this->kFullMask;
    if (i % 3 == 0) mask = this->kFullMask >> (rng() % this->kLanes);  // a job's last beat
    if (i % 7 == 0) mask = 0;
    const Beat b = this->random_beat(rng, dtype, mask);
    this->drive(b);
    this->check_and_tick();
  }
  this->drain();
  EXPECT_EQ(this->mismatches_, 0u);
}

template <class P>
void ReductionUnitBench<P>::DtypeSwitchesBeatByBeat() {
  std::mt19937_64 rng(5);
  // The same operands as int32 and as fp32 in consecutive cycles, then random switching.
  Beat b = this->random_beat(rng, kDtypeInt32, this->kFullMask);
  b.acc[0] = float_bits(1.0f);
  b.src[0] = float_bits(1.0f);
  for (int i = 0; i < 6; ++i) {
    b.dtype = i % 2 ? kDtypeFp32 : kDtypeInt32;
    this->drive(b);
    this->check_and_tick();
  }
  this->drain();
  // 1 + 1 as int32 bits, then as fp32, alternately.
  ASSERT_EQ(this->outputs_.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(this->outputs_[i].sum[0], i % 2 ? float_bits(2.0f) : 0x7F000000u) << "beat " << i;
  }
  for (int i = 0; i < 4000; ++i) {
    this->drive(this->random_beat(rng, static_cast<uint32_t>(rng() % 2), this->kFullMask));
    this->check_and_tick();
  }
  this->drain();
  EXPECT_EQ(this->mismatches_, 0u);
}

template <class P>
void ReductionUnitBench<P>::ExactlyLatencyCyclesLater() {
  std::mt19937_64 rng(9);
  this->drive(this->random_beat(rng, kDtypeFp32, this->kFullMask));
  const uint64_t in = this->dut_.cycle();
  uint64_t out_cycle = 0;
  int outs = 0;
  for (unsigned i = 0; i < this->kLatency + 3; ++i) {
    const uint64_t now = this->dut_.cycle();
    if (this->check_and_tick()) {
      out_cycle = now;
      ++outs;
    }
    this->drive_idle();
  }
  EXPECT_EQ(outs, 1);
  EXPECT_EQ(out_cycle, in + this->kLatency);
}

template <class P>
void ReductionUnitBench<P>::ThroughputBackToBackAndGapped() {
  std::mt19937_64 rng(11);
  // Back to back: N beats in N cycles come out in N consecutive cycles, LATENCY later.
  constexpr int kN = 50;
  const uint64_t first_in = this->dut_.cycle();
  std::vector<uint64_t> out_cycles;
  for (int i = 0; i < kN + static_cast<int>(this->kLatency) + 2; ++i) {
    if (i < kN) {
      this->drive(this->random_beat(rng, static_cast<uint32_t>(i % 2), this->kFullMask));
    } else {
      this->drive_idle();
    }
    const uint64_t now = this->dut_.cycle();
    if (this->check_and_tick()) out_cycles.push_back(now);
  }
  ASSERT_EQ(out_cycles.size(), static_cast<size_t>(kN));
  for (int i = 0; i < kN; ++i) EXPECT_EQ(out_cycles[i], first_in + this->kLatency + i);
  // Gapped: random bursts and gaps (the scoreboard checks every cycle's valid and data).
  uint64_t beats = 0;
  for (int i = 0; i < 20000; ++i) {
    const bool valid = (i / 7) % 3 == 0 ? true : rng() % 3 != 0;
    if (valid) {
      this->drive(this->random_beat(rng, static_cast<uint32_t>(rng() % 2),
                                    static_cast<uint32_t>(rng()) & this->kFullMask));
      ++beats;
    } else {
      this->drive_idle();
    }
    this->check_and_tick();
  }
  this->drain();
  EXPECT_GT(beats, 10000u);
  EXPECT_EQ(this->mismatches_, 0u);
}

template <class P>
void ReductionUnitBench<P>::ResetDropsTheBeatsInFlight() {
  std::mt19937_64 rng(13);
  for (unsigned i = 0; i < this->kLatency; ++i) {
    this->drive(this->random_beat(rng, kDtypeInt32, this->kFullMask));
    this->check_and_tick();
  }
  this->drive_idle();
  this->dut_.reset(1);
  this->pending_.clear();
  for (unsigned i = 0; i < this->kLatency + 2; ++i) {
    this->dut_.settle();
    EXPECT_FALSE(this->dut_->valid_o) << "after reset, cycle " << i;
    this->dut_.tick();
  }
}

// The NI feeds a job of e elements ready at `ready` as ceil(e / LANES) beats from
// start = max(ready, free); its sum must be complete (last beat out) by the cycle
// ReductionSequencer::admit returns, and not a cycle earlier, with the SystemC model's data.
template <class P>
void ReductionUnitBench<P>::JobsFollowTheSystemCContract() {
  const unsigned lanes = this->kLanes;
  for (const uint32_t dtype : {kDtypeInt32, kDtypeFp32}) {
    ReductionConfig cfg;
    cfg.elements_per_cycle = lanes;
    cfg.latency = this->kLatency;
    ReductionSequencer sequencer(dtype == kDtypeFp32 ? "sequencer_fp32" : "sequencer_int32",
                                 cfg);
    ReductionUnit golden(dtype == kDtypeFp32 ? "contract_fp32" : "contract_int32",
                         dtype == kDtypeFp32 ? DType::kFp32 : DType::kInt32);
    std::mt19937_64 rng(17 + dtype);
    const uint64_t t0 = this->dut_.cycle();  // SystemC cycle 0
    uint64_t ready = 0, free = 0, jobs_done = 0;
    // Jobs with random sizes (zero and partial last beats included) and ready times.
    std::vector<std::pair<uint64_t, uint64_t>> plan;  // (elements, ready)
    for (int j = 0; j < 300; ++j) {
      const uint64_t e = rng() % 8 == 0 ? 0 : 1 + rng() % (5 * lanes);
      ready += rng() % 3 == 0 ? 0 : rng() % (2 * (e + lanes - 1) / lanes + 3);
      plan.push_back({e, ready});
    }
    // Feed schedule (the NI's part of the contract): per cycle, the beat of the job in turn.
    struct Slot {
      size_t job;
      uint32_t mask;
      std::vector<uint32_t> acc, src;
    };
    std::deque<std::pair<uint64_t, Slot>> schedule;  // (SystemC cycle, beat)
    std::vector<uint64_t> last_beat_out(plan.size(), 0);
    std::vector<uint64_t> done(plan.size(), 0);
    std::vector<std::vector<uint32_t>> want(plan.size());
    for (size_t j = 0; j < plan.size(); ++j) {
      const auto [e, r] = plan[j];
      std::vector<uint32_t> acc, src;
      for (uint64_t i = 0; i < e; ++i) {
        const auto [x, y] = random_pair(rng, dtype);
        acc.push_back(x);
        src.push_back(y);
      }
      std::vector<uint8_t> acc_bytes = le_bytes(acc);
      const std::vector<uint8_t> src_bytes = le_bytes(src);
      done[j] = sequencer.admit(acc_bytes.size(), r);
      golden.add(acc_bytes.data(), src_bytes.data(), acc_bytes.size());
      want[j] = le_words(acc_bytes);
      const uint64_t start = std::max(r, free);
      const uint64_t beats = (e + lanes - 1) / lanes;
      for (uint64_t k = 0; k < beats; ++k) {
        Slot s{j, 0, {}, {}};
        for (unsigned l = 0; l < lanes; ++l) {
          const uint64_t i = k * lanes + l;
          s.mask |= i < e ? 1u << l : 0u;
          s.acc.push_back(i < e ? acc[i] : 0u);
          s.src.push_back(i < e ? src[i] : 0u);
        }
        schedule.push_back({start + k, s});
      }
      free = start + beats;
      EXPECT_EQ(done[j], free + this->kLatency) << "job " << j;
    }
    // Run the RTL on the schedule; collect each job's output lanes in order.
    std::vector<std::vector<uint32_t>> got(plan.size());
    std::deque<size_t> out_jobs;  // the job of every beat in the pipeline, in order
    const uint64_t end = free + this->kLatency + 2;
    for (uint64_t c = 0; c < end; ++c) {
      if (!schedule.empty() && schedule.front().first == c) {
        const Slot& s = schedule.front().second;
        Beat b{true, dtype, s.mask, s.acc, s.src};
        this->drive(b);
        out_jobs.push_back(s.job);
        schedule.pop_front();
      } else {
        this->drive_idle();
      }
      this->dut_.settle();
      if (this->dut_->valid_o) {
        ASSERT_FALSE(out_jobs.empty()) << "a beat out of nothing in cycle " << c;
        const size_t j = out_jobs.front();
        out_jobs.pop_front();
        for (unsigned l = 0; l < lanes; ++l) {
          if (this->dut_->mask_o >> l & 1u) got[j].push_back(get_lane(this->dut_->sum_o, l));
        }
        last_beat_out[j] = c;
      }
      ASSERT_EQ(this->dut_.cycle(), t0 + c);
      this->check_and_tick();
    }
    for (size_t j = 0; j < plan.size(); ++j) {
      EXPECT_EQ(got[j], want[j]) << "job " << j << " data";
      if (plan[j].first > 0) {
        EXPECT_EQ(last_beat_out[j] + 1, done[j])
            << "job " << j << ": " << plan[j].first << " elements ready at " << plan[j].second;
        ++jobs_done;
      }
    }
    EXPECT_GT(jobs_done, 200u);
    EXPECT_EQ(this->mismatches_, 0u);
  }
}

// Every test for every parameter set, as Suite.Test names ctest lists plainly.
#define MT_REDUCTION_UNIT_TESTS(Fixture)                                                           \
  TEST_F(Fixture, Int32WrapsAround) { Int32WrapsAround(); }                                        \
  TEST_F(Fixture, Fp32MatchesSystemCWithCanonicalNan) { Fp32MatchesSystemCWithCanonicalNan(); }    \
  TEST_F(Fixture, MaskedOffLanesOutputZero) { MaskedOffLanesOutputZero(); }                        \
  TEST_F(Fixture, DtypeSwitchesBeatByBeat) { DtypeSwitchesBeatByBeat(); }                          \
  TEST_F(Fixture, ExactlyLatencyCyclesLater) { ExactlyLatencyCyclesLater(); }                      \
  TEST_F(Fixture, ThroughputBackToBackAndGapped) { ThroughputBackToBackAndGapped(); }              \
  TEST_F(Fixture, ResetDropsTheBeatsInFlight) { ResetDropsTheBeatsInFlight(); }                    \
  TEST_F(Fixture, JobsFollowTheSystemCContract) { JobsFollowTheSystemCContract(); }

using ReductionUnitLanes16Latency4 = ReductionUnitBench<Params<Vreduction_unit, 16, 4>>;
using ReductionUnitLanes1Latency1 = ReductionUnitBench<Params<Vreduction_unit_l1, 1, 1>>;
using ReductionUnitLanes3Latency2 = ReductionUnitBench<Params<Vreduction_unit_l3, 3, 2>>;
using ReductionUnitLanes2Latency3 = ReductionUnitBench<Params<Vreduction_unit_split, 2, 3>>;
MT_REDUCTION_UNIT_TESTS(ReductionUnitLanes16Latency4)
MT_REDUCTION_UNIT_TESTS(ReductionUnitLanes1Latency1)
MT_REDUCTION_UNIT_TESTS(ReductionUnitLanes3Latency2)
MT_REDUCTION_UNIT_TESTS(ReductionUnitLanes2Latency3)

}  // namespace
}  // namespace mt::tb
