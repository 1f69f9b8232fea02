// The NetReduce appendix's alpha-beta models (host_sw/cost_model/netreduce.hpp) against values
// worked by hand, their printed differences (Eqs. (4)-(6)) against the models, and mtc model
// as a user runs it. The defaults are P = 32, n = 8 (the seed's testbed), M = 100 MB,
// B_intra = 150 GB/s, B_inter = 12.5 GB/s, alpha = 10 us; then M / B_intra = 666.667 us and
// M / B_inter = 8000 us.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "cost_model/netreduce.hpp"
#include "support/run_command.hpp"

namespace mt {
namespace {

using ::testing::HasSubstr;

constexpr double kUs = 1e-6;
constexpr double kTol = 1e-3 * kUs;  // a nanosecond

test::CommandResult mtc(const std::string& args) {
  return test::run_command(std::string(MTC_EXE) + " model " + args);
}

TEST(NetReduceModels, HandWorkedAtTheSeedsTestbed) {
  const AlphaBetaParams p;
  // Eq. (1): 2 * 31 * 10 us + 2 * 31 / 32 * 8000 us = 620 + 15500.
  EXPECT_NEAR(t_flat_ring(p), 16120 * kUs, kTol);
  // Eq. (3): 15 * 10 us + 2 * 7 / 8 * 666.667 us + 8000 us = 150 + 1166.667 + 8000.
  EXPECT_NEAR(t_netreduce_hier(p), (150 + 3500.0 / 3 + 8000) * kUs, kTol);
  // Eq. (2), closed form: (64 + 72 - 24 + 64) / 8 = 22 alphas, 4 * 7 / 8 = 3.5 M / B_intra,
  // 2 * 24 / 32 = 1.5 M / B_inter: 220 + 2333.333 + 12000.
  EXPECT_NEAR(t_tencent(p), (220 + 7000.0 / 3 + 12000) * kUs, kTol);
  // Appendix A: 10 us + 8000 us.
  EXPECT_NEAR(t_ina(p), 8010 * kUs, kTol);
}

TEST(NetReduceModels, Eq2BracketsDifferFromItsClosedFormInTheIntraTerm) {
  // The first bracket has 2 (n - 1) / n * M / (n B_intra); the closed form's intra term,
  // 4 (n - 1) / n * M / B_intra, has 2 (n - 1) / n there. The alpha terms agree (3 log2 n +
  // 2 P / n + n - 3 both), so the difference is 2 (n - 1)^2 / n^2 * M / B_intra.
  for (int64_t n : {2, 4, 8, 16}) {
    AlphaBetaParams p;
    p.per_machine = n;
    p.learners = 4 * n;
    const double nn = static_cast<double>(n);
    const double want = 2 * (nn - 1) * (nn - 1) / (nn * nn) * p.bytes / p.b_intra;
    EXPECT_NEAR(t_tencent(p) - t_tencent_brackets(p), want, kTol) << "n = " << n;
    EXPECT_GT(want, 0);
  }
}

TEST(NetReduceModels, Eqs4And5AreTheDifferencesOfTheModels) {
  for (int64_t n : {2, 4, 8}) {
    for (int64_t machines : {2, 4, 64}) {
      for (double b_intra : {15.75e9, 50e9, 150e9}) {
        AlphaBetaParams p;
        p.per_machine = n;
        p.learners = n * machines;
        p.b_intra = b_intra;
        p.alpha = 3e-6;
        EXPECT_NEAR(dt_ring_netreduce(p), t_flat_ring(p) - t_netreduce_hier(p), kTol);
        EXPECT_NEAR(dt_tencent_netreduce(p), t_tencent(p) - t_netreduce_hier(p), kTol);
      }
    }
  }
}

TEST(NetReduceModels, TheP4BandwidthRatioIsTablesTenAndElevens) {
  // One learner per machine on 4 machines, alpha 0: the ring moves 2 (P - 1) / P = 1.5 M,
  // in-network aggregation M. 1 - 1 / 1.5 = 33.3% less communication; Table 11 measures
  // (47.12 - 31.10) / 47.12 = 34.0% (AlexNet) and (111.98 - 74.64) / 111.98 = 33.3% (VGG-16).
  AlphaBetaParams p;
  p.learners = 4;
  p.per_machine = 1;
  p.alpha = 0;
  p.b_intra = p.b_inter;
  EXPECT_NEAR(t_flat_ring(p) / t_ina(p), 1.5, 1e-12);
  const double saving = 1 - t_ina(p) / t_flat_ring(p);
  EXPECT_NEAR(saving, (47.12 - 31.10) / 47.12, 0.01);
  EXPECT_NEAR(saving, (111.98 - 74.64) / 111.98, 0.001);
  // The seed's remark after Eq. (3): at n = 1, B_intra = B_inter it is alpha + M / B.
  p.alpha = 5e-6;
  EXPECT_NEAR(t_netreduce_hier(p), t_ina(p), kTol);
}

TEST(NetReduceModels, Eq5ChangesSignAtItsExactRatioAndEq6IsSufficient) {
  AlphaBetaParams p;  // P = 32, n = 8
  EXPECT_NEAR(eq6_ratio(32), 64.0 / 30, 1e-12);                          // 2.133, not 2.3
  EXPECT_NEAR(eq5_exact_ratio(32, 8), 2.0 * 7 * 32 / (8 * 30), 1e-12);  // 1.867
  const double r0 = eq5_exact_ratio(32, 8);
  p.b_intra = r0 * p.b_inter;
  EXPECT_NEAR(dt_ring_netreduce_per_byte(p) * p.b_inter, 0, 1e-12);
  p.b_intra = 0.99 * r0 * p.b_inter;
  EXPECT_LT(dt_ring_netreduce_per_byte(p), 0);
  p.alpha = 0;
  EXPECT_LT(dt_ring_netreduce(p), 0);  // the flat ring is faster below the ratio
  p.b_intra = 1.01 * r0 * p.b_inter;
  EXPECT_GT(dt_ring_netreduce_per_byte(p), 0);
  // At 2P / (P - 2) hierarchical NetReduce is faster at every size, alpha 0 included.
  for (int64_t P : {4, 8, 32, 2048}) {
    for (int64_t n : {2, 4}) {
      if (P <= n || P % n) continue;
      AlphaBetaParams q;
      q.learners = P;
      q.per_machine = n;
      q.alpha = 0;
      q.b_intra = eq6_ratio(P) * q.b_inter;
      EXPECT_GT(dt_ring_netreduce(q), 0) << "P = " << P << ", n = " << n;
    }
  }
}

TEST(NetReduceModels, BadParametersAreNamed) {
  const auto refused = [](auto change, const std::string& what) {
    AlphaBetaParams p;
    change(p);
    try {
      check_alpha_beta(p);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(what));
    }
  };
  refused([](AlphaBetaParams& p) { p.learners = 30; }, "not a multiple of n");
  refused([](AlphaBetaParams& p) { p.learners = 1; }, "at least 2");
  refused([](AlphaBetaParams& p) { p.per_machine = 0; }, "n (learners per machine) 0");
  refused([](AlphaBetaParams& p) { p.per_machine = 32; }, "must be 1 to P / 2 = 16");
  refused([](AlphaBetaParams& p) { p.b_intra = 0; }, "B_intra");
  refused([](AlphaBetaParams& p) { p.b_inter = -1e9; }, "B_inter (inter-machine bandwidth) -1 GB/s");
  refused([](AlphaBetaParams& p) { p.alpha = -1e-6; }, "alpha");
  refused([](AlphaBetaParams& p) { p.bytes = 0; }, "M (message size)");
  EXPECT_NO_THROW(check_alpha_beta(AlphaBetaParams{}));
}

TEST(MtcModel, TextAtTheDefaults) {
  const test::CommandResult r = mtc("");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("P = 32 learners, n = 8 per machine (4 machines)"));
  EXPECT_THAT(r.out, HasSubstr("16120.00 us"));   // Eq. (1), worked above
  EXPECT_THAT(r.out, HasSubstr("9316.67 us"));    // Eq. (3)
  EXPECT_THAT(r.out, HasSubstr("14553.33 us"));   // Eq. (2)
  EXPECT_THAT(r.out, HasSubstr("13532.50 us"));   // Eq. (2)'s brackets: 1020.83 us less
  EXPECT_THAT(r.out, HasSubstr("8010.00 us"));    // Appendix A
  EXPECT_THAT(r.out, HasSubstr("2P/(P-2) = 2.133"));
  EXPECT_THAT(r.out, HasSubstr("2(n-1)P/(n(P-2)) = 1.867"));
}

