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
#include <sys/resource.h>

#include <chrono>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "allreduce/allreduce_sim.hpp"
#include "traffic/child_process.hpp"

namespace {

void run(benchmark::State& state, const char* topology, const char* algorithm) {
  mt::noc::AllReduceOptions o;
  o.topology = topology;
  o.algorithm = algorithm;
  o.bytes = 1u << 20;
  double wall = 0, cycles = 0, peak = 0;
  for (auto _ : state) {
    const auto results = mt::noc::run_in_children({[&o] {
      const auto t0 = std::chrono::steady_clock::now();
      const mt::noc::AllReduceResult r = mt::noc::run_allreduce(o);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!r.verified) throw std::runtime_error(r.error);
      rusage u{};
      getrusage(RUSAGE_SELF, &u);
      return nlohmann::json{{"wall", s}, {"cycles", r.cycles}, {"maxrss_kib", u.ru_maxrss}}.dump();
    }});
    if (!results[0].ok()) {
      state.SkipWithError(results[0].text.c_str());
      return;
    }
    const nlohmann::json j = nlohmann::json::parse(results[0].text);
    state.SetIterationTime(j.at("wall").get<double>());
    wall += j.at("wall").get<double>();
    cycles = j.at("cycles").get<double>();
    peak = std::max(peak, j.at("maxrss_kib").get<double>() / 1024.0);
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
