// rtl/fp32_adder.sv against the host CPU's float addition: every non-NaN sum bit-identical,
// every NaN sum the canonical NaN 0x7FC00000 (the SystemC ReductionUnit gives the same). Seeded
// random operand pairs from generators aimed at each hard case, every pair of corner values,
// constructed ties and hand-checked sums. The one-stage adder is combinational: set the
// operands, eval. Every pair also goes into the three-stage adder (STAGES = 3), a new pair every
// cycle, whose sum two cycles later must be the one-stage adder's.
//
// Fp32AdderRandom.TenMillionPairs compares 10,000,000 pairs. MT_FP32_PAIRS=<n> changes the
// count (for example a longer run by hand); MT_WAVES writes the first evaluations as FST.
#include <gtest/gtest.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vfp32_adder.h"
#include "Vfp32_adder_piped.h"
#include "ni_formats.hpp"
#include "support/clocked.hpp"

namespace mt::tb {
namespace {

constexpr uint32_t kCanonicalNan = format::fp32::kCanonicalNan;
constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kPosInf = 0x7F800000u;
constexpr uint32_t kMaxFinite = 0x7F7FFFFFu;
constexpr uint32_t kMinNormal = 0x00800000u;
constexpr uint32_t kMaxSubnormal = 0x007FFFFFu;
constexpr uint32_t kMinSubnormal = 0x00000001u;

float to_float(uint32_t bits) {
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t to_bits(float f) {
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// The host CPU's single-precision addition (SSE on x86-64; no fast-math in this build).
uint32_t host_add(uint32_t a, uint32_t b) { return to_bits(to_float(a) + to_float(b)); }

bool is_nan(uint32_t bits) { return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu); }

// What the adder must give: the host's sum, or the canonical NaN for a NaN sum.
uint32_t want_sum(uint32_t a, uint32_t b) {
  const uint32_t s = host_add(a, b);
  return is_nan(s) ? kCanonicalNan : s;
}

std::string hex(uint32_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << std::uppercase << v;
  return os.str();
}

// The Verilated adder, with the first evaluations written as FST when MT_WAVES is set, and the
// three-stage adder fed the same pairs.
class Adder {
 public:
  static constexpr uint64_t kMaxWaveEvals = 100000;

  Adder() : ctx_(std::make_unique<VerilatedContext>()) {
    const std::string path = waves_path();
    if (!path.empty()) ctx_->traceEverOn(true);
    model_ = std::make_unique<Vfp32_adder>(ctx_.get());
    piped_ = std::make_unique<Vfp32_adder_piped>(ctx_.get());
    if (!path.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open(path.c_str());
    }
  }
  ~Adder() {
    if (fst_) fst_->close();
    model_->final();
    piped_->final();
    EXPECT_EQ(piped_mismatches_, 0u) << "three-stage sums unlike the one-stage adder's";
  }
  Adder(const Adder&) = delete;
  Adder& operator=(const Adder&) = delete;

  uint32_t add(uint32_t a, uint32_t b) {
    model_->a_i = a;
    model_->b_i = b;
    model_->eval();
    if (fst_ && evals_ < kMaxWaveEvals) fst_->dump(evals_);
    step_piped(a, b, model_->sum_o);
    ++evals_;
    return model_->sum_o;
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vfp32_adder> model_;
  // One cycle of the three-stage adder: this pair in, the sum of the pair two cycles ago out.
  void step_piped(uint32_t a, uint32_t b, uint32_t sum) {
    piped_->a_i = a;
    piped_->b_i = b;
    piped_->en_i = 1;
    piped_->clk_i = 0;
    piped_->eval();
    const History& old = history_[evals_ % 2];  // the pair of two cycles ago
    if (evals_ >= 2 && piped_->sum_o != old.sum && ++piped_mismatches_ <= 20) {
      ADD_FAILURE() << "three stages: " << hex(old.a) << " + " << hex(old.b) << ": "
                    << hex(piped_->sum_o) << ", one stage " << hex(old.sum);
    }
    history_[evals_ % 2] = {a, b, sum};
    piped_->clk_i = 1;
    piped_->eval();
  }

  struct History {
    uint32_t a = 0, b = 0, sum = 0;
  };
  std::unique_ptr<Vfp32_adder_piped> piped_;
  std::array<History, 2> history_{};
  uint64_t piped_mismatches_ = 0;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t evals_ = 0;
};

// Compares pairs and reports the first few mismatches in full, then only counts them.
class Checker {
 public:
  explicit Checker(Adder& adder) : adder_(adder) {}
  ~Checker() { EXPECT_EQ(mismatches_, 0u) << "of " << pairs_ << " pairs"; }
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  void check(uint32_t a, uint32_t b, const char* what) {
    const uint32_t got = adder_.add(a, b), want = want_sum(a, b);
    ++pairs_;
    if (got != want && ++mismatches_ <= 20) {
      ADD_FAILURE() << what << ": " << hex(a) << " + " << hex(b) << " (" << to_float(a) << " + "
                    << to_float(b) << "): RTL " << hex(got) << ", host " << hex(host_add(a, b))
                    << ", want " << hex(want);
    }
  }
  uint64_t pairs() const { return pairs_; }

 private:
  Adder& adder_;
  uint64_t pairs_ = 0, mismatches_ = 0;
};

uint32_t make(uint32_t sign, uint32_t exp, uint32_t frac) {
  return (sign ? kSign : 0u) | (exp & 0xFFu) << 23 | (frac & 0x7FFFFFu);
}

// Values every operand class is built from (each also with the sign flipped).
const std::vector<uint32_t>& corner_values() {
  static const std::vector<uint32_t> values = [] {
    const std::vector<uint32_t> magnitudes = {0u,
                                              kMinSubnormal,
                                              2u,
                                              3u,
                                              0x00400000u,
                                              kMaxSubnormal - 1,
                                              kMaxSubnormal,
                                              kMinNormal,
                                              0x00800001u,
                                              0x00FFFFFFu,
                                              0x01000000u,
                                              0x3F800000u,
                                              0x3F800001u,
                                              0x3FFFFFFFu,
                                              0x3FC00000u,
                                              0x40000000u,
                                              0x4B800000u,
                                              0x33800000u,
                                              0x33000000u,
                                              0x34000000u,
                                              0x7E800000u,
                                              0x7F000000u,
                                              0x7F7FFFFEu,
                                              kMaxFinite,
                                              0x73000000u,
                                              0x72FFFFFFu,
                                              0x73800000u,
                                              kPosInf,
                                              0x7FC00000u,
                                              0x7FC00001u,
                                              0x7FFFFFFFu,
                                              0x7F800001u,
                                              0x7FA00000u,
                                              0x7FBFFFFFu};
    std::vector<uint32_t> out;
    for (uint32_t m : magnitudes) {
      out.push_back(m);
      out.push_back(m | kSign);
    }
    return out;
  }();
  return values;
}

TEST(Fp32Adder, HostIsIeeeWithSubnormals) {
  // The reference must not flush subnormals (FTZ/DAZ) or the comparisons would be wrong.
  EXPECT_EQ(host_add(kMinSubnormal, kMinSubnormal), 2u);
  EXPECT_EQ(host_add(kMinNormal, kMinSubnormal | kSign), kMaxSubnormal);
}

TEST(Fp32Adder, HandCheckedSums) {
  Adder adder;
  const struct {
    uint32_t a, b, sum;
    const char* what;
  } cases[] = {
      {0x00000000u, 0x00000000u, 0x00000000u, "+0 + +0"},
      {0x00000000u, 0x80000000u, 0x00000000u, "+0 + -0 = +0"},
      {0x80000000u, 0x00000000u, 0x00000000u, "-0 + +0 = +0"},
      {0x80000000u, 0x80000000u, 0x80000000u, "-0 + -0 = -0"},
      {0x3F800000u, 0xBF800000u, 0x00000000u, "1 + -1 = +0"},
      {0x80000001u, 0x00000001u, 0x00000000u, "-tiny + tiny = +0"},
      {0x80000005u, 0x80000000u, 0x80000005u, "-sub + -0"},
      {0x00000001u, 0x00000001u, 0x00000002u, "tiny + tiny"},
      {kMaxSubnormal, kMinSubnormal, kMinNormal, "max subnormal + tiny = min normal"},
      {kMaxSubnormal, kMaxSubnormal, 0x00FFFFFEu, "subnormal + subnormal, normal result"},
      {kMinNormal, kMinSubnormal | kSign, kMaxSubnormal, "min normal - tiny: subnormal result"},
      {0x00C00000u, 0x80800000u, 0x00400000u, "normal - normal: subnormal result"},
      {0x3FC00000u, 0x40100000u, 0x40700000u, "1.5 + 2.25 = 3.75"},
      {0x4B800000u, 0x3F800000u, 0x4B800000u, "2^24 + 1: tie, to even (down)"},
      {0x4B800000u, 0x40400000u, 0x4B800002u, "2^24 + 3: tie, to even (up)"},
      {0x4B7FFFFFu, 0x3F000000u, 0x4B800000u, "2^24 - 1 + 0.5: tie, up, carry into exponent"},
      {0x3F800000u, 0x33800000u, 0x3F800000u, "1 + 2^-24: tie, to even (down)"},
      {0x3F800001u, 0x33800000u, 0x3F800002u, "1 + ulp + 2^-24: tie, to even (up)"},
      {0x3F800000u, 0x33800001u, 0x3F800001u, "1 + just over half an ulp rounds up"},
      {0x3F800000u, 0xB3000000u, 0x3F800000u, "1 - 2^-25: tie below 1, to even (up to 1)"},
      {kMaxFinite, kMaxFinite, kPosInf, "max + max overflows"},
      {kMaxFinite | kSign, kMaxFinite | kSign, kPosInf | kSign, "-max + -max overflows"},
      {kMaxFinite, 0x73000000u, kPosInf, "max + half an ulp: tie, to even (inf)"},
      {kMaxFinite, 0x72FFFFFFu, kMaxFinite, "max + under half an ulp stays finite"},
      {kMaxFinite, 0x73800000u, kPosInf, "max + one ulp"},
      {kPosInf, 0x3F800000u, kPosInf, "inf + 1"},
      {kPosInf | kSign, kMaxFinite, kPosInf | kSign, "-inf + max"},
      {kPosInf, kPosInf, kPosInf, "inf + inf"},
      {kPosInf | kSign, kPosInf | kSign, kPosInf | kSign, "-inf + -inf"},
      {kPosInf, kPosInf | kSign, kCanonicalNan, "inf + -inf is the canonical NaN"},
      {kPosInf | kSign, kPosInf, kCanonicalNan, "-inf + inf is the canonical NaN"},
      {0xFFC00000u, 0x3F800000u, kCanonicalNan, "-qNaN + 1"},
      {0x7FC12345u, 0x3F800000u, kCanonicalNan, "qNaN payload is not kept"},
      {0x7F800001u, 0x3F800000u, kCanonicalNan, "sNaN + 1"},
      {0xFF800001u, kPosInf, kCanonicalNan, "-sNaN + inf"},
      {0x3F800000u, 0xFFBFFFFFu, kCanonicalNan, "1 + -sNaN"},
      {0x7FFFFFFFu, 0xFFFFFFFFu, kCanonicalNan, "qNaN + -qNaN"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(hex(adder.add(c.a, c.b)), hex(c.sum)) << c.what;
    EXPECT_EQ(hex(want_sum(c.a, c.b)), hex(c.sum)) << c.what << " (host)";
  }
}

TEST(Fp32Adder, EveryPairOfCornerValues) {
  Adder adder;
  Checker checker(adder);
  const auto& values = corner_values();
  for (uint32_t a : values) {
    for (uint32_t b : values) checker.check(a, b, "corner pair");
  }
  EXPECT_EQ(checker.pairs(), values.size() * values.size());
}

// Operands whose exact sum lies halfway between two floats: a with biased exponent e has
// ulp 2^(e - 150); b = B * 2^(e - 151), B odd, is an odd number of half ulps.
TEST(Fp32Adder, ConstructedTiesRoundToEven) {
  Adder adder;
  Checker checker(adder);
  std::mt19937_64 rng(2021);
  uint64_t ties = 0, up = 0, down = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint32_t e = 2 + static_cast<uint32_t>(rng() % 252);
    const uint32_t a = make(rng() & 1, e, static_cast<uint32_t>(rng()));
    const int width = 1 + static_cast<int>(rng() % 24);
    const auto big_b = static_cast<uint32_t>((rng() & ((uint64_t{1} << width) - 1)) | 1u);
    const float bf = std::ldexp(static_cast<float>(big_b), static_cast<int>(e) - 151);
    const uint32_t b = to_bits(bf) | ((rng() & 1) ? kSign : 0u);
    if (is_nan(a) || (a & 0x7F800000u) == kPosInf) continue;
    checker.check(a, b, "constructed tie");
    checker.check(b, a, "constructed tie, swapped");
    // Count the real ties: the exact sum (a double holds it) is midway between neighbours.
    const double exact = static_cast<double>(to_float(a)) + static_cast<double>(to_float(b));
    const float rounded = to_float(host_add(a, b));
    if (std::isinf(rounded) || static_cast<double>(rounded) == exact) continue;
    const float other =
        std::nextafter(rounded, exact > rounded ? std::numeric_limits<float>::infinity()
                                                : -std::numeric_limits<float>::infinity());
    if (std::abs(static_cast<double>(other) - exact) ==
        std::abs(exact - static_cast<double>(rounded))) {
      ++ties;
      (std::abs(rounded) > std::abs(exact) ? up : down) += 1;
    }
  }
  // Most constructions are ties (unless the sum changes binade); both directions occur.
  EXPECT_GT(ties, 150000u);
  EXPECT_GT(up, 50000u);
  EXPECT_GT(down, 50000u);
}

// x + (-x) = +0 for every finite x, and -x + x too.
TEST(Fp32Adder, ExactCancellationIsPositiveZero) {
  Adder adder;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    uint32_t x = static_cast<uint32_t>(rng());
    if (i % 4 == 0) x &= 0x807FFFFFu;  // subnormals and zeros too
    if ((x & 0x7F800000u) == kPosInf) continue;
    ASSERT_EQ(hex(adder.add(x, x ^ kSign)), hex(0u)) << hex(x);
    ASSERT_EQ(hex(adder.add(x ^ kSign, x)), hex(0u)) << hex(x);
  }
}

// One random pair of a class. The classes, equally often: uniform bit patterns; close
// exponents (cancellation); subnormal and near-subnormal operands (subnormal results); large
// values (overflow); ties; all-ones fractions plus small values (rounding carries into the
// exponent); max finite plus ulp-level values (rounding to inf); x + (-x) and near it; a
// corner value with a random operand.
struct PairGenerator {
  std::mt19937_64 rng;
  explicit PairGenerator(uint64_t seed) : rng(seed) {}

  uint32_t bits32() { return static_cast<uint32_t>(rng()); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng() % n); }
  uint32_t sign() { return below(2); }
  uint32_t clamp_exp(int e) { return static_cast<uint32_t>(e < 0 ? 0 : e > 254 ? 254 : e); }

  std::array<uint32_t, 2> next(uint32_t cls) {
    switch (cls) {
      case 0:  // uniform bit patterns
        return {bits32(), bits32()};
      case 1: {  // close exponents, often opposite signs, sometimes nearly equal fractions
        const uint32_t a = make(sign(), below(255), bits32());
        const int e = static_cast<int>((a >> 23) & 0xFF) + static_cast<int>(below(7)) - 3;
        uint32_t frac = below(4) == 0 ? (a + below(64) - 32) : bits32();
        const uint32_t b = make(below(4) == 0 ? (a >> 31) : !(a >> 31), clamp_exp(e), frac);
        return {a, b};
      }
      case 2: {  // subnormal and small normal operands
        const uint32_t a = make(sign(), below(3), bits32());
        const uint32_t b = make(sign(), below(3), bits32());
        return {a, b};
      }
      case 3: {  // large values, mostly the same sign: overflow
        const uint32_t s = sign();
        return {make(s, 250 + below(5), bits32()),
                make(below(8) == 0 ? !s : s, 250 + below(5), bits32())};
      }
      case 4: {  // ties: b an odd number of half ulps of a
        const uint32_t e = 2 + below(252);
        const uint32_t a = make(sign(), e, bits32());
        const int width = 1 + static_cast<int>(below(24));
        const uint32_t big_b = (bits32() & ((1u << width) - 1)) | 1u;
        const uint32_t b =
            to_bits(std::ldexp(static_cast<float>(big_b), static_cast<int>(e) - 151));
        return {a, b | (sign() ? kSign : 0u)};
      }
      case 5: {  // fraction all ones (or nearly) plus about an ulp: carry into the exponent
        const uint32_t s = sign();
        const uint32_t e = below(254);
        const uint32_t a = make(s, e, 0x7FFFFFu - below(4));
        return {a,
                make(below(8) == 0 ? !s : s,
                     clamp_exp(static_cast<int>(e) - 25 + static_cast<int>(below(5))), bits32())};
      }
      case 6: {  // max finite (or near it) plus ulp-level values: rounding to inf
        const uint32_t s = sign();
        const uint32_t a = make(s, 254, 0x7FFFFFu - below(8));
        return {a, make(below(8) == 0 ? !s : s, 254 - 26 + below(6), bits32())};
      }
      case 7: {  // x + (-x), and x + (-x +- a few ulps)
        const uint32_t a = below(4) == 0 ? (bits32() & 0x807FFFFFu) : bits32();
        const uint32_t b = (a ^ kSign) + (below(2) ? 0u : below(9) - 4);
        return {a, b};
      }
      default: {  // a corner value with a random operand
        const auto& corners = corner_values();
        const uint32_t c = corners[below(static_cast<uint32_t>(corners.size()))];
        const uint32_t r = below(2) ? bits32() : (bits32() & 0x807FFFFFu);
        return below(2) ? std::array<uint32_t, 2>{c, r} : std::array<uint32_t, 2>{r, c};
      }
    }
  }
};

constexpr uint32_t kClasses = 9;
const char* const kClassNames[kClasses] = {
    "uniform",        "close exponents", "subnormal",    "overflow",       "tie",
    "rounding carry", "to inf",          "cancellation", "corner + random"};

uint64_t pair_count(uint64_t fallback) {
  const char* env = std::getenv("MT_FP32_PAIRS");
  return env != nullptr && *env != '\0' ? std::strtoull(env, nullptr, 10) : fallback;
}

TEST(Fp32AdderRandom, TenMillionPairs) {
  const uint64_t pairs = pair_count(10'000'000);
  Adder adder;
  Checker checker(adder);
  PairGenerator gen(0x5EED'F32AULL);
  std::array<uint64_t, kClasses> per_class{};
  uint64_t subnormal_results = 0, inf_results = 0, nan_results = 0, zero_results = 0;
  for (uint64_t i = 0; i < pairs; ++i) {
    const auto cls = static_cast<uint32_t>(i % kClasses);
    const auto [a, b] = gen.next(cls);
    checker.check(a, b, kClassNames[cls]);
    ++per_class[cls];
    const uint32_t s = want_sum(a, b) & 0x7FFFFFFFu;
    subnormal_results += s != 0 && s < kMinNormal;
    zero_results += s == 0;
    inf_results += s == kPosInf;
    nan_results += s == kCanonicalNan;
  }
  EXPECT_EQ(checker.pairs(), pairs);
  // Each hard class is hit often, not by luck.
  if (pairs >= 1'000'000) {
    EXPECT_GT(subnormal_results, pairs / 100);
    EXPECT_GT(zero_results, pairs / 100);
    EXPECT_GT(inf_results, pairs / 100);
    EXPECT_GT(nan_results, pairs / 100);
  }
  std::ostringstream os;
  os << pairs << " pairs (subnormal sums " << subnormal_results << ", zero " << zero_results
     << ", inf " << inf_results << ", NaN " << nan_results << ")";
  RecordProperty("pairs", os.str());
  std::cout << "[ fp32     ] " << os.str() << '\n';
}

}  // namespace
}  // namespace mt::tb
