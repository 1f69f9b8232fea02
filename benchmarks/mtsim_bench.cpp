// Speed of the end-to-end all-reduce simulation (issue 15: MultiTree message-based and ring on
// torus 4x4, 8x8 and 16x16 at 1 MiB, and the paper's Fig. 10 point). Run:
//   build/bin/mtsim_bench
//   MTSIM_BASELINE=old/bin/mtsim build/bin/mtsim_bench     # ratios against an older build
//   MTSIM_BENCH_FIG10=1 build/bin/mtsim_bench --benchmark_filter=fig10
//
// Each iteration runs mtsim as a user does (plan, verify, compile, load the NIs, simulate,
// check every sum) in a child process with --json, and times the whole child. Reported:
//   sim_cycles     cycles the all-reduce took
//   cycles/s       simulated cycles per wall-second
//   flit_hops/s    flit-hops per wall-second. A flit-hop is one flit crossing one link between
//                  two routers: the sum of `flits` over the JSON's `links` (every router output
//                  port toward another router). Injection (NI to router) and ejection (router
//                  to NI) are not counted; in MultiTree and the rings every transfer is one hop
//                  between neighbours, so there it equals the flits injected.
//   peak_MiB       the child's peak resident memory
//   cpu_s          the child's user + system time (steadier than wall on a loaded machine)
// With MTSIM_BASELINE=<another mtsim binary> every iteration also runs that binary on the same
// run, interleaved (the order alternates), checks that it simulated the same cycles and link
// loads, and reports base_s and base_cpu_s (its median wall and CPU time), base_peak_MiB,
// speedup (the median of baseline wall / this build's wall over the iterations; flit-hops/s
// scale by the same ratio) and cpu_speedup (the same of CPU time: on a loaded machine the
// steadier of the two). A binary's page cache changes its speed (docs/performance.md,
// "Measuring on this machine": 1.45 s against 1.17 s of CPU for the same bytes once), so
// compare builds after `sync; echo 1 > /proc/sys/vm/drop_caches` (as root).
//
// The Fig. 10 point (torus:16x16, 96,000 KiB = 375 KiB x 256 nodes, MultiTree message-based)
// runs only with MTSIM_BENCH_FIG10=1: with real data every node holds its 94 MiB buffer
// (24 GiB), so it runs mtsim's `--data sampled` mode, and never against a baseline (before
// issue 15 that point took about two hours).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Run {
  bool ok = false;
  std::string error;
  double wall_s = 0, cpu_s = 0, peak_mib = 0;
  uint64_t cycles = 0, flit_hops = 0;
  nlohmann::json links;  // to compare this build's run with the baseline's
};

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

// Runs `mtsim args... -q --json <file>` with stdout to /dev/null and reads its JSON.
Run run_mtsim(const std::string& mtsim, std::vector<std::string> args) {
  const fs::path json = fs::temp_directory_path() / ("mtsim_bench." + std::to_string(getpid()));
  args.insert(args.begin(), mtsim);
  args.insert(args.end(), {"-q", "--json", json.string()});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  Run r;
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    r.error = "cannot run " + mtsim;
    return r;
  }
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_s = seconds(u.ru_utime) + seconds(u.ru_stime);
  r.peak_mib = static_cast<double>(u.ru_maxrss) / 1024.0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    r.error = mtsim + " failed (exit " + std::to_string(WEXITSTATUS(status)) + ")";
    return r;
  }
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  fs::remove(json);
  r.cycles = j.at("cycles").get<uint64_t>();
  for (const auto& l : j.at("links")) r.flit_hops += l.at("flits").get<uint64_t>();
  r.links = j.at("links");
  r.ok = j.at("verified").get<bool>();
  if (!r.ok) r.error = mtsim + ": not verified: " + j.at("error").get<std::string>();
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

void run(benchmark::State& state, const std::vector<std::string>& args,
         const std::string& baseline) {
  std::vector<double> wall, cpu, base_wall, base_cpu, speedup, cpu_speedup;
  double peak = 0, base_peak = 0;
  Run last;
  for (auto _ : state) {
    // Alternate which binary runs first, so that neither always runs on a warmer machine.
    const bool base_first = !baseline.empty() && state.iterations() % 2 == 1;
    Run base;
    if (base_first) base = run_mtsim(baseline, args);
    last = run_mtsim(MTSIM_EXE, args);
    if (!baseline.empty() && !base_first) base = run_mtsim(baseline, args);
    if (!last.ok || (!baseline.empty() && !base.ok)) {
      state.SkipWithError((last.ok ? base.error : last.error).c_str());
      return;
    }
    if (!baseline.empty() && (base.cycles != last.cycles || base.links != last.links)) {
      state.SkipWithError("the baseline simulated other cycles or link loads");
      return;
    }
    state.SetIterationTime(last.wall_s);
    wall.push_back(last.wall_s);
    cpu.push_back(last.cpu_s);
    peak = std::max(peak, last.peak_mib);
    if (baseline.empty()) continue;
    base_wall.push_back(base.wall_s);
    base_cpu.push_back(base.cpu_s);
    base_peak = std::max(base_peak, base.peak_mib);
    speedup.push_back(base.wall_s / last.wall_s);
    cpu_speedup.push_back(base.cpu_s / last.cpu_s);
  }
  const double w = median(wall);
  state.counters["sim_cycles"] = static_cast<double>(last.cycles);
  state.counters["cycles/s"] = static_cast<double>(last.cycles) / w;
  state.counters["flit_hops/s"] = static_cast<double>(last.flit_hops) / w;
  state.counters["peak_MiB"] = peak;
  state.counters["cpu_s"] = median(cpu);
  if (baseline.empty()) return;
  state.counters["base_s"] = median(base_wall);
  state.counters["base_cpu_s"] = median(base_cpu);
  state.counters["cpu_speedup"] = median(cpu_speedup);
  state.counters["base_peak_MiB"] = base_peak;
  state.counters["speedup"] = median(speedup);
}

void reg(const std::string& name, const std::vector<std::string>& args,
         const std::string& baseline, int iterations) {
  benchmark::RegisterBenchmark(name.c_str(), [args, baseline](benchmark::State& s) {
    run(s, args, baseline);
  })->UseManualTime()->Iterations(iterations)->Unit(benchmark::kMillisecond);
}

void register_all() {
  const std::string baseline = env_or("MTSIM_BASELINE", "");
  for (const char* algorithm : {"multitree", "ring"}) {
    for (const int side : {4, 8, 16}) {
      const std::string topology = "torus:" + std::to_string(side) + "x" + std::to_string(side);
      // 16x16 runs take minutes each: one iteration unless --benchmark_repetitions asks more.
      reg(std::string("BM_Mtsim/") + topology + "/" + algorithm + "/1MiB",
          {"-t", topology, "-a", algorithm, "-b", "1MiB"}, baseline, side < 16 ? 3 : 1);
    }
  }
  if (env_or("MTSIM_BENCH_FIG10", "0") == "1") {
    reg("BM_Mtsim/fig10/torus:16x16/multitree/96000KiB",
        {"-t", "torus:16x16", "-a", "multitree", "-b", "96000KiB", "--data", "sampled"}, "", 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
