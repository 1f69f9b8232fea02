// Co-simulation speed: the same all-reduce with the Verilated RTL NI at every node (mtsim --rtl)
// and with the SystemC NI, one core, measured as a ratio in one run (issue target: the
// co-simulation at most 3 times the SystemC model's wall time). Run: build/bin/cosim_bench
//
// Each iteration runs both simulations one after the other, each in a forked child, and checks
// that they took the same cycles. Reported (medians over the iterations):
//   systemc_s, rtl_s   wall time of run_allreduce (plan, load, simulate, check every sum)
//   rtl/systemc        their ratio
//   sim_cycles         cycles the all-reduce took
// The benchmark's own time is the co-simulation's.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "rtl_network_interface.hpp"
#include "timed_allreduce.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void run(benchmark::State& state, const char* topology) {
  mt::noc::AllReduceOptions systemc;
  systemc.topology = topology;
  systemc.algorithm = "multitree";
  systemc.bytes = 1u << 20;
  mt::noc::AllReduceOptions rtl = systemc;
  rtl.rtl_all = true;
  rtl.rtl_ni = mt::cosim::build_rtl_ni;
  std::vector<double> sc_s, rtl_s, ratio;
  uint64_t cycles = 0;
  for (auto _ : state) {
    try {
      const mt::bench::TimedRun a = mt::bench::timed_allreduce(systemc);
      const mt::bench::TimedRun b = mt::bench::timed_allreduce(rtl);
      if (a.cycles != b.cycles) {
        state.SkipWithError(("cycles differ: " + std::to_string(a.cycles) + " SystemC, " +
                             std::to_string(b.cycles) + " RTL").c_str());
        return;
      }
      cycles = a.cycles;
      sc_s.push_back(a.wall_s);
      rtl_s.push_back(b.wall_s);
      ratio.push_back(b.wall_s / a.wall_s);
      state.SetIterationTime(b.wall_s);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
  }
  state.counters["systemc_s"] = median(sc_s);
  state.counters["rtl_s"] = median(rtl_s);
  state.counters["rtl/systemc"] = median(ratio);
  state.counters["sim_cycles"] = static_cast<double>(cycles);
}

void BM_Torus4x4_1MiB_MultiTree(benchmark::State& s) { run(s, "torus:4x4"); }
void BM_Torus8x8_1MiB_MultiTree(benchmark::State& s) { run(s, "torus:8x8"); }

}  // namespace

BENCHMARK(BM_Torus4x4_1MiB_MultiTree)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Torus8x8_1MiB_MultiTree)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
