#include <fmt/format.h>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"

namespace mt {

Plan plan_header(const std::string& algorithm, const Topology& topo, const PlanOptions& opt) {
  Plan plan;
  plan.algorithm = algorithm;
  plan.topology = topo.spec();
  plan.nodes = topo.nodes();
  plan.bytes = opt.bytes;
  plan.dtype = opt.dtype;
  return plan;
}

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names{"multitree", "ring", "ring-bi", "ring2d", "dbtree",
                                              "hdrm"};
  return names;
}

Plan build_plan(const Topology& topo, const std::string& algorithm, const PlanOptions& opt) {
  if (opt.bytes == 0 || opt.bytes % kElementBytes != 0) {
    throw InputError(fmt::format("bytes {}: must be a positive multiple of the {}-byte element",
                                 opt.bytes, kElementBytes));
  }
  if (algorithm == "multitree") return build_multitree(topo, opt);
  if (algorithm == "ring") return build_ring(topo, opt);
  if (algorithm == "ring-bi") return build_ring_bi(topo, opt);
  if (algorithm == "ring2d") return build_ring2d(topo, opt);
  if (algorithm == "dbtree") return build_dbtree(topo, opt);
  if (algorithm == "hdrm") return build_hdrm(topo, opt);
  throw InputError(fmt::format("algorithm \"{}\": unknown (multitree, ring, ring-bi, ring2d, "
                               "dbtree, hdrm)", algorithm));
}

}  // namespace mt
