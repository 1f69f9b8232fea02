// sc_main of the SystemC benchmarks: SystemC owns main, Google Benchmark runs inside sc_main.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include <systemc>

int sc_main(int argc, char* argv[]) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// SystemC owns main (sc_main above); this only keeps its banner out of the report.
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
