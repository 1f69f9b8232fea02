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

#include "common/error.hpp"
#include "common/output_file.hpp"
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

uint32_t router_delay(const NocConfig& c) {
  return c.rc_delay + c.va_delay + c.sa_delay + c.st_delay;
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

}  // namespace

int noc_sim_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  TrafficConfig t;
  std::string pattern = "uniform";
  double rate = 0.0;
  std::string rates, sweep;
  uint32_t credit_latency = 0;
  std::string json_path, plot_path;
  bool links = false;
  unsigned jobs = 0;

  CLI::App app{
      "noc-sim: synthetic traffic on the cycle-accurate SystemC network (systemc/README.md). For "
      "each offered load it builds a fresh network, warms it up, measures the packets offered "
      "during a window and runs until they have all arrived (BookSim's method), then prints "
      "a latency-throughput table.\n\nRates are flits/node/cycle, latencies cycles from a "
      "packet being offered (Bernoulli process) to its tail arriving. A point is saturated when "
      "its measured packets do not drain before --drain-timeout or the undelivered flits "
      "(all of them, or those for one node) grow through the window beyond noise.\n\nThe defaults (torus:8x8, uniform, 20 loads from 0.05 "
      "to 1, through saturation at about 0.65) take about 10 s of CPU, spread over the cores.\n"};
  app.add_option("-t,--topology", t.topology, "torus:WxH, mesh:WxH or ring:N")
      ->capture_default_str();
  app.add_option("-p,--pattern", pattern,
                 "uniform (random other node), transpose ((x,y)->(y,x), square only), bitcomp "
                 "(id bits complemented, 2^k nodes), neighbor ((x+1 mod W, y)) or hotspot")
      ->capture_default_str();
  CLI::Option* rate_opt =
      app.add_option("-r,--rate", rate, "one offered load, flits/node/cycle in (0, 1]");
  CLI::Option* rates_opt =
      app.add_option("--rates", rates, "comma-separated offered loads, e.g. 0.02,0.05,0.1");
  CLI::Option* sweep_opt = app.add_option(
      "--sweep", sweep,
      fmt::format("offered loads START:STOP:STEP (default {} when no rate is given)",
                  kDefaultSweep));
  rate_opt->excludes(rates_opt)->excludes(sweep_opt);
  rates_opt->excludes(sweep_opt);
  app.add_option("-n,--packet-flits", t.packet_flits, "flits per packet")->capture_default_str();
  app.add_option("--vcs", t.noc.vcs, "virtual channels per port (2 or 4)")->capture_default_str();
  app.add_option("--vc-depth", t.noc.vc_depth, "flits per VC buffer")->capture_default_str();
  app.add_option("--link-latency", t.noc.link_latency, "router-to-router link latency, cycles")
      ->capture_default_str();
  app.add_option("--credit-latency", credit_latency,
                 "credit latency over a link, cycles (default: the link latency)");
  app.add_option("--local-latency", t.noc.local_latency,
                 "NI <-> router injection/ejection latency, cycles")
      ->capture_default_str();
  app.add_flag("--wormhole", t.noc.wormhole,
               "wormhole flow control (default: virtual cut-through)");
  app.add_option("--warmup", t.warmup, "warm-up cycles, not measured")->capture_default_str();
  app.add_option("--measure", t.measure, "measurement window, cycles")->capture_default_str();
  app.add_option("--drain-timeout", t.drain_timeout,
                 "cycles after the window to wait for the measured packets")
      ->capture_default_str();
  app.add_option("--seed", t.seed, "random seed (same seed, same results)")->capture_default_str();
  app.add_option("--hotspot-node", t.pattern.hotspot_node, "hotspot: the hot node")
      ->capture_default_str();
  app.add_option("--hotspot-fraction", t.pattern.hotspot_fraction,
                 "hotspot: probability a packet goes to the hot node (otherwise uniform)")
      ->capture_default_str();
  app.add_option("--json", json_path, "write the results as JSON here");
  app.add_option("--plot", plot_path, "draw latency vs offered load into this PNG (gnuplot)");
  app.add_flag("--links", links, "print every link's utilisation for each load");
  app.add_option("-j,--jobs", jobs,
                 "simulations run in parallel (default: one per core, at most one per load)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);  // --help exits 0; the rest is bad input
    return code == 0 ? 0 : 1;
  }

  try {
    t.pattern.kind = parse_pattern(pattern);
    t.noc.credit_latency = credit_latency > 0 ? credit_latency : t.noc.link_latency;
    // Synthetic traffic has no all-reduce messages, so their sub-packet size must not stop a
    // shallow --vc-depth.
    t.noc.subpacket_flits = std::max(1u, std::min(t.noc.subpacket_flits, t.noc.vc_depth));
    std::vector<double> loads;
    if (*rate_opt) {
      check_rate(rate);
      loads = {rate};
    } else if (*rates_opt) {
      loads = parse_rates(rates);
    } else {
      loads = parse_sweep(*sweep_opt ? sweep : kDefaultSweep);
    }
    t.rate = loads.front();
    const Topology topo = t.checked_topology();  // every check, before any child runs
    if (!json_path.empty()) check_writable(json_path, "--json");
    std::string gnuplot;
    if (!plot_path.empty()) {
      gnuplot = find_gnuplot();
      check_writable(plot_path, "--plot");
    }
    const ZeroLoad zero = mean_zero_load(topo, t.noc, t.pattern, t.packet_flits);

    std::string pattern_text = pattern_name(t.pattern.kind);
    if (t.pattern.kind == PatternKind::kHotspot) {
      pattern_text += fmt::format(" (node {}, fraction {})", t.pattern.hotspot_node,
                                  t.pattern.hotspot_fraction);
    }
    out << fmt::format("noc-sim: {} ({} nodes), {} traffic, {}-flit packets\n", topo.spec(),
                       topo.nodes(), pattern_text, t.packet_flits)
        << fmt::format("network: {} VCs x {} flits, {}, router {} cycles, links {} cycles "
                       "(credits {}), local {}\n",
                       t.noc.vcs, t.noc.vc_depth, flow_control(t.noc), router_delay(t.noc),
                       t.noc.link_latency, t.noc.credit_latency, t.noc.local_latency)
        << fmt::format("phases: warm-up {}, measure {}, drain timeout {} cycles; seed {}\n",
                       t.warmup, t.measure, t.drain_timeout, t.seed)
        << fmt::format("zero-load latency {:.1f} cycles (network {:.1f}, {:.2f} hops on average)\n",
                       zero.total, zero.network, zero.hops);
    out.flush();

    std::vector<std::function<std::string()>> work;
    for (double load : loads) {
      TrafficConfig point = t;
      point.rate = load;
      work.push_back([point] { return to_json(run_traffic(point), true).dump(); });
    }
    unsigned parallel = jobs > 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
    parallel = std::min<unsigned>(parallel, static_cast<unsigned>(work.size()));
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<ChildResult> results = run_in_children(work, parallel);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::vector<RunStats> runs;
    for (size_t i = 0; i < results.size(); ++i) {
      const ChildResult& r = results[i];
      if (r.status == ChildResult::Status::kInputError) throw InputError(r.text);
      if (!r.ok()) {
        throw std::runtime_error(fmt::format("offered load {}: {}", loads[i], r.text));
      }
      runs.push_back(run_stats_from_json(nlohmann::json::parse(r.text)));
    }

    out << "\nrates flits/node/cycle; latency cycles (offered -> tail arrived); net = from head "
           "sent; max link = busiest link's flits/cycle\n"
        << points_table(runs);
    if (links) {
      for (const RunStats& r : runs) {
        out << fmt::format("\nlink utilisation at offered load {}:\n", r.offered) << links_table(r);
      }
    }
    double simulated = 0.0;
    for (const RunStats& r : runs) simulated += r.elaboration_seconds + r.simulation_seconds;
    out << fmt::format("\n{} load(s) in {:.2f} s wall ({:.2f} s of simulation in {} process(es))\n",
                       runs.size(), wall, simulated, parallel);

    if (!json_path.empty()) {
      nlohmann::json doc;
      doc["topology"] = topo.spec();
      doc["pattern"] = pattern_name(t.pattern.kind);
      doc["config"] = config_json(t, topo, zero);
      doc["points"] = nlohmann::json::array();
      for (const RunStats& r : runs) doc["points"].push_back(to_json(r));
      write_file(json_path, doc.dump(2) + "\n");
      out << "wrote " << json_path << "\n";
    }
    if (!plot_path.empty()) {
      PlotInfo info;
      info.title = fmt::format("noc-sim: {}, {} traffic, {}-flit packets", topo.spec(),
                               pattern_text, t.packet_flits);
      info.subtitle = fmt::format(
          "{} VCs x {} flits, {}, router {} cycles, links {} cycles; warm-up {}, measure {} "
          "cycles, seed {}",
          t.noc.vcs, t.noc.vc_depth, flow_control(t.noc), router_delay(t.noc),
          t.noc.link_latency, t.warmup, t.measure, t.seed);
      info.zero_load = zero.total;
      write_plot(gnuplot, runs, info, plot_path);
      out << "wrote " << plot_path << "\n";
    }
    return 0;
  } catch (const InputError& e) {
    err << "noc-sim: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "noc-sim: internal error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace mt::noc