TEST(MtcModel, JsonAndOptions) {
  const test::CommandResult r =
      mtc("-P 24 -n 6 -b 1MB --b-intra 15.75 --b-inter 12.5 --alpha 0 --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["learners"], 24);
  EXPECT_EQ(j["per_machine"], 6);
  // Eq. (1) at alpha 0: 2 * 23 / 24 * 1e6 / 12.5e9 s = 153.333 us.
  EXPECT_NEAR(j["models"]["flat_ring"]["microseconds"].get<double>(), 46.0 / 24 * 80, 1e-6);
  EXPECT_TRUE(j["models"]["tencent"]["microseconds"].is_null());  // n = 6: no power of 2
  // 15.75 / 12.5 = 1.26 < 2 * 5 * 24 / (6 * 22) = 1.818: Eq. (5) is negative.
  EXPECT_EQ(j["eq6"]["eq6_holds"], false);
  EXPECT_LT(j["eq6"]["eq5_microseconds"].get<double>(), 0);
}

TEST(MtcModel, BadInputExitsOneNamingTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"-P 30 -n 8", "P (learners) 30 is not a multiple of n (learners per machine) 8"},
      {"-n 0", "n (learners per machine) 0"},
      {"--b-intra 0", "B_intra (intra-machine bandwidth) 0 GB/s"},
      {"--b-inter -12.5", "B_inter (inter-machine bandwidth) -12.5 GB/s"},
      {"--alpha -1", "alpha (latency per message) -1 us"},
      {"-b 0", "size \"0\": must be greater than zero"},
      {"-P 8 -n 8", "n (learners per machine) 8: must be 1 to P / 2 = 4"},
      {"-b 1XB", "unknown unit"},
      {"--format xml", "--format \"xml\": must be text or json"},
      {"--b-intra 1e-320", "Tencent hierarchical (Eq. (2)) exceeds what a double holds"},
  };
  for (const auto& [args, what] : cases) {
    const test::CommandResult r = mtc(args);
    EXPECT_EQ(r.code, 1) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(what)) << args;
  }
}

}  // namespace
}  // namespace mt
