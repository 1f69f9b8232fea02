#include "traffic/experiment.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <systemc>

#include "common/error.hpp"
#include "endpoint/endpoint.hpp"
#include "network/network.hpp"
#include "stats/link_load.hpp"
#include "traffic/bernoulli.hpp"
#include "traffic/child_process.hpp"
#include "traffic/traffic_source.hpp"

namespace mt::noc {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Marks the window's ends and stops the simulation. It looks at the network three quarters
// into the cycle before each boundary: every flit of that cycle has moved, and the traffic
// sources (on the boundary and half-way) are not running.
class Supervisor : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Supervisor);
  Supervisor(sc_core::sc_module_name name, const TrafficConfig& cfg, Network& net, PacketLog& log)
      : sc_module(name), cfg_(cfg), net_(net), log_(log),
        period_(static_cast<double>(cfg.noc.clock_ps), sc_core::SC_PS) {
    SC_THREAD(run);
  }

  std::vector<uint64_t> start, end;  // flits_out at the window's ends
  uint64_t in_system_start = 0, in_system_end = 0;
  std::vector<uint64_t> dest_start, dest_end;  // per destination
  uint64_t cycles = 0;

 private:
  // Three quarters into cycle c - 1, i.e. just before boundary c.
  sc_core::sc_time before_boundary(uint64_t c) const {
    return sc_core::sc_time::from_value(c * period_.value() - period_.value() / 4);
  }
  void wait_until(const sc_core::sc_time& t) {
    if (t > sc_core::sc_time_stamp()) wait(t - sc_core::sc_time_stamp());
  }

  void run() {
    const uint64_t w = cfg_.warmup, m = cfg_.measure;
    if (w > 0) wait_until(before_boundary(w));
    start = link_flits(net_);
    in_system_start = log_.flits_in_system();
    dest_start = log_.flits_in_system_by_dest();
    wait_until(before_boundary(w + m));
    end = link_flits(net_);
    in_system_end = log_.flits_in_system();
    dest_end = log_.flits_in_system_by_dest();
    log_.close_window([this] { drained_.notify(sc_core::SC_ZERO_TIME); });
    const sc_core::sc_time deadline = before_boundary(w + m + cfg_.drain_timeout);
    if (!log_.drained() && deadline > sc_core::sc_time_stamp()) {
      wait(deadline - sc_core::sc_time_stamp(), drained_);
    }
    cycles = sc_core::sc_time_stamp().value() / period_.value() + 1;
    sc_core::sc_stop();
  }

  const TrafficConfig& cfg_;
  Network& net_;
  PacketLog& log_;
  sc_core::sc_time period_;
  sc_core::sc_event drained_;
};

// Flits/cycle ejected at each node and of each node's own flits, over the window.
void per_node_accepted(const PacketLog& log, uint64_t measure, RunStats& s) {
  const double window = static_cast<double>(measure);
  for (uint64_t f : log.flits_ejected_in_window_by_dest()) s.accepted_at.push_back(static_cast<double>(f) / window);
  for (uint64_t f : log.flits_ejected_in_window_by_src()) s.accepted_from.push_back(static_cast<double>(f) / window);
}

}  // namespace

Topology TrafficConfig::checked_topology() const {
  noc.validate();
  if (noc.clock_ps < 4) throw InputError("traffic runs need a clock period of at least 4 ps");
  // Before building the network (a torus:4096x4096 takes seconds to build); every kind but a
  // file has a size without one. About 86 KB a router, measured.
  if (const auto size = topology_size(topology)) {
    check_network_fits(topology, size->nodes + size->switches, 100 * 1024);
  }
  Topology topo = parse_topology(topology);
  check_network_fits(topo.spec(), uint64_t{topo.nodes()} + topo.switches(), 100 * 1024);
  const auto [width, height] = pattern_shape(topo);
  check_pattern(pattern, width, height);
  BernoulliInjection(rate, packet_flits);  // checks rate and length
  if (!noc.wormhole && packet_flits > noc.vc_depth) {
    throw InputError(fmt::format(
        "{}-flit packets do not fit a {}-flit VC buffer, which virtual cut-through needs; use a "
        "deeper --vc-depth or --wormhole",
        packet_flits, noc.vc_depth));
  }
  if (measure < 1) throw InputError("the measurement window needs at least 1 cycle");
  const uint64_t limit = 1ull << 40;  // far beyond anything that finishes, and no overflow
  if (warmup > limit || measure > limit || drain_timeout > limit) {
    throw InputError("warm-up, measurement and drain must each be below 2^40 cycles");
  }
  return topo;
}

