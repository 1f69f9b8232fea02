#include "mtsim/mtsim.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "allreduce/allreduce_sim.hpp"
#if MT_COSIM
#include "rtl_network_interface.hpp"
#endif
#include "cli/allreduce_options.hpp"
#include "cli/cli_main.hpp"
#include "cli/noc_options.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/run_files.hpp"
#include "cost_model/cost_model.hpp"
#include "interop/msccl.hpp"
#include "ni/network_interface.hpp"
#include "plan/plan.hpp"
#include "topology/cut_bound.hpp"
#include "traffic/child_process.hpp"

namespace mt::noc {
namespace {

// What builds the RTL NI for --rtl and --rtl-nodes, when this mtsim has it (CMake's MT_COSIM).
NiBuilder rtl_ni_builder() {
#if MT_COSIM
  return cosim::build_rtl_ni;
#else
  throw InputError("--rtl and --rtl-nodes run the Verilated RTL NI, which this mtsim is built "
                   "without (MT_COSIM=OFF, as scripts/main.sh builds it); scripts/build.sh "
                   "-DMT_COSIM=ON builds it in");
#endif
}

struct RunFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (item.empty()) throw InputError(fmt::format("empty item in list '{}'", text));
    out.push_back(item);
  }
  return out;
}

std::vector<uint32_t> parse_nodes(const std::string& text, const char* option) {
  std::vector<uint32_t> nodes;
  for (const std::string& s : split(text)) {
    nodes.push_back(static_cast<uint32_t>(
        parse_unsigned(s, option, std::numeric_limits<uint32_t>::max())));
  }
  return nodes;
}

