#include "allreduce/switch_paths.hpp"

#include <fmt/format.h>

namespace mt::noc {

SwitchPaths::SwitchPaths(Network& net, const Plan* plan) : net_(net) {
  if (plan == nullptr) return;
  for (size_t i = 0; i < plan->routes.size() && i < plan->transfers.size(); ++i) {
    const Transfer& t = plan->transfers[i];
    const std::string what = fmt::format("the {} of flow {} from node {} to node {} (step {})",
                                         op_name(t.op), t.flow, t.src, t.dst, t.step);
    routes_[{t.src, t.dst, t.flow, t.op}] = net.source_route(plan->routes[i], what);
  }
}

uint32_t SwitchPaths::route(uint32_t src, uint32_t dst, uint32_t flow, Op op) const {
  const auto it = routes_.find({src, dst, flow, op});
  return it != routes_.end() ? it->second : net_.table_route(src, dst);
}

}  // namespace mt::noc
