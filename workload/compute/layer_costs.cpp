#include "compute/layer_costs.hpp"

#include "compute/layer_gemms.hpp"
#include "compute/systolic_model.hpp"
#include "spec/checked_math.hpp"

namespace mt::workload {

namespace {

uint64_t cycles_of(const std::optional<Gemm>& g, const AcceleratorConfig& cfg) {
  return g ? os_runtime(*g, cfg.array_rows, cfg.array_cols).cycles : 0;
}

}  // namespace

std::vector<LayerCost> layer_costs(const Workload& w, const AcceleratorConfig& cfg) {
  validate(cfg);
  validate(w, w.name.empty() ? std::string("workload") : w.name);
  const uint64_t samples = samples_per_pe(cfg);
  std::vector<LayerCost> costs;
  for (size_t i = 0; i < w.layers.size(); ++i) {
    const Layer& l = w.layers[i];
    LayerCost c;
    c.name = l.name;
    c.params = parameter_count(l);
    c.gradient_bytes =
        checked_mul(c.params, cfg.element_bytes, "layer " + l.name + ": gradient bytes");
    if (l.kind == LayerKind::kGiven) {
      c.forward_cycles = l.given.forward;
      c.input_grad_cycles = l.given.input_grad;
      c.weight_grad_cycles = l.given.weight_grad;
      c.update_cycles = l.given.update;
    } else {
      const LayerGemms g = layer_gemms(l, samples, i == 0);
      c.forward_cycles = cycles_of(g.forward, cfg);
      c.input_grad_cycles = cycles_of(g.input_grad, cfg);
      c.weight_grad_cycles = cycles_of(g.weight_grad, cfg);
    }
    (void)checked_add(c.input_grad_cycles, c.weight_grad_cycles,
                      "layer " + l.name + ": backward cycles");
    costs.push_back(c);
  }
  return costs;
}

CostTotals totals(const std::vector<LayerCost>& costs) {
  const char* what = "workload totals";
  CostTotals t;
  for (const LayerCost& c : costs) {
    t.params = checked_add(t.params, c.params, what);
    t.gradient_bytes = checked_add(t.gradient_bytes, c.gradient_bytes, what);
    t.forward_cycles = checked_add(t.forward_cycles, c.forward_cycles, what);
    t.backward_cycles = checked_add(t.backward_cycles, c.backward_cycles(), what);
  }
  return t;
}

}  // namespace mt::workload