std::string size_text(uint64_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

// The tighter of the two lower bounds (the larger), which "of bound" is reckoned against: the
// per-node bound (topology/physical_bound.hpp) or the weakest cut's (topology/cut_bound.hpp).
uint64_t tighter_bound(const AllReduceResult& r) {
  return std::max(r.bound_cycles, r.cut_bound_cycles);
}

std::string tighter_name(const AllReduceResult& r) {
  return tighter_bound_name(r.bound_cycles, r.cut_bound_cycles);
}

double of_bound(const AllReduceResult& r) {
  return r.cycles ? static_cast<double>(tighter_bound(r)) / static_cast<double>(r.cycles) : 0;
}

std::string summary(const AllReduceResult& r) {
  double mean = 0, peak = 0;
  for (const LinkUse& l : r.links) {
    mean += l.utilisation;
    peak = std::max(peak, l.utilisation);
  }
  if (!r.links.empty()) mean /= static_cast<double>(r.links.size());
  std::string s;
  const uint64_t bound = tighter_bound(r);
  if (r.cycles == 0 && !r.verified) {  // stopped before any NI finished: no time to report
    s += "  cycles          none: the run stopped before any NI finished (below)\n";
    s += fmt::format("  physical bound  {} cycles, {}\n", bound, tighter_name(r));
  } else {
    s += fmt::format("  cycles          {}\n", r.cycles);
    s += fmt::format("  bandwidth       {:.2f} GB/s (all-reduce bytes / simulated time)\n",
                     r.bandwidth_gbps);
    s += fmt::format("  physical bound  {} cycles, {}; this run reaches {:.1f}% of it\n", bound,
                     tighter_name(r), 100.0 * of_bound(r));
  }
  s += fmt::format("    per-node      {} cycles{}\n", r.bound_cycles,
                   r.bound_basis.empty() ? "" : fmt::format(" ({})", r.bound_basis));
  s += fmt::format("    cut           {} cycles{}\n", r.cut_bound_cycles,
                   r.cut_bound_basis.empty() ? "" : fmt::format(" ({})", r.cut_bound_basis));
  s += fmt::format("  steps           {} per phase ({} timesteps)\n", r.steps_per_phase,
                   2 * r.steps_per_phase);
  s += fmt::format("  head flits      {} of {} flits injected ({:.2f}%)\n", r.head_flits, r.flits,
                   100.0 * r.head_overhead);
  s += fmt::format("  links           mean utilisation {:.2f}, busiest {:.2f} flits/cycle\n", mean,
                   peak);
  if (r.data == DataMode::kSampled) {
    s += fmt::format("  data            sampled: {} of {} elements per node stored and checked, "
                     "{:.1f} KiB held for data\n", r.checked_elements, r.bytes / 4,
                     static_cast<double>(r.data_bytes) / 1024.0);
  }
  if (!r.verified) return s + fmt::format("  verified        NO: {}\n", r.error);
  return s + (r.data == DataMode::kSampled
                  ? fmt::format("  verified        yes, on the sample: all {} nodes hold the "
                                "exact sum in the {} checked elements\n", r.nodes,
                                r.checked_elements)
                  : fmt::format("  verified        yes: all {} nodes hold the exact sum\n",
                                r.nodes));
}

std::string timeline(const AllReduceResult& r) {
  std::string s = "\n  step  first NI entered  last NI entered  (cycles)\n";
  for (const StepSpan& st : r.steps) {
    s += fmt::format("  {:>4}  {:>16}  {:>15}\n", st.step, st.first_cycle, st.last_cycle);
  }
  return s;
}

std::string link_table(const AllReduceResult& r) {
  std::string s = "\n  from  port    to      flits  utilisation\n";
  for (const LinkUse& l : r.links) {
    s += fmt::format("  {:>4}  {:<4} {:>5}  {:>9}  {:>11.3f}\n", l.from, l.port, l.to, l.flits,
                     l.utilisation);
  }
  return s;
}

// What "of bound" is reckoned against: one bound for all runs, or, where they differ (ina's
// is the cut bound alone), each run's.
std::string bound_note(const std::vector<AllReduceResult>& runs) {
  const AllReduceResult& a = runs.front();
  bool same = true;
  for (const AllReduceResult& r : runs) same = same && tighter_bound(r) == tighter_bound(a);
  if (same) {
    return fmt::format("  (of bound: of {} cycles, {})\n", tighter_bound(a), tighter_name(a));
  }
  std::string s = "  (of bound:";
  for (size_t i = 0; i < runs.size(); ++i) {
    s += fmt::format("{} {} of {} cycles, {}", i == 0 ? "" : ";", runs[i].algorithm,
                     tighter_bound(runs[i]), tighter_name(runs[i]));
  }
  return s + ")\n";
}

std::string comparison(const std::vector<AllReduceResult>& runs) {
  std::string s = fmt::format("\n  {:<10} {:<8} {:>10} {:>10} {:>9} {:>9}\n", "algorithm", "flow",
                              "cycles", "GB/s", "of bound", "verified");
  for (const AllReduceResult& r : runs) {
    s += fmt::format("  {:<10} {:<8} {:>10} {:>10.2f} {:>8.1f}% {:>9}\n", r.algorithm,
                     r.flow_control, r.cycles, r.bandwidth_gbps, 100.0 * of_bound(r),
                     !r.verified ? "NO" : r.data == DataMode::kSampled ? "sample" : "yes");
  }
  const AllReduceResult& a = runs.front();
  s += bound_note(runs);
  for (size_t i = 1; i < runs.size(); ++i) {
    if (runs[i].cycles && a.cycles) {
      s += fmt::format("  {} ({}) is {:.2f}x the bandwidth of {} ({})\n", a.algorithm,
                       a.flow_control, static_cast<double>(runs[i].cycles) /
                                           static_cast<double>(a.cycles),
                       runs[i].algorithm, runs[i].flow_control);
    }
  }
  return s;
}

struct MtsimArgs {
  AllReduceOptions o;
  std::string bytes = "1MiB", dtype = "fp32", flow_control = "message", config = "default";
  std::string trace_nodes = "0", json_path, compare, seed = "1", rtl_nodes, data = "full";
  std::string fault;  // --inject-fault NODE:ELEMENT (a test hook)
  std::string trace;  // --trace as given; o.trace is the .vcd the simulation writes
  unsigned jobs = 0;
  bool quiet = false, show_timeline = false, show_links = false, no_verify = false, rtl = false;
  CLI::Option* topology_opt = nullptr;
  std::vector<CLI::Option*> plan_opts;  // with --images the image set fixes these
  CLI::Option *mem_latency_opt = nullptr, *reduce_latency_opt = nullptr, *jobs_opt = nullptr;
  CLI::Option *json_opt = nullptr, *trace_opt = nullptr;
};

// The file --trace names: itself, or a symbolic link's target (replaced, the link kept).
std::filesystem::path trace_target(const std::string& trace) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target = fs::absolute(trace);
  return fs::is_symlink(target, ec) ? fs::canonical(target, ec) : target;
}

