#include "allreduce/allreduce_system.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "allreduce/aggregation_setup.hpp"
#include "topology/cut_bound.hpp"
#include "topology/physical_bound.hpp"
#include "common/error.hpp"
#include "ni/network_interface.hpp"
#include "stats/link_load.hpp"
#include "router/router.hpp"

namespace mt::noc {
namespace {

std::shared_ptr<const SampledLines> sample_of(const TableSet& set,
                                              const AllReduceOptions& opt) {
  if (opt.data == DataMode::kFull) return nullptr;
  return std::make_shared<const SampledLines>(DataSample(set, opt.seed).lines());
}

}  // namespace

AllReduceSystem::AllReduceSystem(sc_core::sc_module_name name, const Topology& topo,
                                 const TableSet& set, std::vector<std::vector<uint8_t>> images,
                                 const AllReduceOptions& opt, const NocConfig& noc,
                                 const MemoryConfig& memory, const Plan* plan)
    : sc_module(name), topo_(topo), set_(set), images_(std::move(images)), noc_(noc),
      flow_control_(opt.ni.flow_control), rtl_nodes_(opt.rtl_nodes), net_("network", topo, noc),
      data_mode_(opt.data), sample_(sample_of(set, opt)),
      data_(topo.nodes(), set.bytes, set.dtype, opt.seed, sample_) {
  // A head flit names its flow in its Tree field (format/README.md).
  constexpr uint64_t kFlowCodes = uint64_t{1} << format::flit::kHeadTree.bits;
  if (set.flows > kFlowCodes) {
    throw InputError(fmt::format("{} flows; a head flit's Tree field names at most {}",
                                 set.flows, kFlowCodes));
  }
  if (opt.fault && opt.fault->node >= topo.nodes()) {
    throw InputError(fmt::format("--inject-fault: node {} does not exist ({} nodes)",
                                 opt.fault->node, topo.nodes()));
  }
  for (uint32_t n : opt.rtl_nodes) {
    if (n >= topo.nodes()) {
      throw InputError(fmt::format("RTL node {} does not exist ({} nodes)", n, topo.nodes()));
    }
  }
  if (opt.rtl_all) {
    rtl_nodes_.resize(topo.nodes());
    for (uint32_t n = 0; n < topo.nodes(); ++n) rtl_nodes_[n] = n;
  }
  if (!rtl_nodes_.empty() && !opt.rtl_ni) {
    throw InputError("RTL nodes were asked for, but this program cannot build the RTL NI");
  }
  if (!rtl_nodes_.empty() && net_.switched()) {
    throw InputError(fmt::format("RTL nodes on {}: the RTL NI sends on a torus, mesh or ring "
                                 "with no failed link only (it has no source routes for "
                                 "switches or for a network routed by tables)", topo.spec()));
  }
  // Packets follow the tables: the planner's switch paths are for messages only (a path
  // longer than the head's Route field holds does not stop a packet run).
  if (net_.switched() && !topo.direct()) {
    const bool messages = opt.ni.flow_control == FlowControl::kMessage;
    switch_paths_ = std::make_unique<SwitchPaths>(net_, messages ? plan : nullptr);
  }
  if (plan && !plan->aggregations.empty()) {
    if (opt.ni.flow_control != FlowControl::kMessage) {
      throw InputError(fmt::format("in-network aggregation ({}) takes messages: the switches "
                                   "sum a flow's messages flit by flit, and packets of the flow "
                                   "carry no sequence of their own; use --flow-control message",
                                   plan->algorithm));
    }
    AggregationConfig aggregation = opt.aggregation;
    aggregation.dtype = set.dtype;
    load_aggregation(net_, *plan, aggregation);
  }
  std::sort(rtl_nodes_.begin(), rtl_nodes_.end());
  rtl_nodes_.erase(std::unique(rtl_nodes_.begin(), rtl_nodes_.end()), rtl_nodes_.end());
  // Links of their own latency (a file's "latency") wait as long as their longest.
  const uint64_t round_trip = topo.has_link_latencies()
                                  ? 2 * net_.longest_link_latency()
                                  : uint64_t{noc.link_latency} + noc.credit_latency;
  net_.set_watchdog(std::max<uint64_t>(opt.ni.watchdog_cycles, 4 * round_trip));
  std::vector<NiModel*> nis;
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    memories_.push_back(
        std::make_unique<AccelMemory>(fmt::format("memory_{}", n).c_str(), memory, sample_));
    fill(n, opt);
    nis_.push_back(build_ni(n, opt));
    NiModel& ni = *nis_.back();
    ni.memory().bind(memories_.back()->port);
    for (uint32_t i = 0; i < noc.ni_ports; ++i) {
      ni.flit_out(i).bind(net_.inject(n, i));
      net_.eject(n, i).bind(ni.flit_in(i));
    }
    observe(ni, opt.record_issues);
    nis.push_back(&ni);
  }
  // Every NI is a SystemC NI on the network's scheduler and no trace samples SystemC's time:
  // each node may run a link's latency ahead of the others (CycleScheduler, "Groups and
  // lookahead"). The memory shares the NoC's clock, so its acceptance cycle is the same.
  if (!opt.lockstep && rtl_nodes_.empty() && opt.trace.empty() &&
      memory.clock_ps == noc.clock_ps) {
    net_.scheduler().set_lookahead(net_.lookahead());
    const std::vector<uint8_t> colours = net_.group_colours();
    if (!colours.empty()) net_.scheduler().set_colours(colours);
  }
  host_ = std::make_unique<Host>("host", nis, images_);
  // An RTL NI's memory accesses and the flits and credits on their way to and from it are not
  // on the network's scheduler: the monitor waits out their latencies before it looks there.
  const uint64_t hidden = rtl_nodes_.empty() ? 0
                                             : uint64_t{noc.link_latency} + noc.credit_latency +
                                                   memory.latency + opt.reduction.latency;
  monitor_ = std::make_unique<Monitor>("monitor", nis, net_, noc.clock_ps, opt.ni.watchdog_cycles,
                                       hidden, opt.progress);
  if (!opt.trace.empty()) {
    // sc_create_vcd_trace_file appends ".vcd".
    trace_ = sc_core::sc_create_vcd_trace_file(opt.trace.substr(0, opt.trace.size() - 4).c_str());
    trace_->set_time_unit(static_cast<double>(noc.clock_ps), sc_core::SC_PS);
    for (uint32_t n : opt.trace_nodes) nis_[n]->trace(trace_);
  }
}

