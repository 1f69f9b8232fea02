// The reduction unit's int32 and fp32 element-wise sums, and the reduction sequencer's timing
// contract at the top of ni/reduction_sequencer.hpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/words.hpp"
#include <systemc>

#include "common/error.hpp"
#include "ni/reduction_sequencer.hpp"
#include "ni/reduction_unit.hpp"
#include "sim_test_util.hpp"

namespace mt::noc {
namespace {

using mt::test::float_bits;
using mt::test::le_bytes;
using mt::test::le_words;

using ::testing::HasSubstr;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }



float from_bits(uint32_t b) {
  float f = 0;
  std::memcpy(&f, &b, 4);
  return f;
}

uint32_t u(int32_t v) { return static_cast<uint32_t>(v); }

using NiReductionUnitTest = test::SimTest;

TEST_F(NiReductionUnitTest, Int32WrapsAround) {
  ReductionUnit unit("reduction", DType::kInt32);
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  std::vector<uint8_t> acc = le_bytes({u(kMax), u(kMin), u(-1), u(-5), 0xffffffffu, 123, 0xffu});
  const std::vector<uint8_t> src = le_bytes({1, u(-1), u(-1), 3, 1, u(-123), 1});
  unit.add(acc.data(), src.data(), acc.size());
  // The last pair carries out of the lowest byte into the next one: little-endian layout.
  EXPECT_EQ(le_words(acc),
            (std::vector<uint32_t>{u(kMin), u(kMax), u(-2), u(-2), 0, 0, 0x100u}));
  EXPECT_EQ(acc[24], 0x00);
  EXPECT_EQ(acc[25], 0x01);
}

TEST_F(NiReductionUnitTest, Fp32SumsAreSingleIeeeAdditions) {
  ReductionUnit unit("reduction", DType::kFp32);
  const float inf = std::numeric_limits<float>::infinity();
  const float tiny = std::numeric_limits<float>::denorm_min();
  const std::vector<float> a = {1.5f, -0.5f, 1e30f, 16777216.0f, 16777216.0f, -0.0f, inf,
                                tiny, 0.1f};
  const std::vector<float> b = {2.25f, 0.5f, -1e30f, 1.0f, 3.0f, -0.0f, 1.0f, tiny, 0.2f};
  std::vector<uint32_t> aw, bw;
  for (float f : a) aw.push_back(float_bits(f));
  for (float f : b) bw.push_back(float_bits(f));
  std::vector<uint8_t> acc = le_bytes(aw);
  const std::vector<uint8_t> src = le_bytes(bw);
  unit.add(acc.data(), src.data(), acc.size());
  const std::vector<uint32_t> got = le_words(acc);
  ASSERT_EQ(got.size(), a.size());
  // Exact sums, written out...
  EXPECT_EQ(from_bits(got[0]), 3.75f);
  EXPECT_EQ(got[1], float_bits(0.0f)) << "x + (-x) is +0";
  EXPECT_EQ(got[2], float_bits(0.0f));
  EXPECT_EQ(from_bits(got[3]), 16777216.0f) << "2^24 + 1 rounds to even, down";
  EXPECT_EQ(from_bits(got[4]), 16777220.0f) << "2^24 + 3 rounds to even, up";
  EXPECT_EQ(got[5], float_bits(-0.0f)) << "-0 + -0 keeps its sign";
  EXPECT_EQ(from_bits(got[6]), inf);
  EXPECT_EQ(from_bits(got[7]), 2 * tiny) << "subnormals are not flushed";
  // ...and every one bit-identical to the same single-precision addition here.
  for (size_t i = 0; i < a.size(); ++i) {
    volatile float x = a[i], y = b[i];  // no constant folding in another precision
    EXPECT_EQ(got[i], float_bits(x + y)) << "element " << i;
  }
}

TEST_F(NiReductionUnitTest, Fp32NanSumsAreTheCanonicalNan) {
  ReductionUnit unit("reduction", DType::kFp32);
  const float inf = std::numeric_limits<float>::infinity();
  // inf + -inf (x86: 0xFFC00000), quiet NaNs of both signs with and without payload,
  // signalling NaNs of both signs, NaN + NaN, NaN + inf: every sum is 0x7FC00000.
  const std::vector<std::pair<uint32_t, uint32_t>> pairs = {
      {float_bits(inf), float_bits(-inf)},     {float_bits(-inf), float_bits(inf)},    {float_bits(std::nanf("")), float_bits(1.0f)},
      {0xFFC00000u, float_bits(1.0f)},   {0x7FC12345u, 0u},          {float_bits(2.0f), 0xFFC00001u},
      {0x7F800001u, float_bits(1.0f)},   {0xFFBFFFFFu, 0x80000000u}, {0x7FA00000u, 0xFFFFFFFFu},
      {0xFFFFFFFFu, float_bits(inf)},    {float_bits(-inf), 0x7F800001u}};
  std::vector<uint32_t> aw, bw;
  for (const auto& [x, y] : pairs) {
    aw.push_back(x);
    bw.push_back(y);
  }
  std::vector<uint8_t> acc = le_bytes(aw);
  const std::vector<uint8_t> src = le_bytes(bw);
  unit.add(acc.data(), src.data(), acc.size());
  const std::vector<uint32_t> got = le_words(acc);
  ASSERT_EQ(got.size(), pairs.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], kCanonicalNan) << fmt::format("element {}: {:#010x} + {:#010x} = {:#010x}",
                                                    i, pairs[i].first, pairs[i].second, got[i]);
    EXPECT_TRUE(std::isnan(from_bits(got[i])));
  }
  EXPECT_EQ(kCanonicalNan, 0x7FC00000u) << "the RTL adder's NaN (rtl/fp32_adder.sv)";
}

