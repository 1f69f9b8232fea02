// Speed of the end-to-end all-reduce simulation (issue targets, one core: torus:4x4 1 MiB
// MultiTree < 2 s wall, torus:8x8 1 MiB < 20 s, peak memory < 2 GiB). Run: build/bin/mtsim_bench
//
// Each iteration runs one whole mtsim simulation (plan, verify, compile, load the NIs, simulate,
// check every sum) in a forked child (SystemC elaborates once per process) and reports the
// child's wall time for all of it.
//   sim_cycles     cycles the all-reduce took
//   cycles/s       simulated cycles per wall-second
//   peak_MiB       the child's peak resident memory
#include <benchmark/benchmark.h>

#include <algorithm>
#include <exception>

#include "timed_allreduce.hpp"

namespace {

void run(benchmark::State& state, const char* topology, const char* algorithm) {
  mt::noc::AllReduceOptions o;
  o.topology = topology;
  o.algorithm = algorithm;
  o.bytes = 1u << 20;
  double wall = 0, cycles = 0, peak = 0;
  for (auto _ : state) {
    mt::bench::TimedRun t;
    try {
      t = mt::bench::timed_allreduce(o);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
    state.SetIterationTime(t.wall_s);
    wall += t.wall_s;
    cycles = static_cast<double>(t.cycles);
    peak = std::max(peak, t.peak_mib);
  }
  state.counters["sim_cycles"] = cycles;
  state.counters["cycles/s"] = cycles * static_cast<double>(state.iterations()) / wall;
  state.counters["peak_MiB"] = peak;
}

void BM_Torus4x4_1MiB_MultiTree(benchmark::State& s) { run(s, "torus:4x4", "multitree"); }
void BM_Torus4x4_1MiB_Ring(benchmark::State& s) { run(s, "torus:4x4", "ring"); }
void BM_Torus8x8_1MiB_MultiTree(benchmark::State& s) { run(s, "torus:8x8", "multitree"); }
void BM_Torus8x8_1MiB_Ring(benchmark::State& s) { run(s, "torus:8x8", "ring"); }

}  // namespace

BENCHMARK(BM_Torus4x4_1MiB_MultiTree)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Torus4x4_1MiB_Ring)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Torus8x8_1MiB_MultiTree)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Torus8x8_1MiB_Ring)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