AllReduceSystem::~AllReduceSystem() {
  if (trace_) sc_core::sc_close_vcd_trace_file(trace_);
}

void AllReduceSystem::fill(uint32_t n, const AllReduceOptions& opt) {
  data_.fill(n, memories_[n]->data());
  if (!opt.fault || opt.fault->node != n) return;
  if (!data_.add_one(memories_[n]->data(), opt.fault->element)) {
    throw InputError(fmt::format("--inject-fault: element {} is not checked with --data {}",
                                 opt.fault->element, data_mode_name(data_mode_)));
  }
}

std::unique_ptr<NiModel> AllReduceSystem::build_ni(uint32_t n, const AllReduceOptions& opt) {
  NiSetup s;
  s.place.node = n;
  s.place.nodes = topo_.nodes();
  s.place.grid = net_.router(n).place();
  for (uint8_t p = 0; p < kPorts; ++p) s.place.neighbour[p] = net_.router(n).neighbour(p);
  s.place.direct = net_.switched() && topo_.direct();
  s.place.hop_code = net_.router(n).hop_code();
  if (s.place.direct) {
    s.place.switch_route = [net = &net_, n](uint32_t dest, uint32_t, Op) {
      return net->table_first_hop(n, dest);
    };
  } else if (switch_paths_) {
    s.place.switch_route = [paths = switch_paths_.get(), n](uint32_t dest, uint32_t flow, Op op) {
      return paths->route(n, dest, flow, op);
    };
  }
  s.noc = noc_;
  s.ni = opt.ni;
  s.reduction = opt.reduction;
  s.dtype = set_.dtype;
  const std::string name = fmt::format("ni_{}", n);
  if (std::binary_search(rtl_nodes_.begin(), rtl_nodes_.end(), n)) {
    const bool traced = !opt.rtl_waves.empty() &&
        std::find(opt.trace_nodes.begin(), opt.trace_nodes.end(), n) != opt.trace_nodes.end();
    if (traced) s.waves = fmt::format("{}.rtl_node_{}.fst", opt.rtl_waves, n);
    return opt.rtl_ni(name, s);
  }
  auto ni = std::make_unique<NetworkInterface>(name.c_str(), s.place, s.noc, s.ni, s.reduction,
                                               s.dtype, net_.scheduler());
  if (sample_) ni->set_data_sample(sample_, memories_[n]->config().base);
  if (opt.on_ni) opt.on_ni(n, *ni);
  return ni;
}

