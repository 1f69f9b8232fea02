#include "topology/physical_bound.hpp"

#include <fmt/format.h>

namespace mt {

uint64_t allreduce_bound_cycles(const Topology& topo, uint64_t bytes, uint64_t b) {
  const uint64_t n = topo.nodes(), d = topo.min_node_degree();
  if (n < 2 || d == 0 || b == 0) return 0;
  const uint64_t num = 2 * (n - 1) * bytes, den = n * d * b;
  return (num + den - 1) / den;
}

std::string allreduce_bound_basis(const Topology& topo) {
  const uint32_t d = topo.min_node_degree();
  if (!topo.direct() && d == 1) return "each node's one link to its switch: 2(N-1)M/(N b)";
  if (!topo.direct()) {
    return fmt::format("the least-linked node's {} links to its switch: 2(N-1)M/(N {} b)", d, d);
  }
  return fmt::format("the least-linked node's {} links: 2(N-1)M/(N {} b)", d, d);
}

}  // namespace mt