// The temporary an FST is converted into, hidden beside its target.
std::filesystem::path fst_temporary(const std::filesystem::path& target) {
  return target.parent_path() / ("." + target.filename().string() + ".tmp.fst");
}

// Checks that `tmp`, a file written on the way to --trace's, can be written.
void check_trace_temporary(const std::string& tmp, const std::string& trace) {
  try {
    check_writable(tmp, "--trace");
  } catch (const InputError& e) {
    throw InputError(fmt::format("{} (a temporary file of --trace {})", e.what(), trace));
  }
}

// --trace: the simulation writes a .vcd; an .fst is converted from it afterwards (vcd2fst).
// RTL nodes write their own FST beside it, named from the same stem.
void prepare_trace(MtsimArgs& a) {
  const std::string& path = a.trace;
  if (path.empty()) return;
  check_writable(path, "--trace");
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".vcd") {
    a.o.trace = path;
  } else if (ext == ".fst") {
    if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0) {
      throw InputError(fmt::format("--trace {}: writing FST needs vcd2fst (Debian package "
                                   "gtkwave); give a .vcd path instead", path));
    }
    a.o.trace = path.substr(0, path.size() - 4) + ".tmp.vcd";
    check_trace_temporary(a.o.trace, path);
    check_trace_temporary(fst_temporary(trace_target(path)).string(), path);
  } else {
    throw InputError(fmt::format("--trace {}: the file name must end in .vcd or .fst", path));
  }
  a.o.rtl_waves = path.substr(0, path.size() - 4);
}

