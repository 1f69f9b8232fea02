#include "mttrain/report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "compute/layer_costs.hpp"

namespace mt::training {

namespace {

std::string mib(uint64_t bytes) {
  return fmt::format("{:.2f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

std::string hz_text(double hz) {
  return hz >= 1e9 ? fmt::format("{:g} GHz", hz / 1e9) : fmt::format("{:g} MHz", hz / 1e6);
}

double network_clock_hz(const noc::AllReduceOptions& o) {
  return 1e12 / static_cast<double>(o.noc.clock_ps);
}

size_t distinct_sizes(const std::vector<GradientGroup>& groups) {
  std::vector<uint64_t> sizes;
  for (const GradientGroup& g : groups) sizes.push_back(g.buffer_bytes);
  std::sort(sizes.begin(), sizes.end());
  return static_cast<size_t>(std::unique(sizes.begin(), sizes.end()) - sizes.begin());
}

// "1 all-reduce", "2 all-reduces".
std::string count(size_t n, const char* what) {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

std::string grouping_text(const TrainingReport& r) {
  const std::string counts = fmt::format("{} of {}", count(r.groups.size(), "all-reduce"),
                                         count(distinct_sizes(r.groups), "distinct size"));
  if (r.overlap == Overlap::kNone) {
    return "none, the whole model in one all-reduce after back-propagation (" + counts + ")";
  }
  if (r.bucket_bytes == 0) {
    return "layer, one all-reduce per layer with parameters (" + counts + ")";
  }
  return fmt::format("layer, consecutive layers' gradients fused into buckets of up to {} bytes "
                     "({})", r.bucket_bytes, counts);
}

std::string padding_text(const std::vector<GradientGroup>& groups) {
  uint64_t padded = 0;
  size_t n = 0;
  for (const GradientGroup& g : groups) {
    if (g.buffer_bytes == g.gradient_bytes) continue;
    ++n;
    padded += g.buffer_bytes - g.gradient_bytes;
  }
  if (n == 0) return "";
  return fmt::format("padding: {} padded up to whole 4-byte elements, {} bytes in all (the "
                     "all-reduces' padded column)\n", count(n, "all-reduce"), padded);
}

std::string group_layers(const GradientGroup& g) {
  if (g.layers.size() == 1) return std::to_string(g.layers.front());
  return fmt::format("{}-{}", g.layers.front(), g.layers.back());
}

std::string layer_table(const TrainingReport& r) {
  size_t width = 5;
  for (const workload::LayerCost& c : r.costs) width = std::max(width, c.name.size());
  std::string s = fmt::format("\nper-layer timeline (accelerator cycles from the iteration's "
                              "start; ar: the layer's all-reduce):\n  {:>4}  {:<{}}  {:>10}  "
                              "{:>10}  {:>10}  {:>10}  {:>4}  {:>10}  {:>10}\n", "#", "layer",
                              width, "params", "fwd start", "bwd start", "grad ready", "ar",
                              "ar start", "ar end");
  for (size_t i = 0; i < r.costs.size(); ++i) {
    const LayerSpan& l = r.schedule.layers[i];
    std::string ar = fmt::format("  {:>4}  {:>10}  {:>10}", "-", "-", "-");
    if (l.allreduce) {
      const AllReduceSpan& a = r.schedule.allreduces[*l.allreduce];
      ar = fmt::format("  {:>4}  {:>10}  {:>10}", *l.allreduce, a.start, a.end);
    }
    s += fmt::format("  {:>4}  {:<{}}  {:>10}  {:>10}  {:>10}  {:>10}{}\n", i, r.costs[i].name,
                     width, r.costs[i].params, l.forward_start, l.backward_start, l.backward_end,
                     ar);
  }
  return s;
}

std::string allreduce_table(const TrainingReport& r) {
  std::string s = fmt::format("\nall-reduces in the order they run (accelerator cycles):\n"
                              "  {:>4}  {:>7}  {:>10}  {:>6}  {:>10}  {:>10}  {:>10}  {:>10}  "
                              "{:>10}\n", "ar", "layers", "bytes", "padded", "ready", "start",
                              "end", "cycles", "waited");
  for (size_t k = 0; k < r.schedule.allreduces.size(); ++k) {
    const AllReduceSpan& a = r.schedule.allreduces[k];
    s += fmt::format("  {:>4}  {:>7}  {:>10}  {:>6}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}\n", k,
                     group_layers(a.group), a.group.buffer_bytes,
                     a.group.buffer_bytes - a.group.gradient_bytes, a.ready, a.start, a.end,
                     a.cycles(), a.start - a.ready);
  }
  return s;
}

nlohmann::json layer_json(const TrainingReport& r, size_t i) {
  const workload::LayerCost& c = r.costs[i];
  const LayerSpan& l = r.schedule.layers[i];
  return {{"index", i},
          {"name", c.name},
          {"params", c.params},
          {"gradient_bytes", c.gradient_bytes},
          {"forward_cycles", c.forward_cycles},
          {"input_grad_cycles", c.input_grad_cycles},
          {"weight_grad_cycles", c.weight_grad_cycles},
          {"update_cycles", c.update_cycles},
          {"forward_start", l.forward_start},
          {"forward_end", l.forward_end},
          {"backward_start", l.backward_start},
          {"backward_end", l.backward_end},
          {"allreduce", l.allreduce ? nlohmann::json(*l.allreduce) : nlohmann::json(nullptr)},
          {"update_start", l.update_start},
          {"update_end", l.update_end}};
}

nlohmann::json allreduce_json(const TrainingReport& r, const AllReduceSpan& a) {
  const uint64_t bytes = a.group.buffer_bytes;
  return {{"layers", a.group.layers},
          {"gradient_bytes", a.group.gradient_bytes},
          {"bytes", bytes},
          {"padded_bytes", bytes - a.group.gradient_bytes},
          {"ready", a.ready},
          {"start", a.start},
          {"end", a.end},
          {"cycles", a.cycles()},
          {"network_cycles", r.simulations.at(bytes).result.cycles}};
}

nlohmann::json simulation_json(const SimulatedAllReduce& run) {
  const noc::AllReduceResult& x = run.result;
  return {{"bytes", x.bytes},
          {"cycles", x.cycles},
          {"bandwidth_gbps", x.bandwidth_gbps},
          {"bound_cycles", x.bound_cycles},
          {"steps_per_phase", x.steps_per_phase},
          {"verified", x.verified},
          {"wall_seconds", run.wall_seconds},
          {"cached", run.cached}};
}

nlohmann::json accelerator_json(const workload::AcceleratorConfig& a) {
  return {{"array_rows", a.array_rows}, {"array_cols", a.array_cols}, {"pes", a.pes},
          {"batch", a.batch},           {"element_bytes", a.element_bytes},
          {"clock_hz", a.clock_hz}};
}

}  // namespace

std::string header_text(const TrainingReport& r) {
  const noc::AllReduceOptions& o = r.network;
  const workload::CostTotals t = workload::totals(r.costs);
  const workload::AcceleratorConfig& a = r.accelerator;
  std::string s = fmt::format("mttrain: {}, {}, {}, {}-based flow control, config {}, data {}\n",
                              r.workload, o.topology, o.algorithm,
                              noc::flow_control_name(o.ni.flow_control), r.config,
                              noc::data_mode_name(o.data));
  s += fmt::format("workload: {} layers, {} parameters, {} bytes of gradients ({})\n",
                   r.costs.size(), t.params, t.gradient_bytes, mib(t.gradient_bytes));
  s += fmt::format("accelerator: {} PEs of {}x{}, {} samples, {}; network clock {}\n", a.pes,
                   a.array_rows, a.array_cols, a.batch, hz_text(a.clock_hz),
                   hz_text(network_clock_hz(o)));
  s += "overlap: " + grouping_text(r) + "\n";
  return s + padding_text(r.groups);
}

std::string result_text(const TrainingReport& r) {
  const IterationSchedule& s = r.schedule;
  const auto pct = [&](uint64_t part) {
    return s.allreduce_cycles ? 100.0 * static_cast<double>(part) /
                                    static_cast<double>(s.allreduce_cycles)
                              : 0.0;
  };
  std::string t = fmt::format("iteration        {} cycles ({:.3f} ms)\n", s.iteration_cycles,
                              1e3 * workload::seconds(s.iteration_cycles, r.accelerator));
  t += fmt::format("  compute        {} cycles (forward {}, backward {}{})\n", s.compute_cycles,
                   s.forward_cycles, s.backward_cycles,
                   s.update_cycles ? fmt::format(", update {}", s.update_cycles) : "");
  t += fmt::format("  exposed comm   {} cycles ({:.1f}% of the all-reduce cycles)\n",
                   s.exposed_comm_cycles, pct(s.exposed_comm_cycles));
  t += fmt::format("  overlap        {} cycles ({:.1f}% hidden under compute)\n",
                   s.overlap_cycles, pct(s.overlap_cycles));
  double simulated = 0;
  size_t cached = 0;
  for (const auto& [bytes, run] : r.simulations) {
    if (run.cached) {
      ++cached;
    } else {
      simulated += run.wall_seconds;
    }
  }
  t += fmt::format("  all-reduce     {} cycles in {} ({} simulated{}, {:.1f} s of simulation)\n",
                   s.allreduce_cycles, count(s.allreduces.size(), "all-reduce"),
                   count(r.simulations.size() - cached, "size"),
                   cached != 0 ? fmt::format(", {} from the cache", cached) : "", simulated);
  return t + layer_table(r) + allreduce_table(r);
}

nlohmann::json result_json(const TrainingReport& r) {
  const IterationSchedule& s = r.schedule;
  const noc::AllReduceOptions& o = r.network;
  nlohmann::json j = {
      {"workload", r.workload},
      {"topology", o.topology},
      {"algorithm", o.algorithm},
      {"flow_control", noc::flow_control_name(o.ni.flow_control)},
      {"config", r.config},
      {"memory_latency", o.memory.latency},
      {"reduce_latency", o.reduction.latency},
      {"data", noc::data_mode_name(o.data)},
      {"overlap", overlap_name(r.overlap)},
      {"bucket_bytes", r.bucket_bytes},
      {"accelerator", accelerator_json(r.accelerator)},
      {"network_clock_hz", network_clock_hz(o)},
      {"iteration_cycles", s.iteration_cycles},
      {"iteration_seconds", workload::seconds(s.iteration_cycles, r.accelerator)},
      {"compute_cycles", s.compute_cycles},
      {"forward_cycles", s.forward_cycles},
      {"backward_cycles", s.backward_cycles},
      {"update_cycles", s.update_cycles},
      {"exposed_comm_cycles", s.exposed_comm_cycles},
      {"overlap_cycles", s.overlap_cycles},
      {"allreduce_cycles", s.allreduce_cycles},
      {"wall_seconds", r.wall_seconds}};
  j["layers"] = nlohmann::json::array();
  for (size_t i = 0; i < r.costs.size(); ++i) j["layers"].push_back(layer_json(r, i));
  j["allreduces"] = nlohmann::json::array();
  for (const AllReduceSpan& a : s.allreduces) j["allreduces"].push_back(allreduce_json(r, a));
  j["simulations"] = nlohmann::json::array();
  for (const auto& [bytes, run] : r.simulations) j["simulations"].push_back(simulation_json(run));
  return j;
}

}  // namespace mt::training
