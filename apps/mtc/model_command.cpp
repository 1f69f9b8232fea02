// mtc model: the NetReduce appendix's alpha-beta models (host_sw/cost_model/netreduce.hpp)
// for one set of parameters, as text or JSON.
#include "mtc/model_command.hpp"

#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mtc/commands.hpp"
#include "common/error.hpp"
#include "cost_model/netreduce.hpp"
#include "plan/plan.hpp"

namespace mt {
namespace {

struct ModelRow {
  std::string key, name, equation;
  std::optional<double> seconds;  // nothing where the model does not apply
};

AlphaBetaParams model_params(const ModelArgs& a) {
  AlphaBetaParams p;
  p.learners = a.learners;
  p.per_machine = a.per_machine;
  p.bytes = static_cast<double>(parse_size(a.bytes));
  p.b_intra = a.b_intra_gbs * 1e9;
  p.b_inter = a.b_inter_gbs * 1e9;
  p.alpha = a.alpha_us * 1e-6;
  check_alpha_beta(p);
  return p;
}

std::vector<ModelRow> model_rows(const AlphaBetaParams& p) {
  std::optional<double> tencent;
  if (tencent_applies(p)) tencent = t_tencent(p);
  return {{"flat_ring", "flat ring", "Eq. (1)", t_flat_ring(p)},
          {"tencent", "Tencent hierarchical", "Eq. (2)", tencent},
          {"ina", "in-network aggregation, a learner per machine", "App. A", t_ina(p)},
          {"netreduce", "hierarchical NetReduce", "Eq. (3)", t_netreduce_hier(p)}};
}

// Eq. (6) and the exact sign change of Eq. (5)'s bandwidth term; nothing where n < 2 (Eq. (6)
// is for P > n >= 2; check_alpha_beta has P >= 2 n).
std::optional<nlohmann::json> condition_json(const AlphaBetaParams& p) {
  if (p.per_machine < 2) return {};
  const double ratio = p.b_intra / p.b_inter;
  return nlohmann::json{{"ratio", ratio},
                        {"eq6_ratio", eq6_ratio(p.learners)},
                        {"eq6_holds", ratio >= eq6_ratio(p.learners)},
                        {"eq5_exact_ratio", eq5_exact_ratio(p.learners, p.per_machine)},
                        {"eq5_microseconds", dt_ring_netreduce(p) * 1e6}};
}

nlohmann::json model_json(const AlphaBetaParams& p) {
  nlohmann::json models = nlohmann::json::object();
  for (const ModelRow& r : model_rows(p)) {
    models[r.key] = {{"name", r.name}, {"equation", r.equation},
                     {"microseconds", r.seconds ? nlohmann::json(*r.seconds * 1e6) : nullptr}};
  }
  if (tencent_applies(p)) models["tencent"]["brackets_microseconds"] = t_tencent_brackets(p) * 1e6;
  const std::optional<nlohmann::json> cond = condition_json(p);
  return {{"learners", p.learners}, {"per_machine", p.per_machine}, {"bytes", p.bytes},
          {"b_intra_gbs", p.b_intra / 1e9}, {"b_inter_gbs", p.b_inter / 1e9},
          {"alpha_us", p.alpha * 1e6}, {"models", models},
          {"eq6", cond ? *cond : nlohmann::json(nullptr)}};
}

std::string condition_text(const AlphaBetaParams& p) {
  const std::optional<nlohmann::json> c = condition_json(p);
  if (!c) return "Eq. (6) is for P > n >= 2: n = 1 here\n";
  const double ratio = (*c)["ratio"], eq6 = (*c)["eq6_ratio"], exact = (*c)["eq5_exact_ratio"];
  return fmt::format(
      "Eq. (6): B_intra/B_inter = {:.3g} {} 2P/(P-2) = {:.3f}{}\n"
      "Eq. (5): T_fr - T_nh = {:.2f} us; its bandwidth term is 0 at B_intra/B_inter = "
      "2(n-1)P/(n(P-2)) = {:.3f}\n",
      ratio, ratio >= eq6 ? ">=" : "<", eq6,
      ratio >= eq6 ? ": hierarchical NetReduce is faster than the flat ring at every size" : "",
      double((*c)["eq5_microseconds"]), exact);
}

std::string model_text(const AlphaBetaParams& p) {
  std::string s = fmt::format(
      "alpha-beta models of the NetReduce appendix: P = {} learners, n = {} per machine ({} "
      "machines), M = {:.0f} bytes, B_intra = {:g} GB/s, B_inter = {:g} GB/s, alpha = {:g} us\n",
      p.learners, p.per_machine, p.learners / p.per_machine, p.bytes, p.b_intra / 1e9,
      p.b_inter / 1e9, p.alpha * 1e6);
  const double ring = t_flat_ring(p);
  for (const ModelRow& r : model_rows(p)) {
    if (!r.seconds) {
      s += fmt::format("  {:<46} {:<8} not modelled: n is not a power of 2\n", r.name, r.equation);
      continue;
    }
    s += fmt::format("  {:<46} {:<8} {:>14.2f} us  {:6.3f} x the flat ring\n", r.name, r.equation,
                     *r.seconds * 1e6, *r.seconds / ring);
  }
  if (tencent_applies(p)) {
    s += fmt::format("  (Eq. (2) as the sum of its printed brackets: {:.2f} us; docs/mtc.md, "
                     "errata)\n", t_tencent_brackets(p) * 1e6);
  }
  return s + condition_text(p);
}

}  // namespace

void add_model_command(CLI::App& app, ModelArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "model", "predicted all-reduce times of the NetReduce appendix's alpha-beta models (flat "
      "ring, Tencent, in-network aggregation, hierarchical NetReduce)");
  cmd->add_option("-P,--learners", a.learners, "P: learners (GPUs) in the job, at least 2")
      ->capture_default_str();
  cmd->add_option("-n,--per-machine", a.per_machine,
                  "n: learners per machine, 1 to P / 2 (at least 2 machines), P a multiple of it")
      ->capture_default_str();
  cmd->add_option("-b,--bytes", a.bytes, "M: message (gradient) size, e.g. 100MB, 64KiB")
      ->capture_default_str();
  cmd->add_option("--b-intra", a.b_intra_gbs, "B_intra: intra-machine bandwidth, GB/s (10^9 "
                  "bytes per second; 150: NVLink, 15.75: 16-lane PCIe 3.0)")
      ->capture_default_str();
  cmd->add_option("--b-inter", a.b_inter_gbs,
                  "B_inter: inter-machine (network) bandwidth, GB/s (12.5: 100 Gb/s Ethernet)")
      ->capture_default_str();
  cmd->add_option("--alpha", a.alpha_us, "alpha: latency per message, microseconds")
      ->capture_default_str();
  cmd->add_option("-f,--format", a.format, "text or json")->capture_default_str();
}

int run_model(const ModelArgs& a, std::ostream& out) {
  check_format(a.format);
  const AlphaBetaParams p = model_params(a);
  for (const ModelRow& r : model_rows(p)) {
    if (r.seconds && !std::isfinite(*r.seconds * 1e6)) {
      throw InputError(fmt::format("{} ({}) exceeds what a double holds in microseconds: "
                                   "smaller P, M or alpha, or larger bandwidths", r.name,
                                   r.equation));
    }
  }
  out << (a.format == "json" ? model_json(p).dump(2) + "\n" : model_text(p));
  return 0;
}

}  // namespace mt
