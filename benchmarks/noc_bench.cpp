// Simulation speed of the SystemC network (issue targets, one core: >= 2M router-cycles per
// wall-second at 0.1 flits/node/cycle of uniform traffic on torus:8x8; idle >= 20x faster than
// loaded). Run: build/bin/noc_bench
//
// Each iteration simulates 20000 cycles of a fresh torus:8x8 in a forked child (SystemC
// elaborates once per process) and reports the child's sc_start wall time as the iteration
// time, so forking and elaboration are not counted (elaboration is reported on its own).
//   router_cycles/s     Network::router_cycles() / wall: pipeline evaluations actually done
//                       (idle skipping leaves quiet routers out)
//   router_cycles_eq/s  routers * cycles / wall: the speed of a simulator that evaluated every
//                       router every cycle and reached the same wall time
//   evaluated           router_cycles / (routers * cycles)
#include <benchmark/benchmark.h>

#include <cstdlib>

#include <systemc>

#include "traffic/experiment.hpp"

namespace {

constexpr uint64_t kCycles = 20000;

void BM_NocTorus8x8Uniform(benchmark::State& state) {
  mt::noc::TrafficConfig cfg;
  cfg.topology = "torus:8x8";
  cfg.rate = static_cast<double>(state.range(0)) / 1000.0;
  cfg.packet_flits = 4;
  cfg.warmup = 0;
  cfg.measure = kCycles;
  cfg.drain_timeout = 0;
  double sim = 0.0, elab = 0.0, router_cycles = 0.0, equivalent = 0.0, flits = 0.0;
  for (auto _ : state) {
    const mt::noc::RunStats s = mt::noc::run_traffic_isolated(cfg);
    state.SetIterationTime(s.simulation_seconds);
    sim += s.simulation_seconds;
    elab += s.elaboration_seconds;
    router_cycles += static_cast<double>(s.router_cycles);
    equivalent += static_cast<double>(s.routers) * static_cast<double>(s.cycles);
    flits += s.accepted * static_cast<double>(s.routers) * static_cast<double>(kCycles);
  }
  state.counters["router_cycles/s"] = router_cycles / sim;
  state.counters["router_cycles_eq/s"] = equivalent / sim;
  state.counters["evaluated"] = router_cycles / equivalent;
  state.counters["flits_ejected/s"] = flits / sim;
  state.counters["elab_ms"] = 1000.0 * elab / static_cast<double>(state.iterations());
}

}  // namespace

BENCHMARK(BM_NocTorus8x8Uniform)
    ->ArgName("rate_permille")
    ->Arg(0)
    ->Arg(100)
    ->Arg(300)
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