TEST_F(NiReductionUnitTest, UnalignedAndAliasedBuffers) {
  ReductionUnit unit("reduction", DType::kInt32);
  // acc one byte into its buffer: no alignment is assumed.
  const std::vector<uint8_t> elems = le_bytes({7, 1000, u(-3)});
  std::vector<uint8_t> buf(elems.size() + 1, 0xee);
  std::copy(elems.begin(), elems.end(), buf.begin() + 1);
  unit.add(buf.data() + 1, elems.data(), elems.size());
  EXPECT_EQ(buf[0], 0xee) << "nothing outside the range is touched";
  EXPECT_EQ(le_words(std::vector<uint8_t>(buf.begin() + 1, buf.end())),
            (std::vector<uint32_t>{14, 2000, u(-6)}));
  // acc == src doubles every element.
  std::vector<uint8_t> same = le_bytes({5, u(-9)});
  unit.add(same.data(), same.data(), same.size());
  EXPECT_EQ(le_words(same), (std::vector<uint32_t>{10, u(-18)}));

  // fp32 likewise, over more elements than the four added at once (and a rest of one).
  ReductionUnit fp("reduction_fp32", DType::kFp32);
  const std::vector<float> f = {1.5f, -2.0f, 3.25f, 0.5f, 8.0f};
  std::vector<uint32_t> fw, doubled;
  for (float x : f) {
    fw.push_back(float_bits(x));
    doubled.push_back(float_bits(2 * x));
  }
  const std::vector<uint8_t> fe = le_bytes(fw);
  std::vector<uint8_t> fbuf(fe.size() + 1, 0xee);
  std::copy(fe.begin(), fe.end(), fbuf.begin() + 1);
  fp.add(fbuf.data() + 1, fe.data(), fe.size());
  EXPECT_EQ(fbuf[0], 0xee);
  EXPECT_EQ(le_words(std::vector<uint8_t>(fbuf.begin() + 1, fbuf.end())), doubled);
  std::vector<uint8_t> fsame = fe;
  fp.add(fsame.data(), fsame.data(), fsame.size());
  EXPECT_EQ(le_words(fsame), doubled);
}

TEST_F(NiReductionUnitTest, BlocksAreSerialisedInAdmissionOrder) {
  ReductionConfig cfg;
  cfg.elements_per_cycle = 16;
  cfg.latency = 4;
  ReductionSequencer seq("sequencer", cfg);
  auto block = [&](uint64_t elems, uint64_t ready) { return seq.admit(elems * 4, ready); };
  // A: 100 elements ready at 10 -> in the pipeline [10, 10 + ceil(100 / 16)).
  const uint64_t free_a = 10 + ceil_div(100, 16);
  EXPECT_EQ(block(100, 10), free_a + cfg.latency);
  EXPECT_EQ(seq.free_cycle(), free_a);
  // B: ready at 12, but waits for A's last elements to enter.
  const uint64_t free_b = free_a + ceil_div(16, 16);
  EXPECT_EQ(block(16, 12), free_b + cfg.latency);
  // C: ready before B was, still after B (admission order), one partial cycle.
  const uint64_t free_c = free_b + ceil_div(1, 16);
  EXPECT_EQ(block(1, 0), free_c + cfg.latency);
  // D: ready long after; the pipeline is idle, so it starts when ready.
  EXPECT_EQ(block(33, 100), 100 + ceil_div(33, 16) + cfg.latency);
  // E: no elements: no pipeline cycle, but its turn and the latency.
  const uint64_t free_d = 100 + ceil_div(33, 16);
  EXPECT_EQ(block(0, 50), free_d + cfg.latency);
  EXPECT_EQ(seq.free_cycle(), free_d);

  EXPECT_EQ(seq.elements(), 100u + 16 + 1 + 33);
  EXPECT_EQ(seq.busy_cycles(), ceil_div(100, 16) + 1 + 1 + ceil_div(33, 16));
}

