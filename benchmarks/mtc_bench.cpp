// mtc plan's output at scale (issue 15 targets, one core: the images of torus:32x32 in under
// 2 s and of torus:64x64 in under 15 s, verification included; memory linear in one table).
//
// Each iteration runs `mtc plan -t torus:SxS -a multitree` (1 MiB, the defaults) as a user
// does, in a child process, writing its text tables or its JSON to /dev/null, or its image
// set (--out, the text to /dev/null; images_quiet: --out --quiet, no text, the tables checked
// as they are written) into a fresh directory under MTC_BENCH_DIR (default /tmp). Reported
// per row: the child's wall time (the benchmark's time) and
//   cpu_s      its user + system CPU time
//   peak_MiB   its peak resident memory
// With MTC_BASELINE=<another mtc binary> each case also runs that binary right after, in the
// same window, for before/after ratios ("/baseline" rows; none for images_quiet, which builds
// before --quiet lack). A baseline run is limited to 16 GiB of address space (the
// whole-document mtc needs about 40 GB for the JSON of torus:64x64): a run that exceeds it is
// reported as an error, not measured.
//   MTC_BASELINE=old/bin/mtc build/bin/mtc_bench --benchmark_repetitions=3
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct ChildRun {
  int status = -1;
  double wall_s = 0, cpu_s = 0, peak_mib = 0;
};

// Runs argv[0] with stdout to /dev/null; the address space limited to `limit` bytes (0: none).
ChildRun run_child(const std::vector<std::string>& args, rlim_t limit) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  rlimit old{};
  getrlimit(RLIMIT_AS, &old);
  if (limit != 0) {  // inherited by the child; put back at once
    rlimit l{limit, old.rlim_max};
    setrlimit(RLIMIT_AS, &l);
  }
  ChildRun r;
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  setrlimit(RLIMIT_AS, &old);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return r;
  rusage u{};
  wait4(pid, &r.status, 0, &u);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  r.cpu_s = seconds(u.ru_utime) + seconds(u.ru_stime);
  r.peak_mib = static_cast<double>(u.ru_maxrss) / 1024.0;
  return r;
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

enum class Output { kText, kJson, kImages, kImagesQuiet };

void run(benchmark::State& state, const std::string& mtc, Output output, rlim_t limit) {
  const int side = static_cast<int>(state.range(0));
  const fs::path dir = fs::path(env_or("MTC_BENCH_DIR", "/tmp")) / "mtc_bench_images";
  std::vector<std::string> args = {mtc, "plan", "-t", "torus:" + std::to_string(side) + "x" +
                                   std::to_string(side), "-a", "multitree", "--time-limit", "0"};
  if (output == Output::kJson) args.insert(args.end(), {"-f", "json"});
  if (output == Output::kImages || output == Output::kImagesQuiet) {
    args.insert(args.end(), {"-o", dir.string()});
  }
  if (output == Output::kImagesQuiet) args.push_back("--quiet");
  double cpu = 0, peak = 0;
  for (auto _ : state) {
    fs::remove_all(dir);
    const ChildRun r = run_child(args, limit);
    if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
      state.SkipWithError(("mtc failed: " + mtc).c_str());
      break;
    }
    state.SetIterationTime(r.wall_s);
    cpu += r.cpu_s;
    peak = std::max(peak, r.peak_mib);
  }
  fs::remove_all(dir);
  state.counters["cpu_s"] = cpu / static_cast<double>(std::max<int64_t>(1, state.iterations()));
  state.counters["peak_MiB"] = peak;
}

void register_all() {
  const std::string baseline = env_or("MTC_BASELINE", "");
  const struct {
    const char* name;
    Output output;
  } outputs[] = {{"images", Output::kImages},
                 {"images_quiet", Output::kImagesQuiet},
                 {"text", Output::kText},
                 {"json", Output::kJson}};
  for (const auto& o : outputs) {
    for (const int side : {32, 64}) {
      const std::string name = std::string("BM_MtcPlan/") + o.name + "/torus:" +
                               std::to_string(side) + "x" + std::to_string(side);
      auto reg = [&](const std::string& n, const std::string& mtc, rlim_t limit) {
        benchmark::RegisterBenchmark(n.c_str(), [mtc, o, limit](benchmark::State& s) {
          run(s, mtc, o.output, limit);
        })->Arg(side)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
      };
      reg(name, MTC_EXE, 0);
      if (!baseline.empty() && o.output != Output::kImagesQuiet) {
        reg(name + "/baseline", baseline, rlim_t{16} << 30);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
