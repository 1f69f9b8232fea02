#include "cost_model/cost_model.hpp"

#include "algorithms/hierarchy.hpp"
#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {

double ring_reduce_scatter(double n, double d, double w, double alpha) {
  return (d - 1) * (alpha + n / (d * w));
}

std::optional<Prediction> predict_cycles(const Topology& topo, const std::string& algorithm,
                                         const PlanOptions& opt, const CostParams& p) {
  if (algorithm == "mtree") {
    if (!topo.direct()) return {};
    const MtreeResult r = mtree_solve(topo, opt);
    double rate = 0;
    std::string chunks;
    for (const MtreePipeline& t : r.selected) {
      rate += t.rate;
      chunks += fmt::format("{}{}", chunks.empty() ? "" : "+", t.chunks);
    }
    return Prediction{predict_mtree(topo, r, p),
                      fmt::format("MTREE Eq. (2); {} of {} trees, rate {:g} of {:.3g} links, "
                                  "{:.1f}%, chunks {}", r.selected.size(), r.built.trees.size(),
                                  rate, r.capacity_bound, 100 * rate / r.capacity_bound, chunks)};
  }
  if (algorithm != "flexreduce" && algorithm != "blueconnect" && algorithm != "ring" &&
      algorithm != "netreduce") {
    return {};
  }
  try {
    read_hierarchy(topo, algorithm);
  } catch (const InputError&) {
    return {};  // not a hierarchy: the models below do not apply
  }
  if (algorithm == "netreduce") return Prediction{predict_netreduce(topo, opt.bytes, p), "NetReduce Eq. (3)"};
  if (algorithm == "flexreduce") return Prediction{predict_flexreduce(topo, opt.bytes, p), "FlexReduce Eq. (6)"};
  if (algorithm == "blueconnect") return Prediction{predict_blueconnect(topo, opt.bytes, p), "BlueConnect Eq. (3)"};
  return Prediction{predict_ring_hier(topo, opt.bytes, p), "ring, Eq. (2) doubled"};
}

}  // namespace mt