TEST_F(NiReductionUnitTest, LatencyAndWidthComeFromTheConfiguration) {
  for (const auto& [width, latency] : std::vector<std::pair<uint32_t, uint32_t>>{
           {1, 0}, {4, 9}, {16, 4}, {64, 1}}) {
    ReductionConfig cfg;
    cfg.elements_per_cycle = width;
    cfg.latency = latency;
    ReductionSequencer seq(fmt::format("sequencer_{}_{}", width, latency).c_str(), cfg);
    EXPECT_EQ(seq.admit(40 * 4, 7), 7 + ceil_div(40, width) + latency)
        << width << " wide, " << latency << " deep";
    EXPECT_EQ(seq.busy_cycles(), ceil_div(40, width));
  }
}

// The sums do not depend on how a block is cut: added in pieces (the middle one unaligned),
// they are those of one addition.
TEST_F(NiReductionUnitTest, SumsAddedInPiecesAreTheWholeSum) {
  for (const DType dtype : {DType::kInt32, DType::kFp32}) {
    ReductionUnit unit("unit", dtype);
    std::vector<uint8_t> once(36 * 4), pieces(once.size()), src(once.size());
    for (size_t i = 0; i < once.size(); ++i) {
      once[i] = pieces[i] = static_cast<uint8_t>(i * 7 + 3);
      src[i] = static_cast<uint8_t>(i * 13 + 1);
    }
    unit.add(once.data(), src.data(), 144);
    unit.add(pieces.data(), src.data(), 20);
    unit.add(pieces.data() + 20, src.data() + 20, 100);
    unit.add(pieces.data() + 120, src.data() + 120, 24);
    EXPECT_EQ(pieces, once);
  }
}

TEST_F(NiReductionUnitTest, PartialElementsAreRejectedAndChangeNothing) {
  ReductionUnit unit("reduction", DType::kInt32);
  ReductionSequencer seq("sequencer", ReductionConfig{});
  std::vector<uint8_t> acc = le_bytes({1, 2}), src = le_bytes({10, 20});
  const std::vector<uint8_t> before = acc;
  unit.add(acc.data(), src.data(), 4);
  seq.admit(4, 3);  // one element, so the sequencer has state
  const std::vector<uint8_t> after_one = acc;
  const uint64_t free = seq.free_cycle();
  for (uint64_t bytes : {1u, 2u, 3u, 5u, 6u, 7u}) {
    try {
      unit.add(acc.data(), src.data(), bytes);
      FAIL() << bytes << " bytes accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(fmt::format("{} bytes", bytes)));
    }
    EXPECT_THROW(seq.admit(bytes, 0), InputError) << bytes << " bytes";
  }
  EXPECT_NE(after_one, before);
  EXPECT_EQ(acc, after_one);
  EXPECT_EQ(seq.free_cycle(), free);
  EXPECT_EQ(seq.elements(), 1u);
}

TEST_F(NiReductionUnitTest, ConfigurationErrorsNameTheField) {
  ReductionConfig cfg;
  cfg.elements_per_cycle = 0;
  try {
    cfg.validate();
    FAIL() << "elements_per_cycle 0 accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("elements_per_cycle"));
  }
  EXPECT_THROW(ReductionSequencer("zero_width", cfg), InputError);
  cfg = ReductionConfig{};
  cfg.latency = 0;  // a combinational adder is allowed
  EXPECT_NO_THROW(cfg.validate());
  EXPECT_THROW(ReductionUnit("bad_type", static_cast<DType>(7)), InputError);
}

}  // namespace
}  // namespace mt::noc
