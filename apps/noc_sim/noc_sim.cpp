// noc-sim: builds a fresh network per offered load (each in a child process: SystemC
// elaborates once per process), runs warm-up / measurement / drain, prints a latency-throughput
// table and writes JSON and a gnuplot PNG.
#include "noc_sim/noc_sim.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli_main.hpp"
#include "cli/noc_options.hpp"
#include "common/error.hpp"
#include "plan/plan.hpp"
#include "common/output_file.hpp"
#include "common/run_files.hpp"
#include "noc_sim/plot.hpp"
#include "stats/run_stats.hpp"
#include "traffic/child_process.hpp"
#include "traffic/experiment.hpp"
#include "traffic/offered_load.hpp"
#include "traffic/zero_load.hpp"

namespace mt::noc {
namespace {

constexpr const char* kDefaultSweep = "0.05:1:0.05";

const char* flow_control(const NocConfig& c) {
  return c.wormhole ? "wormhole" : "virtual cut-through";
}

uint64_t router_delay(const NocConfig& c) {
  return uint64_t{c.rc_delay} + c.va_delay + c.sa_delay + c.st_delay;
}

nlohmann::json config_json(const TrafficConfig& t, const Topology& topo, const ZeroLoad& z) {
  nlohmann::json c;
  c["nodes"] = topo.nodes();
  c["packet_flits"] = t.packet_flits;
  c["vcs"] = t.noc.vcs;
  c["vc_depth"] = t.noc.vc_depth;
  c["flow_control"] = flow_control(t.noc);
  c["wormhole"] = t.noc.wormhole;
  c["router_delay"] = router_delay(t.noc);
  c["link_latency"] = t.noc.link_latency;
  c["credit_latency"] = t.noc.credit_latency;
  c["local_latency"] = t.noc.local_latency;
  c["clock_ps"] = t.noc.clock_ps;
  c["warmup"] = t.warmup;
  c["measure"] = t.measure;
  c["drain_timeout"] = t.drain_timeout;
  c["seed"] = t.seed;
  if (t.pattern.kind == PatternKind::kHotspot) {
    c["hotspot_node"] = t.pattern.hotspot_node;
    c["hotspot_fraction"] = t.pattern.hotspot_fraction;
  }
  c["mean_hops"] = z.hops;
  c["zero_load_latency"] = z.total;
  c["zero_load_network_latency"] = z.network;
  c["units"] = {{"rates", "flits/node/cycle"}, {"latencies", "cycles"},
                {"utilisation", "flits/cycle per link"}};
  return c;
}

struct NocSimArgs {
  TrafficConfig t;
  std::string pattern = "uniform";
  double rate = 0.0;
  std::string rates, sweep, seed = "1";
  uint32_t credit_latency = 0;
  std::string json_path, plot_path;
  bool links = false;
  unsigned jobs = 0;
  CLI::Option *rate_opt = nullptr, *rates_opt = nullptr, *sweep_opt = nullptr;
  CLI::Option *credit_opt = nullptr, *jobs_opt = nullptr, *json_opt = nullptr,
              *plot_opt = nullptr;
  std::vector<CLI::Option*> hotspot_opts;  // only with --pattern hotspot
};

void add_traffic_options(CLI::App& app, NocSimArgs& a) {
  TrafficConfig& t = a.t;
  add_topology_option(app, t.topology,
                      "(patterns see a switch or file network's nodes as one row)")
      ->capture_default_str();
  app.add_option("-p,--pattern", a.pattern,
                 "uniform (random other node), transpose ((x,y)->(y,x), square only), bitcomp "
                 "(id bits complemented, 2^k nodes), neighbor ((x+1 mod W, y)) or hotspot")
      ->capture_default_str();
  a.rate_opt = app.add_option("-r,--rate", a.rate, "one offered load, flits/node/cycle in (0, 1]");
  a.rates_opt =
      app.add_option("--rates", a.rates, "comma-separated offered loads, e.g. 0.02,0.05,0.1");
  a.sweep_opt = app.add_option(
      "--sweep", a.sweep,
      fmt::format("offered loads START:STOP:STEP (default {} when no rate is given)",
                  kDefaultSweep));
  a.rate_opt->excludes(a.rates_opt)->excludes(a.sweep_opt);
  a.rates_opt->excludes(a.sweep_opt);
  app.add_option("-n,--packet-flits", t.packet_flits, "flits per packet")->capture_default_str();
  app.add_option("--warmup", t.warmup, "warm-up cycles, not measured")->capture_default_str();
  app.add_option("--measure", t.measure, "measurement window, cycles")->capture_default_str();
  app.add_option("--drain-timeout", t.drain_timeout,
                 "cycles after the window to wait for the measured packets")
      ->capture_default_str();
  app.add_option("--seed", a.seed, "random seed (same seed, same results)")->capture_default_str();
  a.hotspot_opts = {
      app.add_option("--hotspot-node", t.pattern.hotspot_node, "hotspot: the hot node")
          ->capture_default_str(),
      app.add_option("--hotspot-fraction", t.pattern.hotspot_fraction,
                     "hotspot: probability a packet goes to the hot node (otherwise uniform)")
          ->capture_default_str()};
}

void add_network_options(CLI::App& app, NocSimArgs& a) {
  NocConfig& noc = a.t.noc;
  add_noc_options(app, noc);
  a.credit_opt = app.add_option("--credit-latency", a.credit_latency,
                                "credit latency over a link, cycles, at least 1 (default: the "
                                "link latency)")
                     ->check(latency_cycles());
  app.add_option("--local-latency", noc.local_latency,
                 "NI <-> router injection/ejection latency, cycles")
      ->check(latency_cycles())
      ->capture_default_str();
  app.add_flag("--wormhole", noc.wormhole, "wormhole flow control (default: virtual cut-through)");
  a.json_opt = app.add_option("--json", a.json_path, "write the results as JSON here");
  a.plot_opt =
      app.add_option("--plot", a.plot_path, "draw latency vs offered load into this PNG (gnuplot)");
  app.add_flag("--links", a.links, "print every link's utilisation for each load");
  a.jobs_opt = app.add_option("-j,--jobs", a.jobs,
                              "simulations run in parallel (default: one per core, at most one "
                              "per load)");
}

// Checks and completes the configuration; returns the offered loads.
std::vector<double> prepare(NocSimArgs& a) {
  TrafficConfig& t = a.t;
  t.pattern.kind = parse_pattern(a.pattern);
  for (const CLI::Option* o : a.hotspot_opts) {
    if (o->count() != 0 && t.pattern.kind != PatternKind::kHotspot) {
      throw InputError(fmt::format("{}: only for --pattern hotspot (the pattern is {})",
                                   o->get_name(), a.pattern));
    }
  }
  t.seed = parse_unsigned(a.seed, "--seed");
  if (a.jobs_opt->count() != 0 && a.jobs == 0) throw InputError("-j 0: run at least 1 job");
  if (a.credit_opt->count() != 0 && a.credit_latency == 0) {
    throw InputError("--credit-latency 0: a credit takes at least 1 cycle (leave the option out "
                     "for the link latency)");
  }
  t.noc.credit_latency = a.credit_opt->count() != 0 ? a.credit_latency : t.noc.link_latency;
  // Synthetic traffic has no all-reduce messages, so their sub-packet size must not stop a
  // shallow --vc-depth.
  t.noc.subpacket_flits = std::max(1u, std::min(t.noc.subpacket_flits, t.noc.vc_depth));
  std::vector<double> loads;
  if (*a.rate_opt) {
    check_rate(a.rate);
    loads = {a.rate};
  } else if (*a.rates_opt) {
    loads = parse_rates(a.rates);
  } else {
    loads = parse_sweep(*a.sweep_opt ? a.sweep : kDefaultSweep);
  }
  t.rate = loads.front();
  return loads;
}

std::vector<RunStats> run_loads(const TrafficConfig& t, const std::vector<double>& loads,
                                unsigned parallel) {
  std::vector<std::function<std::string()>> work;
  for (double load : loads) {
    TrafficConfig point = t;
    point.rate = load;
    work.push_back([point] { return to_json(run_traffic(point), true).dump(); });
  }
  const std::vector<ChildResult> results = run_in_children(work, parallel);
  std::vector<RunStats> runs;
  for (size_t i = 0; i < results.size(); ++i) {
    const ChildResult& r = results[i];
    if (r.status == ChildResult::Status::kInputError) throw InputError(r.text);
    if (!r.ok()) throw std::runtime_error(fmt::format("offered load {}: {}", loads[i], r.text));
    runs.push_back(run_stats_from_json(nlohmann::json::parse(r.text)));
  }
  return runs;
}

std::string pattern_text(const TrafficConfig& t) {
  std::string s = pattern_name(t.pattern.kind);
  if (t.pattern.kind == PatternKind::kHotspot) {
    s += fmt::format(" (node {}, fraction {})", t.pattern.hotspot_node, t.pattern.hotspot_fraction);
  }
  return s;
}

std::string header(const TrafficConfig& t, const Topology& topo, const ZeroLoad& zero) {
  return fmt::format("noc-sim: {} ({} nodes), {} traffic, {}-flit packets\n", topo.spec(),
                     topo.nodes(), pattern_text(t), t.packet_flits) +
         fmt::format("network: {} VCs x {} flits, {}, router {} cycles, links {} cycles "
                     "(credits {}), local {}\n",
                     t.noc.vcs, t.noc.vc_depth, flow_control(t.noc), router_delay(t.noc),
                     t.noc.link_latency, t.noc.credit_latency, t.noc.local_latency) +
         fmt::format("phases: warm-up {}, measure {}, drain timeout {} cycles; seed {}\n",
                     t.warmup, t.measure, t.drain_timeout, t.seed) +
         fmt::format("zero-load latency {:.1f} cycles (network {:.1f}, {:.2f} hops on average)\n",
                     zero.total, zero.network, zero.hops);
}

void write_outputs(const NocSimArgs& a, const Topology& topo, const ZeroLoad& zero,
                   const std::vector<RunStats>& runs, const std::string& gnuplot,
                   std::ostream& out) {
  const TrafficConfig& t = a.t;
  if (!a.json_path.empty()) {
    nlohmann::json doc;
    doc["topology"] = topo.spec();
    doc["pattern"] = pattern_name(t.pattern.kind);
    doc["config"] = config_json(t, topo, zero);
    doc["points"] = nlohmann::json::array();
    for (const RunStats& r : runs) doc["points"].push_back(to_json(r));
    write_file(a.json_path, doc.dump(2) + "\n", "--json");
    out << "wrote " << a.json_path << "\n";
  }
  if (!a.plot_path.empty()) {
    PlotInfo info;
    info.title = fmt::format("noc-sim: {}, {} traffic, {}-flit packets", topo.spec(),
                             pattern_text(t), t.packet_flits);
    info.subtitle = fmt::format(
        "{} VCs x {} flits, {}, router {} cycles, links {} cycles; warm-up {}, measure {} "
        "cycles, seed {}",
        t.noc.vcs, t.noc.vc_depth, flow_control(t.noc), router_delay(t.noc), t.noc.link_latency,
        t.warmup, t.measure, t.seed);
    info.zero_load = zero.total;
    write_plot(gnuplot, runs, info, a.plot_path);
    out << "wrote " << a.plot_path << "\n";
  }
}

int run_noc_sim(NocSimArgs& a, std::ostream& out) {
  const std::vector<double> loads = prepare(a);
  const TrafficConfig& t = a.t;
  check_run_files({{"--json", a.json_path}, {"--plot", a.plot_path}},
                  topology_inputs(t.topology, "-t"));
  const Topology topo = t.checked_topology();  // every check, before any child runs
  if (a.json_opt->count() != 0) check_writable(a.json_path, "--json");
  std::string gnuplot;
  if (a.plot_opt->count() != 0) {
    gnuplot = find_gnuplot();
    check_writable(a.plot_path, "--plot");
  }
  const ZeroLoad zero = mean_zero_load(topo, t.noc, t.pattern, t.packet_flits);
  out << header(t, topo, zero);
  finish_output(out);  // before the long part: a full disk is known now

  unsigned parallel = a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  parallel = std::min<unsigned>(parallel, static_cast<unsigned>(loads.size()));
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<RunStats> runs = run_loads(t, loads, parallel);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  out << "\nrates flits/node/cycle; latency cycles (offered -> tail arrived); net = from head "
         "sent; max link = busiest link's flits/cycle\n"
      << points_table(runs);
  if (a.links) {
    for (const RunStats& r : runs) {
      out << fmt::format("\nlink utilisation at offered load {}:\n", r.offered) << links_table(r);
    }
  }
  double simulated = 0.0;
  for (const RunStats& r : runs) simulated += r.elaboration_seconds + r.simulation_seconds;
  out << fmt::format("\n{} load(s) in {:.2f} s wall ({:.2f} s of simulation in {} process(es))\n",
                     runs.size(), wall, simulated, parallel);
  write_outputs(a, topo, zero, runs, gnuplot, out);
  return 0;
}

}  // namespace

int noc_sim_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  NocSimArgs a;
  CLI::App app{
      "noc-sim: synthetic traffic on the cycle-accurate SystemC network (systemc/README.md). For "
      "each offered load it builds a fresh network, warms it up, measures the packets offered "
      "during a window and runs until they have all arrived (BookSim's method), then prints "
      "a latency-throughput table.\n\nRates are flits/node/cycle, latencies cycles from a "
      "packet being offered (Bernoulli process) to its tail arriving. A point is saturated when "
      "its measured packets do not drain before --drain-timeout or the undelivered flits "
      "(all of them, or those for one node) grow through the window beyond noise.\n\nThe defaults (torus:8x8, uniform, 20 loads from 0.05 "
      "to 1, through saturation at about 0.65) take about 10 s of CPU, spread over the cores.\n"};
  add_traffic_options(app, a);
  add_network_options(app, a);
  const int parsed = parse_command_line(app, argc, argv, "noc-sim", out, err);
  if (parsed >= 0) return parsed;
  return run_tool("noc-sim", out, err, [&] { return run_noc_sim(a, out); });
}

}  // namespace mt::noc