void AllReduceSystem::observe(NiModel& ni, bool record_issues) {
  ni.on_step = [this](uint32_t, uint32_t step, uint64_t cycle) {
    auto [it, fresh] = spans_.try_emplace(step, StepSpan{step, cycle, cycle});
    it->second.first_cycle = std::min(it->second.first_cycle, cycle);
    it->second.last_cycle = std::max(it->second.last_cycle, cycle);
  };
  if (record_issues) {
    ni.on_issue = [this](uint32_t node, size_t index, const TableEntry& e, uint64_t cycle) {
      issues_.push_back({node, index, e, cycle});
    };
  }
}

std::string AllReduceSystem::failure() const {
  for (const auto& ni : nis_) {
    if (!ni->fault().empty()) return ni->fault();
  }
  if (!monitor_->stall().empty()) return monitor_->stall();
  if (net_.stalled()) return net_.stall_report();
  for (uint32_t n = 0; n < topo_.nodes(); ++n) {
    std::string wrong = data_.check(n, memories_[n]->data());
    if (!wrong.empty()) return wrong;
  }
  return {};
}

AllReduceResult AllReduceSystem::result() const {
  AllReduceResult r;
  r.topology = topo_.spec();
  r.algorithm = set_.algorithm;
  r.flow_control = flow_control_name(flow_control_);
  r.dtype = dtype_name(set_.dtype);
  r.nodes = topo_.nodes();
  r.steps_per_phase = set_.steps_per_phase;
  r.children_slots = set_.children_slots;
  r.bytes = set_.bytes;
  r.rtl_nodes = rtl_nodes_;
  for (const auto& ni : nis_) {
    r.cycles = std::max(r.cycles, ni->done_cycle());
    r.flits += ni->flits_injected();
    r.head_flits += ni->head_flits_injected();
    if (const std::optional<NiPeaks> p = ni->peaks()) {
      if (!r.ni_peaks) r.ni_peaks = NiPeaks{};
      r.ni_peaks->include(*p);
    }
  }
  const double ns = static_cast<double>(r.cycles) * static_cast<double>(noc_.clock_ps) / 1000.0;
  r.bandwidth_gbps = r.cycles ? static_cast<double>(r.bytes) / ns : 0;
  r.bound_cycles = allreduce_bound_cycles(topo_, r.bytes, kFlitPayloadBytes);
  r.bound_basis = allreduce_bound_basis(topo_);
  if (set_.algorithm == "ina" || set_.algorithm == "netreduce") {
    // 2(N-1)M/(N b) holds where endpoints reduce; with the switches summing, a node's links
    // carry M each way, which the cut bound states.
    r.bound_cycles = 0;
    r.bound_basis = "none for in-network aggregation: the switches sum, a node's links carry "
                    "M each way (the cut bound)";
  }
  const CutBound cut = cut_bound(topo_, r.bytes, kFlitPayloadBytes);
  r.cut_bound_cycles = cut.cycles;
  r.cut_bound_basis = cut.basis;
  r.bound_ratio = r.cycles ? static_cast<double>(r.bound_cycles) / static_cast<double>(r.cycles) : 0;
  r.head_overhead = r.flits ? static_cast<double>(r.head_flits) / static_cast<double>(r.flits) : 0;
  r.router_cycles = net_.router_cycles();
  // Nodes run lookahead windows one after another: issue order is cycle order.
  r.issues = issues_;
  std::stable_sort(r.issues.begin(), r.issues.end(),
                   [](const IssueRecord& a, const IssueRecord& b) { return a.cycle < b.cycle; });
  r.data = data_mode_;
  r.checked_elements = data_.checked_elements();
  r.data_bytes = data_.sum_bytes();
  for (const auto& m : memories_) r.data_bytes += m->size();
  for (const auto& [step, span] : spans_) r.steps.push_back(span);
  const std::vector<uint64_t> none(topo_.links().size(), 0);
  for (const LinkLoad& load : link_loads(net_, none, link_flits(net_), r.cycles)) {
    r.links.push_back({load.router, load.to, load.port, load.flits, load.utilisation});
  }
  r.error = failure();
  r.verified = r.error.empty();
  return r;
}

}  // namespace mt::noc