// Runs `argv` (its program found on PATH) with its output discarded; its exit status, or -1
// when it could not be started or did not exit.
int run_quietly(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& s : argv) args.push_back(const_cast<char*>(s.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// SystemC's trace writer does not report write errors: a trace the file-size limit (ulimit -f)
// cut short fills the limit exactly, and is removed, an error naming the limit.
void check_trace_size(const MtsimArgs& a) {
  rlimit rl{};
  if (a.trace.empty() || ::getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(a.o.trace, ec);
  if (ec || size < rl.rlim_cur) return;
  std::remove(a.o.trace.c_str());
  throw InputError(fmt::format("--trace {}: cannot write: {}", a.trace, write_error_text(EFBIG)));
}

// The .fst of --trace, converted from the simulation's .vcd through a temporary beside its
// target (a symbolic link's target, the link kept) that replaces it only when vcd2fst
// succeeded and wrote something.
void convert_trace(const MtsimArgs& a) {
  if (a.trace.empty() || a.trace == a.o.trace) return;
  namespace fs = std::filesystem;
  const fs::path target = trace_target(a.trace);
  const fs::path tmp = fst_temporary(target);
  std::error_code ec;
  const int status = run_quietly({"vcd2fst", a.o.trace, tmp.string()});
  const uintmax_t size = fs::file_size(tmp, ec);
  const bool wrote = status == 0 && !ec && size > 0;
  std::remove(a.o.trace.c_str());
  if (wrote) fs::rename(tmp, target, ec);
  if (!wrote || ec) {
    std::remove(tmp.c_str());
    throw InputError(fmt::format(
        "--trace {}: {}", a.trace,
        status != 0 ? fmt::format("vcd2fst failed (exit status {}) converting the trace; nothing "
                                  "was written", status)
        : !wrote    ? std::string("vcd2fst exited 0 but wrote no FST; nothing was written")
                    : "cannot put the FST in place: " + ec.message()));
  }
}

void add_plan_options(CLI::App& app, MtsimArgs& a) {
  a.topology_opt = add_topology_option(app, a.o.topology,
                                       "(with --images: the image set's)")
                       ->capture_default_str();
  a.plan_opts = {
      add_algorithm_option(app, a.o.algorithm),
      app.add_option("-b,--bytes", a.bytes, "all-reduce buffer size, e.g. 65536, 64KiB, 1MiB")
          ->capture_default_str(),
      app.add_option("--dtype", a.dtype, "element type: int32 or fp32")->capture_default_str(),
      app.add_option("--dbtree-chunks", a.o.dbtree_chunks,
                     "dbtree: chunks per tree, pipelined through both trees (0: the default, "
                     "sqrt((levels - 1) * bytes per tree / 16 KiB))")
          ->capture_default_str()};
  for (CLI::Option* o : add_mtree_options(app, a.o.mtree)) a.plan_opts.push_back(o);
  add_config_option(app, a.config);
  add_flow_control_option(app, a.flow_control);
  app.add_flag("--prioritize-height", a.o.prioritize_height,
               "MultiTree: trees with the larger remaining height take their turn first");
  add_time_limit_option(app, a.o.max_plan_seconds);
  app.add_option("--images", a.o.images,
                 "load the tables from this image set (mtc plan --out) instead of compiling");
  app.add_flag("--no-verify", a.no_verify,
               "run --images tables without the plan verifier, to see what the NI does with a "
               "broken schedule (a deadlock is reported by the watchdog)");
  app.add_option("--compare", a.compare,
                 "also run these algorithms (comma-separated; NAME:packet for packet-based flow "
                 "control) on the same network and size, side by side");
  app.add_option("--seed", a.seed, "seed of the data in every node's buffer")->capture_default_str();
  add_data_option(app, a.data);
  // Not in --help: tests use it to see that a wrong sum is caught.
  app.add_option("--inject-fault", a.fault,
                 "test hook: NODE:ELEMENT adds 1 to that element of the node's initial data")
      ->group("");
}

void add_model_options(CLI::App& app, MtsimArgs& a) {
  AllReduceOptions& o = a.o;
  app.add_flag("--rtl", a.rtl,
               "co-simulation: the Verilated RTL NI (rtl/network_interface.sv) at every node "
               "instead of the SystemC NI");
  app.add_option("--rtl-nodes", a.rtl_nodes,
                 "co-simulation: the RTL NI at these nodes only (comma-separated), the SystemC "
                 "NI at the others");
  add_noc_options(app, o.noc);
  app.add_option("--ni-buffer", o.ni.buffer_flits, "NI injection buffer per port, flits")
      ->capture_default_str();
  app.add_option("--packet-payload", o.ni.packet_payload_bytes,
                 "payload bytes per packet in packet-based flow control")
      ->capture_default_str();
  app.add_option("--mem-bandwidth", o.memory.bytes_per_cycle, "accelerator memory, bytes/cycle")
      ->capture_default_str();
  a.mem_latency_opt = add_mem_latency_option(app, o);
  app.add_option("--reduce-throughput", o.reduction.elements_per_cycle,
                 "reduction unit, elements/cycle")
      ->capture_default_str();
  a.reduce_latency_opt = add_reduce_latency_option(app, o);
  app.add_option("--ina-window", o.aggregation.window,
                 "ina: sequence numbers (flits) each switch aggregation unit holds in flight per "
                 "flow")
      ->capture_default_str();
  app.add_option("--ina-width", o.aggregation.elements_per_cycle,
                 "ina: switch adder width, elements/cycle")
      ->capture_default_str();
  app.add_option("--ina-latency", o.aggregation.latency, "ina: switch adder pipeline, cycles")
      ->capture_default_str();
  app.add_flag("--ni-forward", o.ni.forward,
               "forward reduced data from the reduction unit to the flit encoder instead of "
               "reading it back from memory (a model experiment; systemc/ni/README.md)");
  app.add_option("--ni-forward-prefix", o.ni.forward_prefix_bytes,
                 "with --ni-forward: hold only the first this many bytes of each send of "
                 "reduced data (0: all of it)")
      ->capture_default_str();
  app.add_flag("--lockstep", o.lockstep,
               "advance every node one cycle at a time with all the others instead of a "
               "link's latency ahead alone: the same results, slower (to check that)");
  app.add_option("--watchdog", o.ni.watchdog_cycles,
                 "stop and report a deadlock once nothing has moved for this many cycles "
                 "and nothing is under way (0: off)")
      ->capture_default_str();
}

void add_output_options(CLI::App& app, MtsimArgs& a) {
  a.trace_opt = app.add_option("--trace", a.trace,
                               "write the NI signals of --trace-nodes here (.vcd, or .fst with "
                               "vcd2fst), e.g. waves/run.fst; RTL nodes among them also write "
                               "all their signals to <name>.rtl_node_<n>.fst beside it");
  app.add_option("--trace-nodes", a.trace_nodes, "nodes to trace, comma-separated")
      ->capture_default_str();
  a.json_opt = app.add_option("--json", a.json_path, "write the results as JSON here");
  a.jobs_opt = app.add_option("-j,--jobs", a.jobs,
                              "simulations run in parallel with --compare (default: cores)");
  app.add_flag("--timeline", a.show_timeline, "print the cycles at which the NIs entered each step");
  app.add_flag("--links", a.show_links, "print every link's flits and utilisation");
  app.add_flag("-q,--quiet", a.quiet, "no progress line on stderr");
}

// --inject-fault NODE:ELEMENT.
AllReduceOptions::Fault parse_fault(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) {
    throw InputError(fmt::format("--inject-fault {}: give NODE:ELEMENT", text));
  }
  return {static_cast<uint32_t>(parse_unsigned(text.substr(0, colon), "--inject-fault node",
                                               std::numeric_limits<uint32_t>::max())),
          parse_unsigned(text.substr(colon + 1), "--inject-fault element")};
}

// Checks and completes the options; returns the runs (the main one first, then --compare).
std::vector<AllReduceOptions> prepare_runs(MtsimArgs& a) {
  AllReduceOptions& o = a.o;
  if (!o.images.empty()) {
    for (const CLI::Option* p : a.plan_opts) {
      if (p->count() != 0) {
        throw InputError(fmt::format("{}: the image set in {} fixes it; leave it out with --images",
                                     p->get_name(), o.images));
      }
    }
    if (a.topology_opt->count() == 0) o.topology.clear();
  }
  if (a.jobs_opt->count() != 0 && a.jobs == 0) throw InputError("-j 0: run at least 1 job");
  apply_config_preset(a.config, o, a.mem_latency_opt->count() > 0,
                      a.reduce_latency_opt->count() > 0);
  o.bytes = parse_size(a.bytes);
  o.dtype = parse_dtype(a.dtype);
  o.seed = parse_unsigned(a.seed, "--seed");
  o.data = parse_data_mode(a.data);
  if (!a.fault.empty()) o.fault = parse_fault(a.fault);
  o.ni.flow_control = parse_flow_control(a.flow_control);
  o.trace_nodes = parse_nodes(a.trace_nodes, "--trace-nodes");
  if (a.rtl && !a.rtl_nodes.empty()) throw InputError("give --rtl or --rtl-nodes, not both");
  o.rtl_all = a.rtl;
  if (!a.rtl_nodes.empty()) o.rtl_nodes = parse_nodes(a.rtl_nodes, "--rtl-nodes");
  if (a.rtl || !a.rtl_nodes.empty()) o.rtl_ni = rtl_ni_builder();
  o.progress = !a.quiet;
  o.verify_images = !a.no_verify;
  o.noc.credit_latency = o.noc.link_latency;
  if (a.json_opt->count() != 0) check_writable(a.json_path, "--json");
  prepare_trace(a);
  std::vector<RunFile> inputs = topology_inputs(o.topology, "-t");
  inputs.push_back({"--images", o.images, true});
  for (RunFile& f : algorithm_inputs(o.algorithm, "-a")) inputs.push_back(f);
  check_run_files({{"--trace", a.trace}, {"--json", a.json_path}}, inputs);
  std::vector<AllReduceOptions> runs = {o};
  for (const std::string& c : a.compare.empty() ? std::vector<std::string>{} : split(a.compare)) {
    if (!o.images.empty()) throw InputError("--compare needs the plan compiled here, not --images");
    AllReduceOptions other = o;
    other.images.clear();
    other.trace.clear();
    other.rtl_waves.clear();
    other.progress = false;
    // NAME[:FLOW]; msccl:PATH[:FLOW] takes FLOW only when it names a flow control.
    size_t colon = c.find(':');
    if (is_msccl_algorithm(c)) {
      colon = c.rfind(':');
      const std::string tail = c.substr(colon + 1);
      if (tail != "packet" && tail != "message") colon = std::string::npos;
    }
    other.algorithm = c.substr(0, colon);
    if (colon != std::string::npos) other.ni.flow_control = parse_flow_control(c.substr(colon + 1));
    runs.push_back(other);
  }
  return runs;
}

// The algorithm's cost model on the network of the run (cost_model/), where one applies: the
// keys predicted_cycles and predicted_model, absent elsewhere.
void put_prediction_keys(const AllReduceOptions& run, nlohmann::json& j) {
  if (!run.images.empty()) return;  // the image set's plan, not one planned here
  PlanOptions po;
  po.bytes = run.bytes;
  po.dtype = run.dtype;
  po.mtree = run.mtree;
  CostParams p;
  p.link_latency = run.noc.link_latency;
  const std::optional<Prediction> model =
      predict_cycles(parse_topology(run.topology), run.algorithm, po, p);
  if (!model) return;
  j["predicted_cycles"] = static_cast<uint64_t>(model->cycles + 0.5);
  j["predicted_model"] = model->model;
}

// "predicted" beside the simulated cycles, where the run has a model.
std::string prediction_text(const nlohmann::json& j, const AllReduceResult& r) {
  if (!j.contains("predicted_cycles") || r.cycles == 0) return "";
  const uint64_t predicted = j.at("predicted_cycles").get<uint64_t>();
  return fmt::format("  predicted       {} cycles ({}); the model is {:.1f}% of the simulated "
                     "time\n", predicted, j.at("predicted_model").get<std::string>(),
                     100.0 * static_cast<double>(predicted) / static_cast<double>(r.cycles));
}

struct Finished {
  std::vector<AllReduceResult> done;
  std::vector<nlohmann::json> docs;
};

// The keys of a --data sampled run; a default run's JSON stays as it was.
void put_data_keys(const AllReduceResult& r, nlohmann::json& j) {
  if (r.data == DataMode::kFull) return;
  j["data"] = data_mode_name(r.data);
  j["checked_elements"] = r.checked_elements;
  j["data_bytes"] = r.data_bytes;
}

// The bounds' text, which the JSON leaves out, carried from the child that ran the simulation
// to the report under keys taken out again before --json writes the document.
void put_basis_keys(const AllReduceResult& r, nlohmann::json& j) {
  j["bound_basis"] = r.bound_basis;
  j["cut_bound_basis"] = r.cut_bound_basis;
}

void take_basis_keys(nlohmann::json& j, AllReduceResult& r) {
  r.bound_basis = j.at("bound_basis").get<std::string>();
  r.cut_bound_basis = j.at("cut_bound_basis").get<std::string>();
  j.erase("bound_basis");
  j.erase("cut_bound_basis");
}

void get_data_keys(const nlohmann::json& j, AllReduceResult& r) {
  if (!j.contains("data")) return;
  r.data = parse_data_mode(j.at("data").get<std::string>());
  r.checked_elements = j.at("checked_elements").get<uint64_t>();
  r.data_bytes = j.at("data_bytes").get<uint64_t>();
}

Finished run_all(const std::vector<AllReduceOptions>& runs, unsigned jobs) {
  std::vector<std::function<std::string()>> work;
  for (const AllReduceOptions& r : runs) {
    work.push_back([r] {
      const auto t0 = std::chrono::steady_clock::now();
      AllReduceOptions run = r;
      uint64_t forward_peak = 0;  // the most bytes one NI's forwarding buffer held
      if (run.ni.forward) {
        run.on_ni = [&forward_peak](uint32_t, NetworkInterface& ni) {
          ni.on_forward_peak = [&forward_peak](uint32_t, uint64_t held) {
            forward_peak = std::max(forward_peak, held);
          };
        };
      }
      const AllReduceResult result = run_allreduce(run);
      nlohmann::json j = result;
      put_data_keys(result, j);
      put_basis_keys(result, j);
      put_prediction_keys(run, j);
      if (result.ni_peaks) j["ni_peaks"] = *result.ni_peaks;
      if (run.ni.forward) j["forward_peak_bytes"] = forward_peak;
      j["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return j.dump();
    });
  }
  unsigned parallel = jobs > 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  parallel = std::min<unsigned>(parallel, static_cast<unsigned>(work.size()));
  const std::vector<ChildResult> results = run_in_children(work, parallel);
  Finished f;
  for (size_t i = 0; i < results.size(); ++i) {
    const ChildResult& r = results[i];
    if (r.status == ChildResult::Status::kInputError) throw InputError(r.text);
    if (!r.ok()) throw std::runtime_error(fmt::format("{}: {}", runs[i].algorithm, r.text));
    f.docs.push_back(nlohmann::json::parse(r.text));
    f.done.push_back(f.docs.back().get<AllReduceResult>());
    get_data_keys(f.docs.back(), f.done.back());
    take_basis_keys(f.docs.back(), f.done.back());
  }
  return f;
}

int run_mtsim(MtsimArgs& a, std::ostream& out, std::ostream& err) {
  const std::vector<AllReduceOptions> runs = prepare_runs(a);
  const AllReduceOptions& o = a.o;
  // Said on the first line with --data sampled; a default run's output stays as it was.
  const std::string data = o.data == DataMode::kSampled ? ", data sampled" : "";
  if (o.images.empty()) {
    out << fmt::format("mtsim: {}, {}, {} {}, {}-based flow control, config {}{}\n", o.topology,
                       o.algorithm, size_text(o.bytes), a.dtype, a.flow_control, a.config, data);
  } else {
    out << fmt::format("mtsim: the tables in {}, {}-based flow control, config {}{}\n", o.images,
                       a.flow_control, a.config, data);
  }
  finish_output(out);  // before the long part: a full disk is known now
  const Finished f = run_all(runs, a.jobs);
  check_trace_size(a);
  convert_trace(a);
  const AllReduceResult& main_run = f.done.front();
  out << fmt::format("{} nodes, {} {}, {}:\n", main_run.nodes, size_text(main_run.bytes),
                     main_run.dtype, main_run.algorithm)
      << summary(main_run) << prediction_text(f.docs.front(), main_run);
  if (o.ni.forward) {
    out << fmt::format("  forwarding      at most {} bytes of reduced data held by one NI\n",
                       f.docs.front().at("forward_peak_bytes").get<uint64_t>());
  }
  if (a.show_timeline) out << timeline(main_run);
  if (a.show_links) out << link_table(main_run);
  if (f.done.size() > 1) out << comparison(f.done);
  for (size_t i = 1; i < f.done.size(); ++i) {
    const std::string text = prediction_text(f.docs[i], f.done[i]);
    if (!text.empty()) out << fmt::format("  {} ({}):\n{}", f.done[i].algorithm, f.done[i].flow_control, text);
  }
  bool all_ok = true;
  for (const AllReduceResult& r : f.done) {
    if (r.verified) continue;
    all_ok = false;
    err << fmt::format("mtsim: {} ({}) failed: {}\n", r.algorithm, r.flow_control, r.error);
  }
  if (!all_ok) return 3;
  if (!a.json_path.empty()) {
    nlohmann::json doc = f.docs.front();
    doc["config"] = a.config;
    doc["memory_latency"] = o.memory.latency;
    doc["reduce_latency"] = o.reduction.latency;
    doc["compare"] = nlohmann::json::array();
    for (size_t i = 1; i < f.docs.size(); ++i) doc["compare"].push_back(f.docs[i]);
    write_file(a.json_path, doc.dump(2) + "\n", "--json");
    out << "wrote " << a.json_path << "\n";
  }
  if (!a.trace.empty()) out << "wrote " << a.trace << "\n";
  return 0;
}

}  // namespace

int mtsim_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "mtsim: one all-reduce on the cycle-accurate SystemC model of the MultiTree NI and its\n"
      "router mesh. Compiles the plan (or loads an image set), loads every NI's schedule table\n"
      "through its TLM configuration target, runs to completion and checks every node's buffer\n"
      "against the exact sum (with --data sampled: on a stated sample of elements). --rtl puts\n"
      "the Verilated RTL NI at every node instead.\n"
      "Exit codes: 0 verified, 1 bad input, 2 internal error, 3 the all-reduce failed (wrong sum\n"
      "or deadlock).",
      "mtsim"};
  MtsimArgs a;
  add_plan_options(app, a);
  add_model_options(app, a);
  add_output_options(app, a);
  const int parsed = parse_command_line(app, argc, argv, "mtsim", out, err);
  if (parsed >= 0) return parsed;
  return run_tool("mtsim", out, err, [&] { return run_mtsim(a, out, err); });
}

}  // namespace mt::noc