RunStats run_traffic(const TrafficConfig& cfg,
                     const std::function<void(const Topology&, const PacketLog&)>& inspect) {
  const Topology topo = cfg.checked_topology();
  const uint32_t n = topo.nodes();
  // sc_stop()'s "Simulation stopped by user." is no news here.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);

  const Clock::time_point t0 = Clock::now();
  PacketLog log(n, cfg.warmup, cfg.warmup + cfg.measure);
  Network net("network", topo, cfg.noc);
  std::vector<std::unique_ptr<Endpoint>> endpoints;
  std::vector<std::unique_ptr<TrafficSource>> sources;
  SourceConfig sc;
  sc.pattern = cfg.pattern;
  std::tie(sc.width, sc.height) = pattern_shape(topo);
  sc.rate = cfg.rate;
  sc.packet_flits = cfg.packet_flits;
  sc.seed = cfg.seed;
  sc.stop_cycle = cfg.warmup + cfg.measure + cfg.drain_timeout;
  for (uint32_t i = 0; i < n; ++i) {
    endpoints.push_back(
        std::make_unique<Endpoint>(fmt::format("endpoint_{}", i).c_str(), i, cfg.noc));
    endpoints.back()->out.bind(net.inject(i));
    net.eject(i).bind(endpoints.back()->in);
    sources.push_back(std::make_unique<TrafficSource>(fmt::format("source_{}", i).c_str(),
                                                      *endpoints.back(), sc, cfg.noc.clock_ps, log));
  }
  Supervisor supervisor("supervisor", cfg, net, log);
  // A deadlocked network would otherwise look saturated; the router's watchdog stops the run
  // when no flit moves for many link round trips while flits are inside.
  const NocConfig& c = cfg.noc;
  // A file link of its own latency (Network::longest_link_latency) may be the longest.
  const uint64_t round_trip = net.topology().has_link_latencies()
                                  ? 2 * net.longest_link_latency()
                                  : uint64_t{c.link_latency} + c.credit_latency;
  net.set_watchdog(8 * (round_trip + c.rc_delay + c.va_delay +
                       c.sa_delay + c.st_delay + 2ull * c.local_latency + cfg.packet_flits));
  const Clock::time_point t1 = Clock::now();
  sc_core::sc_start();
  const double sim_seconds = seconds_since(t1);

  if (net.stalled()) throw std::runtime_error("the network deadlocked: " + net.stall_report());
  if (log.error_count() > 0) {
    std::string msg = fmt::format("the network broke the flit protocol ({} errors):",
                                  log.error_count());
    for (const std::string& e : log.errors()) msg += "\n  " + e;
    throw std::runtime_error(msg);
  }
  if (inspect) inspect(topo, log);

  RunStats s;
  s.offered = cfg.rate;
  const double slots = static_cast<double>(n) * static_cast<double>(cfg.measure);
  s.injected = static_cast<double>(log.flits_created_in_window()) / slots;
  s.accepted = static_cast<double>(log.flits_ejected_in_window()) / slots;
  per_node_accepted(log, cfg.measure, s);
  std::vector<uint64_t> total, network;
  log.for_each([&](uint64_t, const PacketRecord& r) {
    if (!log.in_window(r.created) || r.arrived == PacketRecord::kNever) return;
    total.push_back(r.arrived - r.created);
    network.push_back(r.arrived - r.head_sent);
  });
  s.packets = total.size();
  s.unfinished = log.measured_created() - log.measured_arrived();
  s.latency = summarize(std::move(total));
  s.network_latency = summarize(std::move(network));
  s.in_system_start = supervisor.in_system_start;
  s.in_system_end = supervisor.in_system_end;
  s.drained = log.drained();
  const FlowBalance all_flits{log.flits_created_in_window(), log.flits_ejected_in_window(),
                              s.in_system_start, s.in_system_end};
  std::vector<FlowBalance> per_dest(n);
  for (uint32_t d = 0; d < n; ++d) {
    per_dest[d] = {log.flits_created_in_window_by_dest()[d],
                   log.flits_ejected_in_window_by_dest()[d], supervisor.dest_start[d],
                   supervisor.dest_end[d]};
  }
  s.saturation_reason = saturation_reason(s.drained, all_flits, per_dest, cfg.packet_flits);
  s.saturated = !s.saturation_reason.empty();
  s.cycles = supervisor.cycles;
  s.router_cycles = net.router_cycles();
  s.routers = net.routers();
  s.links = link_loads(net, supervisor.start, supervisor.end, cfg.measure);
  double sum = 0.0;
  for (const LinkLoad& l : s.links) {
    s.max_link_utilisation = std::max(s.max_link_utilisation, l.utilisation);
    sum += l.utilisation;
  }
  s.mean_link_utilisation = s.links.empty() ? 0.0 : sum / static_cast<double>(s.links.size());
  s.errors = log.error_count();
  s.elaboration_seconds = std::chrono::duration<double>(t1 - t0).count();
  s.simulation_seconds = sim_seconds;
  return s;
}

RunStats run_traffic_isolated(const TrafficConfig& cfg) {
  const std::vector<ChildResult> r =
      run_in_children({[&cfg] { return to_json(run_traffic(cfg), true).dump(); }});
  if (r[0].status == ChildResult::Status::kInputError) throw InputError(r[0].text);
  if (!r[0].ok()) throw std::runtime_error(r[0].text);
  return run_stats_from_json(nlohmann::json::parse(r[0].text));
}

}  // namespace mt::noc
