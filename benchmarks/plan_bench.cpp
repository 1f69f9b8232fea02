// Planning + verifying MultiTree on square tori (issue target: 32x32 < 1 s, 64x64 < 10 s on
// one core). Run: build/bin/plan_bench --benchmark_repetitions=3
#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include "algorithms/algorithms.hpp"
#include "verifier/verifier.hpp"

namespace {

// Peak resident memory of the process so far (sizes run in ascending order, so each row's
// value is the peak of the largest plan yet).
double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void BM_MultiTreePlanVerify(benchmark::State& state) {
  const auto side = static_cast<uint32_t>(state.range(0));
  const mt::Topology topo = mt::make_torus(side, side);
  mt::PlanOptions opt;
  opt.bytes = 1 << 20;
  size_t transfers = 0;
  for (auto _ : state) {
    const mt::Plan plan = mt::build_multitree(topo, opt);
    const mt::VerifyReport report = mt::verify_plan(plan, topo);
    if (!report.ok()) state.SkipWithError(report.errors.front().c_str());
    transfers = plan.transfers.size();
    benchmark::DoNotOptimize(report.steps_per_phase);
  }
  state.counters["nodes"] = static_cast<double>(side * side);
  state.counters["transfers"] = static_cast<double>(transfers);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.counters["rss_B_per_transfer"] = peak_rss_mib() * 1024 * 1024 / static_cast<double>(transfers);
}

void BM_MultiTreePlanOnly(benchmark::State& state) {
  const auto side = static_cast<uint32_t>(state.range(0));
  const mt::Topology topo = mt::make_torus(side, side);
  mt::PlanOptions opt;
  for (auto _ : state) benchmark::DoNotOptimize(mt::build_multitree(topo, opt).transfers.size());
}

}  // namespace

BENCHMARK(BM_MultiTreePlanVerify)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_MultiTreePlanOnly)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_MAIN();
