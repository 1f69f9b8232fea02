#include "mttrain/mttrain.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/allreduce_options.hpp"
#include "cli/cli_main.hpp"
#include "cli/noc_options.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/run_files.hpp"
#include "compute/layer_costs.hpp"
#include "import/load_workload.hpp"
#include "models/bundled.hpp"
#include "mttrain/report.hpp"
#include "plan/plan.hpp"
#include "training/allreduce_times.hpp"
#include "training/bucketing.hpp"
#include "training/iteration_schedule.hpp"
#include "training/simulation_cache.hpp"

namespace mt::training {
namespace {

struct MttrainArgs {
  noc::AllReduceOptions o;
  workload::AcceleratorConfig accelerator;
  std::string workload, overlap = "none", bucket_bytes = "0", flow_control = "message";
  std::string config = "default", data = "sampled", json_path, sim_cache;
  std::string simulation_options;  // the text of the options that reach the simulations
  unsigned jobs = 0;
  bool quiet = false;
  CLI::Option *jobs_opt = nullptr, *bucket_opt = nullptr, *json_opt = nullptr;
  CLI::Option *mem_latency_opt = nullptr, *reduce_latency_opt = nullptr;
};

void add_iteration_options(CLI::App& app, MttrainArgs& a) {
  app.add_option("-w,--workload", a.workload,
                 fmt::format("a bundled model ({}) or a workload file: .json (the workload "
                             "format), .csv (SCALE-Sim topology) or .txt (ASTRA-sim text "
                             "workload)", fmt::join(workload::bundled_model_names(), ", ")))
      ->required();
  app.add_option("--overlap", a.overlap,
                 "none: forward, back-propagation, then the whole model's all-reduce; layer: "
                 "each layer's all-reduce queued when its back-propagation ends, run one at a "
                 "time in FIFO order while back-propagation goes on")
      ->capture_default_str();
  a.bucket_opt = app.add_option(
      "--bucket-bytes", a.bucket_bytes,
      "with --overlap layer: fuse consecutive layers' gradients into all-reduces of up to this "
      "many bytes (e.g. 25MiB; a larger layer alone), as data-parallel frameworks do; 0: one "
      "all-reduce per layer with parameters");
  a.bucket_opt->capture_default_str();
}

void add_accelerator_options(CLI::App& app, workload::AcceleratorConfig& acc) {
  app.add_option("--array-rows", acc.array_rows, "rows of each PE's systolic array")
      ->capture_default_str();
  app.add_option("--array-cols", acc.array_cols, "columns of each PE's systolic array")
      ->capture_default_str();
  app.add_option("--pes", acc.pes, "PEs (systolic arrays) per accelerator")->capture_default_str();
  app.add_option("--batch", acc.batch, "samples per accelerator in one iteration")
      ->capture_default_str();
  app.add_option("--clock-hz", acc.clock_hz,
                 "the accelerator's clock, Hz; the network's is 1 GHz, and the all-reduce "
                 "cycles are converted to the accelerator's (rounded up)")
      ->capture_default_str();
}

void add_network_options(CLI::App& app, MttrainArgs& a) {
  add_topology_option(app, a.o.topology)->capture_default_str();
  noc::add_algorithm_option(app, a.o.algorithm);
  noc::add_flow_control_option(app, a.flow_control);
  noc::add_config_option(app, a.config);
  noc::add_data_option(app, a.data,
                       "; sampled is mttrain's default, the cycles being those of full");
  add_time_limit_option(app, a.o.max_plan_seconds);
  noc::add_noc_options(app, a.o.noc);
  a.mem_latency_opt = noc::add_mem_latency_option(app, a.o);
  a.reduce_latency_opt = noc::add_reduce_latency_option(app, a.o);
}

void add_output_options(CLI::App& app, MttrainArgs& a) {
  a.json_opt = app.add_option("--json", a.json_path, "write the results as JSON here");
  a.jobs_opt = app.add_option("-j,--jobs", a.jobs,
                              "all-reduce simulations run in parallel (default: cores)");
  app.add_flag("-q,--quiet", a.quiet, "no progress lines on stderr");
  app.add_option("--sim-cache", a.sim_cache,
                 "a directory (created if missing) of simulated all-reduces shared between "
                 "runs: one this mttrain binary simulated before with the same network options "
                 "and size is read from it, not simulated again");
}

// Options that do not reach an all-reduce simulation: the workload and how its iteration is
// scheduled, the accelerator, and the output. Every other option given is part of the
// simulations' key in a --sim-cache.
bool iteration_only(const std::string& name) {
  static const std::set<std::string> names{
      "--workload", "--overlap", "--bucket-bytes", "--array-rows", "--array-cols",
      "--pes",      "--batch",   "--clock-hz",     "--json",       "--jobs",
      "--quiet",    "--sim-cache", "--help"};
  return names.count(name) != 0;
}

// The options given that reach the simulations, one per line, sorted by name: the same text
// for the same options whatever their order or spelling on the command line.
std::string simulation_options(const CLI::App& app) {
  std::vector<std::string> lines;
  for (const CLI::Option* opt : app.get_options()) {
    const std::string name = opt->get_name();
    if (opt->count() == 0 || iteration_only(name)) continue;
    lines.push_back(fmt::format("{} {}", name, fmt::join(opt->results(), " ")));
  }
  std::sort(lines.begin(), lines.end());
  return fmt::format("{}\n", fmt::join(lines, "\n"));
}

// The --sim-cache key of the simulations: the options, and the bytes of the files they name
// (a topology file), so that an edited file is simulated again.
std::string simulation_key(const MttrainArgs& a) {
  std::string key = a.simulation_options;
  for (const RunFile& f : topology_inputs(a.o.topology, "-t")) {
    key += fmt::format("{} {} {}\n", f.option, f.path, SimulationCache::file_identity(f.path));
  }
  return key;
}

// --bucket-bytes: 0, or a size as --bytes takes it.
uint64_t parse_bucket_bytes(const std::string& text) {
  if (text.find_first_not_of('0') == std::string::npos) return 0;
  try {
    return parse_size(text);
  } catch (const InputError& e) {
    throw InputError(fmt::format("--bucket-bytes: {}", e.what()));
  }
}

// Checks and completes the options; returns the report with its inputs filled in.
TrainingReport prepare(MttrainArgs& a) {
  if (a.jobs_opt->count() != 0 && a.jobs == 0) throw InputError("-j 0: run at least 1 job");
  TrainingReport r;
  r.overlap = parse_overlap(a.overlap);
  r.bucket_bytes = parse_bucket_bytes(a.bucket_bytes);
  if (r.overlap == Overlap::kNone && r.bucket_bytes != 0) {
    throw InputError("--bucket-bytes fuses the all-reduces of --overlap layer; with --overlap "
                     "none the whole model is one all-reduce already");
  }
  noc::AllReduceOptions& o = a.o;
  noc::apply_config_preset(a.config, o, a.mem_latency_opt->count() > 0,
                           a.reduce_latency_opt->count() > 0);
  o.ni.flow_control = noc::parse_flow_control(a.flow_control);
  o.data = noc::parse_data_mode(a.data);
  o.dtype = DType::kFp32;
  o.noc.credit_latency = o.noc.link_latency;
  o.progress = !a.quiet;
  workload::validate(a.accelerator);
  if (a.json_opt->count() != 0) check_writable(a.json_path, "--json");
  std::vector<RunFile> inputs = topology_inputs(o.topology, "-t");
  if (workload::is_workload_path(a.workload)) inputs.push_back({"--workload", a.workload, false});
  check_run_files({{"--json", a.json_path}}, inputs);
  const workload::Workload w = workload::load_workload(a.workload);
  r.workload = w.name;
  r.costs = workload::layer_costs(w, a.accelerator);
  r.accelerator = a.accelerator;
  r.network = o;
  r.config = a.config;
  r.groups = r.overlap == Overlap::kNone ? whole_model_group(r.costs)
                                         : bucket_gradients(r.costs, r.bucket_bytes);
  return r;
}

// Simulates every all-reduce size once, saying each on stderr as it ends.
void simulate(TrainingReport& r, const MttrainArgs& a, const SimulationCache* cache,
              std::ostream& err) {
  const unsigned parallel =
      a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  AllReduceTimes times(r.network, parallel, cache);
  std::vector<uint64_t> sizes;
  for (const GradientGroup& g : r.groups) sizes.push_back(g.buffer_bytes);
  times.simulate(sizes, [&](const SimulatedAllReduce& run, size_t done, size_t total) {
    if (!run.cache_note.empty()) err << "mttrain: --sim-cache " << run.cache_note << "\n";
    if (a.quiet) return;
    err << fmt::format("mttrain: all-reduce {} of {}: {} bytes, {} cycles ({:.1f} s{})\n",
                       done, total, run.result.bytes, run.result.cycles, run.wall_seconds,
                       run.cached ? ", from the cache" : "");
    err.flush();
  });
  r.simulations = times.runs();
  const double clock_hz = r.accelerator.clock_hz;
  const uint64_t clock_ps = r.network.noc.clock_ps;
  r.schedule = schedule_iteration(r.costs, r.groups, r.overlap, [&](uint64_t bytes) {
    return accelerator_cycles(times.network_cycles(bytes), clock_ps, clock_hz);
  });
}

int run_mttrain(MttrainArgs& a, std::ostream& out, std::ostream& err) {
  const auto t0 = std::chrono::steady_clock::now();
  TrainingReport r = prepare(a);
  std::optional<SimulationCache> cache;  // checked before anything is written
  if (!a.sim_cache.empty()) cache.emplace(a.sim_cache, simulation_key(a));
  out << header_text(r);
  finish_output(out);  // before the long part: a full disk is known now
  try {
    simulate(r, a, cache ? &*cache : nullptr, err);
  } catch (const AllReduceFailed& e) {
    err << "mttrain: " << e.what() << "\n";
    return 3;
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out << result_text(r);
  if (!a.json_path.empty()) {
    write_file(a.json_path, result_json(r).dump(2) + "\n", "--json");
    out << "wrote " << a.json_path << "\n";
  }
  return 0;
}

}  // namespace

int mttrain_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "mttrain: one data-parallel training iteration of a DNN workload on every accelerator of a\n"
      "network: forward and back-propagation cycles from the accelerator's compute model, each\n"
      "all-reduce's cycles from its cycle-accurate simulation on the SystemC NI and router mesh\n"
      "(as mtsim runs it, each distinct size once, verified). Prints the iteration's cycles,\n"
      "compute, exposed communication and overlap, and the per-layer timeline.\n"
      "Exit codes: 0 ok, 1 bad input, 2 internal error, 3 an all-reduce failed (wrong sum or\n"
      "deadlock).",
      "mttrain"};
  MttrainArgs a;
  add_iteration_options(app, a);
  add_accelerator_options(app, a.accelerator);
  add_network_options(app, a);
  add_output_options(app, a);
  const int parsed = parse_command_line(app, argc, argv, "mttrain", out, err);
  if (parsed >= 0) return parsed;
  if (!a.sim_cache.empty()) a.simulation_options = simulation_options(app);
  return run_tool("mttrain", out, err, [&] { return run_mttrain(a, out, err); });
}

}  // namespace mt::training
